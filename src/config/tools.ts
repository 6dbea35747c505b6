/** Tool slugs a model option can serve (SPEC §3 "Model / tool option"). */
export const TOOL_SLUGS = [
  'text-to-image',
  'image-elements',
  'scene-image',
  'image-to-image',
  'reimagine',
  'finetune',
  'try-on',
  'replace-bg',
  'edit-image',
  'edit-video',
  'face-swap',
  'video-effects',
  'lip-sync',
  'text-to-speech',
  'text-to-music',
  'text-to-audio',
  'replace-background-video',
  'video-elements',
  'modify-video',
  'restyle',
] as const;
export type ToolSlug = (typeof TOOL_SLUGS)[number];

export const GENERATE_TYPES = ['Image', 'Video', 'Audio', 'LORA'] as const;
export type GenerateType = (typeof GENERATE_TYPES)[number];

/** The API speaks 0/1 for yes/no flags on models and effects. */
export type Flag = 0 | 1;
