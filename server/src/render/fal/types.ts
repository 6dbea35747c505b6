/**
 * The shape of Kinora's fal.ai model map (`models.ts`): for every model Kinora sells, the fal
 * endpoint that runs it on each tool and how Kinora's request becomes fal's input, or why fal
 * cannot run it. Pure data and pure functions: the provider (`provider.ts`) submits, watches and
 * downloads; the catalogue (`frontend-configurations`) marks a model without a call inactive.
 */

/** One input file of a request, as fal receives it: a short-lived signed link to Kinora's own file. */
export interface FalInputFile {
  /** The Kinora field it came from (`image_url`, `image_urls`, `video_url`, `audio_url`, `end_image_url`, …). */
  field: string;
  url: string;
  contentType: string;
}

/** Everything a map entry may read to build fal's input. */
export interface FalRequest {
  /** Kinora's tool slug (`text-to-image`, `face-swap`, `video-effects`, …) or, for videos, the call key. */
  tool: string;
  /** Kinora's model value (`option`), e.g. `Flux1.1Pro`, `KlingAI`. */
  model: string;
  prompt: string;
  /** Every other field of Kinora's request (aspect_ratio, order_indices, effect, voice, duration…). */
  args: Readonly<Record<string, unknown>>;
  /** Input files in request order. */
  files: readonly FalInputFile[];
  /** A numeric seed derived from Kinora's render seed (the same request, the same seed). */
  seed: number;
  /** Kinora's aspect ratio (16:9, 4:3, 1:1, 3:4, 9:16), absent for Origin / none. */
  aspectRatio?: string;
  /** Seconds asked for (audio duration, motion_length). */
  durationSeconds?: number;
  /** Pictures asked of one call (issue 21 item 7), sent as `num_images`; absent → the model's one. */
  images?: number;
}

/** Which kind of file the answer carries: the provider finds its URL in fal's usual answer shapes. */
export type FalOutputKind = 'image' | 'video' | 'audio' | 'lora' | 'text';

export interface FalCall {
  /** fal's endpoint id, e.g. `fal-ai/flux-pro/v1.1`. */
  endpoint: string;
  /** The fal docs page the mapping was read from (https://fal.ai/models/…/api). */
  docs: string;
  output: FalOutputKind;
  /** Kinora's request → fal's input object. */
  input(request: FalRequest): Record<string, unknown>;
}

/**
 * A model fal runs: one call per Kinora call key. The key is the tool slug for image, audio and
 * video tools (`text-to-image`, `image-to-image`, `edit-image`, `scene-image`, `text-to-speech`,
 * `video/enhance`'s tool `edit-video`…), the motion mode for motion models (`image`, `text`,
 * `transition`, `composer`, plus `try-on`, `character-animate`, `extend-video` for those creation
 * types), and `finetune` / `generate` for a trainer and images made with its weights.
 */
export interface FalModel {
  fal: true;
  calls: Readonly<Record<string, FalCall>>;
}

/** A model fal has no equivalent for: offered as inactive with this reason. */
export interface NoFalModel {
  fal: false;
  reason: string;
}

export type FalModelEntry = FalModel | NoFalModel;
