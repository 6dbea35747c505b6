import sharp from 'sharp';

/**
 * Turns stored picture bytes into pixels the engine can work with. sharp reads PNG, JPEG, WebP,
 * TIFF, AVIF, GIF and SVG here; its prebuilt libvips has no BMP or PSD loader and no HEVC
 * decoder (HEIC), so BMP is read by the small decoder below and the others give null.
 */

export interface Picture {
  /** RGBA, 8 bits per channel, rows top to bottom. */
  data: Buffer;
  width: number;
  height: number;
}

/** Larger pictures are shrunk on reading: the engine renders at most ~2048 px anyway. */
const MAX_PICTURE_SIDE = 4096;
/** SVGs are rasterised with this many pixels on their long side (at least their own size). */
const SVG_TARGET_SIDE = 1024;

export function pictureToSharp(picture: Picture): sharp.Sharp {
  return sharp(picture.data, { raw: { width: picture.width, height: picture.height, channels: 4 } });
}

function isSvg(data: Buffer): boolean {
  const head = data.subarray(0, 4096).toString('utf8');
  return /<svg[\s>]/i.test(head) && !/^\s*[^\s<\uFEFF]/.test(head);
}

/** Uncompressed 24/32-bit Windows bitmaps, the kind image editors write by default. */
function decodeBmp(data: Buffer): Picture | null {
  if (data.length < 54 || data.toString('ascii', 0, 2) !== 'BM') return null;
  const pixelOffset = data.readUInt32LE(10);
  const headerSize = data.readUInt32LE(14);
  if (headerSize < 40) return null;
  const width = data.readInt32LE(18);
  const rawHeight = data.readInt32LE(22);
  const bitsPerPixel = data.readUInt16LE(28);
  const compression = data.readUInt32LE(30);
  const height = Math.abs(rawHeight);
  const bytesPerPixel = bitsPerPixel / 8;
  if (width <= 0 || height === 0 || width > 30_000 || height > 30_000) return null;
  if (!(bitsPerPixel === 24 && compression === 0) && !(bitsPerPixel === 32 && (compression === 0 || compression === 3))) {
    return null;
  }
  const rowBytes = Math.ceil((width * bitsPerPixel) / 32) * 4;
  if (pixelOffset + rowBytes * height > data.length) return null;
  const out = Buffer.alloc(width * height * 4);
  for (let row = 0; row < height; row += 1) {
    // A positive height stores the bottom row first.
    const sourceRow = rawHeight > 0 ? height - 1 - row : row;
    const rowStart = pixelOffset + sourceRow * rowBytes;
    for (let column = 0; column < width; column += 1) {
      const source = rowStart + column * bytesPerPixel;
      const target = (row * width + column) * 4;
      out[target] = data[source + 2] ?? 0;
      out[target + 1] = data[source + 1] ?? 0;
      out[target + 2] = data[source] ?? 0;
      // BI_RGB 32-bit keeps an unused fourth byte: treat every pixel as opaque.
      out[target + 3] = 255;
    }
  }
  return { data: out, width, height };
}

async function sharpInput(data: Buffer): Promise<sharp.Sharp> {
  if (!isSvg(data)) return sharp(data, { failOn: 'error' }).rotate();
  const metadata = await sharp(data).metadata();
  const longSide = Math.max(metadata.width ?? SVG_TARGET_SIDE, metadata.height ?? SVG_TARGET_SIDE, 1);
  const density = Math.min(72 * 16, Math.max(72, (72 * SVG_TARGET_SIDE) / longSide));
  return sharp(data, { density });
}

/** The picture's pixels, shrunk to fit `maxSide`; null when it cannot be decoded. */
export async function decodePicture(data: Buffer, maxSide = MAX_PICTURE_SIDE): Promise<Picture | null> {
  const bmp = decodeBmp(data);
  try {
    const input = bmp ? pictureToSharp(bmp) : await sharpInput(data);
    const { data: pixels, info } = await input
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .ensureAlpha()
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    return { data: pixels, width: info.width, height: info.height };
  } catch {
    return null;
  }
}
