import { describe, expect, it } from 'vitest';
import { MOTION_MODELS } from '@/config/motion-models';

const model = (value: string) => {
  const found = MOTION_MODELS.find((candidate) => candidate.value === value);
  if (!found) throw new Error(`no motion model ${value}`);
  return found;
};

describe('motion models', () => {
  it('has the 19 models of SPEC §9 with their credits, all active', () => {
    expect(MOTION_MODELS.map((m) => [m.value, m.required_credits])).toEqual([
      ['Auto', 40],
      ['AutoT3', 80],
      ['KlingAI', 40],
      ['Kling2', 160],
      ['LumaAI', 40],
      ['LumaRay2', 80],
      ['VeoFast', 80],
      ['Veo', 160],
      ['RunwayML', 40],
      ['MinimaxHailuo', 40],
      ['Seedance', 80],
      ['Hunyuan', 40],
      ['Pixverse', 40],
      ['PicoMotion', 20],
      ['StaticMotion', 4],
      ['Wan', 40],
      ['Sora', 40],
      ['SoraPro', 240],
      ['TryOnVideo', 40],
    ]);
    expect(MOTION_MODELS.every((m) => m.active === 1 && m.first_frame === 1)).toBe(true);
  });

  it('gives an end frame to exactly the models SPEC marks', () => {
    expect(MOTION_MODELS.filter((m) => m.end_frame === 1).map((m) => m.value)).toEqual([
      'Auto',
      'AutoT3',
      'KlingAI',
      'LumaAI',
      'RunwayML',
      'PicoMotion',
      'TryOnVideo',
    ]);
  });

  it('gives a motion amount to Auto and TryOnVideo only', () => {
    expect(MOTION_MODELS.filter((m) => m.motion_amount === 1).map((m) => m.value)).toEqual(['Auto', 'TryOnVideo']);
  });

  it('takes a text prompt everywhere except TryOnVideo', () => {
    expect(model('TryOnVideo')).toMatchObject({ text_prompt: 0, end_frame: 1, motion_amount: 1, required_credits: 40 });
    expect(MOTION_MODELS.filter((m) => m.text_prompt === 0).map((m) => m.value)).toEqual(['TryOnVideo']);
    expect(model('Kling2')).toMatchObject({ text_prompt: 1, end_frame: 0, motion_amount: 0 });
  });
});
