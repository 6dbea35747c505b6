import { zodResolver } from '@hookform/resolvers/zod';
import {
  Button,
  Checkbox,
  Group,
  Input,
  NumberInput,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Slider,
  Stack,
  Switch,
  Text,
} from '@mantine/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Controller, useForm, type Control, type Resolver } from 'react-hook-form';
import { AppConfigActorContext } from '@/components/app-config/app-config-context';
import { AssetSelect } from '@/components/assets/asset-select';
import { FormSelect } from '@/components/forms/form-select';
import { WithHelp } from '@/components/help/help-popover';
import { GenerateBar } from '@/components/jobs/generate-bar';
import { JobsActorContext } from '@/components/jobs/jobs-context';
import { useHandOver } from '@/components/jobs/use-hand-over';
import { UploadField } from '@/components/media/upload-field';
import { PromptField } from '@/components/prompt/prompt-field';
import { FRAME_SELECTIONS } from '@/config/enums';
import { SETTING_HELP_TOPICS } from '@/config/help-topics';
import { TOOL_TEXTS } from '@/config/job-texts';
import { PARALLAX_CAMERA_PATH_OPTIONS } from '@/config/parallax-paths';
import { ROUTES } from '@/config/routes';
import {
  COMPOSER_PICTURES,
  MOTION_AMOUNT,
  MOTION_LENGTH,
  MOTION_MODES,
  PARALLAX_OPTION,
  PROMPT_STRENGTH,
  TEXT_VIDEO_RATIOS,
  VIDEO_CREATION_TOOLS,
  VIDEO_QUANTITY,
  type MotionMode,
  type VideoCreationType,
} from '@/config/video-creation';
import { VIDEO_TEXTS } from '@/config/video-texts';
import { selectCameraMovements, selectMediaTools } from '@/machines/app-config/app-config.selectors';
import type { SourcePicture } from '@/machines/media-source/media-source.selectors';
import { useSubmitBlocker } from '@/components/session/use-submit-blocker';
import {
  canAddComposerPicture,
  defaultMotionModel,
  FIRST_FRAME_SLOT,
  defaultVideoFormValues,
  motionModelOptions,
  presetPrompt,
  videoCost,
  videoFormFields,
  videoFormLayout,
  videoFormSchema,
  videoPictureSlots,
  type VideoFormContext,
  type VideoFormValues,
  type VideoPictureSlot,
} from '@/screens/video/video-creation-form';

export interface VideoFormProps {
  /** `extend-video` when AI Motion extends a video. */
  type: VideoCreationType;
  /** The page's title: names the job in the jobs panel and its toasts. */
  title: string;
  /** AI Motion: the mode chosen (the page's help topic follows it). */
  onModeChange?: (mode: MotionMode) => void;
  /** Extend Video: the URL of the video being extended, once loaded. */
  sourceVideoUrl?: string | null;
  /** AI Motion from a picture result ("Use in a tool"): the first frame, once loaded. */
  firstFrame?: SourcePicture | null;
}

/**
 * The form of a video creation page (issue 5 contract §4): the inputs the creation type, mode and
 * motion model ask for (video-creation-form.ts), the cost of the videos against the balance, and
 * "Generate", which hands a `POST media` job with its pose_preset to the jobs registry.
 */
export function VideoForm({ type, title, onModeChange, sourceVideoUrl = null, firstFrame = null }: VideoFormProps) {
  const jobs = JobsActorContext.useActorRef();
  const models = AppConfigActorContext.useSelector(selectMediaTools);
  const cameraMotions = AppConfigActorContext.useSelector(selectCameraMovements);
  // The ids of the composer pictures added beyond its minimum, in order.
  const [composerExtra, setComposerExtra] = useState<string[]>([]);
  const nextComposerId = useRef(1);
  const { phase, handOver, markSent } = useHandOver();
  // "Save results to asset" (issue 7): sent as ?asset_id= with the job.
  const [assetId, setAssetId] = useState<string | null>(null);

  const contextFor = (values: Pick<VideoFormValues, 'mode' | 'option'>): VideoFormContext => {
    const offered = motionModelOptions(type, values.mode, models);
    return {
      type,
      mode: values.mode,
      model: offered.find((candidate) => candidate.value === values.option),
      cameraMotions,
      slots: videoPictureSlots(type, values.mode, composerExtra),
      sourceVideoUrl,
    };
  };

  // The rules follow the mode, the model and the slots, so the schema is built from the values
  // being checked (react-hook-form takes the latest resolver on every render).
  const resolver: Resolver<VideoFormValues> = (values, context, options) =>
    zodResolver(videoFormSchema(contextFor(values)))(values, context, options);

  const initialValues = useMemo(() => defaultVideoFormValues(type, motionModelOptions(type, 'image', models)), [type, models]);
  const { control, register, handleSubmit, setValue, getValues, watch, formState } = useForm<VideoFormValues>({
    resolver,
    defaultValues: initialValues,
  });

  const values = watch();
  const formContext = contextFor(values);
  const { model, slots, mode } = formContext;
  const options = useMemo(() => motionModelOptions(type, mode, models), [type, mode, models]);
  const layout = videoFormLayout(type, mode, model);
  const cost = layout.model && !model ? null : videoCost(type, model, values);
  const blocker = useSubmitBlocker(cost ? cost.total : null);
  const firstPicture = slots.map((slot) => values.pictures[slot.key]).find((url) => Boolean(url)) ?? null;
  const errors = formState.errors;

  // The configuration can arrive after the first render, and transition offers fewer models:
  // a model the list no longer holds gives way to the page's default.
  useEffect(() => {
    if (options.length > 0 && !options.some((candidate) => candidate.value === values.option)) {
      setValue('option', defaultMotionModel(type, options));
    }
  }, [options, values.option, setValue, type]);

  useEffect(() => {
    onModeChange?.(mode);
  }, [mode, onModeChange]);

  const submit = handleSubmit((checked) => {
    const context = contextFor(checked);
    const checkedCost = videoCost(type, context.model, checked);
    markSent();
    jobs.send({
      type: 'jobs.submit',
      request: {
        tool: VIDEO_CREATION_TOOLS[type],
        toolTitle: title,
        option: type === 'parallax-motion' ? PARALLAX_OPTION : (context.model?.value ?? checked.option),
        optionLabel: type === 'parallax-motion' ? PARALLAX_OPTION : (context.model?.label ?? checked.option),
        endpoint: 'media',
        cost: checkedCost.total,
        fields: videoFormFields(context, checked),
        assetId,
      },
    });
  });

  const revalidate = { shouldValidate: formState.isSubmitted };
  const setPicture = (key: string, url: string | null) => setValue(`pictures.${key}`, url ?? '', revalidate);

  const addComposerPicture = () => {
    const id = `added${nextComposerId.current}`;
    nextComposerId.current += 1;
    setComposerExtra((extra) => [...extra, id]);
  };
  const removeComposerPicture = (slot: VideoPictureSlot) => {
    setPicture(slot.key, null);
    setComposerExtra((extra) => extra.filter((id) => `composer-${id}` !== slot.key));
  };

  const preview = layout.cameraMotion ? presetPrompt(formContext, values) : '';

  return (
    <Paper withBorder p="lg" radius="md" component="form" noValidate onSubmit={(event) => handOver(event, submit)} aria-label={`${title} form`}>
      <Stack gap="md">
        {layout.modes && (
          <Controller
            control={control}
            name="mode"
            render={({ field }) => (
              <Input.Wrapper label={VIDEO_TEXTS.mode}>
                <SegmentedControl
                  mt={4}
                  fullWidth
                  aria-label={VIDEO_TEXTS.mode}
                  data={MOTION_MODES.map((candidate) => ({ value: candidate.value, label: candidate.label }))}
                  value={field.value}
                  onChange={(value) => field.onChange(value)}
                />
              </Input.Wrapper>
            )}
          />
        )}

        {layout.model && (
          <WithHelp topicIndex={SETTING_HELP_TOPICS.videoSettings}>
            <FormSelect
              control={control}
              name="option"
              label={VIDEO_TEXTS.model}
              description={mode === 'transition' && type === 'ai-motion' ? VIDEO_TEXTS.endFrameModelsOnly : undefined}
              data={options.map((candidate) => ({
                value: candidate.value,
                label: TOOL_TEXTS.modelOption(candidate.label, candidate.required_credits),
              }))}
              required
            />
          </WithHelp>
        )}

        {slots.map((slot) => (
          <Stack key={slot.key} gap={4}>
            <UploadField
              kind="image"
              label={slot.label}
              required={slot.required}
              error={errors.pictures?.[slot.key]?.message}
              onChange={(url) => setPicture(slot.key, url)}
              uploadPagePath={ROUTES.aiImage.uploadImage}
              existing={slot.key === FIRST_FRAME_SLOT ? firstFrame : null}
            />
            {slot.removable && (
              <Group>
                <Button variant="subtle" size="compact-xs" onClick={() => removeComposerPicture(slot)}>
                  {VIDEO_TEXTS.removePicture(slot.label)}
                </Button>
              </Group>
            )}
          </Stack>
        ))}
        {layout.composer && (
          <Group gap="sm">
            {canAddComposerPicture(slots) && (
              <Button variant="light" size="xs" onClick={addComposerPicture}>
                {VIDEO_TEXTS.addComposerPicture}
              </Button>
            )}
            <Text size="xs" c="dimmed">
              {VIDEO_TEXTS.composerNote(COMPOSER_PICTURES.min, COMPOSER_PICTURES.max)}
            </Text>
          </Group>
        )}

        {layout.drivingVideo && (
          <UploadField
            kind="video"
            label={VIDEO_TEXTS.drivingVideo}
            description={VIDEO_TEXTS.drivingVideoHelp}
            required
            error={errors.video_url?.message}
            onChange={(url) => setValue('video_url', url ?? '', revalidate)}
            uploadPagePath={ROUTES.aiVideo.uploadVideo}
          />
        )}

        {layout.frameSelection && (
          <Controller
            control={control}
            name="frame_selection"
            render={({ field }) => (
              <Input.Wrapper label={VIDEO_TEXTS.frameSelection} description={VIDEO_TEXTS.frameSelectionHelp[field.value]} error={errors.video_url?.message}>
                <SegmentedControl
                  mt={4}
                  aria-label={VIDEO_TEXTS.frameSelection}
                  data={FRAME_SELECTIONS.map((value) => ({ value, label: VIDEO_TEXTS.frameSelectionLabels[value] }))}
                  value={field.value}
                  onChange={(value) => field.onChange(value)}
                />
              </Input.Wrapper>
            )}
          />
        )}

        {layout.cameraPaths && (
          <Controller
            control={control}
            name="camera_paths"
            render={({ field, fieldState }) => (
              <Checkbox.Group
                label={VIDEO_TEXTS.cameraPaths}
                description={VIDEO_TEXTS.cameraPathsNote}
                value={field.value}
                onChange={(value) => field.onChange(value)}
                error={fieldState.error?.message}
                required
              >
                <SimpleGrid cols={{ base: 2, sm: 3 }} mt="xs">
                  {PARALLAX_CAMERA_PATH_OPTIONS.map((path) => (
                    <Checkbox key={path.value} value={path.value} label={path.label} />
                  ))}
                </SimpleGrid>
              </Checkbox.Group>
            )}
          />
        )}

        {layout.prompt !== 'hidden' && (
          <PromptField
            label={VIDEO_TEXTS.prompt}
            required={layout.prompt === 'required'}
            error={errors.prompt?.message}
            field={register('prompt')}
            purpose="video"
            imageUrl={firstPicture}
            currentPrompt={() => getValues('prompt')}
            onSuggested={(prompt) => setValue('prompt', prompt, { ...revalidate, shouldDirty: true })}
          />
        )}

        {layout.cameraMotion && (
          <Stack gap={4}>
            <FormSelect
              control={control}
              name="camera_motion"
              label={VIDEO_TEXTS.cameraMotion}
              data={cameraMotions.map((motion) => ({ value: motion.value, label: motion.label }))}
              searchable
            />
            {preview !== '' && (
              <Text size="xs" c="dimmed" data-testid="prompt-preview">
                {VIDEO_TEXTS.promptPreview(preview)}
              </Text>
            )}
          </Stack>
        )}

        {layout.strength && (
          <Controller
            control={control}
            name="prompt_strength"
            render={({ field }) => (
              <Input.Wrapper label={VIDEO_TEXTS.strength} description={VIDEO_TEXTS.strengthHelp}>
                <Group gap="sm" mt="xs" wrap="nowrap">
                  <Text size="xs">{VIDEO_TEXTS.strengthPicture}</Text>
                  <Slider
                    flex={1}
                    min={PROMPT_STRENGTH.min}
                    max={PROMPT_STRENGTH.max}
                    step={5}
                    value={field.value}
                    onChange={field.onChange}
                    label={(value) => VIDEO_TEXTS.strengthValue(value)}
                    thumbLabel={VIDEO_TEXTS.strength}
                    thumbValueText={VIDEO_TEXTS.strengthValue}
                  />
                  <Text size="xs">{VIDEO_TEXTS.strengthText}</Text>
                </Group>
              </Input.Wrapper>
            )}
          />
        )}

        {layout.aspectRatio && (
          <WithHelp topicIndex={SETTING_HELP_TOPICS.aspectRatio}>
            <FormSelect control={control} name="aspect_ratio" label={VIDEO_TEXTS.aspectRatio} data={[...TEXT_VIDEO_RATIOS]} />
          </WithHelp>
        )}

        {layout.motionAmount && (
          <Controller
            control={control}
            name="motion_amount"
            render={({ field }) => (
              <Input.Wrapper label={VIDEO_TEXTS.motionAmount}>
                <Slider
                  mt="xs"
                  min={MOTION_AMOUNT.min}
                  max={MOTION_AMOUNT.max}
                  step={1}
                  value={field.value}
                  onChange={field.onChange}
                  thumbLabel={VIDEO_TEXTS.motionAmount}
                  marks={[{ value: MOTION_AMOUNT.min, label: String(MOTION_AMOUNT.min) }, { value: MOTION_AMOUNT.max, label: String(MOTION_AMOUNT.max) }]}
                />
              </Input.Wrapper>
            )}
          />
        )}

        <Group grow align="flex-start">
          <WithHelp topicIndex={SETTING_HELP_TOPICS.quantity}>
            <WholeNumberInput
              control={control}
              name="quantity"
              label={layout.cameraPaths ? VIDEO_TEXTS.quantityPerPath : VIDEO_TEXTS.quantity}
              range={VIDEO_QUANTITY}
            />
          </WithHelp>
          <WithHelp topicIndex={SETTING_HELP_TOPICS.duration}>
            <WholeNumberInput control={control} name="motion_length" label={VIDEO_TEXTS.motionLength} range={MOTION_LENGTH} />
          </WithHelp>
        </Group>

        {layout.loop && (
          <Controller
            control={control}
            name="loop"
            render={({ field }) => (
              <Switch label={VIDEO_TEXTS.loop} checked={field.value} onChange={(event) => field.onChange(event.currentTarget.checked)} />
            )}
          />
        )}

        <AssetSelect value={assetId} onChange={setAssetId} />

        <GenerateBar
          costTestId="video-cost"
          cost={
            cost && cost.videos > 0 ? (
              <>
                <span>{VIDEO_TEXTS.cost(cost.videos, cost.perVideo)}</span>
                {blocker.balance !== null && (
                  <Text span size="sm" c="dimmed">
                    {` · ${VIDEO_TEXTS.balance(blocker.balance)}`}
                  </Text>
                )}
              </>
            ) : null
          }
          blocker={blocker}
          phase={phase}
        />
      </Stack>
    </Paper>
  );
}

interface WholeNumberInputProps {
  control: Control<VideoFormValues>;
  name: 'quantity' | 'motion_length';
  label: string;
  range: { min: number; max: number };
}

function WholeNumberInput({ control, name, label, range }: WholeNumberInputProps) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <NumberInput
          label={label}
          min={range.min}
          max={range.max}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="strict"
          value={field.value}
          onChange={(value) => field.onChange(typeof value === 'number' ? value : Number(value) || 0)}
          onBlur={field.onBlur}
          error={fieldState.error?.message}
        />
      )}
    />
  );
}
