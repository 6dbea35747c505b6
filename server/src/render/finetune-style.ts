import { readFile } from 'node:fs/promises';
import { decodePicture, pictureToSharp, type Picture } from './picture-decode.ts';
import type { RenderInputImage } from './provider.ts';
import { RenderInputError } from './render-errors.ts';

/**
 * The LoRA fine-tune's stand-in: what "training" learns from the pictures is their look, as a
 * small JSON-safe style (stored with the trained model, passed back as `args.finetune_style`):
 * the pictures' palette and colour statistics, and for Flux Kontext the colour transform that
 * turns each input picture into its output picture (least squares over the pairs' pixels).
 * Pictures made with the trained model then carry that look (applyFinetuneStyle).
 */

export interface FinetuneStyle {
  version: 1;
  kind: string;
  triggerWord: string;
  /** Five colours of the pictures (k-means centres), darkest first. */
  palette: string[];
  /** Per-channel mean and standard deviation (0–255) of the pictures. */
  mean: [number, number, number];
  deviation: [number, number, number];
  /** Mean luminance and its spread, 0–1. */
  brightness: number;
  contrast: number;
  /** Kontext: output = M · [r, g, b, 1] (channels 0–1), one row per output channel. */
  colourTransform?: [number, number, number, number][];
  /** How much of the look a picture takes on, 0–1. */
  strength: number;
}

/** Pixels each picture contributes to the statistics (a small copy is enough for colours). */
const STATS_SIDE = 64;
/** Kontext pairs are compared pixel for pixel at this size. */
const PAIR_SIDE = 32;
const PALETTE_SIZE = 5;
const STYLE_STRENGTH = 0.8;
/** How far each pixel moves toward its nearest palette colour. */
const PALETTE_PULL = 0.22;

async function readPicture(input: RenderInputImage, maxSide: number): Promise<Picture> {
  let data: Buffer;
  try {
    data = await readFile(input.path);
  } catch {
    throw new RenderInputError(`The picture given as ${input.field} could not be found.`);
  }
  const picture = await decodePicture(data, maxSide);
  if (!picture) throw new RenderInputError(`The picture given as ${input.field} could not be read (${input.contentType}).`);
  return picture;
}

async function exactSize(picture: Picture, side: number): Promise<Picture> {
  const { data, info } = await pictureToSharp(picture).resize(side, side, { fit: 'fill' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

const luminance = (r: number, g: number, b: number) => 0.2126 * r + 0.7152 * g + 0.0722 * b;
const toHex = (rgb: readonly number[]) => `#${rgb.map((value) => Math.round(Math.min(255, Math.max(0, value))).toString(16).padStart(2, '0')).join('')}`;
const fromHex = (hex: string): [number, number, number] => {
  const value = Number.parseInt(hex.replace('#', '').slice(0, 6), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
};

/** Every opaque pixel's RGB, as a flat list. */
function rgbValues(pictures: readonly Picture[]): Float64Array {
  const count = pictures.reduce((sum, picture) => sum + picture.width * picture.height, 0);
  const values = new Float64Array(count * 3);
  let at = 0;
  for (const picture of pictures) {
    for (let offset = 0; offset < picture.data.length; offset += 4) {
      values[at] = picture.data[offset] ?? 0;
      values[at + 1] = picture.data[offset + 1] ?? 0;
      values[at + 2] = picture.data[offset + 2] ?? 0;
      at += 3;
    }
  }
  return values;
}

/** k-means in RGB, started from the pixels at luminance quantiles so it is deterministic. */
function palette(values: Float64Array): string[] {
  const count = values.length / 3;
  const order = Array.from({ length: count }, (_, index) => index).sort(
    (a, b) => luminance(values[a * 3] ?? 0, values[a * 3 + 1] ?? 0, values[a * 3 + 2] ?? 0) - luminance(values[b * 3] ?? 0, values[b * 3 + 1] ?? 0, values[b * 3 + 2] ?? 0),
  );
  const centres = Array.from({ length: PALETTE_SIZE }, (_, index) => {
    const pixel = order[Math.floor(((index + 0.5) / PALETTE_SIZE) * count)] ?? 0;
    return [values[pixel * 3] ?? 0, values[pixel * 3 + 1] ?? 0, values[pixel * 3 + 2] ?? 0];
  });
  for (let round = 0; round < 8; round += 1) {
    const sums = centres.map(() => [0, 0, 0, 0]);
    for (let pixel = 0; pixel < count; pixel += 1) {
      const r = values[pixel * 3] ?? 0;
      const g = values[pixel * 3 + 1] ?? 0;
      const b = values[pixel * 3 + 2] ?? 0;
      let best = 0;
      let bestDistance = Number.POSITIVE_INFINITY;
      centres.forEach((centre, index) => {
        const distance = (r - (centre[0] ?? 0)) ** 2 + (g - (centre[1] ?? 0)) ** 2 + (b - (centre[2] ?? 0)) ** 2;
        if (distance < bestDistance) {
          bestDistance = distance;
          best = index;
        }
      });
      const sum = sums[best] as number[];
      sum[0] = (sum[0] ?? 0) + r;
      sum[1] = (sum[1] ?? 0) + g;
      sum[2] = (sum[2] ?? 0) + b;
      sum[3] = (sum[3] ?? 0) + 1;
    }
    sums.forEach((sum, index) => {
      const n = sum[3] ?? 0;
      if (n > 0) centres[index] = [(sum[0] ?? 0) / n, (sum[1] ?? 0) / n, (sum[2] ?? 0) / n];
    });
  }
  return centres
    .sort((a, b) => luminance(a[0] ?? 0, a[1] ?? 0, a[2] ?? 0) - luminance(b[0] ?? 0, b[1] ?? 0, b[2] ?? 0))
    .map(toHex);
}

function statistics(values: Float64Array): Pick<FinetuneStyle, 'mean' | 'deviation' | 'brightness' | 'contrast'> {
  const count = values.length / 3;
  const mean = [0, 0, 0];
  const square = [0, 0, 0];
  let lumaSum = 0;
  let lumaSquare = 0;
  for (let pixel = 0; pixel < count; pixel += 1) {
    for (let channel = 0; channel < 3; channel += 1) {
      const value = values[pixel * 3 + channel] ?? 0;
      mean[channel] = (mean[channel] ?? 0) + value;
      square[channel] = (square[channel] ?? 0) + value * value;
    }
    const luma = luminance(values[pixel * 3] ?? 0, values[pixel * 3 + 1] ?? 0, values[pixel * 3 + 2] ?? 0) / 255;
    lumaSum += luma;
    lumaSquare += luma * luma;
  }
  const average = mean.map((sum) => sum / count) as [number, number, number];
  const deviation = square.map((sum, channel) => Math.sqrt(Math.max(0, sum / count - (average[channel] ?? 0) ** 2))) as [number, number, number];
  const brightness = lumaSum / count;
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return {
    mean: average.map(round) as [number, number, number],
    deviation: deviation.map(round) as [number, number, number],
    brightness: round(brightness),
    contrast: round(Math.sqrt(Math.max(0, lumaSquare / count - brightness * brightness))),
  };
}

/** Solves the 4×4 system a·x = b by Gaussian elimination with partial pivoting. */
function solve4(a: number[][], b: number[]): number[] {
  const m = a.map((row, index) => [...row, b[index] ?? 0]);
  for (let column = 0; column < 4; column += 1) {
    let pivot = column;
    for (let row = column + 1; row < 4; row += 1) if (Math.abs(m[row]?.[column] ?? 0) > Math.abs(m[pivot]?.[column] ?? 0)) pivot = row;
    [m[column], m[pivot]] = [m[pivot] as number[], m[column] as number[]];
    const lead = m[column]?.[column] ?? 0;
    if (Math.abs(lead) < 1e-12) continue;
    for (let row = 0; row < 4; row += 1) {
      if (row === column) continue;
      const factor = (m[row]?.[column] ?? 0) / lead;
      for (let k = column; k < 5; k += 1) (m[row] as number[])[k] = (m[row]?.[k] ?? 0) - factor * (m[column]?.[k] ?? 0);
    }
  }
  return m.map((row, index) => (row[4] ?? 0) / (row[index] || 1));
}

/**
 * The affine colour transform that best maps the inputs' pixels to the outputs' (least squares,
 * pulled slightly toward "no change" so a few pairs cannot give a wild transform).
 */
function colourTransform(pairs: readonly (readonly [Picture, Picture])[]): [number, number, number, number][] {
  const xtx = Array.from({ length: 4 }, () => [0, 0, 0, 0]);
  const xty = Array.from({ length: 3 }, () => [0, 0, 0, 0]);
  let count = 0;
  for (const [input, output] of pairs) {
    for (let offset = 0; offset < input.data.length; offset += 4) {
      const x = [(input.data[offset] ?? 0) / 255, (input.data[offset + 1] ?? 0) / 255, (input.data[offset + 2] ?? 0) / 255, 1];
      const y = [(output.data[offset] ?? 0) / 255, (output.data[offset + 1] ?? 0) / 255, (output.data[offset + 2] ?? 0) / 255];
      for (let i = 0; i < 4; i += 1) {
        for (let j = 0; j < 4; j += 1) (xtx[i] as number[])[j] = (xtx[i]?.[j] ?? 0) + (x[i] ?? 0) * (x[j] ?? 0);
        for (let c = 0; c < 3; c += 1) (xty[c] as number[])[i] = (xty[c]?.[i] ?? 0) + (x[i] ?? 0) * (y[c] ?? 0);
      }
      count += 1;
    }
  }
  const ridge = 0.01 * count;
  return [0, 1, 2].map((channel) => {
    const identity = [0, 0, 0, 0];
    identity[channel] = 1;
    const a = xtx.map((row, i) => row.map((value, j) => value + (i === j ? ridge : 0)));
    const b = (xty[channel] as number[]).map((value, i) => value + ridge * (identity[i] ?? 0));
    return solve4(a, b).map((value) => Math.round(value * 10_000) / 10_000) as [number, number, number, number];
  });
}

export interface LearnRequest {
  kind: string;
  inputs: readonly RenderInputImage[];
  triggerWord: string;
}

/** Learns the style: Kontext from its input → output pairs (the outputs' look), the others from all pictures. */
export async function learnFinetuneStyle(request: LearnRequest): Promise<FinetuneStyle> {
  if (request.inputs.length === 0) throw new RenderInputError('Training needs pictures.');
  const kontext = request.kind === 'FluxKontextFinetune';
  const small = await Promise.all(request.inputs.map((input) => readPicture(input, STATS_SIDE)));
  const looks = kontext ? small.filter((_, index) => index % 2 === 1) : small;
  const values = rgbValues(looks.length > 0 ? looks : small);
  const style: FinetuneStyle = {
    version: 1,
    kind: request.kind,
    triggerWord: request.triggerWord,
    palette: palette(values),
    ...statistics(values),
    strength: STYLE_STRENGTH,
  };
  if (!kontext || request.inputs.length < 2) return style;
  const pairs: [Picture, Picture][] = [];
  for (let index = 0; index + 1 < small.length; index += 2) {
    pairs.push([await exactSize(small[index] as Picture, PAIR_SIDE), await exactSize(small[index + 1] as Picture, PAIR_SIDE)]);
  }
  return { ...style, colourTransform: colourTransform(pairs) };
}

const isNumberList = (value: unknown, length: number): value is number[] =>
  Array.isArray(value) && value.length === length && value.every((item) => typeof item === 'number' && Number.isFinite(item));

/** A stored style (args.finetune_style, from JSON) when it has the shape applyFinetuneStyle needs; else null. */
export function parseFinetuneStyle(value: unknown): FinetuneStyle | null {
  if (typeof value !== 'object' || value === null) return null;
  const style = value as Record<string, unknown>;
  if (!Array.isArray(style.palette) || !style.palette.every((colour) => typeof colour === 'string' && /^#[0-9a-f]{6}$/i.test(colour))) return null;
  if (!isNumberList(style.mean, 3) || !isNumberList(style.deviation, 3)) return null;
  if (style.colourTransform !== undefined && !(Array.isArray(style.colourTransform) && style.colourTransform.length === 3 && style.colourTransform.every((row) => isNumberList(row, 4)))) return null;
  return value as FinetuneStyle;
}

/**
 * Gives a picture the learned look: the Kontext colour transform when there is one, otherwise
 * the pictures' colour statistics (each channel's mean and spread moved to the learned ones),
 * then a pull toward the learned palette. Works on a copy; alpha is kept.
 */
export function applyFinetuneStyle(picture: Picture, style: FinetuneStyle): Picture {
  const data = Buffer.from(picture.data);
  const strength = Math.min(1, Math.max(0, style.strength ?? STYLE_STRENGTH));
  const pixels = picture.width * picture.height;
  const mean = [0, 0, 0];
  const square = [0, 0, 0];
  for (let offset = 0; offset < data.length; offset += 4) {
    for (let channel = 0; channel < 3; channel += 1) {
      const value = data[offset + channel] ?? 0;
      mean[channel] = (mean[channel] ?? 0) + value;
      square[channel] = (square[channel] ?? 0) + value * value;
    }
  }
  const sourceMean = mean.map((sum) => sum / pixels);
  const sourceDeviation = square.map((sum, channel) => Math.max(1, Math.sqrt(Math.max(0, sum / pixels - (sourceMean[channel] ?? 0) ** 2))));
  const colours = style.palette.map(fromHex);
  const matrix = style.colourTransform;
  const rgb = [0, 0, 0];
  for (let offset = 0; offset < data.length; offset += 4) {
    const r = data[offset] ?? 0;
    const g = data[offset + 1] ?? 0;
    const b = data[offset + 2] ?? 0;
    for (let channel = 0; channel < 3; channel += 1) {
      const value = [r, g, b][channel] ?? 0;
      let styled: number;
      if (matrix) {
        const row = matrix[channel] as [number, number, number, number];
        styled = 255 * (row[0] * (r / 255) + row[1] * (g / 255) + row[2] * (b / 255) + row[3]);
      } else {
        styled = ((value - (sourceMean[channel] ?? 0)) / (sourceDeviation[channel] ?? 1)) * (style.deviation[channel] ?? 1) + (style.mean[channel] ?? 0);
      }
      rgb[channel] = value + (styled - value) * strength;
    }
    let nearest = colours[0] ?? [0, 0, 0];
    let nearestDistance = Number.POSITIVE_INFINITY;
    for (const colour of colours) {
      const distance = ((rgb[0] ?? 0) - colour[0]) ** 2 + ((rgb[1] ?? 0) - colour[1]) ** 2 + ((rgb[2] ?? 0) - colour[2]) ** 2;
      if (distance < nearestDistance) {
        nearestDistance = distance;
        nearest = colour;
      }
    }
    for (let channel = 0; channel < 3; channel += 1) {
      const value = (rgb[channel] ?? 0) + ((nearest[channel] ?? 0) - (rgb[channel] ?? 0)) * PALETTE_PULL * strength;
      data[offset + channel] = Math.round(Math.min(255, Math.max(0, value)));
    }
  }
  return { data, width: picture.width, height: picture.height };
}
