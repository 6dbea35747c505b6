import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Input, NumberInput, Paper, SegmentedControl, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { useSearchParams } from 'react-router-dom';
import { AppConfigActorContext } from '@/components/app-config/app-config-context';
import { AssetSelect } from '@/components/assets/asset-select';
import { FormSelect, VoiceSelect } from '@/components/forms/form-select';
import { useTrainedModelOptions } from '@/components/finetune/trained-models';
import { WithHelp } from '@/components/help/help-popover';
import { GenerateBar } from '@/components/jobs/generate-bar';
import { JobsActorContext } from '@/components/jobs/jobs-context';
import { useHandOver } from '@/components/jobs/use-hand-over';
import { UploadField } from '@/components/media/upload-field';
import { PromptField } from '@/components/prompt/prompt-field';
import { SessionActorContext } from '@/components/session/session-context';
import { useSubmitBlocker } from '@/components/session/use-submit-blocker';
import { optionsForTool } from '@/config/asset-tools';
import type { GenerationToolSpec } from '@/config/generation-tools';
import { SETTING_HELP_TOPICS } from '@/config/help-topics';
import { TOOL_TEXTS } from '@/config/job-texts';
import { selectAssetTools } from '@/machines/app-config/app-config.selectors';
import { selectIsSignedIn } from '@/machines/session/session.selectors';
import { FaceOrderInput } from '@/screens/tools/face-order-input';
import { RemixNote, remixInput } from '@/screens/tools/remix-note';
import { SourceVideoField } from '@/screens/tools/source-video-field';
import {
  aspectRatioShown,
  audioGiven,
  defaultFormValues,
  formModels,
  generationFields,
  generationFormSchema,
  growableField,
  imageCount,
  imageCountOptions,
  imagesShown,
  negativePromptShown,
  pictureSlots,
  promptHelperPurpose,
  promptNeed,
  remixFill,
  runCost,
  seedShown,
  shownChoices,
  submitEndpoint,
  UPLOAD_PAGES,
  voiceShown,
  type GenerationFormValues,
  type PictureSlot,
} from '@/screens/tools/generation-form';
import type { Media } from '@/machines/media-source/media-source.machine';


/**
 * `?video={mediaId}&item={index}` (a video result's "Edit" link): that result is the form's video
 * until the person chooses another. Only for a signed-in person (the media is the owner's).
 */
function useSourceVideo(): { active: true; mediaId: string; itemIndex: number; dismiss: () => void } | { active: false } {
  const signedIn = SessionActorContext.useSelector(selectIsSignedIn);
  const [searchParams] = useSearchParams();
  // The link the person dismissed ("Use another video"): a later Edit link is a new source.
  const [dismissed, setDismissed] = useState<string | null>(null);
  const mediaId = searchParams.get('video');
  const item = searchParams.get('item') ?? '0';
  const link = `${mediaId}:${item}`;
  if (!signedIn || !mediaId || dismissed === link) return { active: false };
  const itemIndex = Number.parseInt(item, 10);
  return { active: true, mediaId, itemIndex: Number.isFinite(itemIndex) ? itemIndex : 0, dismiss: () => setDismissed(link) };
}

/** `?remix={mediaId}` (History's "Remix"): that past job fills the form in. Only for a signed-in person (the media is the owner's). */
function useRemixId(): string | null {
  const signedIn = SessionActorContext.useSelector(selectIsSignedIn);
  const [searchParams] = useSearchParams();
  const mediaId = searchParams.get('remix');
  return signedIn && mediaId ? mediaId : null;
}

/** The file name a URL ends with, to name a remixed input. */
const fileNameOf = (url: string): string => decodeURIComponent(url.split('?')[0]?.split('/').pop() ?? '') || url;

/**
 * The form of a generation tool (issue 4 item 8, issue 5 video tools): the model (SPEC §3 options
 * of this tool from the app configuration, then the person's trained models, with their cost), the
 * inputs and choices that model (and effect) takes, the cost against the balance, and "Generate",
 * which hands the job to the jobs registry, addressed to the model's call.
 */
export function GenerationToolForm({ spec }: { spec: GenerationToolSpec }) {
  const jobs = JobsActorContext.useActorRef();
  const assetTools = AppConfigActorContext.useSelector(selectAssetTools);
  const trained = useTrainedModelOptions(spec.slug);
  const options = useMemo(() => formModels(optionsForTool(assetTools, spec.slug), trained), [assetTools, spec.slug, trained]);
  // The ids of the picture slots added beyond a repeated field's minimum, in order.
  const [extraPictures, setExtraPictures] = useState<Record<string, string[]>>({});
  const nextSlotId = useRef(1);
  // Generate is handed over once (see useHandOver).
  const { phase: sendPhase, handOver, markSent } = useHandOver();
  // "Save results to asset" (issue 7): sent as ?asset_id= with the job.
  const [assetId, setAssetId] = useState<string | null>(null);

  // The schema follows the chosen model and the picture slots, so it is built from the values
  // being checked (react-hook-form takes the latest resolver on every render).
  const resolver: Resolver<GenerationFormValues> = (values, context, resolverOptions) => {
    const chosen = options.find((candidate) => candidate.value === values.option)?.model;
    const schema = generationFormSchema(spec, chosen, pictureSlots(spec, chosen, extraPictures, values.choices));
    return zodResolver(schema)(values, context, resolverOptions);
  };
  const { control, register, handleSubmit, setValue, getValues, watch, formState, reset } = useForm<GenerationFormValues>({
    resolver,
    defaultValues: defaultFormValues(spec, options),
  });
  const optionValue = watch('option');
  const chosen = options.find((candidate) => candidate.value === optionValue);
  const model = chosen?.model;
  const choiceValues = watch('choices');
  const choices = shownChoices(spec, model, choiceValues);
  const slots = pictureSlots(spec, model, extraPictures, choiceValues);
  const pictures = watch('pictures');
  const withAudio = audioGiven(slots, pictures);
  const need = promptNeed(spec, model, withAudio);
  const firstPicture =
    slots.filter((slot) => slot.media === 'image').map((slot) => pictures?.[slot.key]).find((url) => Boolean(url)) ?? null;
  const growable = growableField(spec, slots);
  // Issue 21 item 7: a run of several pictures costs the model's price for each (shown, and checked).
  const imagesValue = watch('num_images');
  const images = imageCount(spec, model, imagesValue);
  const cost = chosen ? runCost(spec, chosen, imagesValue) : null;
  const blocker = useSubmitBlocker(cost);
  const source = useSourceVideo();

  // The configuration can arrive after the first render (defaults first, SPEC §3), or drop the
  // chosen model: the first model of the tool is then chosen.
  useEffect(() => {
    if (options.length > 0 && !options.some((candidate) => candidate.value === optionValue)) {
      setValue('option', options[0]?.value ?? '');
    }
  }, [options, optionValue, setValue]);

  // `?model=` (LoRA Finetune's "Use in Text to Image" link names a trained model): chosen once it
  // is among the options (trained models load after the page), unless the person chose already.
  const [searchParams] = useSearchParams();
  const linkedModel = searchParams.get('model');
  const linkedModelApplied = useRef(false);
  useEffect(() => {
    if (linkedModelApplied.current || !linkedModel || formState.dirtyFields.option) return;
    if (options.some((candidate) => candidate.value === linkedModel)) {
      linkedModelApplied.current = true;
      setValue('option', linkedModel);
    }
  }, [options, linkedModel, formState.dirtyFields.option, setValue]);

  // Remix: the past job's input files, held by their upload fields as if chosen from assets.
  const remixId = useRemixId();
  const [remixInputs, setRemixInputs] = useState<Record<string, ReturnType<typeof remixInput>>>({});
  const applyRemix = (media: Media) => {
    const fill = remixFill(spec, media, options, getValues());
    setExtraPictures(fill.extra);
    reset(fill.values, { keepDefaultValues: true });
    const inputs: Record<string, ReturnType<typeof remixInput>> = {};
    for (const [key, url] of Object.entries(fill.pictures)) {
      const input = spec.images.find((candidate) => key === candidate.field || key.startsWith(`${candidate.field}-`));
      inputs[key] = remixInput(media, url, input?.media ?? 'image', fileNameOf(url));
    }
    setRemixInputs(inputs);
  };

  const submit = handleSubmit((values) => {
    if (!chosen) return;
    markSent();
    jobs.send({
      type: 'jobs.submit',
      request: {
        tool: spec.slug,
        toolTitle: spec.title,
        option: chosen.model.value,
        optionLabel: chosen.label,
        endpoint: submitEndpoint(spec, chosen.model),
        cost: runCost(spec, chosen, values.num_images),
        fields: generationFields(spec, chosen.model, slots, values, chosen.finetuneId),
        assetId,
      },
    });
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => handOver(event, submit);

  const addPicture = (field: string) => {
    const id = `added${nextSlotId.current}`;
    nextSlotId.current += 1;
    const position = slots.filter((slot) => slot.field === field).length;
    // A new face is numbered after the ones before it (face 1 → 0, face 2 → 1, …).
    if (spec.orderIndices) setValue(`order_indices.${field}-${id}`, Math.max(0, position - 1));
    setExtraPictures((extra) => ({ ...extra, [field]: [...(extra[field] ?? []), id] }));
  };

  /** Removes exactly this slot: its id, its value; the other slots keep theirs. */
  const removePicture = (slot: PictureSlot) => {
    const id = slot.key.slice(slot.field.length + 1);
    setPicture(slot.key, null);
    setExtraPictures((extra) => ({ ...extra, [slot.field]: (extra[slot.field] ?? []).filter((kept) => kept !== id) }));
  };

  const setPicture = (key: string, url: string | null) =>
    setValue(`pictures.${key}`, url ?? '', { shouldValidate: formState.isSubmitted });

  return (
    <Paper withBorder p="lg" radius="md" component="form" noValidate onSubmit={onSubmit} aria-label={`${spec.title} form`}>
      <Stack gap="md">
        {remixId && <RemixNote key={remixId} mediaId={remixId} spec={spec} onFill={applyRemix} />}
        <FormSelect
          control={control}
          name="option"
          label={TOOL_TEXTS.model}
          data={options.map((candidate) => ({
            value: candidate.value,
            label: TOOL_TEXTS.modelOption(candidate.label, candidate.required_credits),
          }))}
          required
        />

        {choices.map((choice) => (
          <Controller
            key={choice.spec.field}
            control={control}
            name={`choices.${choice.spec.field}`}
            render={({ field }) => (
              <Select
                label={choice.spec.label}
                data={choice.options}
                value={choice.value}
                onChange={(value) => field.onChange(value ?? choice.value)}
                onBlur={field.onBlur}
                allowDeselect={false}
                searchable={choice.options.length > 8}
              />
            )}
          />
        ))}

        {slots.map((slot) => (
          <Stack key={slot.key} gap={4}>
            {slot.field === 'video_url' && source.active ? (
              <SourceVideoField
                // Another Edit link on the same page loads that video, not the first one again.
                key={`${source.mediaId}:${source.itemIndex}`}
                mediaId={source.mediaId}
                itemIndex={source.itemIndex}
                label={slot.label}
                required={slot.required}
                error={formState.errors.pictures?.[slot.key]?.message}
                onChange={(url) => setPicture(slot.key, url)}
                onDismiss={source.dismiss}
              />
            ) : (
              <UploadField
                kind={slot.media}
                label={slot.label}
                required={slot.required}
                description={slot.note ?? undefined}
                error={formState.errors.pictures?.[slot.key]?.message}
                onChange={(url) => setPicture(slot.key, url)}
                uploadPagePath={UPLOAD_PAGES[slot.media]}
                existing={remixInputs[slot.key] ?? null}
              />
            )}
            {slot.face && <FaceOrderInput control={control} slotKey={slot.key} label={slot.label} />}
            {slot.removable && (
              <Group>
                <Button
                  variant="subtle"
                  size="compact-xs"
                  onClick={() => removePicture(slot)}
                >
                  {TOOL_TEXTS.removePicture(slot.label)}
                </Button>
              </Group>
            )}
          </Stack>
        ))}
        {growable && (
          <Group>
            <Button
              variant="light"
              size="xs"
              onClick={() => addPicture(growable.field)}
            >
              {TOOL_TEXTS.addPictureButton}
            </Button>
          </Group>
        )}

        {need !== 'hidden' && (
          <PromptField
            label={spec.promptLabel}
            required={need === 'required'}
            error={formState.errors.prompt?.message}
            field={register('prompt')}
            purpose={promptHelperPurpose(spec)}
            imageUrl={firstPicture}
            currentPrompt={() => getValues('prompt')}
            onSuggested={(prompt) => setValue('prompt', prompt, { shouldValidate: formState.isSubmitted, shouldDirty: true })}
          />
        )}

        {voiceShown(spec, withAudio) && (
          <VoiceSelect control={control} name="voice" model={model} />
        )}

        {spec.duration && (
          <Controller
            control={control}
            name="duration"
            render={({ field, fieldState }) => (
              <WithHelp topicIndex={SETTING_HELP_TOPICS.duration}>
                <NumberInput
                  label={TOOL_TEXTS.duration}
                  min={spec.duration?.minSeconds}
                  max={spec.duration?.maxSeconds}
                  allowDecimal={false}
                  value={field.value}
                  onChange={(value) => field.onChange(typeof value === 'number' ? value : '')}
                  onBlur={field.onBlur}
                  error={fieldState.error?.message}
                />
              </WithHelp>
            )}
          />
        )}

        {negativePromptShown(spec, model) && (
          <Textarea
            label={TOOL_TEXTS.negativePromptLabel}
            description={TOOL_TEXTS.negativePromptHint}
            minRows={2}
            error={formState.errors.negative_prompt?.message}
            {...register('negative_prompt')}
          />
        )}

        {imagesShown(spec, model) && (
          <Controller
            control={control}
            name="num_images"
            render={({ field }) => (
              <Input.Wrapper label={TOOL_TEXTS.imagesLabel} description={TOOL_TEXTS.imagesHint} id="generation-images" labelElement="div">
                <div>
                  <SegmentedControl
                    aria-labelledby="generation-images-label"
                    data={imageCountOptions(model)}
                    value={String(images)}
                    onChange={field.onChange}
                  />
                </div>
              </Input.Wrapper>
            )}
          />
        )}

        {aspectRatioShown(spec, model) && (
          <WithHelp topicIndex={SETTING_HELP_TOPICS.aspectRatio}>
            <FormSelect control={control} name="aspect_ratio" label={TOOL_TEXTS.aspectRatio} data={[...(spec.aspectRatios ?? [])]} />
          </WithHelp>
        )}

        {seedShown(spec) && (
          <Controller
            control={control}
            name="seed"
            render={({ field, fieldState }) => (
              <TextInput
                label={TOOL_TEXTS.seedLabel}
                description={TOOL_TEXTS.seedHint}
                inputMode="numeric"
                value={field.value}
                onChange={(event) => field.onChange(event.currentTarget.value)}
                onBlur={field.onBlur}
                error={fieldState.error?.message}
              />
            )}
          />
        )}

        <AssetSelect value={assetId} onChange={setAssetId} />

        <GenerateBar
          costTestId="generation-cost"
          cost={cost !== null ? TOOL_TEXTS.cost(cost, images, blocker.balance) : null}
          blocker={blocker}
          phase={sendPhase}
        />
      </Stack>
    </Paper>
  );
}
