import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Input, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useId } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { z } from 'zod';
import { FormSelect } from '@/components/forms/form-select';
import { UploadField } from '@/components/media/upload-field';
import { PromptField } from '@/components/prompt/prompt-field';
import { ROUTES } from '@/config/routes';
import {
  DEFAULT_STORY_ASPECT_RATIO,
  DEFAULT_STORY_DURATION,
  DEFAULT_STORY_STYLE,
  STORY_ASPECT_RATIOS,
  STORY_DURATIONS,
  STORY_IDEA,
  STORY_REFERENCE_PICTURES_MAX,
  STORY_STYLES,
  STORY_TITLE_MAX,
} from '@/config/story';
import { STORY_TEXTS } from '@/config/story-texts';
import type { IdeaFields } from '@/machines/story/story-wizard.types';
import { ToolHelpButton } from '@/screens/tools/tool-help-button';
import { StoryActorContext, useStoryView } from '@/screens/story/story-parts';

const TEXTS = STORY_TEXTS.idea;
/** SPEC §2.10 help topics: 22 Idea for Story, 23 Duration. */
const IDEA_HELP_TOPIC = 22;
const DURATION_HELP_TOPIC = 23;

const ideaSchema = z.object({
  idea: z.string().trim().min(STORY_IDEA.min, TEXTS.ideaRequired(STORY_IDEA.min)).max(STORY_IDEA.max, TEXTS.ideaTooLong(STORY_IDEA.max)),
  title: z.string().trim().max(STORY_TITLE_MAX, TEXTS.titleTooLong(STORY_TITLE_MAX)),
  duration: z.string(),
  aspect_ratio: z.string(),
  style: z.string(),
  // One slot per picture input; a slot left empty is not sent.
  references: z.array(z.object({ url: z.string() })),
});
type IdeaValues = z.infer<typeof ideaSchema>;

const DURATION_DATA = STORY_DURATIONS.map((value) => ({ value: String(value), label: TEXTS.durationOption(value) }));
const RATIO_DATA = STORY_ASPECT_RATIOS.map((value) => ({ value, label: value }));
const STYLE_DATA = STORY_STYLES.map((style) => ({ value: style.value, label: style.label }));

const toFields = (values: IdeaValues, withReferences: boolean): IdeaFields => {
  const imageUrls = values.references.map((reference) => reference.url).filter((url) => url !== '');
  return {
    idea: values.idea.trim(),
    duration: Number(values.duration),
    aspect_ratio: values.aspect_ratio,
    style: values.style,
    ...(values.title.trim() ? { title: values.title.trim() } : {}),
    ...(withReferences && imageUrls.length > 0 ? { image_urls: imageUrls } : {}),
  };
};

/**
 * The idea step: the idea (with the prompt helpers), the film's length, frame and look, and up to
 * four reference pictures for a new story; "Write storyboard" creates the story (free). For a
 * story that exists, the same form saves a changed idea.
 */
export function IdeaStep() {
  const story = StoryActorContext.useActorRef();
  const view = useStoryView();
  const isNew = view === null;
  const headingId = useId();
  const { control, register, handleSubmit, getValues, setValue, watch, formState } = useForm<IdeaValues>({
    resolver: zodResolver(ideaSchema),
    defaultValues: {
      idea: view?.idea ?? '',
      title: view?.title ?? '',
      duration: String(view?.duration ?? DEFAULT_STORY_DURATION),
      aspect_ratio: view?.aspectRatio ?? DEFAULT_STORY_ASPECT_RATIO,
      style: view?.style ?? DEFAULT_STORY_STYLE,
      references: [{ url: '' }],
    },
  });
  const references = useFieldArray({ control, name: 'references' });
  const idea = watch('idea');
  const firstReference = watch('references').find((reference) => reference.url !== '')?.url ?? null;
  const busy = view?.busy ?? null;
  const sending = busy === 'creating' || busy === 'saving-idea';
  const submit = handleSubmit((values) => story.send({ type: 'idea.submit', fields: toFields(values, isNew) }));

  return (
    <Paper
      withBorder
      p="lg"
      radius="md"
      component="form"
      noValidate
      aria-labelledby={headingId}
      onSubmit={(event) => {
        event.preventDefault();
        if (!sending) void submit(event);
      }}
    >
      <Stack gap="md">
        <Group gap="xs" align="center">
          <Title order={2} size="h3" id={headingId}>
            {TEXTS.heading}
          </Title>
          <ToolHelpButton topicIndex={IDEA_HELP_TOPIC} />
        </Group>
        <Stack gap={4}>
          <PromptField
            label={TEXTS.idea}
            required
            error={formState.errors.idea?.message}
            field={register('idea')}
            purpose="video"
            imageUrl={firstReference}
            currentPrompt={() => getValues('idea')}
            onSuggested={(prompt) => setValue('idea', prompt.slice(0, STORY_IDEA.max), { shouldValidate: formState.isSubmitted })}
          />
          <Text size="xs" c={idea.length > STORY_IDEA.max ? 'red' : 'dimmed'} aria-live="polite">
            {TEXTS.counter(idea.length, STORY_IDEA.max)}
          </Text>
        </Stack>
        <TextInput label={TEXTS.title} maxLength={STORY_TITLE_MAX} error={formState.errors.title?.message} {...register('title')} />
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <Group gap={4} align="flex-end" wrap="nowrap">
            <FormSelect control={control} name="duration" label={TEXTS.duration} data={DURATION_DATA} style={{ flex: 1 }} />
            <ToolHelpButton topicIndex={DURATION_HELP_TOPIC} />
          </Group>
          <FormSelect control={control} name="aspect_ratio" label={TEXTS.aspectRatio} data={RATIO_DATA} />
          <FormSelect control={control} name="style" label={TEXTS.style} data={STYLE_DATA} />
        </SimpleGrid>
        {isNew && (
          <Input.Wrapper label={TEXTS.references} description={TEXTS.referencesHint(STORY_REFERENCE_PICTURES_MAX)}>
            <Stack gap="sm" mt={4}>
              {references.fields.map((field, index) => (
                <Stack key={field.id} gap={4}>
                  <UploadField
                    kind="image"
                    label={TEXTS.reference(index + 1)}
                    onChange={(url) => setValue(`references.${index}.url`, url ?? '')}
                    uploadPagePath={ROUTES.aiImage.uploadImage}
                  />
                  {references.fields.length > 1 && (
                    <Group>
                      <Button variant="subtle" size="compact-xs" onClick={() => references.remove(index)}>
                        {TEXTS.removeReference(index + 1)}
                      </Button>
                    </Group>
                  )}
                </Stack>
              ))}
              {references.fields.length < STORY_REFERENCE_PICTURES_MAX && (
                <Group>
                  <Button variant="light" size="xs" onClick={() => references.append({ url: '' })}>
                    {TEXTS.addReference}
                  </Button>
                </Group>
              )}
            </Stack>
          </Input.Wrapper>
        )}
        <Stack gap={4}>
          <Text size="sm" c="dimmed">
            {TEXTS.free}
          </Text>
          <Group gap="sm">
            <Button type="submit" loading={sending} disabled={busy !== null && !sending}>
              {isNew ? TEXTS.write : TEXTS.saveIdea}
            </Button>
            {sending && (
              <Text size="sm" c="dimmed" role="status">
                {isNew ? TEXTS.writing : TEXTS.savingIdea}
              </Text>
            )}
          </Group>
        </Stack>
      </Stack>
    </Paper>
  );
}
