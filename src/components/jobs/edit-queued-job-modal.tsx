import { Button, Group, Modal, NumberInput, Stack, Text, Textarea } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import { AppConfigActorContext } from '@/components/app-config/app-config-context';
import { FormSelect, VoiceSelect } from '@/components/forms/form-select';
import { optionsForTool, type ModelOption } from '@/config/asset-tools';
import { durationValid, endpointFor, generationToolBySlug, type GenerationToolSpec } from '@/config/generation-tools';
import { TOOL_TEXTS } from '@/config/job-texts';
import { QUEUE_TEXTS } from '@/config/queue-texts';
import { DEFAULT_VOICE } from '@/config/voices';
import { selectAssetTools } from '@/machines/app-config/app-config.selectors';
import type { Media, QueuedJobEdit } from '@/machines/queue-control/queue-control.machine';

const TEXTS = QUEUE_TEXTS.editForm;

interface EditValues {
  prompt: string;
  option: string;
  aspectRatio: string;
  voice: string;
  /** Empty while the field is cleared: refused with a message, never taken as 0 or the minimum. */
  duration: number | '';
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The models this job could run with instead: the tool's, served by the same call as its own. */
function modelsFor(tool: GenerationToolSpec, current: string | null, assetTools: readonly ModelOption[]): ModelOption[] {
  const endpoint = endpointFor(tool, current ?? undefined);
  return optionsForTool(assetTools, tool.slug).filter((model) => endpointFor(tool, model.value) === endpoint);
}

/** Whether the tool asks for a prompt with this model (the server checks it as for a new request). */
const takesPrompt = (tool: GenerationToolSpec, model: ModelOption | undefined): boolean =>
  tool.prompt === 'required' || tool.prompt === 'optional' || (tool.prompt === 'model' && model?.text_prompt === 1);

const takesAspectRatio = (tool: GenerationToolSpec, model: string): boolean =>
  Boolean(tool.aspectRatios) && (!tool.aspectRatioModels || tool.aspectRatioModels.includes(model));

/** Whether the job speaks with a voice: text-to-speech always, lip sync only when it was not given its own audio. */
const takesVoice = (tool: GenerationToolSpec, media: Media): boolean =>
  Boolean(tool.voice) && (tool.prompt !== 'unlessAudio' || typeof media.args.voice === 'string');

/** The job's duration as it was asked for, else the tool's default. */
function durationOf(tool: GenerationToolSpec, media: Media): number {
  const asked = Number(media.args.duration);
  return Number.isFinite(asked) && asked > 0 ? asked : (tool.duration?.defaultSeconds ?? 0);
}

interface EditFormProps {
  media: Media;
  tool: GenerationToolSpec;
  onSave: (edit: QueuedJobEdit) => void;
  onClose: () => void;
}

function EditForm({ media, tool, onSave, onClose }: EditFormProps) {
  const assetTools = AppConfigActorContext.useSelector(selectAssetTools);
  const models = modelsFor(tool, media.option, assetTools);
  const { control, register, handleSubmit, watch, formState } = useForm<EditValues>({
    defaultValues: {
      prompt: text(media.args.prompt),
      option: media.option ?? models[0]?.value ?? '',
      aspectRatio: text(media.args.aspect_ratio),
      voice: text(media.args.voice) || DEFAULT_VOICE,
      duration: durationOf(tool, media),
    },
  });
  const option = watch('option');
  const model = models.find((candidate) => candidate.value === option);
  const price = model?.required_credits ?? media.cost;
  const withPrompt = takesPrompt(tool, model);
  const withRatio = takesAspectRatio(tool, option);
  const withVoice = takesVoice(tool, media);
  const duration = tool.duration;
  const save = handleSubmit((values) => {
    const edit: QueuedJobEdit = { option: values.option };
    if (withPrompt) edit.prompt = values.prompt.trim();
    if (withRatio && values.aspectRatio) edit.aspect_ratio = values.aspectRatio;
    if (withVoice && values.voice) edit.voice = values.voice;
    if (duration && values.duration !== '') edit.duration = values.duration;
    onSave(edit);
  });
  return (
    <form onSubmit={(event) => void save(event)} noValidate>
      <Stack gap="sm">
        <FormSelect
          control={control}
          name="option"
          label={TEXTS.model}
          data={models.map((candidate) => ({ value: candidate.value, label: TOOL_TEXTS.modelOption(candidate.label, candidate.required_credits) }))}
        />
        {withPrompt && (
          <Textarea
            label={tool.promptLabel}
            minRows={3}
            error={formState.errors.prompt?.message}
            {...register('prompt', { validate: (value) => tool.prompt === 'optional' || value.trim() !== '' || TEXTS.promptRequired })}
          />
        )}
        {withRatio && tool.aspectRatios && (
          <FormSelect control={control} name="aspectRatio" label={TOOL_TEXTS.aspectRatio} data={[...(tool.aspectRatios ?? [])]} />
        )}
        {withVoice && (
          <VoiceSelect control={control} name="voice" model={model} />
        )}
        {duration && (
          <Controller
            control={control}
            name="duration"
            rules={{ validate: (value) => durationValid(value, duration) || TOOL_TEXTS.durationRange(duration.minSeconds, duration.maxSeconds) }}
            render={({ field, fieldState }) => (
              <NumberInput
                label={TOOL_TEXTS.duration}
                min={duration.minSeconds}
                max={duration.maxSeconds}
                allowDecimal={false}
                value={field.value}
                onChange={(value) => field.onChange(typeof value === 'number' ? value : '')}
                onBlur={field.onBlur}
                error={fieldState.error?.message}
              />
            )}
          />
        )}
        <Stack gap={2} role="status">
          <Text fw={600}>{TEXTS.price(price)}</Text>
          <Text size="sm" c="dimmed">
            {TEXTS.difference(media.cost, price)}
          </Text>
        </Stack>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {TEXTS.cancel}
          </Button>
          <Button type="submit">{TEXTS.save}</Button>
        </Group>
      </Stack>
    </form>
  );
}

export interface EditQueuedJobModalProps {
  /** The waiting job to edit; null: closed. */
  media: Media | null;
  toolTitle: string;
  onSave: (edit: QueuedJobEdit) => void;
  onClose: () => void;
}

/**
 * Edit before it runs (issue 21 item 2): the waiting job's model, prompt, aspect ratio, voice and
 * duration (each where its tool asks for it), with the new price and what saving debits or
 * refunds (the server re-quotes it and settles the difference; a refusal shows on the job's row).
 */
export function EditQueuedJobModal({ media, toolTitle, onSave, onClose }: EditQueuedJobModalProps) {
  const tool = media ? generationToolBySlug(media.tool) : undefined;
  return (
    <Modal opened={media !== null && tool !== undefined} onClose={onClose} title={TEXTS.title(toolTitle)}>
      {media && tool && (
        <EditForm
          key={media.id}
          media={media}
          tool={tool}
          onClose={onClose}
          onSave={(edit) => {
            onSave(edit);
            onClose();
          }}
        />
      )}
    </Modal>
  );
}
