import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { ImageRenderRequest, RenderInputImage } from '../../../server/src/render/provider.ts';

/** A folder of input pictures for one test file, removed afterwards. */
export async function createFixtureFolder(): Promise<{ folder: string; remove: () => Promise<void> }> {
  const folder = await mkdtemp(path.join(tmpdir(), 'kinora-render-'));
  return { folder, remove: () => rm(folder, { recursive: true, force: true }) };
}

export async function solidPng(width: number, height: number, colour: string): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } }).png().toBuffer();
}

/** A coloured square in the middle of a plain background (a "subject" to cut out). */
export async function subjectPng(width: number, height: number, subject: string, background: string): Promise<Buffer> {
  const side = Math.round(Math.min(width, height) / 2);
  const square = await solidPng(side, side, subject);
  return sharp({ create: { width, height, channels: 3, background } })
    .composite([{ input: square, left: Math.round((width - side) / 2), top: Math.round((height - side) / 2) }])
    .png()
    .toBuffer();
}

export async function writeInput(folder: string, name: string, data: Buffer, field = 'image_url'): Promise<RenderInputImage> {
  const filePath = path.join(folder, name);
  await writeFile(filePath, data);
  return { path: filePath, contentType: 'image/png', field };
}

export function buildImageRequest(overrides: Partial<ImageRenderRequest> = {}): ImageRenderRequest {
  return {
    tool: 'text-to-image',
    model: 'Seedream',
    prompt: 'A quiet harbour at dawn',
    args: {},
    inputs: [],
    seed: 'seed-1',
    logo: false,
    ...overrides,
  };
}

/** Mean RGB of a region of an image, in 0…255. */
export async function regionMean(
  image: Buffer,
  region: { left: number; top: number; width: number; height: number },
): Promise<{ r: number; g: number; b: number }> {
  const { data, info } = await sharp(image)
    .extract(region)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let r = 0;
  let g = 0;
  let b = 0;
  for (let offset = 0; offset < data.length; offset += info.channels) {
    r += data[offset] ?? 0;
    g += data[offset + 1] ?? 0;
    b += data[offset + 2] ?? 0;
  }
  const pixels = data.length / info.channels;
  return { r: r / pixels, g: g / pixels, b: b / pixels };
}
