import type { AspectRatio } from '../../../src/config/enums.ts';
import type { PosePreset } from '../../../src/lib/pose-preset.ts';

/**
 * The render provider: the one interface the job engine calls to make a generation's files.
 * `local-engine.ts` implements it with sharp and a WAV writer, standing in for the third-party
 * generative models that cannot be reached here (README "The local stand-ins"); a real provider
 * adapter implements the same interface. Every method is deterministic: the same request gives
 * byte-identical files.
 */

/** A picture the request refers to, already resolved to a file the server stores. */
export interface RenderInputImage {
  /** Absolute path of the stored file. */
  path: string;
  /** The stored file's id (media_files.id): a remote provider is handed a signed link to it, never the path. */
  fileId?: string;
  contentType: string;
  /** The multipart field it came from (`image_url`, `image_urls`, `human_image_url`, …). */
  field: string;
}

export interface RenderedFile {
  /** A safe file name, e.g. `result.png`, `thumbnail.jpg`, `speech.wav`. */
  name: string;
  contentType: string;
  data: Buffer;
}

export interface ImageRenderRequest {
  /** The tool slug (`text-to-image`, `face-swap`, …) and the model (`option`). */
  tool: string;
  model: string;
  prompt: string;
  /** Every other field of the request (aspect_ratio, order_indices, …). */
  args: Readonly<Record<string, unknown>>;
  inputs: readonly RenderInputImage[];
  /** Absent or `Origin` → the first input's ratio, else 1:1. */
  aspectRatio?: AspectRatio | string;
  /** Mixed into every random choice; the job engine passes the job id's stable hash input. */
  seed: string;
  /** SPEC §6: the guest's results carry the product logo. */
  logo: boolean;
}

/** Several pictures from one run (issue 21 item 7): picture k is drawn with `seeds[k]` (`seed` is the first). */
export interface ImageSetRequest extends ImageRenderRequest {
  seeds: readonly string[];
}

export interface RenderedImage {
  image: RenderedFile;
  thumbnail: RenderedFile;
  width: number;
  height: number;
}

export type AudioTool = 'text-to-speech' | 'text-to-audio' | 'text-to-music';

export interface AudioRenderRequest {
  tool: AudioTool;
  model: string;
  prompt: string;
  /** Text-to-speech: the voice preset (SPEC §9 voices). */
  voice?: string;
  /** Sound effects and music: seconds asked for; speech derives its length from the text. */
  durationSeconds?: number;
  seed: string;
}

export interface RenderedAudio {
  /** A PCM WAV file. */
  audio: RenderedFile;
  durationSeconds: number;
}

/** What an upload turned out to be after its bytes were checked (magic bytes, not the name). */
export type UploadCheck =
  | {
      ok: true;
      /** The detected type, e.g. `image/png`, `audio/wav`, `video/mp4`. */
      contentType: string;
      /** A browser-displayable copy (PNG/JPEG) for images the browser cannot show (SVG is always rasterised), else null. */
      display: RenderedFile | null;
      /** A JPEG thumbnail for images (null for audio and video). */
      thumbnail: RenderedFile | null;
      width?: number;
      height?: number;
      durationSeconds?: number;
    }
  | { ok: false; reason: string };

/** A finished video: the MP4, its GIF preview and a JPEG of its first frame. */
export interface RenderedVideo {
  /** H.264 MP4 (`video.mp4`, with an AAC track when the video has sound). */
  video: RenderedFile;
  /** ≤ 320 px wide, 10 fps (`video.gif`). */
  gif: RenderedFile;
  /** The first frame (`thumbnail.jpg`). */
  thumbnail: RenderedFile;
  width: number;
  height: number;
  durationSeconds: number;
}

/** Frame selection of Extend Video: the new clip starts from the input's first or last frame. */
export type FrameSelection = 'First' | 'Last';

/**
 * One video of a creation job (SPEC §2.4, §3 pose_preset): the job engine calls renderVideo once
 * per result item, with that item's preset and its number `index` (1…quantity).
 */
export interface VideoRenderRequest {
  /** ai-motion | parallax-motion | try-on | character-animate | extend-video. */
  creationType: string;
  /** AI Motion only: image | text | transition | composer (null otherwise). */
  motionMode: string | null;
  /** The preset this video belongs to (camera path for Parallax, camera motion otherwise). */
  preset: PosePreset;
  /** The video's number within its preset, 1…quantity: varies the motion between copies. */
  index: number;
  /** Pictures (`image_urls`, in order) and the input video (`video_url`). */
  inputs: readonly RenderInputImage[];
  prompt: string;
  /** 0–100: with a picture and a prompt, how much the text drives the motion. */
  promptStrength: number;
  /** Text mode only (a picture gives its own ratio). */
  aspectRatio?: AspectRatio | string | null;
  /** Extend Video: which frame of the input video the new clip starts from (default Last). */
  frameSelection?: FrameSelection | null;
  /** The motion model (`option`). */
  model: string;
  seed: string;
  /** SPEC §6: guest videos carry the product logo on every frame. */
  logo: boolean;
}

/** A video tool call (SPEC §7 video/*): one operation on an input video (or picture) → one video. */
export interface VideoEditRequest {
  /** The tool slug: edit-video | video-effects | lip-sync | replace-background-video | modify-video. */
  tool: string;
  /** The model (`option`), e.g. CropToAspectRatio, EnhanceVideo, AttachAudio. */
  model: string;
  /** The endpoint called (e.g. `video/enhance`). */
  endpoint: string;
  /** The kept fields: prompt, aspect_ratio, voice, effect, enhance_mode, mode… */
  args: Readonly<Record<string, unknown>>;
  /** Resolved inputs; `field` says which (video_url, audio_url, image_url, end_image_url, bg_image_url…). */
  inputs: readonly RenderInputImage[];
  seed: string;
  logo: boolean;
}

/** Joins clips (a batch's concat): scaled/padded to the first clip's size, in order, audio under it. */
export interface VideoConcatRequest {
  /** Absolute paths of the clips, in order. */
  clips: readonly string[];
  /** An audio file trimmed/looped to the joined length. */
  audio?: string | null;
  seed: string;
  logo: boolean;
}

/** A LoRA fine-tune (SPEC §1): learns a style from the pictures. */
export interface FinetuneTrainRequest {
  /** FluxFinetune | FluxProFinetune | FluxKontextFinetune. */
  kind: string;
  /** The pictures; for Kontext alternating input, output, input, output… */
  inputs: readonly RenderInputImage[];
  prompt: string;
  triggerWord: string;
  seed: string;
}

export interface FinetuneTrained {
  /**
   * The learned style, JSON-safe (stored in `finetunes.style`, passed back as
   * `args.finetune_style` to image renders): palette, contrast, brightness, colour transform…
   */
  style: Record<string, unknown>;
  /** A picture made with the style, shown as the trained model's preview. */
  preview: RenderedImage;
}

/** What probeMedia finds in a stored audio or video file. */
export interface MediaProbe {
  durationSeconds: number;
  width?: number;
  height?: number;
  hasAudio: boolean;
}

/** Work a remote provider was given for a job: enough to watch, fetch or cancel it later. */
export interface RemoteRequest {
  /** The provider's endpoint (fal: the endpoint id, e.g. `fal-ai/flux-pro/v1.1`). */
  endpoint: string;
  requestId: string;
}

/**
 * What the job engine lends a provider for one job's render. A remote provider stores each request
 * it submits (`remember`, written to the job's row before it waits) and, when a restarted server
 * claims the job again, finds it (`recall`) and resumes watching it instead of submitting (and
 * paying) twice. The local engine ignores it.
 */
export interface RenderContext {
  /** The job this render belongs to. */
  jobId: string;
  /** A request submitted for this job under `key` by an earlier claim (e.g. before a restart). */
  recall(key: string): RemoteRequest | undefined;
  /** Stores a submitted request with the job under `key`. */
  remember(key: string, request: RemoteRequest): Promise<void>;
  /** How far the remote work is, 0–1. */
  onProgress?(fraction: number): void;
  /** The server is stopping: stop waiting (the remote work goes on and is resumed after the restart). */
  signal?: AbortSignal;
  /** The job was cancelled or deleted: stop waiting and cancel the remote work. */
  cancelled?: AbortSignal;
}

/** A free-text request to a language model (prompt helper, story board writer). */
export interface TextRequest {
  /** What the model is told it is doing. */
  system: string;
  prompt: string;
  signal?: AbortSignal;
}

export interface RenderProvider {
  /** `local` (the embedded stand-in) or `fal`. */
  readonly name: string;
  /**
   * Models this provider cannot run, with the reason (the catalogue offers them as inactive and
   * the API refuses them). The local engine runs everything.
   */
  unavailableModels(): ReadonlyMap<string, string>;
  /**
   * A language model for the prompt helper (suggest, refine, inspire) and the story board writer;
   * absent → Kinora's own deterministic writers (server/src/render/prompt-helper.ts, story-board.ts).
   */
  writeText?(request: TextRequest): Promise<string>;
  renderImage(request: ImageRenderRequest, context?: RenderContext): Promise<RenderedImage>;
  /**
   * Several pictures in one call (a model's `num_images`), in seed order. Absent → the job engine
   * calls renderImage once per seed (the local engine: each picture its own render).
   */
  renderImages?(request: ImageSetRequest, context?: RenderContext): Promise<RenderedImage[]>;
  renderAudio(request: AudioRenderRequest, context?: RenderContext): Promise<RenderedAudio>;
  /** Image2Prompt (SPEC §9 "guess from picture"): a prompt describing the picture's content. */
  describeImage(input: RenderInputImage): Promise<string>;
  /**
   * Creation jobs (SPEC §2.4): called once per result item (its preset and index); the local
   * engine answers with exactly one video, the array leaves room for providers that return more.
   */
  renderVideo(request: VideoRenderRequest, context?: RenderContext): Promise<RenderedVideo[]>;
  /** Video tools (SPEC §7 video/*). Strict audio sync on a length mismatch rejects with RenderRejectedError('failed'). */
  editVideo(request: VideoEditRequest, context?: RenderContext): Promise<RenderedVideo>;
  /** A batch's joined video (and issue 6's story); always made locally (ffmpeg), whatever the provider. */
  concatVideos(request: VideoConcatRequest): Promise<RenderedVideo>;
  /** LoRA fine-tune: the learned style and a preview picture. */
  trainFinetune(request: FinetuneTrainRequest, context?: RenderContext): Promise<FinetuneTrained>;
  /** Length, size and sound of a stored audio or video file (absolute path). */
  probeMedia(path: string): Promise<MediaProbe>;
}
