import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalRenderEngine } from '../../../server/src/render/local-engine.ts';
import type { ImageRenderRequest, RenderInputImage } from '../../../server/src/render/provider.ts';
import { buildImageRequest, createFixtureFolder, regionMean, solidPng, subjectPng, writeInput } from './render-fixtures.ts';

/**
 * A story's scene picture (issue 6, tool `scene-image`): the generated scene of the prompt (or a
 * place picture) as the backdrop, the characters and objects composited in front of it as cut-out
 * figures, left to right, at the story's aspect ratio; the same request gives the same bytes.
 */

const engine = createLocalRenderEngine();
let folder: { folder: string; remove: () => Promise<void> };
let hero: RenderInputImage;
let friend: RenderInputImage;
let place: RenderInputImage;

beforeAll(async () => {
  folder = await createFixtureFolder();
  // Figures on a plain backdrop, the way the cut-out finds them: a red one and a blue one.
  hero = await writeInput(folder.folder, 'hero.png', await subjectPng(300, 300, '#e01010', '#ffffff'), 'image_urls');
  friend = await writeInput(folder.folder, 'friend.png', await subjectPng(300, 300, '#1020e0', '#ffffff'), 'image_urls');
  place = await writeInput(folder.folder, 'place.png', await solidPng(640, 360, '#10a020'), 'image_urls');
});

afterAll(async () => {
  await folder.remove();
});

const sceneRequest = (overrides: Partial<ImageRenderRequest> = {}): ImageRenderRequest =>
  buildImageRequest({
    tool: 'scene-image',
    model: 'Seedream',
    prompt: 'Mara meets the keeper at the lighthouse, medium shot',
    args: { aspect_ratio: '16:9', shot: 'medium', story_part: 'scenes', scene_id: 'scene-1' },
    aspectRatio: '16:9',
    ...overrides,
  });

async function pixels(png: Buffer): Promise<Buffer> {
  return sharp(png).removeAlpha().raw().toBuffer();
}

/** Share of pixels that differ clearly between two pictures of the same size. */
async function changedShare(a: Buffer, b: Buffer): Promise<number> {
  const [left, right] = await Promise.all([pixels(a), pixels(b)]);
  let changed = 0;
  for (let offset = 0; offset < left.length; offset += 3) {
    const distance = Math.abs((left[offset] ?? 0) - (right[offset] ?? 0)) + Math.abs((left[offset + 1] ?? 0) - (right[offset + 1] ?? 0)) + Math.abs((left[offset + 2] ?? 0) - (right[offset + 2] ?? 0));
    if (distance > 30) changed += 1;
  }
  return changed / (left.length / 3);
}

describe('renderImage: a story scene picture', () => {
  it('renders a PNG and its thumbnail without any element picture', async () => {
    const result = await engine.renderImage(sceneRequest());
    const metadata = await sharp(result.image.data).metadata();
    expect(metadata.format).toBe('png');
    expect([metadata.width, metadata.height]).toEqual([1024, 576]);
    expect((await sharp(result.thumbnail.data).metadata()).format).toBe('jpeg');
  });

  it.each([
    ['16:9', 1024, 576],
    ['9:16', 576, 1024],
    ['1:1', 768, 768],
    ['4:3', 896, 672],
    ['3:4', 672, 896],
  ])('takes the story ratio %s, whatever the shape of the element pictures', async (ratio, width, height) => {
    const result = await engine.renderImage(sceneRequest({ aspectRatio: ratio, args: { aspect_ratio: ratio, shot: 'wide' }, inputs: [place, hero] }));
    expect([result.width, result.height]).toEqual([width, height]);
    const metadata = await sharp(result.image.data).metadata();
    expect([metadata.width, metadata.height]).toEqual([width, height]);
  });

  it('composites the figures into the scene: they change the picture where they stand, left to right', async () => {
    const empty = await engine.renderImage(sceneRequest());
    const withFigures = await engine.renderImage(sceneRequest({ inputs: [hero, friend] }));
    expect(await changedShare(empty.image.data, withFigures.image.data)).toBeGreaterThan(0.05);
    // The red figure stands in the left half, the blue one in the right half.
    const band = { top: 300, height: 200, width: 200 };
    const left = await regionMean(withFigures.image.data, { ...band, left: 156 });
    const right = await regionMean(withFigures.image.data, { ...band, left: 668 });
    expect(left.r - left.b).toBeGreaterThan(right.r - right.b);
    expect(right.b - right.r).toBeGreaterThan(left.b - left.r);
  });

  it('uses a place picture as the backdrop when the element kinds say which input is the place', async () => {
    const result = await engine.renderImage(sceneRequest({ inputs: [hero, place], args: { aspect_ratio: '16:9', shot: 'wide', element_kinds: ['character', 'place'] } }));
    // The corners show the green place, not a generated sky.
    const corner = await regionMean(result.image.data, { left: 0, top: 0, width: 120, height: 80 });
    expect(corner.g).toBeGreaterThan(corner.r + 30);
    expect(corner.g).toBeGreaterThan(corner.b + 30);
    // Without the kinds every input is a figure and the backdrop is generated.
    const asFigures = await engine.renderImage(sceneRequest({ inputs: [hero, place], args: { aspect_ratio: '16:9', shot: 'wide' } }));
    expect(asFigures.image.data.equals(result.image.data)).toBe(false);
  });

  it('draws the figures larger in a close-up than in a wide shot', async () => {
    const wide = await engine.renderImage(sceneRequest({ inputs: [hero], args: { aspect_ratio: '16:9', shot: 'wide', element_kinds: ['character'] } }));
    const close = await engine.renderImage(sceneRequest({ inputs: [hero], args: { aspect_ratio: '16:9', shot: 'close-up', element_kinds: ['character'] } }));
    const empty = await engine.renderImage(sceneRequest({ args: { aspect_ratio: '16:9', shot: 'wide' } }));
    const emptyClose = await engine.renderImage(sceneRequest({ args: { aspect_ratio: '16:9', shot: 'close-up' } }));
    expect(await changedShare(emptyClose.image.data, close.image.data)).toBeGreaterThan(await changedShare(empty.image.data, wide.image.data));
  });

  it('cuts generated element pictures (no plain backdrop) out along figure silhouettes', async () => {
    const drawn = [];
    for (const [name, prompt, kind] of [
      ['mara', 'Mara: a young fisherwoman, character portrait, full figure', 'character'],
      ['lantern', 'The lantern: glowing lantern, object study', 'object'],
    ] as const) {
      const element = await engine.renderImage(buildImageRequest({ prompt, aspectRatio: '1:1', args: { story_part: 'elements' } }));
      drawn.push({ input: await writeInput(folder.folder, `${name}.png`, element.image.data, 'image_urls'), kind });
    }
    const args = { aspect_ratio: '16:9', shot: 'medium', element_kinds: drawn.map((item) => item.kind) };
    const empty = await engine.renderImage(sceneRequest({ args }));
    const scene = await engine.renderImage(sceneRequest({ args, inputs: drawn.map((item) => item.input) }));
    const share = await changedShare(empty.image.data, scene.image.data);
    // The figures stand in the frame without covering it: the backdrop still shows around them.
    expect(share).toBeGreaterThan(0.05);
    expect(share).toBeLessThan(0.5);
  });

  it("draws a story's element picture without the prompt caption a text-to-image carries", async () => {
    const prompt = 'The lantern: glowing lantern, object study';
    const element = await engine.renderImage(buildImageRequest({ prompt, args: { story_part: 'elements' } }));
    const captioned = await engine.renderImage(buildImageRequest({ prompt }));
    const band = { left: 0, top: 700, width: 400, height: 68 };
    const withCaption = await regionMean(captioned.image.data, band);
    const without = await regionMean(element.image.data, band);
    expect(Math.abs(withCaption.r - without.r) + Math.abs(withCaption.g - without.g) + Math.abs(withCaption.b - without.b)).toBeGreaterThan(10);
  });

  it('is deterministic per seed: the same request gives the same bytes, another seed another picture', async () => {
    const request = sceneRequest({ inputs: [hero, friend] });
    const first = await engine.renderImage(request);
    const second = await engine.renderImage(request);
    expect(first.image.data.equals(second.image.data)).toBe(true);
    const other = await engine.renderImage(sceneRequest({ inputs: [hero, friend], seed: 'seed-2' }));
    expect(other.image.data.equals(first.image.data)).toBe(false);
  });
});
