import type { AspectRatio } from './enums';
import { MOTION_MODELS, type VideoMotionModel } from './motion-models';
import { PARALLAX_CAMERA_PATHS } from './parallax-paths';

/**
 * Making a video from pictures or a text (SPEC §1 "turn images into videos", §2.4 video creation
 * types, §3 pose_preset): every one is a `POST media` whose `pose_preset` says what to make; the
 * media item is the job (SPEC §4 source → 3D → bullet statuses). Pure data shared by the web app
 * (forms, cost) and the local server (validation, cost, rendering).
 */

/** SPEC §2.4 creation types, plus the `tool` each one's media item carries. */
export const VIDEO_CREATION_TOOLS = {
  'ai-motion': 'ai-motion',
  'parallax-motion': 'parallax-motion',
  // Not `try-on`: that slug is the image try-on's.
  'try-on': 'try-on-video',
  'character-animate': 'character-animate',
  'extend-video': 'extend-video',
} as const;
export type VideoCreationType = keyof typeof VIDEO_CREATION_TOOLS;
export const VIDEO_CREATION_TYPES = Object.keys(VIDEO_CREATION_TOOLS) as VideoCreationType[];

/** AI Motion's ways to start (SPEC §1, §2.10 topics 1, 2, 18): sent as `motion_mode`. */
export const MOTION_MODES = [
  { value: 'image', label: 'From a picture' },
  { value: 'text', label: 'From a text description' },
  { value: 'transition', label: 'Transition to an end frame' },
  { value: 'composer', label: 'Video composer' },
] as const;
export type MotionMode = (typeof MOTION_MODES)[number]['value'];

/**
 * Kinora's price of one parallax video: SPEC §9 gives none, so it is the Tier 1 video price
 * (the cheapest video of SPEC §9 "Credit tiers"). Parallax runs on the local 3D pipeline, no model.
 */
export const PARALLAX_VIDEO_CREDITS = 20;
/** The `option` (model) of a parallax job. */
export const PARALLAX_OPTION = 'Parallax';
/** The motion model of Try On Video (SPEC §9: no text prompt, end frame = the clothes, motion amount). */
export const TRY_ON_VIDEO_MODEL = 'TryOnVideo';

/** Seconds of video one preset asks for (`motion_length`, SPEC default 5). */
export const MOTION_LENGTH = { min: 2, max: 10, default: 5 } as const;
/** `motion_amount` (SPEC default 5): how much moves, for models with the motion_amount flag. */
export const MOTION_AMOUNT = { min: 1, max: 10, default: 5 } as const;
/** Videos per preset (`quantity`, SPEC default 1). */
export const VIDEO_QUANTITY = { min: 1, max: 4, default: 1 } as const;
/** At most this many videos in one job (the sum of the presets' quantities): the local engine renders them one after another. */
export const MAX_VIDEOS_PER_JOB = 8;
/** AI Motion "from a picture and a text": how much the text (vs the picture) drives the motion, 0–100. */
export const PROMPT_STRENGTH = { min: 0, max: 100, default: 50 } as const;
/** Video composer: pictures in order, the video moves through them. */
export const COMPOSER_PICTURES = { min: 2, max: 6 } as const;
/** Aspect ratios of a video made from text alone (a picture gives its own). */
export const TEXT_VIDEO_RATIOS: readonly AspectRatio[] = ['16:9', '9:16', '1:1', '4:3', '3:4'];

/** The motion models offered for a creation (active ones; Try On Video only on its own page). */
export function motionModelsFor(type: VideoCreationType, models: readonly VideoMotionModel[] = MOTION_MODELS): VideoMotionModel[] {
  if (type === 'try-on') return models.filter((model) => model.value === TRY_ON_VIDEO_MODEL && model.active === 1);
  return models.filter((model) => model.active === 1 && model.value !== TRY_ON_VIDEO_MODEL);
}

/** The camera paths of SPEC §9, as parallax presets' `camera_path` values. */
export const isParallaxCameraPath = (value: string): value is keyof typeof PARALLAX_CAMERA_PATHS =>
  Object.prototype.hasOwnProperty.call(PARALLAX_CAMERA_PATHS, value);

/** Credits of one video: the motion model's, or the parallax price. */
export function creditsPerVideo(type: VideoCreationType, model: Pick<VideoMotionModel, 'required_credits'> | undefined): number {
  if (type === 'parallax-motion') return PARALLAX_VIDEO_CREDITS;
  return model?.required_credits ?? 0;
}

/** A job's cost: credits per video × the videos its presets ask for (each preset's quantity). */
export function videoJobCost(
  type: VideoCreationType,
  model: Pick<VideoMotionModel, 'required_credits'> | undefined,
  quantities: readonly number[],
): number {
  const videos = quantities.reduce((sum, quantity) => sum + quantity, 0);
  return creditsPerVideo(type, model) * videos;
}
