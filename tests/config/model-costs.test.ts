import { describe, expect, it } from 'vitest';
import { MODEL_COSTS } from '@/config/model-costs';

const modelsCosting = (credits: number): string[] =>
  Object.entries(MODEL_COSTS)
    .filter(([, cost]) => cost === credits)
    .map(([model]) => model)
    .sort();

describe('model credit costs', () => {
  it('matches SPEC §9 for every price group', () => {
    expect(modelsCosting(0)).toEqual(['AttachAudio']);
    expect(modelsCosting(4)).toHaveLength(17);
    expect(modelsCosting(8)).toHaveLength(17);
    expect(modelsCosting(16)).toEqual(['ImageElements', 'OpenAI-Image-1', 'SegmindFaceSwap']);
    expect(modelsCosting(20)).toEqual(['CropToAspectRatio', 'SoundEffect']);
    expect(modelsCosting(40)).toHaveLength(10);
    expect(modelsCosting(80)).toEqual(['WanEffects']);
    expect(modelsCosting(240)).toEqual(['FluxFinetune', 'FluxKontextFinetune', 'FluxProFinetune', 'LumaModify']);
    expect(Object.keys(MODEL_COSTS)).toHaveLength(1 + 17 + 17 + 3 + 2 + 10 + 1 + 4);
  });

  it.each([
    ['Seedream', 4],
    ['Text2Audio', 4],
    ['MagicFaceSwap', 4],
    ['KlingTryOn', 8],
    ['Lyria2', 8],
    ['Text2Speech', 8],
    ['EaselFaceSwap', 8],
    ['OpenAI-Image-1', 16],
    ['SoundEffect', 20],
    ['PikaEffects', 40],
    ['KlingProElements', 40],
    ['WanEffects', 80],
    ['LumaModify', 240],
  ] as const)('%s costs %i', (model, credits) => {
    expect(MODEL_COSTS[model]).toBe(credits);
  });
});
