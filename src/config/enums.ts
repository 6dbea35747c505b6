/** The option lists of SPEC §9 "Other enumerations" and the statuses of SPEC §4. */

export interface Option<V extends string = string> {
  value: V;
  label: string;
}

export const PROMPT_HELPER_MODES = [
  { value: 'SuggestPrompt', label: 'Suggest Prompt' },
  { value: 'RefinePrompt', label: 'Refine Prompt' },
  { value: 'Image2Prompt', label: 'Guess from Picture' },
  { value: 'InspireMe', label: 'Inspire Me' },
] as const satisfies readonly Option[];
export type PromptHelperMode = (typeof PROMPT_HELPER_MODES)[number]['value'];
export const DEFAULT_PROMPT_HELPER_MODE: PromptHelperMode = 'InspireMe';

/** "Origin" keeps the source media's own ratio. */
export const ASPECT_RATIOS = ['16:9', '4:3', '1:1', '3:4', '9:16', 'Origin'] as const;
export type AspectRatio = (typeof ASPECT_RATIOS)[number];

export const UPSCALE_OPTIONS = [
  { value: 'DeepClean', label: '1X DeepClean' },
  { value: '2X&DeepClean', label: '2X&DeepClean' },
  { value: '4X&DeepClean', label: '4X&DeepClean' },
] as const satisfies readonly Option[];

/** How attached audio and the video are fitted to each other. */
export const AUDIO_SYNC_MODES = [
  { value: 'MatchVideo', label: 'Match Video' },
  { value: 'PadAudio', label: 'Pad Audio' },
  { value: 'MatchAudio', label: 'Match Audio' },
  { value: 'Strict', label: 'Strict' },
] as const satisfies readonly Option[];

export const FRAME_SELECTIONS = ['First', 'Last'] as const;
export type FrameSelection = (typeof FRAME_SELECTIONS)[number];

export const SPEED_QUALITY_OPTIONS = ['Fast', 'Normal'] as const;

export const ADJUST_DIRECTIONS = ['increase', 'decrease'] as const;

export const NUMBER_KINDS = ['int', 'float'] as const;

export const YES_NO = ['Yes', 'No'] as const;

export const EDIT_OPERATIONS = [
  'CropToAspectRatio',
  'EnhanceVideo',
  'SoundEffect',
  'LumaReframeVideo',
  'AttachAudio',
] as const;

export const LANGUAGES = [
  { value: 'en', label: 'English' },
  { value: 'zh', label: 'Chinese' },
  { value: 'ja', label: 'Japanese' },
  { value: 'ko', label: 'Korean' },
  { value: 'fr', label: 'French' },
  { value: 'de', label: 'German' },
  { value: 'es', label: 'Spanish' },
  { value: 'ar', label: 'Arabic' },
  { value: 'tr', label: 'Turkish' },
  { value: 'hi', label: 'Hindi' },
] as const satisfies readonly Option[];

/** The generation statuses of SPEC §4, grouped the way the app reads them. */
export const GENERATION_STATUSES = {
  success: ['success_image', 'success_source', 'success_3d', 'success'],
  processing: [
    'queue_3d',
    'processing_source',
    'processing_3d',
    'queue_bullet',
    'processing_bullet',
    'queue_source',
    'processing',
  ],
  /** nsfw: the content was flagged as unsafe. */
  item: ['new', 'processing', 'failed', 'nsfw'],
  /**
   * Kinora's own terminal statuses for a job that ended without a result (SPEC §4 leaves them
   * unnamed): each is refunded once.
   */
  ended: ['failed', 'nsfw', 'cancelled'],
} as const;
/** An item that finished with its file; SPEC §4's item list names only the other four. */
export const ITEM_DONE_STATUS = 'success';

export const MEDIA_KINDS = ['image', 'video', 'audio'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** @public SPEC §3's collections, kept as data though no code reads them yet. */
export const MEDIA_COLLECTIONS = ['media', 'asset', 'batch'] as const;

export const AI_STORY_STEPS = ['idea', 'storyboard', 'elements', 'scenes', 'scriptboard'] as const;
