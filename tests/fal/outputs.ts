import { createHash } from 'node:crypto';
import sharp from 'sharp';
import type { FalOutputKind } from '../../server/src/render/fal/types.ts';
import { encodeFrames } from '../../server/src/render/video/h264.ts';
import { encodeWav, WAV_SAMPLE_RATE } from '../../server/src/render/wav-writer.ts';

/**
 * The files and answers the fal stand-in makes for a finished request, in the output shapes of
 * fal's model pages (each endpoint's "Output" schema on https://fal.ai/models/<id>/api). The files
 * are real (a PNG, an H.264 MP4, a WAV, a safetensors file) and small, so Kinora's downloads,
 * probes and thumbnails run on them exactly as on fal's CDN files.
 */

/** A file the stand-in serves at `/files/<name>`. */
export interface StandInFile {
  name: string;
  contentType: string;
  data: Buffer;
}

/** Long side of every picture: small enough to make in milliseconds, big enough to thumbnail. */
const IMAGE_LONG_SIDE = 256;
/** One short clip for every video answer: 1 s, 64×64, at the engine's frame rate. */
const VIDEO_SIZE = { width: 64, height: 64 };
const VIDEO_FRAMES = 24;
const AUDIO_SECONDS = { fallback: 1, min: 0.5, max: 10 };

/**
 * fal's named image sizes (the `image_size` enum of the FLUX pages, e.g.
 * https://fal.ai/models/fal-ai/flux/dev/api): width / height.
 */
const NAMED_IMAGE_SIZES: Readonly<Record<string, number>> = {
  square_hd: 1,
  square: 1,
  portrait_4_3: 3 / 4,
  portrait_16_9: 9 / 16,
  landscape_4_3: 4 / 3,
  landscape_16_9: 16 / 9,
};

/**
 * Endpoints whose docs name their audio output `audio_file` rather than `audio`
 * (https://fal.ai/models/fal-ai/stable-audio/api answers `{ audio_file: File }`).
 */
const AUDIO_FILE_ENDPOINTS = ['fal-ai/stable-audio'];

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** Width / height asked for by `image_size` (named or `{ width, height }`) or `aspect_ratio` ("16:9"), else 1. */
export function requestedRatio(input: Readonly<Record<string, unknown>>): number {
  const size = input.image_size;
  if (typeof size === 'string' && NAMED_IMAGE_SIZES[size] !== undefined) return NAMED_IMAGE_SIZES[size];
  if (size && typeof size === 'object') {
    const { width, height } = size as { width?: unknown; height?: unknown };
    if (typeof width === 'number' && typeof height === 'number' && width > 0 && height > 0) return width / height;
  }
  const ratio = typeof input.aspect_ratio === 'string' ? /^(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)$/.exec(input.aspect_ratio) : null;
  if (ratio) {
    const width = Number(ratio[1]);
    const height = Number(ratio[2]);
    if (width > 0 && height > 0) return width / height;
  }
  return 1;
}

/** The picture size for a ratio, long side IMAGE_LONG_SIDE, both sides even. */
export function pictureSize(ratio: number): { width: number; height: number } {
  const even = (value: number) => Math.max(2, Math.round(value / 2) * 2);
  return ratio >= 1
    ? { width: IMAGE_LONG_SIDE, height: even(IMAGE_LONG_SIDE / ratio) }
    : { width: even(IMAGE_LONG_SIDE * ratio), height: IMAGE_LONG_SIDE };
}

/** The made files, by name, so a repeated request costs a map look-up. */
export class OutputFiles {
  private readonly files = new Map<string, StandInFile>();
  private video: Promise<StandInFile> | undefined;

  get(name: string): StandInFile | undefined {
    return this.files.get(name);
  }

  private keep(file: StandInFile): StandInFile {
    this.files.set(file.name, file);
    return file;
  }

  /** A flat picture whose colour comes from a hash of the prompt. */
  async picture(prompt: string, ratio: number): Promise<StandInFile & { width: number; height: number }> {
    const size = pictureSize(ratio);
    const [r = 0, g = 0, b = 0] = digest(prompt);
    const name = `image-${size.width}x${size.height}-${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}.png`;
    const made = this.files.get(name);
    if (made) return { ...made, ...size };
    const data = await sharp({ create: { ...size, channels: 3, background: { r, g, b } } }).png().toBuffer();
    return { ...this.keep({ name, contentType: 'image/png', data }), ...size };
  }

  /** The one short H.264 clip, made on first use with the engine's own encoder. */
  clip(): Promise<StandInFile> {
    this.video ??= encodeFrames(VIDEO_SIZE, VIDEO_FRAMES, (index, frame) => {
      const shade = Math.round((index / VIDEO_FRAMES) * 255);
      for (let offset = 0; offset < frame.data.length; offset += 4) {
        frame.data[offset] = shade;
        frame.data[offset + 1] = 96;
        frame.data[offset + 2] = 255 - shade;
        frame.data[offset + 3] = 255;
      }
    }).then((mp4) => this.keep({ name: 'clip-64x64-1s.mp4', contentType: 'video/mp4', data: Buffer.from(mp4) }));
    return this.video;
  }

  /** A sine tone whose pitch comes from a hash of the prompt, `seconds` long. */
  tone(prompt: string, seconds: number): StandInFile {
    const pitch = 220 + (digest(prompt)[0] ?? 0) * 2;
    const length = Math.round(Math.min(AUDIO_SECONDS.max, Math.max(AUDIO_SECONDS.min, seconds)) * 10) / 10;
    const name = `tone-${pitch}hz-${length}s.wav`;
    const made = this.files.get(name);
    if (made) return made;
    const samples = new Float32Array(Math.round(length * WAV_SAMPLE_RATE));
    for (let index = 0; index < samples.length; index += 1) samples[index] = 0.4 * Math.sin((2 * Math.PI * pitch * index) / WAV_SAMPLE_RATE);
    return this.keep({ name, contentType: 'audio/wav', data: encodeWav(samples) });
  }

  /** A valid safetensors file (8-byte header length, JSON header, one 4×4 F32 tensor) and its config. */
  lora(prompt: string): { weights: StandInFile; config: StandInFile } {
    const tag = digest(prompt).toString('hex').slice(0, 12);
    const weightsName = `lora-${tag}.safetensors`;
    const configName = `lora-${tag}-config.json`;
    const madeWeights = this.files.get(weightsName);
    const madeConfig = this.files.get(configName);
    if (madeWeights && madeConfig) return { weights: madeWeights, config: madeConfig };
    const tensor = Buffer.alloc(16 * 4);
    for (let index = 0; index < 16; index += 1) tensor.writeFloatLE(index / 16, index * 4);
    let header = JSON.stringify({
      __metadata__: { format: 'pt', trigger: prompt.slice(0, 64) },
      'lora_unet.weight': { dtype: 'F32', shape: [4, 4], data_offsets: [0, tensor.length] },
    });
    // The format pads the header with spaces to a multiple of 8 bytes.
    header = header.padEnd(Math.ceil(Buffer.byteLength(header) / 8) * 8, ' ');
    const length = Buffer.alloc(8);
    length.writeBigUInt64LE(BigInt(Buffer.byteLength(header)));
    const weights = this.keep({ name: weightsName, contentType: 'application/octet-stream', data: Buffer.concat([length, Buffer.from(header), tensor]) });
    const config = this.keep({
      name: configName,
      contentType: 'application/json',
      data: Buffer.from(JSON.stringify({ trigger_word: prompt.slice(0, 64), steps: 1, rank: 4 })),
    });
    return { weights, config };
  }
}

export interface OutputContext {
  endpointId: string;
  kind: FalOutputKind;
  input: Readonly<Record<string, unknown>>;
  /** Every `prompt` of the input, joined. */
  prompt: string;
  nsfw: boolean;
  /** `<origin>/files/<name>` for a made file. */
  fileUrl(name: string): string;
}

const fileOf = (context: OutputContext, file: StandInFile) => ({
  url: context.fileUrl(file.name),
  content_type: file.contentType,
  file_name: file.name,
  file_size: file.data.length,
});

const numberIn = (input: Readonly<Record<string, unknown>>, ...keys: string[]): number | undefined => {
  for (const key of keys) {
    const value = input[key];
    const number = typeof value === 'string' ? Number(value) : value;
    if (typeof number === 'number' && Number.isFinite(number)) return number;
  }
  return undefined;
};

/** A deterministic line of text from the prompt: what an LLM endpoint's `output` carries. */
export const textFor = (prompt: string): string =>
  prompt.trim() === '' ? 'A quiet landscape at dawn, soft light over still water.' : `A vivid, cinematic take on: ${prompt.trim()}`;

/** The endpoint's output JSON, by output kind, with its files made and kept. */
export async function outputFor(files: OutputFiles, context: OutputContext): Promise<Record<string, unknown>> {
  const { input, prompt } = context;
  switch (context.kind) {
    case 'image': {
      // https://fal.ai/models/fal-ai/flux-pro/v1.1/api (Output): images[], timings, seed, has_nsfw_concepts[], prompt.
      const count = Math.min(4, Math.max(1, Math.round(numberIn(input, 'num_images') ?? 1)));
      const pictures = await Promise.all(Array.from({ length: count }, (_, index) => files.picture(`${prompt}#${index}`, requestedRatio(input))));
      return {
        images: pictures.map((picture) => ({ url: context.fileUrl(picture.name), width: picture.width, height: picture.height, content_type: picture.contentType })),
        timings: { inference: 0.01 },
        seed: numberIn(input, 'seed') ?? digest(prompt).readUInt32LE(0),
        has_nsfw_concepts: pictures.map(() => context.nsfw),
        prompt,
      };
    }
    case 'video':
      // https://fal.ai/models/fal-ai/kling-video/v2.1/standard/image-to-video/api (Output): { video: File }.
      return { video: fileOf(context, await files.clip()) };
    case 'audio': {
      // https://fal.ai/models/fal-ai/elevenlabs/tts/multilingual-v2/api (Output): { audio: File }.
      const tone = files.tone(prompt, numberIn(input, 'duration', 'seconds_total', 'duration_seconds') ?? AUDIO_SECONDS.fallback);
      const field = AUDIO_FILE_ENDPOINTS.some((id) => context.endpointId === id || context.endpointId.startsWith(`${id}/`)) ? 'audio_file' : 'audio';
      return { [field]: fileOf(context, tone) };
    }
    case 'lora': {
      // https://fal.ai/models/fal-ai/flux-lora-fast-training/api (Output): diffusers_lora_file, config_file.
      const { weights, config } = files.lora(prompt);
      return { diffusers_lora_file: fileOf(context, weights), config_file: fileOf(context, config) };
    }
    case 'text':
      // https://fal.ai/models/openrouter/router/api (Output): { output, reasoning?, partial, error? }.
      return { output: textFor(prompt), partial: false };
  }
}
