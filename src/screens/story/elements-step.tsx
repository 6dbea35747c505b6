import { Button, Group, Paper, Select, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import {
  STORY_ELEMENT_DESCRIPTION_MAX,
  STORY_ELEMENT_KINDS,
  STORY_ELEMENT_NAME_MAX,
  STORY_ELEMENTS_MAX,
  type StoryElementKind,
} from '@/config/story';
import { STORY_TEXTS } from '@/config/story-texts';
import { storyImageModels, type StoryPartState } from '@/lib/story';
import type { ElementChanges } from '@/machines/story/story-wizard.types';
import type { StoryElement } from '@/machines/story/story-wizard.machine';
import { PartTakes } from '@/screens/story/part-takes';
import { elementRatio, PaidAction, PartBadge, PartMedia, StoryActorContext, useCanRegenerate, usePaidPart, useStoryView } from '@/screens/story/story-parts';

const TEXTS = STORY_TEXTS.elements;
const KIND_DATA = STORY_ELEMENT_KINDS.map((kind) => ({ value: kind.value, label: kind.label }));
const MODEL_DATA = storyImageModels().map((model) => ({ value: model.value, label: TEXTS.modelOption(model.label, model.required_credits) }));

interface ElementCardProps {
  element: StoryElement;
  state: StoryPartState;
  aspectRatio: string;
  editable: boolean;
}

/** One element: what it is (kind, name, description) and its picture with its state. */
function ElementCard({ element, state, aspectRatio, editable }: ElementCardProps) {
  const story = StoryActorContext.useActorRef();
  const canRegenerate = useCanRegenerate('elements', element.id);
  const name = TEXTS.element(element.name);
  const change = (changes: ElementChanges) =>
    story.send({ type: 'element.change', elementId: element.id, changes });
  return (
    <Paper component="section" aria-label={name} withBorder p="md" radius="md">
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Text fw={600}>{name}</Text>
          <PartBadge state={state} hint={STORY_TEXTS.staleHint} />
        </Group>
        <PartMedia
          mediaId={element.image?.media_id}
          state={state}
          kind="image"
          label={TEXTS.pictureAlt(name)}
          empty={TEXTS.noPicture}
          aspectRatio={elementRatio(element.kind, aspectRatio)}
        />
        <PartTakes part="elements" partId={element.id} what={STORY_TEXTS.takes.elementPicture(name)} />
        {state === 'stale' && (
          <Text size="xs" c="yellow.8">
            {STORY_TEXTS.staleHint}
          </Text>
        )}
        <Select
          label={TEXTS.kind}
          data={KIND_DATA}
          value={element.kind}
          allowDeselect={false}
          disabled={!editable}
          onChange={(value) => value && change({ kind: value as StoryElementKind })}
        />
        <TextInput
          label={TEXTS.name}
          value={element.name}
          maxLength={STORY_ELEMENT_NAME_MAX}
          disabled={!editable}
          onChange={(event) => change({ name: event.currentTarget.value })}
        />
        <Textarea
          label={TEXTS.description}
          value={element.description}
          rows={2}
          maxLength={STORY_ELEMENT_DESCRIPTION_MAX}
          disabled={!editable}
          onChange={(event) => change({ description: event.currentTarget.value })}
        />
        <Group gap="xs" justify="space-between">
          <Button
            variant="light"
            size="xs"
            aria-label={state === 'missing' ? TEXTS.makeOneLabel(name) : TEXTS.regenerateLabel(name)}
            disabled={!canRegenerate}
            onClick={() => story.send({ type: 'part.generate', part: 'elements', ids: [element.id] })}
          >
            {state === 'missing' ? TEXTS.makeOne : TEXTS.regenerate}
          </Button>
          <Button
            variant="subtle"
            color="red"
            size="xs"
            disabled={!editable}
            onClick={() => story.send({ type: 'element.remove', elementId: element.id })}
          >
            {TEXTS.remove(name)}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** The elements step: the story's characters, places and objects, each with its picture. */
export function ElementsStep() {
  const story = StoryActorContext.useActorRef();
  const view = useStoryView();
  const paid = usePaidPart('elements');
  if (!view) return null;
  const { board, states } = view;
  const editable = view.busy === null || view.busy === 'saving-idea';
  const canAdd = board.elements.length < STORY_ELEMENTS_MAX;

  return (
    <Stack gap="md" component="section" aria-labelledby="story-elements-heading">
      <Title order={2} size="h3" id="story-elements-heading">
        {TEXTS.heading}
      </Title>
      <Text size="sm" c="dimmed">
        {TEXTS.intro}
      </Text>
      <Select
        label={TEXTS.imageModel}
        data={MODEL_DATA}
        value={board.image_model}
        allowDeselect={false}
        disabled={!editable}
        onChange={(value) => value && story.send({ type: 'board.settings', changes: { image_model: value } })}
        maw={360}
      />
      {board.elements.length === 0 ? (
        <Text c="dimmed">{TEXTS.empty}</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm">
          {board.elements.map((element) => (
            <ElementCard
              key={element.id}
              element={element}
              state={states.elements[element.id] ?? 'missing'}
              aspectRatio={view.aspectRatio}
              editable={editable}
            />
          ))}
        </SimpleGrid>
      )}
      {canAdd && (
        <Group gap="xs">
          {STORY_ELEMENT_KINDS.map((kind) => (
            <Button key={kind.value} variant="light" size="xs" disabled={!editable} onClick={() => story.send({ type: 'element.add', kind: kind.value })}>
              {TEXTS.add(kind.label)}
            </Button>
          ))}
        </Group>
      )}
      <PaidAction id="story-elements" cost={paid.cost} label={TEXTS.make} reason={paid.reason} loading={paid.loading} onRun={paid.run} cancel={paid.cancel} />
    </Stack>
  );
}
