import type { MediaKind } from '@/config/enums';
import { PARALLAX_CAMERA_PATHS } from '@/config/parallax-paths';
import { VIDEO_CREATION_TOOLS } from '@/config/video-creation';

/** Which label rule of SPEC §3 "Generated result item" applies. */
export type ResultLabelKind = 'parallax' | 'tryOnVideo' | 'video' | 'audio' | 'image';

/** The run arguments a label reads (SPEC §3 "Job history": option, effect, aspect_ratio, voice). */
export interface LabelArgs {
  option?: string | null;
  effect?: string | null;
  aspect_ratio?: string | null;
  voice?: string | null;
  /** A parallax result's camera path value (e.g. HorizontalArc). */
  camera_path?: string | null;
  /** A try-on video's model. */
  model?: string | null;
}

export interface ResultLabelInput {
  /** 1-based number of the run (the oldest run is 1). */
  run: number;
  /** 1-based position of the result within its run. */
  index: number;
  kind: ResultLabelKind;
  args: LabelArgs;
}

/** The try-on video model SPEC §3 names when a result does not say. */
export const DEFAULT_TRY_ON_MODEL = 'KlingTryOn';

const present = (value: string | null | undefined): value is string => typeof value === 'string' && value !== '';

// Object.hasOwn: a value such as "toString" must not read an inherited property.
const cameraPathLabel = (value: string): string =>
  Object.hasOwn(PARALLAX_CAMERA_PATHS, value) ? PARALLAX_CAMERA_PATHS[value as keyof typeof PARALLAX_CAMERA_PATHS] : value;

/** The third part of a label: what tells this result apart from its neighbours. */
export function labelOption(kind: ResultLabelKind, args: LabelArgs): string {
  switch (kind) {
    case 'parallax':
      return present(args.camera_path) ? cameraPathLabel(args.camera_path) : '';
    case 'tryOnVideo':
      // SPEC §3 "TryOnVideo: the model, defaulting to KlingTryOn": `option` is not the model here.
      return present(args.model) ? args.model : DEFAULT_TRY_ON_MODEL;
    case 'video':
      if (present(args.option) && present(args.effect)) return `${args.option}.${args.effect}`;
      if (present(args.aspect_ratio)) return args.aspect_ratio;
      if (present(args.voice)) return args.voice;
      return args.option ?? '';
    case 'audio':
      return present(args.option) ? args.option : `Audio_${args.voice ?? ''}`;
    case 'image':
      // SPEC gives no image rule; Kinora names the model, else the aspect ratio, as for video.
      if (present(args.option)) return args.option;
      return args.aspect_ratio ?? '';
  }
}

/** SPEC §3 result label "{run}.{index}.{option}", the option part chosen by the kind's rule. */
export function resultLabel({ run, index, kind, args }: ResultLabelInput): string {
  return `${run}.${index}.${labelOption(kind, args)}`;
}

/** What decides a media's label rule: its kind, its `tool` and (videos) its `args.creation_type`. */
export interface LabelledMedia {
  kind: MediaKind;
  tool: string;
  creationType?: string | null;
}

/**
 * Which SPEC §3 rule labels a media's results: a parallax creation's by camera path, a try-on
 * video's by its model, any other video's by the video rule; images and audio by their own.
 */
export function resultLabelKind({ kind, tool, creationType }: LabelledMedia): ResultLabelKind {
  if (kind !== 'video') return kind;
  if (creationType === 'parallax-motion' || tool === VIDEO_CREATION_TOOLS['parallax-motion']) return 'parallax';
  if (creationType === 'try-on' || tool === VIDEO_CREATION_TOOLS['try-on']) return 'tryOnVideo';
  return 'video';
}
