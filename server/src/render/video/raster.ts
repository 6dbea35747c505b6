/**
 * Raw RGBA pictures and the per-pixel helpers the video frames are drawn with. Frames are drawn
 * in plain JS (no canvas on the server): every output pixel samples its source bilinearly, so
 * sub-pixel camera moves stay smooth instead of stepping a pixel at a time.
 */

export interface Rgba {
  /** RGBA, 8 bits per channel, rows top to bottom. */
  data: Uint8Array;
  width: number;
  height: number;
}

export interface Size {
  width: number;
  height: number;
}

export const createRgba = (size: Size): Rgba => ({ data: new Uint8Array(size.width * size.height * 4), width: size.width, height: size.height });

export const clamp = (value: number, min: number, max: number): number => (value < min ? min : value > max ? max : value);

export const smoothstep = (from: number, to: number, value: number): number => {
  const t = clamp((value - from) / (to - from), 0, 1);
  return t * t * (3 - 2 * t);
};

export const lerp = (from: number, to: number, t: number): number => from + (to - from) * t;

/** Mirrors a coordinate into 0…1 so moves past the picture's edge show a reflection, not a smear. */
export function reflect(value: number): number {
  if (value >= 0 && value <= 1) return value;
  const period = value - 2 * Math.floor(value / 2);
  return period <= 1 ? period : 2 - period;
}

/** Hex colour ("#rrggbb") → [r, g, b]. */
export function hexToRgb(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.replace('#', '').slice(0, 6), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

/** Blends `amount` (0…1) of a flat colour into every pixel, in place. */
export function tintInPlace(frame: Rgba, colour: readonly [number, number, number], amount: number): void {
  if (amount <= 0) return;
  const { data } = frame;
  const keep = 1 - amount;
  const [r, g, b] = colour;
  for (let offset = 0; offset < data.length; offset += 4) {
    data[offset] = (data[offset] ?? 0) * keep + r * amount;
    data[offset + 1] = (data[offset + 1] ?? 0) * keep + g * amount;
    data[offset + 2] = (data[offset + 2] ?? 0) * keep + b * amount;
  }
}

/** Draws `overlay` (straight alpha) over `frame` with its top-left corner at (left, top). */
export function drawOver(frame: Rgba, overlay: Rgba, left: number, top: number): void {
  for (let y = 0; y < overlay.height; y += 1) {
    const frameY = top + y;
    if (frameY < 0 || frameY >= frame.height) continue;
    for (let x = 0; x < overlay.width; x += 1) {
      const frameX = left + x;
      if (frameX < 0 || frameX >= frame.width) continue;
      const source = (y * overlay.width + x) * 4;
      const alpha = (overlay.data[source + 3] ?? 0) / 255;
      if (alpha === 0) continue;
      const target = (frameY * frame.width + frameX) * 4;
      for (let channel = 0; channel < 3; channel += 1) {
        frame.data[target + channel] = (frame.data[target + channel] ?? 0) * (1 - alpha) + (overlay.data[source + channel] ?? 0) * alpha;
      }
      frame.data[target + 3] = 255;
    }
  }
}

/** Mean RGB of a picture (for tints taken from a style picture). */
export function meanColour(picture: Rgba): [number, number, number] {
  let r = 0;
  let g = 0;
  let b = 0;
  const pixels = picture.width * picture.height;
  for (let offset = 0; offset < picture.data.length; offset += 4) {
    r += picture.data[offset] ?? 0;
    g += picture.data[offset + 1] ?? 0;
    b += picture.data[offset + 2] ?? 0;
  }
  return [r / pixels, g / pixels, b / pixels];
}

/** A size with the given ratio and long side, both sides even (H.264 needs even sides). */
export function sizeWithLongSide(ratio: number, longSide: number): Size {
  const even = (value: number) => Math.max(2, Math.round(value / 2) * 2);
  return ratio >= 1 ? { width: even(longSide), height: even(longSide / ratio) } : { width: even(longSide * ratio), height: even(longSide) };
}
