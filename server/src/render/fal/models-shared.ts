import type { EndpointTypeMap } from '@fal-ai/client/endpoints';
import type { FalCall, FalInputFile, FalOutputKind, FalRequest } from './types.ts';

/**
 * Small pure helpers the fal model map shares: where a request's files are, fal's enums for
 * Kinora's aspect ratios and durations, and dropping absent fields (fal validates every key it
 * is sent, so an `undefined` must never reach it).
 */

/** Every endpoint id `@fal-ai/client` knows, with its input type (generated from fal's OpenAPI schemas). */
export type FalEndpoint = keyof EndpointTypeMap;
export type FalInputOf<E extends FalEndpoint> = EndpointTypeMap[E]['input'];

/** The API page of an endpoint on fal.ai: its input schema, the page each call was mapped from. */
export const falDocs = (endpoint: string): string => `https://fal.ai/models/${endpoint}/api`;

/**
 * One map entry: the endpoint, what it answers and how Kinora's request becomes its input. The
 * input is typed by `@fal-ai/client`'s EndpointTypeMap, so a misspelt field or a value outside an
 * enum of fal's schema fails the type check rather than at fal.
 */
export const falCall = <E extends FalEndpoint>(
  endpoint: E,
  output: FalOutputKind,
  input: (request: FalRequest) => FalInputOf<E>,
): FalCall => ({ endpoint, docs: falDocs(endpoint), output, input: (request) => compact(input(request) as Record<string, unknown>) });

/** A file the call cannot run without: Kinora's form requires it, so its absence is a bug upstream. */
export function need(url: string | undefined, what: string): string {
  if (url === undefined) throw new Error(`The fal call needs ${what}, and the request has none.`);
  return url;
}

/** The object without its `undefined` (and empty-array) fields. */
export function compact(input: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    if (Array.isArray(value) && value.length === 0) continue;
    kept[key] = value;
  }
  return kept;
}

/** The files that came from this Kinora field, in request order. */
export const filesOf = (request: FalRequest, field: string): FalInputFile[] => request.files.filter((file) => file.field === field);

/** The URL of the first file of the first of these fields that has one. */
export function urlOf(request: FalRequest, ...fields: string[]): string | undefined {
  for (const field of fields) {
    const found = filesOf(request, field)[0];
    if (found) return found.url;
  }
  return undefined;
}

/** Every URL of these fields, in request order. */
export const urlsOf = (request: FalRequest, ...fields: string[]): string[] =>
  request.files.filter((file) => fields.includes(file.field)).map((file) => file.url);

/** The n-th picture of a request, whatever field carried it (`image_url`, `image_urls`, …). */
export function pictureAt(request: FalRequest, index: number): string | undefined {
  return request.files.filter((file) => file.contentType.startsWith('image/'))[index]?.url;
}

/** A string arg, or undefined when absent or empty. */
export function textArg(request: FalRequest, key: string): string | undefined {
  const value = request.args[key];
  if (typeof value === 'string' && value.trim() !== '') return value;
  if (typeof value === 'number') return String(value);
  return undefined;
}

/** A numeric arg, or undefined when absent or not a number. */
export function numberArg(request: FalRequest, key: string): number | undefined {
  const value = request.args[key];
  const parsed = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  return Number.isFinite(parsed) ? parsed : undefined;
}

/**
 * `num_images` (issue 21 item 7): several pictures from one call of a model that takes it; left out
 * for one picture (fal's default). Mapped from the input schemas of fal's pages, e.g.
 * https://fal.ai/models/fal-ai/stable-diffusion-v35-large/api ("num_images: The number of images to
 * generate. Default value: 1"; the answer's `images` lists them), typed by `@fal-ai/client`.
 */
export const numImages = (request: FalRequest): number | undefined => (request.images !== undefined && request.images > 1 ? request.images : undefined);

/**
 * `negative_prompt` (issue 21 item 7) for the models that take one (Stable Diffusion 3.5, Realistic
 * Vision: the same pages' input schemas); absent when the person gave none, so fal's default applies.
 */
export const negativePrompt = (request: FalRequest): string | undefined => textArg(request, 'negative_prompt');

/** The prompt, or undefined when empty (fal's optional prompts must be left out, not sent as ""). */
export const promptOrNothing = (request: FalRequest): string | undefined => (request.prompt.trim() === '' ? undefined : request.prompt);

/** The allowed value nearest to `value` (ties go to the smaller). */
export function nearest<T extends number>(value: number, allowed: readonly T[]): T {
  let best = allowed[0] as T;
  for (const candidate of allowed) if (Math.abs(candidate - value) < Math.abs(best - value)) best = candidate;
  return best;
}

/** Kinora's five ratios as numbers (width / height), to pick the nearest of a model's own list. */
const RATIO_VALUES: Readonly<Record<string, number>> = { '16:9': 16 / 9, '4:3': 4 / 3, '1:1': 1, '3:4': 3 / 4, '9:16': 9 / 16 };

/** The ratio of `allowed` nearest to Kinora's (or `fallback` when Kinora gave none: Origin). */
export function nearestRatio<T extends string>(aspectRatio: string | undefined, allowed: readonly T[]): T | undefined;
export function nearestRatio<T extends string, F extends string>(aspectRatio: string | undefined, allowed: readonly T[], fallback: F): T | F;
export function nearestRatio<T extends string>(aspectRatio: string | undefined, allowed: readonly T[], fallback?: string): string | undefined {
  const wanted = aspectRatio === undefined ? undefined : RATIO_VALUES[aspectRatio];
  if (wanted === undefined) return fallback;
  const value = (ratio: string): number => {
    const [width, height] = ratio.split(':').map(Number);
    return width && height ? width / height : 1;
  };
  let best = allowed[0] as T;
  // Compare in log space so 9:16 and 16:9 are equally far from 1:1.
  for (const candidate of allowed) if (Math.abs(Math.log(value(candidate) / wanted)) < Math.abs(Math.log(value(best) / wanted))) best = candidate;
  return best;
}

/**
 * fal's `image_size` presets (FLUX, Seedream, Stable Diffusion, Realistic Vision…): Kinora's
 * ratios map one to one; Origin (no ratio) leaves the model's default.
 */
type ImageSizePreset = 'square_hd' | 'portrait_4_3' | 'portrait_16_9' | 'landscape_4_3' | 'landscape_16_9';
const IMAGE_SIZES: Readonly<Record<string, ImageSizePreset>> = {
  '1:1': 'square_hd',
  '16:9': 'landscape_16_9',
  '4:3': 'landscape_4_3',
  '3:4': 'portrait_4_3',
  '9:16': 'portrait_16_9',
};
export const imageSize = (request: FalRequest): ImageSizePreset | undefined => (request.aspectRatio ? IMAGE_SIZES[request.aspectRatio] : undefined);

/** Seconds asked for (`durationSeconds`, else args.motion_length / duration), else Kinora's default 5. */
export function secondsOf(request: FalRequest, fallback = 5): number {
  return request.durationSeconds ?? numberArg(request, 'motion_length') ?? numberArg(request, 'duration') ?? fallback;
}

/** Kling's, Pixverse's and others' `"5"` / `"10"` durations: the nearest to the seconds asked for. */
export const fiveOrTen = (request: FalRequest): '5' | '10' => (secondsOf(request) > 7.5 ? '10' : '5');

/** The first picture of a tool call: `image_url`, else the first picture of any field. */
export const firstPicture = (request: FalRequest): string | undefined => urlOf(request, 'image_url') ?? pictureAt(request, 0);

/** The aspect ratios FLUX Kontext, Nano Banana and fal's image-editing apps accept. */
export const WIDE_RATIOS = ['21:9', '16:9', '4:3', '3:2', '1:1', '2:3', '3:4', '9:16', '9:21'] as const;
