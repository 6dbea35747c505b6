import sharp from 'sharp';
import { logoSvg } from '../image-render.ts';
import type { Rgba, Size } from './raster.ts';

/**
 * The guest's logo (SPEC §6) for video frames: the same badge and corner as on pictures,
 * rasterised once per video and then drawn on every frame (or overlaid by ffmpeg).
 */

export interface PlacedLogo {
  picture: Rgba;
  png: Uint8Array;
  left: number;
  top: number;
}

/** The badge for a frame of `size`, placed in its bottom-right corner; null when the frame is too small for it. */
export async function placedLogo(size: Size): Promise<PlacedLogo | null> {
  const logo = logoSvg(size);
  const margin = Math.round(Math.min(size.width, size.height) * 0.03);
  if (logo.width + margin * 2 > size.width || logo.height + margin * 2 > size.height) return null;
  const { data, info } = await sharp(Buffer.from(logo.svg)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const png = await sharp(Buffer.from(logo.svg)).png().toBuffer();
  return {
    picture: { data, width: info.width, height: info.height },
    png,
    left: size.width - info.width - margin,
    top: size.height - info.height - margin,
  };
}
