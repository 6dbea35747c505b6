import { clamp, type Rgba } from './raster.ts';

/**
 * A depth estimate of a single picture, standing in for a monocular depth model: 0 = far, 1 = near.
 * It combines three cues photographers rely on: lower in the frame is nearer, the subject differs
 * from the colour around the picture's border (the backdrop), and detail is sharper on the subject.
 * Computed on a small grid and smoothed, so layers move as coherent regions.
 */

export interface DepthMap {
  data: Float32Array;
  width: number;
  height: number;
}

/** Grid cells on the depth map's long side. */
const GRID_LONG_SIDE = 96;
const CUE_WEIGHTS = { vertical: 0.4, subject: 0.45, detail: 0.15 } as const;

/** Averages the picture into a grid of `width` × `height` cells (RGB means). */
function cellMeans(picture: Rgba, width: number, height: number): Float32Array {
  const sums = new Float32Array(width * height * 3);
  const counts = new Float32Array(width * height);
  for (let y = 0; y < picture.height; y += 1) {
    const cellY = Math.min(height - 1, Math.floor((y * height) / picture.height));
    for (let x = 0; x < picture.width; x += 1) {
      const cellX = Math.min(width - 1, Math.floor((x * width) / picture.width));
      const cell = cellY * width + cellX;
      const offset = (y * picture.width + x) * 4;
      sums[cell * 3] = (sums[cell * 3] ?? 0) + (picture.data[offset] ?? 0);
      sums[cell * 3 + 1] = (sums[cell * 3 + 1] ?? 0) + (picture.data[offset + 1] ?? 0);
      sums[cell * 3 + 2] = (sums[cell * 3 + 2] ?? 0) + (picture.data[offset + 2] ?? 0);
      counts[cell] = (counts[cell] ?? 0) + 1;
    }
  }
  for (let cell = 0; cell < counts.length; cell += 1) {
    const count = Math.max(1, counts[cell] ?? 1);
    for (let channel = 0; channel < 3; channel += 1) sums[cell * 3 + channel] = (sums[cell * 3 + channel] ?? 0) / count;
  }
  return sums;
}

/** In-place box blur of a grid, `passes` times (three passes approximate a Gaussian). */
function boxBlur(values: Float32Array, width: number, height: number, radius: number, passes: number): void {
  const scratch = new Float32Array(values.length);
  for (let pass = 0; pass < passes; pass += 1) {
    for (let y = 0; y < height; y += 1) {
      for (let x = 0; x < width; x += 1) {
        let sum = 0;
        let count = 0;
        for (let dx = -radius; dx <= radius; dx += 1) {
          const sx = clamp(x + dx, 0, width - 1);
          sum += values[y * width + sx] ?? 0;
          count += 1;
        }
        scratch[y * width + x] = sum / count;
      }
    }
    for (let y = 0; y < height; y += 1) {
      for (let x = 0; x < width; x += 1) {
        let sum = 0;
        let count = 0;
        for (let dy = -radius; dy <= radius; dy += 1) {
          const sy = clamp(y + dy, 0, height - 1);
          sum += scratch[sy * width + x] ?? 0;
          count += 1;
        }
        values[y * width + x] = sum / count;
      }
    }
  }
}

function normalise(values: Float32Array): boolean {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const value of values) {
    if (value < min) min = value;
    if (value > max) max = value;
  }
  if (max - min < 1e-3) return false;
  for (let index = 0; index < values.length; index += 1) values[index] = ((values[index] ?? 0) - min) / (max - min);
  return true;
}

export function estimateDepth(picture: Rgba): DepthMap {
  const scale = GRID_LONG_SIDE / Math.max(picture.width, picture.height);
  const width = Math.max(4, Math.round(picture.width * scale));
  const height = Math.max(4, Math.round(picture.height * scale));
  const means = cellMeans(picture, width, height);
  const colourAt = (cell: number) => [means[cell * 3] ?? 0, means[cell * 3 + 1] ?? 0, means[cell * 3 + 2] ?? 0] as const;

  // The backdrop's colour: the mean of the outer ring of cells.
  const ring = Math.max(1, Math.round(Math.min(width, height) * 0.06));
  const backdrop = [0, 0, 0];
  let ringCells = 0;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      if (x >= ring && x < width - ring && y >= ring && y < height - ring) continue;
      const [r, g, b] = colourAt(y * width + x);
      backdrop[0] = (backdrop[0] ?? 0) + r;
      backdrop[1] = (backdrop[1] ?? 0) + g;
      backdrop[2] = (backdrop[2] ?? 0) + b;
      ringCells += 1;
    }
  }
  const [br, bg, bb] = backdrop.map((sum) => sum / Math.max(1, ringCells)) as [number, number, number];

  const subject = new Float32Array(width * height);
  const detail = new Float32Array(width * height);
  const luminance = new Float32Array(width * height);
  for (let cell = 0; cell < subject.length; cell += 1) {
    const [r, g, b] = colourAt(cell);
    subject[cell] = clamp((Math.hypot(r - br, g - bg, b - bb) - 18) / 90, 0, 1);
    luminance[cell] = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  }
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const centre = luminance[y * width + x] ?? 0;
      let contrast = 0;
      for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]] as const) {
        contrast += Math.abs(centre - (luminance[clamp(y + dy, 0, height - 1) * width + clamp(x + dx, 0, width - 1)] ?? 0));
      }
      detail[y * width + x] = clamp(contrast / 120, 0, 1);
    }
  }
  boxBlur(subject, width, height, 1, 2);
  boxBlur(detail, width, height, 2, 2);

  const data = new Float32Array(width * height);
  for (let y = 0; y < height; y += 1) {
    const vertical = y / Math.max(1, height - 1);
    for (let x = 0; x < width; x += 1) {
      const cell = y * width + x;
      data[cell] = CUE_WEIGHTS.vertical * vertical + CUE_WEIGHTS.subject * (subject[cell] ?? 0) + CUE_WEIGHTS.detail * (detail[cell] ?? 0);
    }
  }
  boxBlur(data, width, height, 2, 3);
  // A flat picture (no cue varies) still gets the floor-is-near gradient.
  if (!normalise(data)) {
    for (let y = 0; y < height; y += 1) for (let x = 0; x < width; x += 1) data[y * width + x] = y / Math.max(1, height - 1);
  }
  return { data, width, height };
}

/** Bilinear depth at normalised (u, v). */
export function depthAt(map: DepthMap, u: number, v: number): number {
  const x = clamp(u * map.width - 0.5, 0, map.width - 1);
  const y = clamp(v * map.height - 0.5, 0, map.height - 1);
  const x0 = x | 0;
  const y0 = y | 0;
  const x1 = x0 + 1 < map.width ? x0 + 1 : x0;
  const y1 = y0 + 1 < map.height ? y0 + 1 : y0;
  const fx = x - x0;
  const fy = y - y0;
  const top = (map.data[y0 * map.width + x0] ?? 0) * (1 - fx) + (map.data[y0 * map.width + x1] ?? 0) * fx;
  const bottom = (map.data[y1 * map.width + x0] ?? 0) * (1 - fx) + (map.data[y1 * map.width + x1] ?? 0) * fx;
  return top * (1 - fy) + bottom * fy;
}

/** A blend of two depth maps of the same grid (cross-fades between pictures). */
export function mixDepth(from: DepthMap, to: DepthMap, amount: number): DepthMap {
  const data = new Float32Array(from.data.length);
  for (let cell = 0; cell < data.length; cell += 1) data[cell] = (from.data[cell] ?? 0) * (1 - amount) + (to.data[cell] ?? 0) * amount;
  return { data, width: from.width, height: from.height };
}
