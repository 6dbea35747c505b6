import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { decodePicture, pictureToSharp } from '../picture-decode.ts';
import type { RenderInputImage } from '../provider.ts';
import { RenderInputError } from '../render-errors.ts';
import { sizeWithLongSide, type Rgba, type Size } from './raster.ts';

/**
 * Input pictures read once into raw RGBA at the size the frames sample them at: a little larger
 * than the video (the camera zooms and shifts), in the video's ratio.
 */

/** Long side of every video the engine draws (SPEC-free; Kinora's choice: light enough for WASM). */
export const VIDEO_LONG_SIDE = 640;
/** Sources are this much larger than the frame so zooms and parallax stay sharp. */
const SOURCE_SCALE = 1.3;

export async function readInputFile(input: RenderInputImage | { path: string; field: string }): Promise<Buffer> {
  try {
    return await readFile(input.path);
  } catch {
    throw new RenderInputError(`The file given as ${input.field} could not be found.`);
  }
}

export async function loadPicture(input: RenderInputImage): Promise<Rgba> {
  const picture = await decodePicture(await readInputFile(input), 2048);
  if (!picture) throw new RenderInputError(`The picture given as ${input.field} could not be read (${input.contentType}).`);
  return picture;
}

/** The video size for a picture: its ratio, long side VIDEO_LONG_SIDE, even sides. */
export const videoSizeFor = (picture: Size): Size => sizeWithLongSide(picture.width / picture.height, VIDEO_LONG_SIDE);

/** The source size for frames of `size`. */
export const sourceSizeFor = (size: Size): Size => ({
  width: Math.round(size.width * SOURCE_SCALE),
  height: Math.round(size.height * SOURCE_SCALE),
});

/** The picture resized to fill `size`, cropped around its most interesting part. */
export async function coverPicture(picture: Rgba, size: Size): Promise<Rgba> {
  const { data, info } = await pictureToSharp({ data: Buffer.from(picture.data.buffer, picture.data.byteOffset, picture.data.byteLength), width: picture.width, height: picture.height })
    .resize(size.width, size.height, { fit: 'cover', position: sharp.strategy.attention })
    .flatten({ background: '#ffffff' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** An SVG (a generated scene) rasterised at `size`. */
export async function svgToRgba(svg: string, size: Size): Promise<Rgba> {
  const { data, info } = await sharp(Buffer.from(svg)).resize(size.width, size.height, { fit: 'fill' }).flatten({ background: '#ffffff' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Raw RGBA → JPEG (thumbnails of pictures) or PNG. */
export async function encodeRgba(picture: Rgba, format: 'jpeg' | 'png'): Promise<Buffer> {
  const pipeline = sharp(Buffer.from(picture.data.buffer, picture.data.byteOffset, picture.data.byteLength), { raw: { width: picture.width, height: picture.height, channels: 4 } }).removeAlpha();
  return format === 'jpeg' ? pipeline.jpeg({ quality: 85 }).toBuffer() : pipeline.png().toBuffer();
}
