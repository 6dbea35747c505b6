import { depthAt, type DepthMap } from './depth.ts';
import { clamp, smoothstep, type Rgba } from './raster.ts';
import { sampleRgb } from './warp.ts';

/**
 * The subject as a layer: an alpha mask of the near pixels (depth estimate) that differ from the
 * colour around the picture's border (a soft centre ellipse when that finds almost nothing or
 * almost everything),
 * and a clean plate (the picture with the subject filled by the backdrop colour) to show where
 * the subject was. Video effects and character animation move that layer over the plate.
 */
export interface SubjectLayer {
  mask: Float32Array;
  plate: Rgba;
  /** The mask's bounding box, normalised (0–1). */
  box: { left: number; top: number; right: number; bottom: number };
}

export function subjectLayer(picture: Rgba, depth: DepthMap): SubjectLayer {
  const { width, height, data } = picture;
  const ring = Math.max(2, Math.round(Math.min(width, height) * 0.03));
  const backdrop = [0, 0, 0];
  let ringCount = 0;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      if (x >= ring && x < width - ring && y >= ring && y < height - ring) continue;
      const offset = (y * width + x) * 4;
      for (let channel = 0; channel < 3; channel += 1) backdrop[channel] = (backdrop[channel] ?? 0) + (data[offset + channel] ?? 0);
      ringCount += 1;
    }
  }
  const [br, bg, bb] = backdrop.map((sum) => sum / ringCount) as [number, number, number];
  let mask = new Float32Array(width * height);
  let share = 0;
  for (let pixel = 0; pixel < mask.length; pixel += 1) {
    const offset = pixel * 4;
    const distance = Math.hypot((data[offset] ?? 0) - br, (data[offset + 1] ?? 0) - bg, (data[offset + 2] ?? 0) - bb);
    // Far details that differ from the backdrop (clouds, a distant sign) stay in the background.
    const near = smoothstep(0.4, 0.6, depthAt(depth, ((pixel % width) + 0.5) / width, (Math.floor(pixel / width) + 0.5) / height));
    mask[pixel] = clamp((distance - 30) / 50, 0, 1) * near;
    share += mask[pixel] ?? 0;
  }
  share /= mask.length;
  if (share < 0.04 || share > 0.92) {
    mask = new Float32Array(width * height);
    for (let y = 0; y < height; y += 1) {
      for (let x = 0; x < width; x += 1) {
        const dx = (x / width - 0.5) / 0.32;
        const dy = (y / height - 0.52) / 0.4;
        mask[y * width + x] = 1 - smoothstep(0.8, 1, Math.hypot(dx, dy));
      }
    }
  }
  const plate = new Uint8Array(data);
  let box = { left: 1, top: 1, right: 0, bottom: 0 };
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const alpha = mask[y * width + x] ?? 0;
      if (alpha <= 0) continue;
      const offset = (y * width + x) * 4;
      plate[offset] = (plate[offset] ?? 0) * (1 - alpha) + br * alpha;
      plate[offset + 1] = (plate[offset + 1] ?? 0) * (1 - alpha) + bg * alpha;
      plate[offset + 2] = (plate[offset + 2] ?? 0) * (1 - alpha) + bb * alpha;
      if (alpha > 0.5) {
        box = { left: Math.min(box.left, x / width), top: Math.min(box.top, y / height), right: Math.max(box.right, x / width), bottom: Math.max(box.bottom, y / height) };
      }
    }
  }
  if (box.right <= box.left) box = { left: 0.3, top: 0.2, right: 0.7, bottom: 0.85 };
  return { mask, plate: { data: plate, width, height }, box };
}

/** How the subject layer is placed at a moment: scaled and turned about an anchor, then shifted (normalised units). */
export interface SubjectMove {
  anchorX: number;
  anchorY: number;
  scaleX: number;
  scaleY: number;
  rotate: number;
  shiftX: number;
  shiftY: number;
}

function sampleMask(mask: Float32Array, width: number, height: number, u: number, v: number): number {
  if (u < 0 || u > 1 || v < 0 || v > 1) return 0;
  const x = clamp(u * width - 0.5, 0, width - 1);
  const y = clamp(v * height - 0.5, 0, height - 1);
  const x0 = x | 0;
  const y0 = y | 0;
  const x1 = Math.min(width - 1, x0 + 1);
  const y1 = Math.min(height - 1, y0 + 1);
  const fx = x - x0;
  const fy = y - y0;
  const top = (mask[y0 * width + x0] ?? 0) * (1 - fx) + (mask[y0 * width + x1] ?? 0) * fx;
  const bottom = (mask[y1 * width + x0] ?? 0) * (1 - fx) + (mask[y1 * width + x1] ?? 0) * fx;
  return top * (1 - fy) + bottom * fy;
}

/** Draws the subject, moved, over the clean plate; `landing` cross-fades to the end frame. Plate and end frame are at the frame's size. */
export function subjectInto(frame: Rgba, source: Rgba, layer: SubjectLayer, plate: Rgba, end: Rgba | null, move: SubjectMove, landing: number): void {
  const { width, height, data } = frame;
  const aspect = width / height;
  const cos = Math.cos(-move.rotate);
  const sin = Math.sin(-move.rotate);
  const subject = new Float64Array(3);
  for (let y = 0; y < height; y += 1) {
    const v = (y + 0.5) / height;
    for (let x = 0; x < width; x += 1) {
      const u = (x + 0.5) / width;
      // Undo the move (in square units so a turn is not skewed by the frame's ratio).
      const dx = (u - move.anchorX - move.shiftX) * aspect;
      const dy = v - move.anchorY - move.shiftY;
      const su = move.anchorX + (dx * cos - dy * sin) / move.scaleX / aspect;
      const sv = move.anchorY + (dx * sin + dy * cos) / move.scaleY;
      const alpha = sampleMask(layer.mask, source.width, source.height, su, sv);
      const offset = (y * width + x) * 4;
      subject[0] = 0;
      subject[1] = 0;
      subject[2] = 0;
      if (alpha > 0) sampleRgb(source, su, sv, 1, subject);
      for (let channel = 0; channel < 3; channel += 1) {
        const moved = (plate.data[offset + channel] as number) * (1 - alpha) + (subject[channel] as number) * alpha;
        data[offset + channel] = end && landing > 0 ? moved * (1 - landing) + (end.data[offset + channel] as number) * landing : moved;
      }
      data[offset + 3] = 255;
    }
  }
}

