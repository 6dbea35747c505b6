import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalRenderEngine } from '../../../server/src/render/local-engine.ts';
import type { RenderInputImage } from '../../../server/src/render/provider.ts';
import { RenderInputError } from '../../../server/src/render/render-errors.ts';
import { buildImageRequest, createFixtureFolder, regionMean, solidPng, subjectPng, writeInput } from './render-fixtures.ts';

const engine = createLocalRenderEngine();
let folder: { folder: string; remove: () => Promise<void> };
let red: RenderInputImage;
let blue: RenderInputImage;
let face: RenderInputImage;
let subject: RenderInputImage;
let green: RenderInputImage;

beforeAll(async () => {
  folder = await createFixtureFolder();
  red = await writeInput(folder.folder, 'red.png', await solidPng(400, 300, '#d01010'));
  blue = await writeInput(folder.folder, 'blue.png', await solidPng(400, 300, '#1030d0'));
  face = await writeInput(folder.folder, 'face.png', await solidPng(120, 120, '#20e020'), 'image_urls');
  subject = await writeInput(folder.folder, 'subject.png', await subjectPng(300, 300, '#e01010', '#ffffff'));
  green = await writeInput(folder.folder, 'green.png', await solidPng(200, 200, '#10b010'), 'image2_url');
});

afterAll(async () => {
  await folder.remove();
});

describe('renderImage: text to image', () => {
  it.each([
    ['1:1', 768, 768],
    ['16:9', 1024, 576],
    ['4:3', 896, 672],
    ['3:4', 672, 896],
    ['9:16', 576, 1024],
  ])('renders a real PNG of the %s size', async (ratio, width, height) => {
    const result = await engine.renderImage(buildImageRequest({ aspectRatio: ratio }));
    const metadata = await sharp(result.image.data).metadata();
    expect(metadata.format).toBe('png');
    expect([metadata.width, metadata.height]).toEqual([width, height]);
    expect([result.width, result.height]).toEqual([width, height]);
    expect(result.image).toMatchObject({ name: 'result.png', contentType: 'image/png' });
  });

  it('is square without a ratio and reads the ratio from args too', async () => {
    const plain = await engine.renderImage(buildImageRequest());
    expect([plain.width, plain.height]).toEqual([768, 768]);
    const fromArgs = await engine.renderImage(buildImageRequest({ args: { aspect_ratio: '16:9' } }));
    expect([fromArgs.width, fromArgs.height]).toEqual([1024, 576]);
  });

  it('makes a JPEG thumbnail with a long side of 320', async () => {
    const result = await engine.renderImage(buildImageRequest({ aspectRatio: '16:9' }));
    const metadata = await sharp(result.thumbnail.data).metadata();
    expect(metadata.format).toBe('jpeg');
    expect([metadata.width, metadata.height]).toEqual([320, 180]);
    expect(result.thumbnail).toMatchObject({ name: 'thumbnail.jpg', contentType: 'image/jpeg' });
  });

  it('is deterministic: the same request gives identical bytes', async () => {
    const first = await engine.renderImage(buildImageRequest());
    const second = await engine.renderImage(buildImageRequest());
    expect(first.image.data.equals(second.image.data)).toBe(true);
    expect(first.thumbnail.data.equals(second.thumbnail.data)).toBe(true);
  });

  it('changes with the prompt, the model and the seed', async () => {
    const base = await engine.renderImage(buildImageRequest());
    for (const change of [{ prompt: 'A red fox in the snow' }, { model: 'Flux1.1Pro' }, { seed: 'seed-2' }]) {
      const other = await engine.renderImage(buildImageRequest(change));
      expect(other.image.data.equals(base.image.data)).toBe(false);
    }
  });

  it('takes warm colours for a sunset and cool ones for the ocean', async () => {
    const sunset = await engine.renderImage(buildImageRequest({ prompt: 'sunset over the desert' }));
    const ocean = await engine.renderImage(buildImageRequest({ prompt: 'deep ocean water' }));
    const whole = { left: 0, top: 0, width: 768, height: 768 };
    const warm = await regionMean(sunset.image.data, whole);
    const cool = await regionMean(ocean.image.data, whole);
    expect(warm.r).toBeGreaterThan(warm.b);
    expect(cool.b).toBeGreaterThan(cool.r);
  });
});

describe('renderImage: tools with inputs', () => {
  it('image to image keeps the input: a red picture gives a red result of the input ratio', async () => {
    for (const [input, channel] of [[red, 'r'], [blue, 'b']] as const) {
      const result = await engine.renderImage(buildImageRequest({ tool: 'image-to-image', prompt: 'make it nicer', inputs: [input], aspectRatio: 'Origin' }));
      expect([result.width, result.height]).toEqual([768, 576]);
      const mean = await regionMean(result.image.data, { left: 0, top: 0, width: 768, height: 576 });
      const others = (['r', 'g', 'b'] as const).filter((name) => name !== channel).map((name) => mean[name]);
      expect(mean[channel]).toBeGreaterThan(Math.max(...others) + 60);
    }
  });

  it('crops the input to a requested ratio', async () => {
    const result = await engine.renderImage(buildImageRequest({ tool: 'edit-image', model: 'FluxKontextPro', inputs: [red], aspectRatio: '9:16' }));
    expect([result.width, result.height]).toEqual([576, 1024]);
  });

  it('upscales twice, up to 2048 on the long side', async () => {
    const result = await engine.renderImage(buildImageRequest({ tool: 'edit-image', model: 'Upscale', inputs: [red] }));
    expect([result.width, result.height]).toEqual([800, 600]);
    const big = await writeInput(folder.folder, 'big.png', await solidPng(1500, 1000, '#808080'));
    const capped = await engine.renderImage(buildImageRequest({ tool: 'edit-image', model: 'TopazUpscale', inputs: [big] }));
    expect([capped.width, capped.height]).toEqual([2048, 1366]);
  });

  it('expands to the asked ratio with the whole input in the middle', async () => {
    const result = await engine.renderImage(buildImageRequest({ tool: 'edit-image', model: 'ExpandToAspectRatio', inputs: [red], aspectRatio: '9:16' }));
    expect([result.width, result.height]).toEqual([576, 1024]);
    const centre = await regionMean(result.image.data, { left: 238, top: 462, width: 100, height: 100 });
    expect(centre.r).toBeGreaterThan(180);
  });

  it('draws a pencil sketch in light, unsaturated tones', async () => {
    const result = await engine.renderImage(buildImageRequest({ tool: 'image-to-image', model: 'Sketch', inputs: [subject] }));
    const mean = await regionMean(result.image.data, { left: 0, top: 0, width: result.width, height: result.height });
    expect(Math.min(mean.r, mean.g, mean.b)).toBeGreaterThan(170);
    expect(Math.max(mean.r, mean.g, mean.b) - Math.min(mean.r, mean.g, mean.b)).toBeLessThan(40);
  });

  it('face swap puts the face where order_indices say (0 = leftmost third)', async () => {
    const request = (order: string[]) =>
      buildImageRequest({ tool: 'face-swap', model: 'MagicFaceSwap', prompt: '', inputs: [{ ...blue, field: 'image_urls' }, face], args: { order_indices: order } });
    const left = await engine.renderImage(request(['0']));
    const right = await engine.renderImage(request(['2']));
    expect(left.image.data.equals(right.image.data)).toBe(false);
    const y = Math.round(576 * 0.35) - 10;
    const leftThird = { left: 118, top: y, width: 20, height: 20 };
    const rightThird = { left: 630, top: y, width: 20, height: 20 };
    expect((await regionMean(left.image.data, leftThird)).g).toBeGreaterThan(180);
    expect((await regionMean(left.image.data, rightThird)).g).toBeLessThan(100);
    expect((await regionMean(right.image.data, rightThird)).g).toBeGreaterThan(180);
  });

  it('try-on puts the clothes on the torso of the person', async () => {
    const result = await engine.renderImage(
      buildImageRequest({ tool: 'try-on', model: 'KlingTryOn', prompt: '', inputs: [{ ...blue, field: 'human_image_url' }, { ...face, field: 'clothes_image_url' }] }),
    );
    const torso = await regionMean(result.image.data, { left: 374, top: 330, width: 20, height: 20 });
    expect(torso.g).toBeGreaterThan(180);
    const corner = await regionMean(result.image.data, { left: 5, top: 5, width: 20, height: 20 });
    expect(corner.b).toBeGreaterThan(150);
  });

  it('image elements lays the inputs out side by side', async () => {
    const result = await engine.renderImage(
      buildImageRequest({ tool: 'image-elements', model: 'ImageElements', prompt: 'two squares', inputs: [{ ...red, field: 'image_urls' }, { ...blue, field: 'image_urls' }], aspectRatio: '16:9' }),
    );
    expect([result.width, result.height]).toEqual([1024, 576]);
    const left = await regionMean(result.image.data, { left: 200, top: 250, width: 50, height: 50 });
    const right = await regionMean(result.image.data, { left: 760, top: 250, width: 50, height: 50 });
    expect(left.r).toBeGreaterThan(left.b + 60);
    expect(right.b).toBeGreaterThan(right.r + 60);
  });

  it('remove background leaves the subject on a transparent background', async () => {
    const result = await engine.renderImage(buildImageRequest({ tool: 'replace-bg', model: 'RemoveBackground', prompt: '', inputs: [subject] }));
    const { data, info } = await sharp(result.image.data).raw().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(4);
    const alphaAt = (x: number, y: number) => data[(y * info.width + x) * 4 + 3];
    expect(alphaAt(10, 10)).toBe(0);
    expect(alphaAt(info.width / 2, info.height / 2)).toBe(255);
  });

  it('replace background puts the subject over the second picture', async () => {
    const result = await engine.renderImage(buildImageRequest({ tool: 'replace-bg', model: 'ReplaceBackground', prompt: 'a garden', inputs: [subject, green] }));
    const corner = await regionMean(result.image.data, { left: 5, top: 5, width: 30, height: 30 });
    const centre = await regionMean(result.image.data, { left: 360, top: 360, width: 40, height: 40 });
    expect(corner.g).toBeGreaterThan(corner.r + 60);
    expect(centre.r).toBeGreaterThan(centre.g + 60);
  });

  it('fails with a RenderInputError when an input cannot be read', async () => {
    const text = await writeInput(folder.folder, 'notes.png', Buffer.from('just some text, not a picture'));
    await expect(engine.renderImage(buildImageRequest({ tool: 'image-to-image', inputs: [text] }))).rejects.toBeInstanceOf(RenderInputError);
  });
});

describe('renderImage: logo', () => {
  it('adds the watermark in the bottom-right corner only', async () => {
    const plain = await engine.renderImage(buildImageRequest({ logo: false }));
    const marked = await engine.renderImage(buildImageRequest({ logo: true }));
    const corner = { left: 668, top: 718, width: 90, height: 40 };
    const elsewhere = { left: 0, top: 0, width: 300, height: 300 };
    expect(await regionMean(marked.image.data, corner)).not.toEqual(await regionMean(plain.image.data, corner));
    expect(await regionMean(marked.image.data, elsewhere)).toEqual(await regionMean(plain.image.data, elsewhere));
  });
});

describe('describeImage', () => {
  it('names the dominant colour, the shape and the brightness', async () => {
    const redText = await engine.describeImage(red);
    expect(redText).toMatch(/\bred\b/);
    expect(redText).toMatch(/landscape/);
    const tall = await writeInput(folder.folder, 'tall.png', await solidPng(200, 400, '#0a0a30'));
    const tallText = await engine.describeImage(tall);
    expect(tallText).toMatch(/portrait/);
    expect(tallText).toMatch(/dark/);
    const white = await writeInput(folder.folder, 'white.png', await solidPng(100, 100, '#ffffff'));
    expect(await engine.describeImage(white)).toMatch(/bright square picture .*white/);
  });

  it('names two colours of a two-colour picture', async () => {
    const half = await sharp({ create: { width: 200, height: 100, channels: 3, background: '#f07010' } })
      .composite([{ input: await solidPng(100, 100, '#1020a0'), left: 100, top: 0 }])
      .png()
      .toBuffer();
    const text = await engine.describeImage(await writeInput(folder.folder, 'half.png', half));
    expect(text).toMatch(/orange/);
    expect(text).toMatch(/blue/);
  });
});
