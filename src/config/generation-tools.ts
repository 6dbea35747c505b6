import { AUDIO_SYNC_MODES, UPSCALE_OPTIONS, type AspectRatio, type MediaKind, type Option } from './enums';
import { ROUTES } from './routes';
import type { ToolSlug } from './tools';

/**
 * The generation tools (SPEC §2.3 AI Image, AI Audio and the AI Video editing tools; §7 image/*,
 * audio/* and video/*): what each page asks for and which call it makes. Pure data read by the web app (forms, cost, labels)
 * and by the local server (which fields a call accepts, which model list the `option` must be in).
 */

/** The multipart fields that carry a file's URL (one the upload returned, or a result's). */
export type MediaInputField =
  | 'image_url'
  | 'image2_url'
  | 'human_image_url'
  | 'clothes_image_url'
  | 'image_urls'
  | 'ref_image_url'
  | 'bg_image_url'
  | 'video_url'
  | 'bg_video_url'
  | 'audio_url';

/** A picture, video or sound the tool needs, sent as the named multipart field (a URL). */
export interface ImageInputSpec {
  /** `image_urls` is sent as a repeated key (SPEC §7 "arrays are sent as repeated keys"). */
  field: MediaInputField;
  label: string;
  /**
   * `always`: the form refuses to submit without it; `model`: needed only when the chosen model's
   * `end_frame` flag is 1 (the second picture of try-on, face swap, replace background);
   * `effect`: needed only when the chosen effect's `end_frame` flag is 1 (SPEC §5: Kling hug,
   * heart_gesture, kiss; Vidu smooth_shift, ai_outfit), and shown only for effect families that
   * have such an effect; `never`: optional.
   */
  required: 'always' | 'model' | 'never' | 'effect';
  /** What the file is (default image): decides the upload kind and the server's type check. */
  media?: MediaKind;
  /** For `image_urls`: how many pictures (each one is a repeated key). */
  count?: { min: number; max: number };
  /**
   * Inputs sharing a group are alternatives: at least one of them must be given (lip sync's face
   * picture or face video; the replaced background's picture or video).
   */
  oneOf?: string;
  /** Shown and sent only for these models (`option`); absent → for every model of the tool. */
  models?: readonly string[];
}

/** A list to choose from, sent as its field (the edit options of SPEC §9, a video effect). */
export interface ChoiceSpec {
  field: 'enhance_mode' | 'mode' | 'effect';
  label: string;
  /** `effects`: the chosen model's `available_effects` (SPEC §3); else these options, first = default. */
  options: 'effects' | readonly Option[];
  /** Shown and sent only for these models; absent → for every model of the tool. */
  models?: readonly string[];
}

export type PromptRule =
  /** Always asked for and must not be empty. */
  | 'required'
  /** Asked for, may be empty. */
  | 'optional'
  /** Asked for when the model's `text_prompt` flag is 1, and then required. */
  | 'model'
  /** Lip sync (SPEC §5): required, with the voice, unless an `audio_url` is given; then not sent. */
  | 'unlessAudio'
  | 'none';

export interface DurationSpec {
  defaultSeconds: number;
  minSeconds: number;
  maxSeconds: number;
}

/** A whole number of seconds within the tool's bounds (a cleared field, '', is not). */
export const durationValid = (value: number | '', bounds: DurationSpec): boolean =>
  typeof value === 'number' && Number.isInteger(value) && value >= bounds.minSeconds && value <= bounds.maxSeconds;

export interface GenerationToolSpec {
  /** Models offered: app-config `asset_tools` whose `available_tools` has this slug and `active` is 1. */
  slug: ToolSlug;
  title: string;
  path: string;
  /** SPEC §7 path under the API base, e.g. `image/text-2-image`. */
  endpoint: string;
  /**
   * Edit Video: each operation (model) has its own call (SPEC §7 video/crop-to-aspect-ratio,
   * video/enhance, …); `endpoint` is the first one's.
   */
  endpoints?: Readonly<Record<string, string>>;
  kind: MediaKind;
  /** Help topic index (SPEC §2.10). */
  helpTopic: number;
  prompt: PromptRule;
  /** The prompt field's label ("Prompt", or "Text" for speech). */
  promptLabel: string;
  images: readonly ImageInputSpec[];
  /** Offers the aspect ratios given here (first = default); absent → not asked. */
  aspectRatios?: readonly AspectRatio[];
  /** Asks for the aspect ratio only with these models; absent → with every model. */
  aspectRatioModels?: readonly string[];
  /** Lists to choose from (upscale, audio sync mode, effect). */
  choices?: readonly ChoiceSpec[];
  /** Text-to-speech: one of the model's `available_voices` (default `DEFAULT_VOICE`). */
  voice?: boolean;
  /** Seconds of audio asked for, sent as `duration`. */
  duration?: DurationSpec;
  /** Face swap: one `order_indices` value per face picture: which face of the target (0 = leftmost). */
  orderIndices?: boolean;
  /**
   * Sends `async_mode` (SPEC §7 lists it for these calls; default true, SPEC §9). Calls without it
   * are asynchronous too: the server answers at once with a job to poll.
   */
  asyncMode: boolean;
  /**
   * SPEC §5/§8: the call is refused without its first picture with the detail "No upload file"
   * (image-to-image and reimagine); the form shows that same text. Other tools name the picture.
   */
  requiresUpload: boolean;
}

const GENERATED_RATIOS: readonly AspectRatio[] = ['1:1', '16:9', '4:3', '3:4', '9:16'];
const EDIT_RATIOS: readonly AspectRatio[] = ['Origin', '1:1', '16:9', '4:3', '3:4', '9:16'];

const picture = (label = 'Image'): ImageInputSpec => ({ field: 'image_url', label, required: 'always' });

export const IMAGE_TOOLS: readonly GenerationToolSpec[] = [
  {
    slug: 'text-to-image',
    title: 'Text to Image',
    path: ROUTES.aiImage.textToImage,
    endpoint: 'image/text-2-image',
    kind: 'image',
    helpTopic: 14,
    prompt: 'required',
    promptLabel: 'Prompt',
    images: [],
    aspectRatios: GENERATED_RATIOS,
    asyncMode: true,
    requiresUpload: false,
  },
  {
    slug: 'image-to-image',
    title: 'Image to Image',
    path: ROUTES.aiImage.imageToImage,
    endpoint: 'image/image-2-image',
    kind: 'image',
    helpTopic: 11,
    prompt: 'required',
    promptLabel: 'Prompt',
    images: [picture()],
    aspectRatios: EDIT_RATIOS,
    asyncMode: true,
    requiresUpload: true,
  },
  {
    // SPEC §2.3 has no menu link for reimagine; its page is reached from Image to Image.
    slug: 'reimagine',
    title: 'Reimagine',
    path: ROUTES.aiImage.reimagine,
    endpoint: 'image/reimagine',
    kind: 'image',
    helpTopic: 12,
    prompt: 'optional',
    promptLabel: 'Prompt',
    images: [picture()],
    asyncMode: false,
    requiresUpload: true,
  },
  {
    slug: 'face-swap',
    title: 'Face Swap',
    path: ROUTES.aiImage.faceSwap,
    endpoint: 'image/face-swap',
    kind: 'image',
    helpTopic: 37,
    prompt: 'none',
    promptLabel: 'Prompt',
    // image_urls[0] is the target picture; each further picture is a face put onto the target.
    images: [{ field: 'image_urls', label: 'Target picture, then faces', required: 'always', count: { min: 2, max: 4 } }],
    orderIndices: true,
    asyncMode: true,
    requiresUpload: false,
  },
  {
    slug: 'try-on',
    title: 'Try On Image',
    path: ROUTES.aiImage.tryOn,
    endpoint: 'image/try-on',
    kind: 'image',
    helpTopic: 15,
    prompt: 'none',
    promptLabel: 'Prompt',
    images: [
      { field: 'human_image_url', label: 'Person', required: 'always' },
      { field: 'clothes_image_url', label: 'Clothes', required: 'always' },
    ],
    asyncMode: true,
    requiresUpload: false,
  },
  {
    slug: 'image-elements',
    title: 'Image Elements',
    path: ROUTES.aiImage.imageElements,
    endpoint: 'image/elements',
    kind: 'image',
    helpTopic: 31,
    prompt: 'required',
    promptLabel: 'Prompt',
    images: [{ field: 'image_urls', label: 'Elements', required: 'always', count: { min: 2, max: 4 } }],
    aspectRatios: GENERATED_RATIOS,
    asyncMode: true,
    requiresUpload: false,
  },
  {
    slug: 'replace-bg',
    title: 'Replace Background',
    path: ROUTES.aiImage.replaceBackground,
    endpoint: 'image/replace-background',
    kind: 'image',
    helpTopic: 13,
    prompt: 'model',
    promptLabel: 'New background',
    // The background picture is the ReplaceBackground model's second input (its end_frame flag).
    images: [picture('Subject'), { field: 'image2_url', label: 'Background picture', required: 'never', models: ['ReplaceBackground'] }],
    asyncMode: true,
    requiresUpload: false,
  },
  {
    slug: 'edit-image',
    title: 'Edit Image',
    path: ROUTES.aiImage.editImage,
    endpoint: 'image/edit-image',
    kind: 'image',
    helpTopic: 19,
    prompt: 'model',
    promptLabel: 'What to change',
    images: [picture()],
    aspectRatios: EDIT_RATIOS,
    asyncMode: true,
    requiresUpload: false,
  },
  {
    slug: 'restyle',
    title: 'Restyle Image',
    path: ROUTES.aiImage.restyle,
    endpoint: 'image/restyle',
    kind: 'image',
    helpTopic: 35,
    prompt: 'required',
    promptLabel: 'Style',
    images: [picture()],
    asyncMode: true,
    requiresUpload: false,
  },
];

export const AUDIO_TOOLS: readonly GenerationToolSpec[] = [
  {
    slug: 'text-to-speech',
    title: 'Text to Speech',
    path: ROUTES.aiAudio.textToSpeech,
    endpoint: 'audio/text-2-speech',
    kind: 'audio',
    helpTopic: 27,
    prompt: 'required',
    promptLabel: 'Text',
    images: [],
    voice: true,
    asyncMode: false,
    requiresUpload: false,
  },
  {
    slug: 'text-to-audio',
    title: 'Sound Effects',
    path: ROUTES.aiAudio.textToAudio,
    endpoint: 'audio/text-2-sound-effect',
    kind: 'audio',
    helpTopic: 29,
    prompt: 'required',
    promptLabel: 'Describe the sound',
    images: [],
    // SPEC §9: the sound-effect duration defaults to 5.
    duration: { defaultSeconds: 5, minSeconds: 1, maxSeconds: 30 },
    asyncMode: false,
    requiresUpload: false,
  },
  {
    slug: 'text-to-music',
    title: 'Text to Music',
    path: ROUTES.aiAudio.textToMusic,
    endpoint: 'audio/text-2-music',
    kind: 'audio',
    helpTopic: 34,
    prompt: 'required',
    promptLabel: 'Describe the music',
    images: [],
    // Kinora's own: SPEC sends only a prompt; the length is an extra field with this default.
    duration: { defaultSeconds: 15, minSeconds: 5, maxSeconds: 60 },
    asyncMode: false,
    requiresUpload: false,
  },
];

const VIDEO_RATIOS: readonly AspectRatio[] = ['16:9', '9:16', '1:1', '4:3', '3:4'];
const sourceVideo = (label = 'Video'): ImageInputSpec => ({ field: 'video_url', label, required: 'always', media: 'video' });

/** SPEC §7 video/*: the AI Video editing tools (SPEC §2.5 "Video-editing tools"). */
export const VIDEO_TOOLS: readonly GenerationToolSpec[] = [
  {
    slug: 'edit-video',
    title: 'Edit Video',
    path: ROUTES.aiVideo.editVideo,
    endpoint: 'video/crop-to-aspect-ratio',
    // SPEC §9 edit operations, each its own call (AttachAudio is free, SPEC §9).
    endpoints: {
      CropToAspectRatio: 'video/crop-to-aspect-ratio',
      EnhanceVideo: 'video/enhance',
      SoundEffect: 'video/sound-effect',
      LumaReframeVideo: 'video/reframe',
      AttachAudio: 'video/audio',
    },
    kind: 'video',
    helpTopic: 24,
    // Sound effect: what to hear; reframe: what fills the new space (the models' text_prompt flags).
    prompt: 'model',
    promptLabel: 'Prompt',
    images: [sourceVideo(), { field: 'audio_url', label: 'Audio', required: 'always', media: 'audio', models: ['AttachAudio'] }],
    aspectRatios: VIDEO_RATIOS,
    aspectRatioModels: ['CropToAspectRatio', 'LumaReframeVideo'],
    choices: [
      { field: 'enhance_mode', label: 'Upscale', options: UPSCALE_OPTIONS, models: ['EnhanceVideo'] },
      { field: 'mode', label: 'Audio sync', options: AUDIO_SYNC_MODES, models: ['AttachAudio'] },
    ],
    asyncMode: false,
    requiresUpload: false,
  },
  {
    slug: 'video-effects',
    title: 'Video Effects',
    path: ROUTES.aiVideo.videoEffects,
    endpoint: 'video/video-effects',
    kind: 'video',
    helpTopic: 39,
    // SPEC §5: effects take only a first frame (and an end frame for the effects that need one).
    prompt: 'none',
    promptLabel: 'Prompt',
    images: [
      { field: 'image_url', label: 'First frame', required: 'always' },
      { field: 'ref_image_url', label: 'End frame', required: 'effect' },
    ],
    choices: [{ field: 'effect', label: 'Effect', options: 'effects' }],
    asyncMode: false,
    requiresUpload: false,
  },
  {
    slug: 'lip-sync',
    title: 'Lip Sync',
    path: ROUTES.aiVideo.lipSync,
    endpoint: 'video/lip-sync',
    kind: 'video',
    helpTopic: 26,
    // SPEC §5: audio_url when one is given, otherwise prompt plus voice.
    prompt: 'unlessAudio',
    promptLabel: 'Text to speak',
    images: [
      { field: 'image_url', label: 'Face picture', required: 'never', oneOf: 'face' },
      { field: 'video_url', label: 'Face video', required: 'never', media: 'video', oneOf: 'face' },
      { field: 'audio_url', label: 'Speech audio (optional)', required: 'never', media: 'audio' },
    ],
    voice: true,
    asyncMode: false,
    requiresUpload: false,
  },
  {
    slug: 'replace-background-video',
    title: 'Replace Background',
    path: ROUTES.aiVideo.replaceBackgroundVideo,
    endpoint: 'video/replace-background',
    kind: 'video',
    helpTopic: 13,
    prompt: 'optional',
    promptLabel: 'Describe the new background',
    images: [
      sourceVideo(),
      { field: 'bg_image_url', label: 'Background picture', required: 'never', oneOf: 'background' },
      { field: 'bg_video_url', label: 'Background video', required: 'never', media: 'video', oneOf: 'background' },
    ],
    asyncMode: false,
    requiresUpload: false,
  },
  {
    slug: 'modify-video',
    title: 'Restyle Video',
    path: ROUTES.aiVideo.modifyVideo,
    endpoint: 'video/modify',
    kind: 'video',
    helpTopic: 36,
    prompt: 'required',
    promptLabel: 'Style',
    images: [sourceVideo(), { field: 'image_url', label: 'Style reference (optional)', required: 'never' }],
    asyncMode: false,
    requiresUpload: false,
  },
];

export const GENERATION_TOOLS: readonly GenerationToolSpec[] = [...IMAGE_TOOLS, ...AUDIO_TOOLS, ...VIDEO_TOOLS];

/** Every call a tool makes: its `endpoint` and, for Edit Video, each operation's. */
export const toolEndpoints = (tool: GenerationToolSpec): string[] => [
  ...new Set([tool.endpoint, ...Object.values(tool.endpoints ?? {})]),
];

/** The call for this model of the tool (Edit Video's operations have one each). */
export const endpointFor = (tool: GenerationToolSpec, model: string | undefined): string =>
  (model !== undefined ? tool.endpoints?.[model] : undefined) ?? tool.endpoint;

export const generationToolBySlug = (slug: string): GenerationToolSpec | undefined =>
  GENERATION_TOOLS.find((tool) => tool.slug === slug);

export const generationToolByEndpoint = (endpoint: string): GenerationToolSpec | undefined =>
  GENERATION_TOOLS.find((tool) => toolEndpoints(tool).includes(endpoint));

/** Upload calls (SPEC §7 `POST image` / `POST audio` / `POST video`) and their file field. */
export const UPLOAD_ENDPOINTS: Readonly<Record<MediaKind, { endpoint: string; field: string; tool: string }>> = {
  image: { endpoint: 'image', field: 'image_file', tool: 'upload-image' },
  video: { endpoint: 'video', field: 'video_file', tool: 'upload-video' },
  audio: { endpoint: 'audio', field: 'audio_file', tool: 'upload-audio' },
};
