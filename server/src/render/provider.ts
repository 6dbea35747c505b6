import type { AspectRatio } from '../../../src/config/enums.ts';

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

export interface RenderProvider {
  renderImage(request: ImageRenderRequest): Promise<RenderedImage>;
  renderAudio(request: AudioRenderRequest): Promise<RenderedAudio>;
  /** Image2Prompt (SPEC §9 "guess from picture"): a prompt describing the picture's content. */
  describeImage(input: RenderInputImage): Promise<string>;
}
