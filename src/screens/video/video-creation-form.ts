import { z } from 'zod';
import type { CameraMotion } from '@/config/camera-motions';
import { FRAME_SELECTIONS, type FrameSelection } from '@/config/enums';
import { TOOL_TEXTS } from '@/config/job-texts';
import { MOTION_PRESET_DEFAULTS } from '@/config/limits';
import { DEFAULT_MOTION_MODEL, type VideoMotionModel } from '@/config/motion-models';
import { PARALLAX_CAMERA_PATH_OPTIONS, type ParallaxCameraPath } from '@/config/parallax-paths';
import {
  COMPOSER_PICTURES,
  MAX_VIDEOS_PER_JOB,
  MOTION_AMOUNT,
  MOTION_LENGTH,
  MOTION_MODES,
  PARALLAX_OPTION,
  PROMPT_STRENGTH,
  TEXT_VIDEO_RATIOS,
  TRY_ON_VIDEO_MODEL,
  VIDEO_QUANTITY,
  creditsPerVideo,
  isParallaxCameraPath,
  motionModelsFor,
  type MotionMode,
  type VideoCreationType,
} from '@/config/video-creation';
import { VIDEO_TEXTS } from '@/config/video-texts';
import { PARALLAX_MOTION_TYPE } from '@/lib/pose-preset';

/**
 * What a video creation page asks for (SPEC §2.4 creation types, §3 video motion model and
 * pose_preset, §5 model inputs, §9 motion models, camera motions, parallax paths), worked out from
 * the creation type, AI Motion's mode and the chosen motion model, and how the answers become the
 * multipart fields of `POST media` (contract of issue 5 §1). Pure, so the rules read and are tested
 * apart from the JSX.
 */

export interface VideoFormValues {
  /** AI Motion's way to start; the other pages keep 'image'. */
  mode: MotionMode;
  /** The motion model (`option`); unused by Parallax. */
  option: string;
  prompt: string;
  /** A camera motion value (CAMERA_MOTIONS): the preset's motion_type; its prompt is appended. */
  camera_motion: string;
  /** 0–100: how much the text (vs the picture) drives the motion. */
  prompt_strength: number;
  aspect_ratio: string;
  motion_amount: number;
  motion_length: number;
  quantity: number;
  loop: boolean;
  camera_paths: ParallaxCameraPath[];
  /** The uploaded URL per picture slot key; '' or absent while the slot is empty. */
  pictures: Record<string, string>;
  /** Character Animate's driving video. */
  video_url: string;
  frame_selection: FrameSelection;
}

/** One picture the form asks for; the slots' order is the order of `image_urls`. */
export interface VideoPictureSlot {
  /** Stable key for React, the upload actor and the form values (no dots). */
  key: string;
  label: string;
  required: boolean;
  /** Composer pictures beyond the minimum can be removed again. */
  removable: boolean;
}

export type PromptNeed = 'required' | 'optional' | 'hidden';

/** Which inputs the page shows for this type, mode and model. */
export interface VideoFormLayout {
  /** AI Motion's mode control. */
  modes: boolean;
  /** A motion model select (every page but Parallax). */
  model: boolean;
  prompt: PromptNeed;
  cameraMotion: boolean;
  /** The picture-vs-text strength slider: a picture and a text prompt both drive the video. */
  strength: boolean;
  /** Text mode: the picture gives no size, so the person picks one. */
  aspectRatio: boolean;
  /** Only models with the motion_amount flag (SPEC §9: Auto, TryOnVideo). */
  motionAmount: boolean;
  /** Parallax's camera paths, one video each. */
  cameraPaths: boolean;
  /** Character Animate's driving video. */
  drivingVideo: boolean;
  /** Extend Video: continue from the first or the last frame. */
  frameSelection: boolean;
  loop: boolean;
  /** The composer's pictures can be added and removed. */
  composer: boolean;
}

/** A version 3 pose preset (SPEC §3) as the web sends it. */
export interface PosePresetV3 {
  motion_type: string;
  prompt: string;
  quantity: number;
  motion_amount: number;
  motion_length: number;
  loop: number;
  model: string;
  camera_path: string | null;
}

export type VideoFormFields = Record<string, string | string[]>;

/** What the rules need besides the values. */
export interface VideoFormContext {
  type: VideoCreationType;
  mode: MotionMode;
  /** The chosen motion model (undefined for Parallax, or when none is offered). */
  model: VideoMotionModel | undefined;
  cameraMotions: readonly CameraMotion[];
  slots: readonly VideoPictureSlot[];
  /** Extend Video: the URL of the video being extended, once loaded. */
  sourceVideoUrl?: string | null;
}

export const MOTION_MODE_VALUES = MOTION_MODES.map((mode) => mode.value) as [MotionMode, ...MotionMode[]];

const usesPictures = (type: VideoCreationType, mode: MotionMode): boolean =>
  type !== 'extend-video' && !(type === 'ai-motion' && mode === 'text');

/** The motion models a page offers: transition only those that take an end frame; none for Parallax. */
export function motionModelOptions(
  type: VideoCreationType,
  mode: MotionMode,
  models: readonly VideoMotionModel[],
): VideoMotionModel[] {
  if (type === 'parallax-motion') return [];
  const offered = motionModelsFor(type, models);
  return type === 'ai-motion' && mode === 'transition' ? offered.filter((model) => model.end_frame === 1) : offered;
}

/** The model a page starts with: Try On Video's own, else Auto when offered, else the first. */
export function defaultMotionModel(type: VideoCreationType, options: readonly VideoMotionModel[]): string {
  const preferred = type === 'try-on' ? TRY_ON_VIDEO_MODEL : DEFAULT_MOTION_MODEL;
  return (options.find((model) => model.value === preferred) ?? options[0])?.value ?? '';
}

export function videoFormLayout(
  type: VideoCreationType,
  mode: MotionMode,
  model: VideoMotionModel | undefined,
): VideoFormLayout {
  const parallax = type === 'parallax-motion';
  const aiMotion = type === 'ai-motion';
  const textPrompt = !parallax && model?.text_prompt === 1;
  let prompt: PromptNeed = 'hidden';
  if (textPrompt) prompt = aiMotion && mode === 'text' ? 'required' : 'optional';
  return {
    modes: aiMotion,
    model: !parallax,
    prompt,
    // Its text goes into the prompt, so it is offered where the model reads one.
    cameraMotion: textPrompt,
    strength: aiMotion && mode !== 'text' && textPrompt,
    aspectRatio: aiMotion && mode === 'text',
    motionAmount: !parallax && model?.motion_amount === 1,
    cameraPaths: parallax,
    drivingVideo: type === 'character-animate',
    frameSelection: type === 'extend-video',
    // An extension continues the video; it does not come back to where it started.
    loop: type !== 'extend-video',
    composer: aiMotion && mode === 'composer',
  };
}

/** AI Motion's first frame (image and transition modes): where a picture brought by "Use in a tool" goes. */
export const FIRST_FRAME_SLOT = 'first';

const slot = (key: string, label: string, required = true, removable = false): VideoPictureSlot => ({
  key,
  label,
  required,
  removable,
});

/** The ids of the composer's first pictures (its minimum); the ones added later get their own ids. */
const COMPOSER_BASE_IDS = Array.from({ length: COMPOSER_PICTURES.min }, (_, index) => String(index + 1));

/**
 * The picture slots, in `image_urls` order. `composerExtra` lists the ids of the composer pictures
 * added beyond the minimum, in order: removing one removes exactly that slot.
 */
export function videoPictureSlots(
  type: VideoCreationType,
  mode: MotionMode,
  composerExtra: readonly string[] = [],
): VideoPictureSlot[] {
  switch (type) {
    case 'parallax-motion':
      return [slot('picture', VIDEO_TEXTS.picture)];
    case 'try-on':
      // Try On Video's end frame is the clothes (SPEC §9).
      return [slot('person', VIDEO_TEXTS.personPicture), slot('clothes', VIDEO_TEXTS.clothesPicture)];
    case 'character-animate':
      return [slot('character', VIDEO_TEXTS.characterPicture)];
    case 'extend-video':
      return [];
    case 'ai-motion':
      break;
  }
  switch (mode) {
    case 'text':
      return [];
    case 'image':
      return [slot(FIRST_FRAME_SLOT, VIDEO_TEXTS.firstFrame)];
    case 'transition':
      return [slot(FIRST_FRAME_SLOT, VIDEO_TEXTS.firstFrame), slot('end', VIDEO_TEXTS.endFrame)];
    case 'composer':
      return [...COMPOSER_BASE_IDS, ...composerExtra]
        .slice(0, COMPOSER_PICTURES.max)
        .map((id, index) =>
          slot(`composer-${id}`, VIDEO_TEXTS.composerPicture(index + 1), index < COMPOSER_PICTURES.min, index >= COMPOSER_PICTURES.min),
        );
  }
}

/** Whether the composer can take one more picture. */
export const canAddComposerPicture = (slots: readonly VideoPictureSlot[]): boolean => slots.length < COMPOSER_PICTURES.max;

/**
 * The person's prompt with the camera motion's text appended (SPEC §3: a camera motion preset's
 * prompt is "text appended to the generation prompt"); either may be empty.
 */
export function appendCameraPrompt(prompt: string, motionPrompt: string): string {
  const own = prompt.trim();
  const added = motionPrompt.trim();
  if (added === '') return own;
  if (own === '') return added;
  return /[.!?]$/.test(own) ? `${own} ${added}` : `${own}. ${added}`;
}

/** The camera motion chosen, or none when the page does not offer one. */
const chosenCameraMotion = (context: VideoFormContext, values: VideoFormValues): CameraMotion | undefined => {
  if (!videoFormLayout(context.type, context.mode, context.model).cameraMotion) return undefined;
  return context.cameraMotions.find((motion) => motion.value === values.camera_motion);
};

/** The prompt the preset carries: the person's (when the model reads one) + the camera motion's. */
export function presetPrompt(context: VideoFormContext, values: VideoFormValues): string {
  const layout = videoFormLayout(context.type, context.mode, context.model);
  const own = layout.prompt === 'hidden' ? '' : values.prompt;
  return appendCameraPrompt(own, chosenCameraMotion(context, values)?.prompt ?? '');
}

/** The selected camera paths in SPEC §9 order, whatever order they were ticked in. */
export const orderedCameraPaths = (paths: readonly string[]): ParallaxCameraPath[] =>
  PARALLAX_CAMERA_PATH_OPTIONS.map((option) => option.value).filter((path) => paths.includes(path));

/**
 * SPEC §3 pose_preset, version 3: Parallax one per selected camera path (motion_type "Parallax");
 * every other type exactly one, whose motion_type is the camera motion (Auto when none is offered).
 */
export function posePresets(context: VideoFormContext, values: VideoFormValues): PosePresetV3[] {
  const layout = videoFormLayout(context.type, context.mode, context.model);
  const loop = layout.loop && values.loop ? 1 : 0;
  if (context.type === 'parallax-motion') {
    return orderedCameraPaths(values.camera_paths)
      .filter(isParallaxCameraPath)
      .map((path) => ({
        motion_type: PARALLAX_MOTION_TYPE,
        prompt: '',
        quantity: values.quantity,
        motion_amount: MOTION_AMOUNT.default,
        motion_length: values.motion_length,
        loop,
        model: PARALLAX_OPTION,
        camera_path: path,
      }));
  }
  return [
    {
      motion_type: chosenCameraMotion(context, values)?.value ?? MOTION_PRESET_DEFAULTS.motion_type,
      prompt: presetPrompt(context, values),
      quantity: values.quantity,
      motion_amount: layout.motionAmount ? values.motion_amount : MOTION_AMOUNT.default,
      motion_length: values.motion_length,
      loop,
      model: context.model?.value ?? '',
      camera_path: null,
    },
  ];
}

/** Videos each preset asks for (its quantity). */
export function videoQuantities(type: VideoCreationType, values: Pick<VideoFormValues, 'camera_paths' | 'quantity'>): number[] {
  if (type === 'parallax-motion') return orderedCameraPaths(values.camera_paths).map(() => values.quantity);
  return [values.quantity];
}

export interface VideoCost {
  videos: number;
  perVideo: number;
  total: number;
}

/** The job's cost as the server counts it (videoJobCost): credits per video × videos. */
export function videoCost(
  type: VideoCreationType,
  model: Pick<VideoMotionModel, 'required_credits'> | undefined,
  values: Pick<VideoFormValues, 'camera_paths' | 'quantity'>,
): VideoCost {
  const videos = videoQuantities(type, values).reduce((sum, quantity) => sum + quantity, 0);
  const perVideo = creditsPerVideo(type, model);
  return { videos, perVideo, total: videos * perVideo };
}

/** The multipart fields of `POST media` for a video creation job (issue 5 contract §1). */
export function videoFormFields(context: VideoFormContext, values: VideoFormValues): VideoFormFields {
  const { type } = context;
  const layout = videoFormLayout(type, context.mode, context.model);
  const presets = posePresets(context, values);
  const fields: VideoFormFields = {
    creation_type: type,
    option: type === 'parallax-motion' ? PARALLAX_OPTION : (context.model?.value ?? values.option),
    // Parallax always sends a list (one per camera path); the others their one preset.
    pose_preset: JSON.stringify(type === 'parallax-motion' ? presets : presets[0]),
  };
  if (type === 'ai-motion') fields.motion_mode = context.mode;
  if (usesPictures(type, context.mode)) {
    const urls = context.slots.map((picture) => values.pictures[picture.key]).filter((url): url is string => Boolean(url));
    if (urls.length > 0) fields.image_urls = urls;
  }
  if (layout.drivingVideo && values.video_url) fields.video_url = values.video_url;
  if (layout.frameSelection) {
    if (context.sourceVideoUrl) fields.video_url = context.sourceVideoUrl;
    fields.frame_selection = values.frame_selection;
  }
  if (layout.aspectRatio && values.aspect_ratio) fields.aspect_ratio = values.aspect_ratio;
  if (layout.strength && values.prompt.trim() !== '') fields.prompt_strength = String(values.prompt_strength);
  return fields;
}

const wholeNumber = (range: { min: number; max: number }) =>
  z
    .number({ error: VIDEO_TEXTS.between(range.min, range.max) })
    .int(VIDEO_TEXTS.between(range.min, range.max))
    .min(range.min, VIDEO_TEXTS.between(range.min, range.max))
    .max(range.max, VIDEO_TEXTS.between(range.min, range.max));

/** The zod schema of the form for this type, mode, model and set of picture slots. */
export function videoFormSchema(context: VideoFormContext) {
  const layout = videoFormLayout(context.type, context.mode, context.model);
  return z
    .object({
      mode: z.enum(MOTION_MODE_VALUES),
      option: z.string(),
      prompt: z.string(),
      camera_motion: z.string(),
      prompt_strength: z.number().min(PROMPT_STRENGTH.min).max(PROMPT_STRENGTH.max),
      aspect_ratio: z.string(),
      motion_amount: wholeNumber(MOTION_AMOUNT),
      motion_length: wholeNumber(MOTION_LENGTH),
      quantity: wholeNumber(VIDEO_QUANTITY),
      loop: z.boolean(),
      camera_paths: z.array(z.enum(PARALLAX_CAMERA_PATH_OPTIONS.map((option) => option.value) as [ParallaxCameraPath, ...ParallaxCameraPath[]])),
      pictures: z.record(z.string(), z.string()),
      video_url: z.string(),
      frame_selection: z.enum(FRAME_SELECTIONS),
    })
    .superRefine((values, issues) => {
      if (layout.model && !context.model) {
        issues.addIssue({ code: 'custom', path: ['option'], message: TOOL_TEXTS.noModel });
      }
      if (layout.prompt === 'required' && values.prompt.trim() === '') {
        issues.addIssue({ code: 'custom', path: ['prompt'], message: TOOL_TEXTS.enterPrompt });
      }
      for (const picture of context.slots) {
        if (picture.required && !values.pictures[picture.key]) {
          issues.addIssue({ code: 'custom', path: ['pictures', picture.key], message: VIDEO_TEXTS.addPicture(picture.label) });
        }
      }
      if (layout.drivingVideo && !values.video_url) {
        issues.addIssue({ code: 'custom', path: ['video_url'], message: VIDEO_TEXTS.addVideo(VIDEO_TEXTS.drivingVideo) });
      }
      if (layout.frameSelection && !context.sourceVideoUrl) {
        issues.addIssue({ code: 'custom', path: ['video_url'], message: VIDEO_TEXTS.sourceMissing });
      }
      if (layout.cameraPaths && values.camera_paths.length === 0) {
        issues.addIssue({ code: 'custom', path: ['camera_paths'], message: VIDEO_TEXTS.pickCameraPath });
      }
      const videos = videoQuantities(context.type, values).reduce((sum, quantity) => sum + quantity, 0);
      if (videos > MAX_VIDEOS_PER_JOB) {
        issues.addIssue({ code: 'custom', path: ['quantity'], message: VIDEO_TEXTS.tooManyVideos(MAX_VIDEOS_PER_JOB) });
      }
    });
}

export function defaultVideoFormValues(
  type: VideoCreationType,
  options: readonly VideoMotionModel[],
): VideoFormValues {
  return {
    mode: 'image',
    option: defaultMotionModel(type, options),
    prompt: '',
    camera_motion: MOTION_PRESET_DEFAULTS.motion_type,
    prompt_strength: PROMPT_STRENGTH.default,
    aspect_ratio: TEXT_VIDEO_RATIOS[0] ?? '16:9',
    motion_amount: MOTION_AMOUNT.default,
    motion_length: MOTION_LENGTH.default,
    quantity: VIDEO_QUANTITY.default,
    loop: MOTION_PRESET_DEFAULTS.loop === 1,
    // Parallax starts with the first path ticked, so its cost reads as one video.
    camera_paths: type === 'parallax-motion' ? PARALLAX_CAMERA_PATH_OPTIONS.slice(0, 1).map((option) => option.value) : [],
    pictures: {},
    video_url: '',
    frame_selection: 'Last',
  };
}

/** The SPEC §2.10 help topic of each page (AI Motion's follows its mode). */
export function videoHelpTopic(type: VideoCreationType, mode: MotionMode): number {
  switch (type) {
    case 'parallax-motion':
      return 0;
    case 'try-on':
      return 15;
    case 'character-animate':
      return 20;
    case 'extend-video':
      return 38;
    case 'ai-motion':
      if (mode === 'transition') return 2;
      if (mode === 'composer') return 18;
      return 1;
  }
}

/** `?item=` of an Extend link: the 0-based index of the result item; anything else is the first. */
export function parseItemIndex(raw: string | null): number {
  if (raw === null || !/^\d+$/.test(raw.trim())) return 0;
  return Number(raw.trim());
}
