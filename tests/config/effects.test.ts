import { describe, expect, it } from 'vitest';
import {
  KLING_EFFECTS,
  PIKA_EFFECTS,
  PIXVERSE_EFFECTS,
  VIDEO_EFFECT_FAMILIES,
  VIDU_EFFECTS,
  WAN_EFFECTS,
  type VideoEffect,
} from '@/config/effects';

const values = (effects: readonly VideoEffect[]) => effects.map((effect) => effect.value);
const endFrameValues = (effects: readonly VideoEffect[]) =>
  effects.filter((effect) => effect.end_frame === 1).map((effect) => effect.value);

describe('video effects', () => {
  it('has the effect counts of SPEC §9', () => {
    expect(PIKA_EFFECTS).toHaveLength(16);
    expect(WAN_EFFECTS).toHaveLength(18);
    expect(KLING_EFFECTS).toHaveLength(6);
    expect(VIDU_EFFECTS).toHaveLength(39);
    expect(PIXVERSE_EFFECTS).toHaveLength(17);
  });

  it('contains the effects SPEC names', () => {
    expect(values(PIKA_EFFECTS)).toEqual(expect.arrayContaining(['cake-ify', 'crumble', 'melt', 'explode', 'inflate', 'squish']));
    expect(values(WAN_EFFECTS)).toEqual(expect.arrayContaining(['squish', 'muscle', 'inflate', 'hulk', 'painting', 'pirate-captain']));
    expect(values(KLING_EFFECTS)).toEqual(['hug', 'heart_gesture', 'kiss', 'squish', 'expansion', 'fuzzyfuzzy']);
    expect(values(VIDU_EFFECTS)).toEqual(expect.arrayContaining(['minecraft', 'box_me', 'ghibli', 'spin360', 'zoom_in']));
  });

  it('has no duplicate value within a family', () => {
    for (const family of Object.values(VIDEO_EFFECT_FAMILIES)) {
      expect(new Set(values(family.effects)).size).toBe(family.effects.length);
    }
  });

  it('asks for an end frame only on Kling hug, heart_gesture, kiss and Vidu smooth_shift, ai_outfit', () => {
    expect(endFrameValues(KLING_EFFECTS)).toEqual(['hug', 'heart_gesture', 'kiss']);
    expect(endFrameValues(VIDU_EFFECTS)).toEqual(['smooth_shift', 'ai_outfit']);
    expect(endFrameValues(PIKA_EFFECTS)).toEqual([]);
    expect(endFrameValues(WAN_EFFECTS)).toEqual([]);
    expect(endFrameValues(PIXVERSE_EFFECTS)).toEqual([]);
  });

  it('identifies Pixverse effects by numeric ids', () => {
    expect(PIXVERSE_EFFECTS.every((effect) => /^\d+$/.test(effect.value))).toBe(true);
  });

  it('prices each family as SPEC §9 does', () => {
    expect(VIDEO_EFFECT_FAMILIES.PikaEffects.required_credits).toBe(40);
    expect(VIDEO_EFFECT_FAMILIES.KlingEffects.required_credits).toBe(40);
    expect(VIDEO_EFFECT_FAMILIES.ViduEffects.required_credits).toBe(40);
    expect(VIDEO_EFFECT_FAMILIES.PixverseEffects.required_credits).toBe(40);
    expect(VIDEO_EFFECT_FAMILIES.WanEffects.required_credits).toBe(80);
  });
});
