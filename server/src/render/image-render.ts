import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { nearestRatio, RATIO_SIZES, scaleToLongSide, sizeForRatio, type Size } from './canvas-size.ts';
import { applyFinetuneStyle, parseFinetuneStyle } from './finetune-style.ts';
import { gradientSvg, promptPalette, sceneSvg } from './generated-scene.ts';
import { promptWithout, promptWords } from './palette.ts';
import { decodePicture, pictureToSharp, type Picture } from './picture-decode.ts';
import { pixelTextSvg, pixelTextWidth, PIXEL_TEXT_HEIGHT } from './pixel-font.ts';
import type { ImageRenderRequest, RenderedImage, RenderInputImage } from './provider.ts';
import { RenderInputError, RenderRejectedError } from './render-errors.ts';
import { between, seededRandom } from './seeded-random.ts';

/**
 * The image stand-ins. Text-to-image draws a generated scene; every tool with inputs really
 * works on them: resized to the requested ratio, treated per model and prompt, composited (try-on,
 * face swap, elements, backgrounds), and finished with the guest's watermark when asked.
 */

export const THUMBNAIL_LONG_SIDE = 320;
/** Upscaling doubles the picture up to this long side. */
const UPSCALE_MAX_SIDE = 2048;
/** Inputs are read at most this large: no output is bigger. */
const INPUT_MAX_SIDE = 2048;
/** A remote model's picture is kept up to this long side (fal's largest sizes are 2048 px; Ultra's 4 MP ones are scaled). */
const DOWNLOAD_MAX_SIDE = 4096;

type Overlay = sharp.OverlayOptions;

async function toPicture(pipeline: sharp.Sharp): Promise<Picture> {
  // sRGB keeps greyscale results at four channels, the layout every step expects.
  const { data, info } = await pipeline.toColourspace('srgb').ensureAlpha().raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
  if (info.channels !== 4) throw new Error(`Expected RGBA pixels, got ${info.channels} channels`);
  return { data, width: info.width, height: info.height };
}

/** Runs one step on a picture; steps are separate pipelines so their order is exactly as written. */
const step = (picture: Picture, apply: (pipeline: sharp.Sharp) => sharp.Sharp): Promise<Picture> =>
  toPicture(apply(pictureToSharp(picture)));

const svgPicture = (svg: string): Promise<Picture> => toPicture(sharp(Buffer.from(svg)));

const overlay = (picture: Picture, left = 0, top = 0, blend: sharp.Blend = 'over'): Overlay => ({
  input: picture.data,
  raw: { width: picture.width, height: picture.height, channels: 4 },
  left: Math.round(left),
  top: Math.round(top),
  blend,
});

const svgOverlay = (svg: string, left = 0, top = 0, blend: sharp.Blend = 'over'): Overlay => ({
  input: Buffer.from(svg),
  left: Math.round(left),
  top: Math.round(top),
  blend,
});

const compose = (base: Picture, layers: Overlay[]): Promise<Picture> => step(base, (pipeline) => pipeline.composite(layers));

/** Fills `size` with the picture, cropping around its most interesting part. */
const cover = (picture: Picture, size: Size): Promise<Picture> =>
  step(picture, (pipeline) => pipeline.resize(size.width, size.height, { fit: 'cover', position: sharp.strategy.attention }));

/** Keeps only the part of the picture under the mask's opaque pixels. */
const maskWith = (picture: Picture, maskSvg: string): Promise<Picture> => compose(picture, [svgOverlay(maskSvg, 0, 0, 'dest-in')]);

const opaque = (picture: Picture): Promise<Picture> => step(picture, (pipeline) => pipeline.flatten({ background: '#ffffff' }));

// ---------------------------------------------------------------------------------------------
// Treatments driven by the prompt and the model

/** Greyscale that keeps three channels (sharp's greyscale() makes one, which later steps do not expect). */
const GREY: sharp.Matrix3x3 = [
  [0.2126, 0.7152, 0.0722],
  [0.2126, 0.7152, 0.0722],
  [0.2126, 0.7152, 0.0722],
];

/**
 * A 3×3 sharpening kernel (its weights sum to 1). sharp's own sharpen({ sigma }) works in LAB and
 * takes over a second on a 2048 px picture; this is ten times faster and enough for a stand-in.
 */
const sharpened = (pipeline: sharp.Sharp, amount: number): sharp.Sharp =>
  pipeline.removeAlpha().convolve({ width: 3, height: 3, kernel: [0, -amount, 0, -amount, 1 + 4 * amount, -amount, 0, -amount, 0] });

/** Effects the prompt asks for in plain words ("black and white", "vintage", "dreamy"…). */
async function promptEffects(picture: Picture, prompt: string): Promise<Picture> {
  const words = new Set(promptWords(prompt));
  const has = (...list: string[]) => list.some((word) => words.has(word));
  let result = picture;
  if (has('monochrome', 'noir', 'greyscale', 'grayscale') || /black\s+(and|&)\s+white/i.test(prompt)) {
    result = await step(result, (pipeline) => pipeline.removeAlpha().recomb(GREY));
  }
  if (has('vintage', 'sepia', 'old', 'retro', 'antique')) {
    result = await step(result, (pipeline) =>
      pipeline.removeAlpha().recomb([
        [0.393, 0.769, 0.189],
        [0.349, 0.686, 0.168],
        [0.272, 0.534, 0.131],
      ]),
    );
  }
  if (has('negative', 'invert', 'inverted', 'xray')) result = await step(result, (pipeline) => pipeline.removeAlpha().negate());
  if (has('dream', 'dreamy', 'blur', 'blurry', 'fog', 'foggy', 'mist', 'misty', 'soft')) {
    result = await step(result, (pipeline) => pipeline.blur(2.5));
  }
  if (has('sharp', 'detailed', 'crisp', 'hd', '4k', '8k')) result = await step(result, (pipeline) => sharpened(pipeline, 0.6));
  if (has('bright', 'sunny', 'light', 'daylight')) result = await step(result, (pipeline) => pipeline.modulate({ brightness: 1.15 }));
  if (has('dark', 'night', 'moody', 'gloomy', 'shadow')) result = await step(result, (pipeline) => pipeline.modulate({ brightness: 0.8 }));
  if (has('vivid', 'colorful', 'colourful', 'saturated', 'vibrant')) result = await step(result, (pipeline) => pipeline.modulate({ saturation: 1.4 }));
  return result;
}

/** A soft-light wash in the prompt's palette; `strength` 0…1. */
function paletteWash(size: Size, prompt: string, seed: string, strength: number): Overlay {
  const palette = promptPalette(prompt, seed);
  const opacity = Math.round(strength * 100) / 100;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}"><defs><linearGradient id="w" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${palette[2]}"/><stop offset="1" stop-color="${palette[3]}"/></linearGradient></defs><rect width="${size.width}" height="${size.height}" fill="url(#w)" fill-opacity="${opacity}"/></svg>`;
  return svgOverlay(svg, 0, 0, 'soft-light');
}

/** Quantises each channel to a few levels (the poster look of a restyle). */
function posterise(picture: Picture, levels: number): Picture {
  const data = Buffer.from(picture.data);
  const stepSize = 255 / (levels - 1);
  for (let index = 0; index < data.length; index += 1) {
    if (index % 4 === 3) continue;
    data[index] = Math.round(Math.round((data[index] ?? 0) / stepSize) * stepSize);
  }
  return { ...picture, data };
}

/** The general treatment of the editing models: a model-specific colour shift and a palette wash. */
async function stylise(picture: Picture, request: ImageRenderRequest): Promise<Picture> {
  const random = seededRandom('stylise', request.model, request.prompt, request.seed);
  const hue = Math.round(between(random, -18, 18));
  const saturation = between(random, 0.95, 1.3);
  const brightness = between(random, 0.95, 1.08);
  const shifted = await step(picture, (pipeline) => pipeline.modulate({ hue, saturation, brightness }));
  const washed = await compose(shifted, [paletteWash(picture, request.prompt, request.seed, between(random, 0.25, 0.5))]);
  return promptEffects(washed, request.prompt);
}

/** Pencil lines (Sobel edges, darkened) over a light, paper-tinted shading of the picture. */
async function sketch(picture: Picture): Promise<Picture> {
  const grey = await step(picture, (pipeline) => pipeline.removeAlpha().recomb(GREY).blur(0.8));
  const { width, height, data } = grey;
  const out = Buffer.alloc(data.length);
  const at = (x: number, y: number) => data[(Math.min(height - 1, Math.max(0, y)) * width + Math.min(width - 1, Math.max(0, x))) * 4] ?? 0;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const gx = at(x + 1, y - 1) + 2 * at(x + 1, y) + at(x + 1, y + 1) - at(x - 1, y - 1) - 2 * at(x - 1, y) - at(x - 1, y + 1);
      const gy = at(x - 1, y + 1) + 2 * at(x, y + 1) + at(x + 1, y + 1) - at(x - 1, y - 1) - 2 * at(x, y - 1) - at(x + 1, y - 1);
      const shade = 235 + (at(x, y) - 128) * 0.15;
      const value = Math.max(0, Math.min(255, shade - (Math.abs(gx) + Math.abs(gy)) * 0.9));
      const offset = (y * width + x) * 4;
      out[offset] = value;
      out[offset + 1] = value;
      out[offset + 2] = value;
      out[offset + 3] = 255;
    }
  }
  return step({ data: out, width, height }, (pipeline) => pipeline.removeAlpha().tint('#f4ecd8'));
}

async function restyleBackground(picture: Picture, request: ImageRenderRequest): Promise<Picture> {
  const restyled = await stylise(posterise(await step(picture, (pipeline) => pipeline.median(5).blur(3)), 5), request);
  // The centre (where the subject usually is) stays as it was, fading into the new style.
  const subject = await maskWith(picture, ellipseMaskSvg(picture));
  return compose(restyled, [overlay(subject)]);
}

function ellipseMaskSvg(size: Size): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}"><defs><radialGradient id="m" cx="0.5" cy="0.5" r="0.5"><stop offset="0.7" stop-color="#fff"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient></defs><ellipse cx="${size.width / 2}" cy="${size.height / 2}" rx="${size.width * 0.38}" ry="${size.height * 0.46}" fill="url(#m)"/></svg>`;
}

async function upscale(picture: Picture, strong: boolean): Promise<Picture> {
  const size = scaleToLongSide(picture, Math.min(UPSCALE_MAX_SIDE, 2 * Math.max(picture.width, picture.height)));
  const cleaned = strong ? await step(picture, (pipeline) => pipeline.median(3)) : picture;
  return step(cleaned, (pipeline) =>
    sharpened(pipeline.resize(size.width, size.height, { kernel: 'lanczos3', fit: 'fill' }), strong ? 0.8 : 0.4),
  );
}

/** Outpainting's stand-in: the whole picture in the middle, the new border a blurred echo of it. */
async function expand(picture: Picture, ratio: string | undefined): Promise<Picture> {
  const target = ratio && RATIO_SIZES[ratio] ? ratio : nearestRatio({ width: picture.width * 1.3, height: picture.height });
  const size = RATIO_SIZES[target] as Size;
  const backdrop = await step(await cover(picture, size), (pipeline) => pipeline.blur(24).modulate({ brightness: 0.9 }));
  const inner = await step(picture, (pipeline) =>
    pipeline.resize(Math.round(size.width * 0.82), Math.round(size.height * 0.82), { fit: 'inside' }),
  );
  return compose(backdrop, [overlay(inner, (size.width - inner.width) / 2, (size.height - inner.height) / 2)]);
}

async function treatInput(picture: Picture, request: ImageRenderRequest, size: Size, ratio: string | undefined): Promise<Picture> {
  switch (request.model) {
    case 'Upscale':
      return upscale(picture, false);
    case 'TopazUpscale':
      return upscale(picture, true);
    case 'ExpandToAspectRatio':
      return expand(picture, ratio);
    default:
      break;
  }
  const base = await cover(picture, size);
  switch (request.model) {
    case 'Sketch':
      return sketch(base);
    case 'Restructure':
      return stylise(await step(base, (pipeline) => sharpened(pipeline.median(7), 1)), request);
    case 'Remake': {
      const random = seededRandom('remake', request.prompt, request.seed);
      const turned = await step(base, (pipeline) => pipeline.flop().modulate({ hue: Math.round(between(random, 40, 140)) }).blur(1.2));
      return stylise(turned, request);
    }
    case 'RemoveText':
      return step(base, (pipeline) => pipeline.median(5));
    case 'LumaReframe':
      return promptEffects(await step(base, (pipeline) => pipeline.modulate({ saturation: 1.1 })), request.prompt);
    case 'ByteDanceRestyle':
      return stylise(posterise(await step(base, (pipeline) => pipeline.median(5)), 5), request);
    case 'RestyleBackground':
      return restyleBackground(base, request);
    default:
      return stylise(base, request);
  }
}

// ---------------------------------------------------------------------------------------------
// Compositing tools

/** A garment outline in unit coordinates (a T-shirt), scaled to the clothes' box. */
function garmentMaskSvg(width: number, height: number): string {
  const points = [
    [0.3, 0], [0.42, 0], [0.5, 0.08], [0.58, 0], [0.7, 0], [1, 0.18], [0.88, 0.36], [0.78, 0.3],
    [0.78, 1], [0.22, 1], [0.22, 0.3], [0.12, 0.36], [0, 0.18],
  ];
  const path = points.map(([x, y], index) => `${index === 0 ? 'M' : 'L'}${((x ?? 0) * width).toFixed(1)} ${((y ?? 0) * height).toFixed(1)}`).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><path d="${path}Z" fill="#fff"/></svg>`;
}

async function tryOn(person: Picture, clothes: Picture, size: Size): Promise<Picture> {
  const base = await cover(person, size);
  const box = { width: Math.round(size.width * 0.5), height: Math.round(size.height * 0.45) };
  const garment = await maskWith(await cover(clothes, box), garmentMaskSvg(box.width, box.height));
  const shadow = await step(garment, (pipeline) => pipeline.linear([0, 0, 0, 0.5], [0, 0, 0, 0]).blur(6));
  const left = (size.width - box.width) / 2;
  const top = size.height * 0.3;
  return compose(base, [overlay(shadow, left + 4, top + 6), overlay(garment, left, top)]);
}

function cellsFor(count: number, size: Size, gap: number): { left: number; top: number; width: number; height: number }[] {
  const innerWidth = size.width - gap * 3;
  const innerHeight = size.height - gap * 3;
  const half = (value: number) => Math.floor(value / 2);
  if (count <= 1) return [{ left: gap, top: gap, width: size.width - gap * 2, height: size.height - gap * 2 }];
  if (count === 2) {
    return size.width >= size.height
      ? [0, 1].map((index) => ({ left: gap + index * (half(innerWidth) + gap), top: gap, width: half(innerWidth), height: size.height - gap * 2 }))
      : [0, 1].map((index) => ({ left: gap, top: gap + index * (half(innerHeight) + gap), width: size.width - gap * 2, height: half(innerHeight) }));
  }
  if (count === 3) {
    return [
      { left: gap, top: gap, width: half(innerWidth), height: size.height - gap * 2 },
      { left: gap * 2 + half(innerWidth), top: gap, width: half(innerWidth), height: half(innerHeight) },
      { left: gap * 2 + half(innerWidth), top: gap * 2 + half(innerHeight), width: half(innerWidth), height: half(innerHeight) },
    ];
  }
  return [0, 1, 2, 3].map((index) => ({
    left: gap + (index % 2) * (half(innerWidth) + gap),
    top: gap + Math.floor(index / 2) * (half(innerHeight) + gap),
    width: half(innerWidth),
    height: half(innerHeight),
  }));
}

async function elements(pictures: readonly Picture[], request: ImageRenderRequest, size: Size): Promise<Picture> {
  const background = await svgPicture(gradientSvg(size, request.prompt, request.seed));
  const gap = Math.round(Math.min(size.width, size.height) * 0.03);
  const cells = cellsFor(Math.min(4, pictures.length), size, gap);
  const layers: Overlay[] = [];
  for (const [index, cell] of cells.entries()) {
    const picture = pictures[index];
    if (!picture) continue;
    const fitted = await cover(picture, cell);
    const rounded = await maskWith(fitted, `<svg xmlns="http://www.w3.org/2000/svg" width="${cell.width}" height="${cell.height}"><rect width="${cell.width}" height="${cell.height}" rx="${gap}" fill="#fff"/></svg>`);
    layers.push(overlay(rounded, cell.left, cell.top));
  }
  const collage = await compose(background, layers);
  return compose(collage, [paletteWash(size, request.prompt, request.seed, 0.25)]);
}

/** `order_indices` as numbers, whatever shape the form sent (array, "0,1", a single value). */
function parseOrderIndices(value: unknown): number[] {
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/[,\s]+/) : value === undefined || value === null ? [] : [value];
  return list.map((item) => Number(item)).filter((item) => Number.isInteger(item) && item >= 0);
}

async function faceSwap(target: Picture, faces: readonly Picture[], orderIndices: readonly number[], size: Size): Promise<Picture> {
  const base = await cover(target, size);
  const indices = faces.map((_, index) => orderIndices[index] ?? index);
  // The target is read as thirds, left to right (0 = leftmost face); more faces add columns.
  const columns = Math.max(3, ...indices.map((index) => index + 1));
  const diameter = Math.round(Math.min((size.width / columns) * 0.8, size.height * 0.38));
  const layers: Overlay[] = [];
  for (const [faceIndex, face] of faces.entries()) {
    const column = indices[faceIndex] ?? faceIndex;
    const disc = await maskWith(
      await cover(face, { width: diameter, height: diameter }),
      `<svg xmlns="http://www.w3.org/2000/svg" width="${diameter}" height="${diameter}"><defs><radialGradient id="f"><stop offset="0.8" stop-color="#fff"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient></defs><circle cx="${diameter / 2}" cy="${diameter / 2}" r="${diameter / 2}" fill="url(#f)"/></svg>`,
    );
    const centreX = ((column + 0.5) / columns) * size.width;
    layers.push(overlay(disc, centreX - diameter / 2, size.height * 0.35 - diameter / 2));
  }
  return compose(base, layers);
}

/**
 * Cuts the subject out: pixels far from the colour of the picture's border are kept. A busy border
 * (a photo without a plain backdrop) leaves almost nothing or everything; then a soft ellipse
 * around the centre stands in for the subject.
 */
async function cutOut(picture: Picture): Promise<Picture> {
  const { data, width, height } = picture;
  let r = 0;
  let g = 0;
  let b = 0;
  let count = 0;
  const border = Math.max(2, Math.round(Math.min(width, height) * 0.02));
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      if (x >= border && x < width - border && y >= border && y < height - border) continue;
      const offset = (y * width + x) * 4;
      r += data[offset] ?? 0;
      g += data[offset + 1] ?? 0;
      b += data[offset + 2] ?? 0;
      count += 1;
    }
  }
  r /= count;
  g /= count;
  b /= count;
  const keyed = Buffer.from(data);
  let kept = 0;
  for (let offset = 0; offset < keyed.length; offset += 4) {
    const distance = Math.hypot((keyed[offset] ?? 0) - r, (keyed[offset + 1] ?? 0) - g, (keyed[offset + 2] ?? 0) - b);
    const alpha = Math.max(0, Math.min(1, (distance - 30) / 50));
    keyed[offset + 3] = Math.round(alpha * (keyed[offset + 3] ?? 255));
    kept += alpha;
  }
  const share = kept / (width * height);
  if (share > 0.04 && share < 0.92) return step({ data: keyed, width, height }, (pipeline) => pipeline.blur(0.8));
  return maskWith(picture, ellipseMaskSvg(picture));
}

async function replaceBackground(subject: Picture, backdrop: Picture | null, request: ImageRenderRequest, size: Size): Promise<Picture> {
  const fitted = await cover(subject, size);
  const cut = await cutOut(fitted);
  if (request.model === 'RemoveBackground') return cut;
  const background = backdrop
    ? await cover(backdrop, size)
    : await svgPicture(sceneSvg({ size, prompt: request.prompt, model: request.model, seed: request.seed, caption: false }));
  return compose(background, [overlay(cut)]);
}

// ---------------------------------------------------------------------------------------------
// A story's scene picture

/** The media tool of a story's scene pictures (STORY_TOOLS.scene). */
const SCENE_IMAGE_TOOL = 'scene-image';

type SceneElementKind = 'character' | 'place' | 'object';

/** `element_kinds`, parallel to the inputs; an unknown or missing kind is a figure (a character). */
function elementKinds(value: unknown, count: number): SceneElementKind[] {
  const list = Array.isArray(value) ? value : [];
  return Array.from({ length: count }, (_, index) => {
    const kind = list[index];
    return kind === 'place' || kind === 'object' ? kind : 'character';
  });
}

/** How much of the frame's height a character fills, per shot: small in a wide shot, large in a close-up. */
const SHOT_FIGURE_HEIGHT: Readonly<Record<string, number>> = {
  wide: 0.5,
  aerial: 0.34,
  medium: 0.68,
  tracking: 0.62,
  'over-shoulder': 0.74,
  'close-up': 0.86,
};

/** How much a picture's border varies (mean distance from its mean colour): low on a plain backdrop. */
function borderSpread(picture: Picture): number {
  const { data, width, height } = picture;
  const border = Math.max(2, Math.round(Math.min(width, height) * 0.02));
  const samples: [number, number, number][] = [];
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      if (x >= border && x < width - border && y >= border && y < height - border) continue;
      const offset = (y * width + x) * 4;
      samples.push([data[offset] ?? 0, data[offset + 1] ?? 0, data[offset + 2] ?? 0]);
    }
  }
  const mean = [0, 1, 2].map((channel) => samples.reduce((sum, sample) => sum + (sample[channel] ?? 0), 0) / samples.length);
  return samples.reduce((sum, sample) => sum + Math.hypot(sample[0] - (mean[0] ?? 0), sample[1] - (mean[1] ?? 0), sample[2] - (mean[2] ?? 0)), 0) / samples.length;
}

/** A feathered silhouette in the box: a person (head and shoulders to the feet) or a rounded object. */
function silhouetteSvg(width: number, height: number, kind: SceneElementKind): string {
  const feather = Math.max(1, Math.round(Math.min(width, height) * 0.012));
  const filter = `<defs><filter id="f" x="-10%" y="-10%" width="120%" height="120%"><feGaussianBlur stdDeviation="${feather}"/></filter></defs>`;
  const w = (fraction: number) => Math.round(width * fraction * 10) / 10;
  const h = (fraction: number) => Math.round(height * fraction * 10) / 10;
  const shape =
    kind === 'character'
      ? `<ellipse cx="${w(0.5)}" cy="${h(0.2)}" rx="${w(0.2)}" ry="${h(0.16)}"/>` +
        `<path d="M${w(0.1)} ${h(0.98)}C${w(0.06)} ${h(0.5)} ${w(0.2)} ${h(0.38)} ${w(0.5)} ${h(0.38)}C${w(0.8)} ${h(0.38)} ${w(0.94)} ${h(0.5)} ${w(0.9)} ${h(0.98)}Z"/>`
      : `<rect x="${w(0.06)}" y="${h(0.06)}" width="${w(0.88)}" height="${h(0.88)}" rx="${w(0.3)}"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${filter}<g fill="#fff" filter="url(#f)">${shape}</g></svg>`;
}

/**
 * An element picture cut out as a figure: keyed from its plain backdrop when it has one (a photo
 * or a reference on a studio backdrop), else cut along a silhouette of its kind (a generated
 * picture fills its whole frame).
 */
async function sceneFigure(picture: Picture, kind: SceneElementKind, box: { width: number; height: number }): Promise<Picture> {
  if (borderSpread(picture) < 24) return cutOut(await step(picture, (pipeline) => pipeline.resize(box.width, box.height, { fit: 'inside' })));
  const shaped = kind === 'character' ? { width: Math.max(8, Math.round(Math.min(box.width, box.height * 0.7))), height: box.height } : box;
  const fitted = await step(picture, (pipeline) => pipeline.resize(shaped.width, shaped.height, { fit: 'cover', position: 'centre' }));
  return maskWith(fitted, silhouetteSvg(shaped.width, shaped.height, kind));
}

/**
 * A cut-out figure with a soft shadow: its drop shadow beside it and a contact shadow under its
 * feet, so it stands on the backdrop rather than floating over it.
 */
async function figureLayers(cut: Picture, centreX: number, baseline: number, size: Size): Promise<Overlay[]> {
  const left = Math.max(0, Math.min(size.width - cut.width, centreX - cut.width / 2));
  const top = Math.max(0, Math.min(size.height - cut.height, baseline - cut.height));
  const offset = Math.max(2, Math.round(cut.width * 0.04));
  const shadow = await step(cut, (pipeline) => pipeline.linear([0, 0, 0, 0.45], [0, 0, 0, 0]).blur(Math.max(2, cut.width * 0.03)));
  const contactWidth = Math.round(cut.width * 0.8);
  const contactHeight = Math.max(4, Math.round(cut.height * 0.08));
  const contact = `<svg xmlns="http://www.w3.org/2000/svg" width="${contactWidth}" height="${contactHeight}"><defs><radialGradient id="c"><stop offset="0" stop-color="#000" stop-opacity="0.5"/><stop offset="1" stop-color="#000" stop-opacity="0"/></radialGradient></defs><ellipse cx="${contactWidth / 2}" cy="${contactHeight / 2}" rx="${contactWidth / 2}" ry="${contactHeight / 2}" fill="url(#c)"/></svg>`;
  const contactLeft = Math.max(0, Math.min(size.width - contactWidth, left + (cut.width - contactWidth) / 2));
  const contactTop = Math.max(0, Math.min(size.height - contactHeight, top + cut.height - contactHeight / 2));
  const shadowLeft = Math.min(size.width - cut.width, left + offset);
  const shadowTop = Math.min(size.height - cut.height, top + offset);
  return [svgOverlay(contact, contactLeft, contactTop), overlay(shadow, shadowLeft, shadowTop), overlay(cut, left, top)];
}

/**
 * A story's scene picture (issue 6): the backdrop is the story's place picture when the scene
 * has one, else the generated scene of the prompt; its characters and objects stand in front of
 * it as cut-out figures, left to right in the order given, sized by the shot. A palette wash and
 * the prompt's effects (the story's style) tie the layers together.
 */
async function storyScene(inputs: readonly { field: string; picture: Picture }[], request: ImageRenderRequest, size: Size): Promise<Picture> {
  const kinds = elementKinds(request.args.element_kinds, inputs.length);
  const placeIndex = kinds.indexOf('place');
  const place = placeIndex >= 0 ? inputs[placeIndex]?.picture : undefined;
  const backdrop = place
    ? await cover(await opaque(place), size)
    : await svgPicture(sceneSvg({ size, prompt: request.prompt, model: request.model, seed: request.seed, caption: false }));
  const figures = inputs
    .map((input, index) => ({ picture: input.picture, kind: kinds[index] ?? 'character' }))
    .filter((figure, index) => figure.kind !== 'place' || index !== placeIndex)
    // A second place is not a backdrop: it stands in the scene like an object.
    .map((figure) => ({ ...figure, kind: figure.kind === 'place' ? ('object' as const) : figure.kind }));
  const random = seededRandom('story-scene', request.prompt, request.seed);
  const shot = typeof request.args.shot === 'string' ? request.args.shot : 'medium';
  const characterHeight = SHOT_FIGURE_HEIGHT[shot] ?? SHOT_FIGURE_HEIGHT.medium ?? 0.68;
  const slot = size.width / Math.max(1, figures.length);
  const layers: Overlay[] = [];
  for (const [index, figure] of figures.entries()) {
    const height = size.height * characterHeight * (figure.kind === 'object' ? 0.5 : 1) * between(random, 0.92, 1.06);
    const box = { width: Math.max(8, Math.round(Math.min(slot * 0.92, height))), height: Math.max(8, Math.round(Math.min(size.height, height))) };
    const centreX = slot * (index + 0.5) + between(random, -0.06, 0.06) * slot;
    const baseline = size.height * (shot === 'aerial' ? 0.8 : 0.95) - between(random, 0, 0.03) * size.height;
    layers.push(...(await figureLayers(await sceneFigure(figure.picture, figure.kind, box), centreX, baseline, size)));
  }
  const composed = layers.length > 0 ? await compose(backdrop, layers) : backdrop;
  const washed = await compose(composed, [paletteWash(size, request.prompt, request.seed, 0.18)]);
  return promptEffects(washed, request.prompt);
}

// ---------------------------------------------------------------------------------------------
// Watermark, files

/** The "Kinora" logo badge for a picture (or video frame) of this size; exported for the video frames. */
export function logoSvg(size: Size): { svg: string; width: number; height: number } {
  const scale = Math.max(2, Math.round(Math.min(size.width, size.height) / 220));
  const padding = scale * 3;
  const width = pixelTextWidth('Kinora') * scale + padding * 2;
  const height = PIXEL_TEXT_HEIGHT * scale + padding * 2;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="${width}" height="${height}" rx="${scale * 2}" fill="#111827" fill-opacity="0.6"/>${pixelTextSvg('Kinora', { x: padding, y: padding, scale, fill: '#ffffff', opacity: 0.92 })}</svg>`;
  return { svg, width, height };
}

/** The product logo in the bottom-right corner (SPEC §6: the guest's results carry it). */
async function addLogo(picture: Picture): Promise<Picture> {
  const logo = logoSvg(picture);
  const margin = Math.round(Math.min(picture.width, picture.height) * 0.03);
  if (logo.width + margin * 2 > picture.width || logo.height + margin * 2 > picture.height) return picture;
  return compose(picture, [svgOverlay(logo.svg, picture.width - logo.width - margin, picture.height - logo.height - margin)]);
}

export async function jpegThumbnail(picture: Picture): Promise<Buffer> {
  return pictureToSharp(picture)
    .resize(THUMBNAIL_LONG_SIDE, THUMBNAIL_LONG_SIDE, { fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 80 })
    .toBuffer();
}

async function loadInput(input: RenderInputImage): Promise<Picture> {
  let data: Buffer;
  try {
    data = await readFile(input.path);
  } catch {
    throw new RenderInputError(`The picture given as ${input.field} could not be found.`);
  }
  const picture = await decodePicture(data, INPUT_MAX_SIDE);
  if (!picture) throw new RenderInputError(`The picture given as ${input.field} could not be read (${input.contentType}).`);
  return picture;
}

function requestedRatio(request: ImageRenderRequest): string | undefined {
  const fromArgs = request.args.aspect_ratio;
  return request.aspectRatio ?? (typeof fromArgs === 'string' ? fromArgs : undefined);
}

async function renderPicture(request: ImageRenderRequest, inputs: readonly { field: string; picture: Picture }[]): Promise<{ picture: Picture; transparent: boolean }> {
  const ratio = requestedRatio(request);
  const first = inputs[0]?.picture ?? null;
  const size = sizeForRatio(ratio, first);
  const byField = (field: string) => inputs.find((input) => input.field === field)?.picture;
  if (request.tool === SCENE_IMAGE_TOOL) {
    // A story's frame: the story's ratio, never the shape of an element picture.
    return { picture: await storyScene(inputs, request, sizeForRatio(ratio, null)), transparent: false };
  }
  if (!first) {
    // A story's element picture carries no caption: it is drawn into the scene pictures.
    const caption = request.args.story_part !== 'elements';
    return { picture: await svgPicture(sceneSvg({ size, prompt: request.prompt, model: request.model, seed: request.seed, caption })), transparent: false };
  }
  const pictures = inputs.map((input) => input.picture);
  switch (request.tool) {
    case 'try-on': {
      const person = byField('human_image_url') ?? first;
      const clothes = byField('clothes_image_url') ?? pictures[1] ?? first;
      return { picture: await tryOn(person, clothes, sizeForRatio(ratio, person)), transparent: false };
    }
    case 'image-elements':
      // A collage is a new picture: without a ratio it is square, not the first element's shape.
      return { picture: await elements(pictures, request, sizeForRatio(ratio, null)), transparent: false };
    case 'face-swap':
      return { picture: await faceSwap(first, pictures.slice(1), parseOrderIndices(request.args.order_indices), size), transparent: false };
    case 'replace-bg': {
      const subject = byField('image_url') ?? first;
      const backdrop = byField('image2_url') ?? (pictures.length > 1 ? (pictures[1] ?? null) : null);
      const picture = await replaceBackground(subject, backdrop, request, sizeForRatio(ratio, subject));
      return { picture, transparent: request.model === 'RemoveBackground' };
    }
    default:
      return { picture: await treatInput(await opaque(first), request, size, ratio), transparent: false };
  }
}

export async function renderImageFiles(given: ImageRenderRequest): Promise<RenderedImage> {
  // A negative prompt (the models that take one): its words stop driving the picture.
  const negative = given.args.negative_prompt;
  const request = typeof negative === 'string' && negative.trim() !== '' ? { ...given, prompt: promptWithout(given.prompt, negative) } : given;
  const inputs = [];
  for (const input of request.inputs) inputs.push({ field: input.field, picture: await loadInput(input) });
  const rendered = await renderPicture(request, inputs);
  // A trained model (LoRA fine-tune) gives its result the look it learned.
  const style = parseFinetuneStyle(request.args.finetune_style);
  const styled = style ? applyFinetuneStyle(rendered.picture, style) : rendered.picture;
  const finished = request.logo ? await addLogo(styled) : styled;
  const pipeline = pictureToSharp(finished);
  // A transparent result keeps its alpha; every other result is stored without one (smaller files).
  const png = await (rendered.transparent ? pipeline : pipeline.removeAlpha()).png({ compressionLevel: 6 }).toBuffer();
  return {
    image: { name: 'result.png', contentType: 'image/png', data: png },
    thumbnail: { name: 'thumbnail.jpg', contentType: 'image/jpeg', data: await jpegThumbnail(finished) },
    width: finished.width,
    height: finished.height,
  };
}


/**
 * A picture a remote provider made, downloaded by Kinora: decoded (a file that is not a picture
 * fails the job), the guest's logo added (SPEC §6), stored as PNG with its JPEG thumbnail.
 */
export async function finishDownloadedImage(data: Buffer, logo: boolean): Promise<RenderedImage> {
  const picture = await decodePicture(data, DOWNLOAD_MAX_SIDE);
  if (!picture) throw new RenderRejectedError('failed', 'The model answered a file that is not a picture.');
  const finished = logo ? await addLogo(picture) : picture;
  const png = await pictureToSharp(finished).png({ compressionLevel: 6 }).toBuffer();
  return {
    image: { name: 'result.png', contentType: 'image/png', data: png },
    thumbnail: { name: 'thumbnail.jpg', contentType: 'image/jpeg', data: await jpegThumbnail(finished) },
    width: finished.width,
    height: finished.height,
  };
}
