import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyFinetuneStyle, learnFinetuneStyle, parseFinetuneStyle } from '../../../server/src/render/finetune-style.ts';
import { createLocalRenderEngine } from '../../../server/src/render/local-engine.ts';
import type { RenderInputImage } from '../../../server/src/render/provider.ts';
import { buildImageRequest, createFixtureFolder, regionMean, solidPng, writeInput } from './render-fixtures.ts';

const engine = createLocalRenderEngine();
let folder: { folder: string; remove: () => Promise<void> };
let warmPictures: RenderInputImage[];
let pairs: RenderInputImage[];

/** A picture with a gradient of `from` → `to` and a block of `accent` (several colours, like a photo). */
async function gradientPng(from: string, to: string, accent: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="150"><defs><linearGradient id="g"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs><rect width="200" height="150" fill="url(#g)"/><rect x="60" y="40" width="80" height="70" fill="${accent}"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** Swaps the red and blue channels: the "edit" the Kontext pairs teach. */
async function swapRedBlue(png: Buffer): Promise<Buffer> {
  return sharp(png).removeAlpha().recomb([[0, 0, 1], [0, 1, 0], [1, 0, 0]]).png().toBuffer();
}

const whole = { left: 0, top: 0, width: 768, height: 768 };

beforeAll(async () => {
  folder = await createFixtureFolder();
  warmPictures = [];
  const warm = [['#7a1f0a', '#f59e0b', '#dc2626'], ['#9a3412', '#fde68a', '#b91c1c'], ['#78350f', '#fb923c', '#ef4444'], ['#7c2d12', '#fcd34d', '#f97316'], ['#991b1b', '#fdba74', '#ea580c']];
  for (const [index, [from, to, accent]] of warm.entries()) {
    warmPictures.push(await writeInput(folder.folder, `warm${index}.png`, await gradientPng(from as string, to as string, accent as string), 'image_urls'));
  }
  pairs = [];
  const inputs = [['#1d4ed8', '#a3e635', '#f43f5e'], ['#f97316', '#0ea5e9', '#22c55e'], ['#6d28d9', '#facc15', '#14b8a6']];
  for (const [index, [from, to, accent]] of inputs.entries()) {
    const input = await gradientPng(from as string, to as string, accent as string);
    pairs.push(await writeInput(folder.folder, `in${index}.png`, input, 'image_urls'));
    pairs.push(await writeInput(folder.folder, `out${index}.png`, await swapRedBlue(input), 'image_urls'));
  }
});

afterAll(async () => {
  await folder.remove();
});

describe('trainFinetune', () => {
  it('learns a JSON-safe style with the pictures palette and colours, and renders a preview with it', async () => {
    const trained = await engine.trainFinetune({ kind: 'FluxFinetune', inputs: warmPictures, prompt: '', triggerWord: 'sks', seed: 'seed-1' });
    const style = trained.style;
    expect(JSON.parse(JSON.stringify(style))).toEqual(style);
    const parsed = parseFinetuneStyle(style);
    expect(parsed?.palette).toHaveLength(5);
    // Warm pictures: red well above blue on average.
    expect((parsed?.mean[0] ?? 0) - (parsed?.mean[2] ?? 0)).toBeGreaterThan(80);
    expect(parsed?.colourTransform).toBeUndefined();
    const preview = await sharp(trained.preview.image.data).metadata();
    expect(preview.format).toBe('png');
    const previewMean = await regionMean(trained.preview.image.data, whole);
    expect(previewMean.r - previewMean.b).toBeGreaterThan(40);
  });

  it('is deterministic', async () => {
    const request = { kind: 'FluxProFinetune', inputs: warmPictures.slice(0, 2), prompt: 'a cabin', triggerWord: '', seed: 'seed-2' };
    const [first, second] = await Promise.all([engine.trainFinetune(request), engine.trainFinetune(request)]);
    expect(first.style).toEqual(second.style);
    expect(Buffer.compare(first.preview.image.data, second.preview.image.data)).toBe(0);
  });

  it('learns the colour transform of Kontext input → output pairs', async () => {
    const style = await learnFinetuneStyle({ kind: 'FluxKontextFinetune', inputs: pairs, triggerWord: '' });
    const matrix = style.colourTransform;
    expect(matrix).toHaveLength(3);
    // Red out ≈ blue in, blue out ≈ red in, green unchanged.
    expect(matrix?.[0]?.[2]).toBeGreaterThan(0.8);
    expect(Math.abs(matrix?.[0]?.[0] ?? 1)).toBeLessThan(0.2);
    expect(matrix?.[2]?.[0]).toBeGreaterThan(0.8);
    expect(matrix?.[1]?.[1]).toBeGreaterThan(0.8);
    const red = { data: Buffer.from([220, 30, 20, 255]), width: 1, height: 1 };
    const styled = applyFinetuneStyle(red, { ...style, strength: 1 });
    expect(styled.data[2]).toBeGreaterThan(150);
    expect(styled.data[0]).toBeLessThan(100);
  });
});

describe('image renders with a trained model', () => {
  it('text to image carries the learned look', async () => {
    const trained = await engine.trainFinetune({ kind: 'FluxFinetune', inputs: warmPictures, prompt: '', triggerWord: 'sks', seed: 'seed-1' });
    const prompt = 'A quiet lake under a blue sky';
    const plain = await engine.renderImage(buildImageRequest({ model: 'FluxFinetuned', prompt }));
    const styled = await engine.renderImage(buildImageRequest({ model: 'FluxFinetuned', prompt, args: { finetune_style: trained.style } }));
    expect(Buffer.compare(plain.image.data, styled.image.data)).not.toBe(0);
    const before = await regionMean(plain.image.data, whole);
    const after = await regionMean(styled.image.data, whole);
    expect(after.r - after.b).toBeGreaterThan(before.r - before.b + 40);
  });

  it('image to image applies the Kontext transform; an unreadable style is ignored', async () => {
    const style = await learnFinetuneStyle({ kind: 'FluxKontextFinetune', inputs: pairs, triggerWord: '' });
    const input = await writeInput(folder.folder, 'red.png', await solidPng(300, 300, '#d01010'));
    const request = buildImageRequest({ tool: 'image-to-image', model: 'FluxKontextFinetuned', prompt: '', inputs: [input] });
    const plain = await engine.renderImage(request);
    const styled = await engine.renderImage({ ...request, args: { finetune_style: style } });
    const ignored = await engine.renderImage({ ...request, args: { finetune_style: { palette: 'nope' } } });
    const box = { left: 0, top: 0, width: plain.width, height: plain.height };
    const before = await regionMean(plain.image.data, box);
    const after = await regionMean(styled.image.data, box);
    expect(before.r).toBeGreaterThan(before.b);
    expect(after.b).toBeGreaterThan(after.r);
    expect(Buffer.compare(ignored.image.data, plain.image.data)).toBe(0);
  });
});
