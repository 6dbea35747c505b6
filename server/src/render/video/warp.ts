import type { Pose } from './camera.ts';
import type { DepthMap } from './depth.ts';
import { reflect, type Rgba } from './raster.ts';

/**
 * Draws one frame: for every output pixel, where in the source picture(s) the camera pose makes
 * it look. The pose shifts each point by its depth (near layers more: parallax), so the inverse
 * mapping depends on the depth of the very point it is looking for; a few fixed-point steps
 * (look up depth, re-solve, look up again) converge on smooth depth maps and leave no holes.
 *
 * The depth map is smooth (a 96-cell grid, blurred), so the mapping is solved on a grid every
 * MAP_STEP pixels and interpolated between; only the colour lookup runs per pixel.
 */

export interface FrameLayer {
  picture: Rgba;
  /** Share of this layer in the frame (cross-fades); layers' weights sum to 1. */
  weight: number;
}

/** Fixed-point steps of the depth lookup; two already land within a fraction of a pixel. */
const DEPTH_STEPS = 2;
/** Pixels between solved points of the mapping. */
const MAP_STEP = 4;

function depthLookup(map: DepthMap, u: number, v: number): number {
  const { width, height, data } = map;
  let x = u * width - 0.5;
  let y = v * height - 0.5;
  x = x < 0 ? 0 : x > width - 1 ? width - 1 : x;
  y = y < 0 ? 0 : y > height - 1 ? height - 1 : y;
  const x0 = x | 0;
  const y0 = y | 0;
  const x1 = x0 + 1 < width ? x0 + 1 : x0;
  const y1 = y0 + 1 < height ? y0 + 1 : y0;
  const fx = x - x0;
  const fy = y - y0;
  const top = (data[y0 * width + x0] as number) * (1 - fx) + (data[y0 * width + x1] as number) * fx;
  const bottom = (data[y1 * width + x0] as number) * (1 - fx) + (data[y1 * width + x1] as number) * fx;
  return top * (1 - fy) + bottom * fy;
}

/** Solves where output points (every MAP_STEP px) look in the source, as normalised u, v. */
function solveMapping(width: number, height: number, depth: DepthMap, pose: Pose): { u: Float32Array; v: Float32Array; columns: number } {
  const columns = Math.ceil(width / MAP_STEP) + 1;
  const rows = Math.ceil(height / MAP_STEP) + 1;
  const us = new Float32Array(columns * rows);
  const vs = new Float32Array(columns * rows);
  const short = Math.min(width, height);
  const cos = Math.cos(-pose.roll);
  const sin = Math.sin(-pose.roll);
  for (let row = 0; row < rows; row += 1) {
    for (let column = 0; column < columns; column += 1) {
      // The point relative to the centre, un-rolled and un-panned.
      const qx0 = column * MAP_STEP + 0.5 - width / 2;
      const qy0 = row * MAP_STEP + 0.5 - height / 2;
      const qx = qx0 * cos - qy0 * sin - pose.panX * width;
      const qy = qx0 * sin + qy0 * cos - pose.panY * height;
      let u = 0.5 + qx / (pose.zoom * width);
      let v = 0.5 + qy / (pose.zoom * height);
      for (let step = 0; step < DEPTH_STEPS; step += 1) {
        const d = depthLookup(depth, reflect(u), reflect(v));
        const grow = pose.zoom * (1 + pose.dolly * d + pose.vertigo * (1 - d));
        const shiftX = (-pose.camX * (d - pose.focus) + pose.bodyX * d) * short;
        const shiftY = (-pose.camY * (d - pose.focus) + pose.bodyY * d) * short;
        u = 0.5 + (qx - shiftX) / (grow * width);
        v = 0.5 + (qy - shiftY) / (grow * (1 + pose.stretchY * d) * height);
      }
      us[row * columns + column] = u;
      vs[row * columns + column] = v;
    }
  }
  return { u: us, v: vs, columns };
}

/** Adds the bilinear RGB sample of `picture` at (u, v) × weight into out[0..2]. */
export function sampleRgb(picture: Rgba, u: number, v: number, weight: number, out: Float64Array): void {
  const { width, height, data } = picture;
  let x = u * width - 0.5;
  let y = v * height - 0.5;
  x = x < 0 ? 0 : x > width - 1 ? width - 1 : x;
  y = y < 0 ? 0 : y > height - 1 ? height - 1 : y;
  const x0 = x | 0;
  const y0 = y | 0;
  const x1 = x0 + 1 < width ? x0 + 1 : x0;
  const y1 = y0 + 1 < height ? y0 + 1 : y0;
  const fx = x - x0;
  const fy = y - y0;
  const a = (y0 * width + x0) * 4;
  const b = (y0 * width + x1) * 4;
  const c = (y1 * width + x0) * 4;
  const d = (y1 * width + x1) * 4;
  const wa = (1 - fx) * (1 - fy) * weight;
  const wb = fx * (1 - fy) * weight;
  const wc = (1 - fx) * fy * weight;
  const wd = fx * fy * weight;
  out[0] = (out[0] as number) + (data[a] as number) * wa + (data[b] as number) * wb + (data[c] as number) * wc + (data[d] as number) * wd;
  out[1] = (out[1] as number) + (data[a + 1] as number) * wa + (data[b + 1] as number) * wb + (data[c + 1] as number) * wc + (data[d + 1] as number) * wd;
  out[2] = (out[2] as number) + (data[a + 2] as number) * wa + (data[b + 2] as number) * wb + (data[c + 2] as number) * wc + (data[d + 2] as number) * wd;
}

export function drawFrame(frame: Rgba, layers: readonly FrameLayer[], depth: DepthMap, pose: Pose): void {
  const { width, height, data } = frame;
  const mapping = solveMapping(width, height, depth, pose);
  const { columns } = mapping;
  const active = layers.filter((layer) => layer.weight > 0.001);
  const single = active.length === 1 ? (active[0] as FrameLayer).picture : null;
  const colour = new Float64Array(3);
  for (let y = 0; y < height; y += 1) {
    const row = (y / MAP_STEP) | 0;
    const fy = y / MAP_STEP - row;
    for (let x = 0; x < width; x += 1) {
      const column = (x / MAP_STEP) | 0;
      const fx = x / MAP_STEP - column;
      const i00 = row * columns + column;
      const i10 = i00 + 1;
      const i01 = i00 + columns;
      const i11 = i01 + 1;
      const w00 = (1 - fx) * (1 - fy);
      const w10 = fx * (1 - fy);
      const w01 = (1 - fx) * fy;
      const w11 = fx * fy;
      const u = reflect((mapping.u[i00] as number) * w00 + (mapping.u[i10] as number) * w10 + (mapping.u[i01] as number) * w01 + (mapping.u[i11] as number) * w11);
      const v = reflect((mapping.v[i00] as number) * w00 + (mapping.v[i10] as number) * w10 + (mapping.v[i01] as number) * w01 + (mapping.v[i11] as number) * w11);
      const offset = (y * width + x) * 4;
      if (single) {
        // The common case (one picture in view), inlined: this loop is most of a clip's render time.
        const sw = single.width;
        const sh = single.height;
        const source = single.data;
        let sx = u * sw - 0.5;
        let sy = v * sh - 0.5;
        sx = sx < 0 ? 0 : sx > sw - 1 ? sw - 1 : sx;
        sy = sy < 0 ? 0 : sy > sh - 1 ? sh - 1 : sy;
        const x0 = sx | 0;
        const y0 = sy | 0;
        const step = x0 + 1 < sw ? 4 : 0;
        const rowStep = y0 + 1 < sh ? sw * 4 : 0;
        const ax = sx - x0;
        const ay = sy - y0;
        const a = (y0 * sw + x0) * 4;
        const top0 = (source[a] as number) + ((source[a + step] as number) - (source[a] as number)) * ax;
        const top1 = (source[a + 1] as number) + ((source[a + step + 1] as number) - (source[a + 1] as number)) * ax;
        const top2 = (source[a + 2] as number) + ((source[a + step + 2] as number) - (source[a + 2] as number)) * ax;
        const c = a + rowStep;
        const bottom0 = (source[c] as number) + ((source[c + step] as number) - (source[c] as number)) * ax;
        const bottom1 = (source[c + 1] as number) + ((source[c + step + 1] as number) - (source[c + 1] as number)) * ax;
        const bottom2 = (source[c + 2] as number) + ((source[c + step + 2] as number) - (source[c + 2] as number)) * ax;
        data[offset] = top0 + (bottom0 - top0) * ay;
        data[offset + 1] = top1 + (bottom1 - top1) * ay;
        data[offset + 2] = top2 + (bottom2 - top2) * ay;
      } else {
        colour[0] = 0;
        colour[1] = 0;
        colour[2] = 0;
        for (let index = 0; index < active.length; index += 1) {
          const layer = active[index] as FrameLayer;
          sampleRgb(layer.picture, u, v, layer.weight, colour);
        }
        data[offset] = colour[0] as number;
        data[offset + 1] = colour[1] as number;
        data[offset + 2] = colour[2] as number;
      }
      data[offset + 3] = 255;
    }
  }
}
