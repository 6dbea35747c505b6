import type { AspectRatio, MediaKind } from './enums';
import { ROUTES } from './routes';
import type { ToolSlug } from './tools';

/**
 * The generation tools of issue 4 (SPEC §2.3 AI Image and AI Audio, §7 image/* and audio/*): what
 * each page asks for and which call it makes. Pure data read by the web app (forms, cost, labels)
 * and by the local server (which fields a call accepts, which model list the `option` must be in).
 */

/** A picture the tool needs, sent as the named multipart field (a URL the upload returned). */
export interface ImageInputSpec {
  /** `image_urls` is sent as a repeated key (SPEC §7 "arrays are sent as repeated keys"). */
  field: 'image_url' | 'image2_url' | 'human_image_url' | 'clothes_image_url' | 'image_urls';
  label: string;
  /**
   * `always`: the form refuses to submit without it; `model`: needed only when the chosen model's
   * `end_frame` flag is 1 (the second picture of try-on, face swap, replace background).
   */
  required: 'always' | 'model' | 'never';
  /** For `image_urls`: how many pictures (each one is a repeated key). */
  count?: { min: number; max: number };
}

export type PromptRule =
  /** Always asked for and must not be empty. */
  | 'required'
  /** Asked for, may be empty. */
  | 'optional'
  /** Asked for when the model's `text_prompt` flag is 1, and then required. */
  | 'model'
  | 'none';

export interface DurationSpec {
  defaultSeconds: number;
  minSeconds: number;
  maxSeconds: number;
}

export interface GenerationToolSpec {
  /** Models offered: app-config `asset_tools` whose `available_tools` has this slug and `active` is 1. */
  slug: ToolSlug;
  title: string;
  path: string;
  /** SPEC §7 path under the API base, e.g. `image/text-2-image`. */
  endpoint: string;
  kind: MediaKind;
  /** Help topic index (SPEC §2.10). */
  helpTopic: number;
  prompt: PromptRule;
  /** The prompt field's label ("Prompt", or "Text" for speech). */
  promptLabel: string;
  images: readonly ImageInputSpec[];
  /** Offers the aspect ratios given here (first = default); absent → not asked. */
  aspectRatios?: readonly AspectRatio[];
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
    images: [picture('Subject'), { field: 'image2_url', label: 'Background picture', required: 'never' }],
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

export const GENERATION_TOOLS: readonly GenerationToolSpec[] = [...IMAGE_TOOLS, ...AUDIO_TOOLS];

export const generationToolBySlug = (slug: string): GenerationToolSpec | undefined =>
  GENERATION_TOOLS.find((tool) => tool.slug === slug);

export const generationToolByEndpoint = (endpoint: string): GenerationToolSpec | undefined =>
  GENERATION_TOOLS.find((tool) => tool.endpoint === endpoint);

/** Upload calls (SPEC §7 `POST image` / `POST audio` / `POST video`) and their file field. */
export const UPLOAD_ENDPOINTS: Readonly<Record<MediaKind, { endpoint: string; field: string; tool: string }>> = {
  image: { endpoint: 'image', field: 'image_file', tool: 'upload-image' },
  video: { endpoint: 'video', field: 'video_file', tool: 'upload-video' },
  audio: { endpoint: 'audio', field: 'audio_file', tool: 'upload-audio' },
};
