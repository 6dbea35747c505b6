import { describe, expect, it } from 'vitest';
import { createLocalRenderEngine } from '../../../server/src/render/local-engine.ts';
import { promptWithout } from '../../../server/src/render/palette.ts';
import { buildImageRequest } from './render-fixtures.ts';

/**
 * Issue 21 item 7: the local engine honours a negative prompt for real: the excluded words stop
 * driving the picture (palette, scene, effects, caption), exactly as if the prompt had not said them.
 */
const engine = createLocalRenderEngine();

describe('promptWithout', () => {
  it('drops the negative prompt’s words, whole words in any case, singular or plural', () => {
    expect(promptWithout('A misty Forest at night, under the stars', 'night, forest, star')).toBe('A misty at, under the');
    expect(promptWithout('two red kites in snow', 'kite')).toBe('two red in snow');
    // Part of a word is not the word: "sea" does not take "seal" away.
    expect(promptWithout('a seal by the sea', 'sea')).toBe('a seal by the');
    expect(promptWithout('a quiet harbour', '   ')).toBe('a quiet harbour');
  });
});

describe('a negative prompt in the local engine', () => {
  it('draws the picture the prompt without those words draws, and not the one with them', async () => {
    const withNight = buildImageRequest({ model: 'StableDiffusion3.5', prompt: 'a forest lake at night' });
    const excluded = await engine.renderImage({ ...withNight, args: { negative_prompt: 'night' } });
    const without = await engine.renderImage({ ...withNight, prompt: 'a forest lake at' });
    const original = await engine.renderImage(withNight);
    expect(excluded.image.data.equals(without.image.data)).toBe(true);
    expect(excluded.image.data.equals(original.image.data)).toBe(false);
  });

  it('changes nothing when it names nothing the prompt says', async () => {
    const request = buildImageRequest({ model: 'RealisticVision', prompt: 'a harbour at dawn' });
    const excluded = await engine.renderImage({ ...request, args: { negative_prompt: 'people, text' } });
    expect(excluded.image.data.equals((await engine.renderImage(request)).image.data)).toBe(true);
  });
});
