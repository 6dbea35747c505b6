import { describe, expect, it } from 'vitest';
import { parseLegacyParams, parsePosePreset } from '@/lib/pose-preset';
import type { PosePreset } from '@/lib/pose-preset';

const DEFAULTS: PosePreset = {
  motion_type: 'Auto',
  prompt: '',
  quantity: 1,
  motion_amount: 5,
  motion_length: 5,
  loop: 1,
  model: '',
  camera_path: null,
};

describe('parsePosePreset (SPEC §3 pose_preset)', () => {
  it.each<[string, unknown, PosePreset[]]>([
    ['an empty v3 object gets every default', {}, [DEFAULTS]],
    [
      'a full v3 object',
      {
        motion_type: 'Zoom in',
        prompt: 'slow push',
        quantity: 3,
        motion_amount: 7,
        motion_length: 10,
        loop: 0,
        model: 'KlingAI',
        camera_path: null,
      },
      [{ motion_type: 'Zoom in', prompt: 'slow push', quantity: 3, motion_amount: 7, motion_length: 10, loop: 0, model: 'KlingAI', camera_path: null }],
    ],
    [
      'v3 numbers given as text',
      { motion_type: 'Parallax', quantity: '2', motion_amount: '3.5', camera_path: 'HorizontalArc' },
      [{ ...DEFAULTS, motion_type: 'Parallax', quantity: 2, motion_amount: 3.5, camera_path: 'HorizontalArc' }],
    ],
    [
      'a legacy preset with every key',
      {
        MotionType: 'Pan right',
        Params: 'Prompt=a calm sea|Quantity=2|MotionAmount=8|MotionLength=4|Loop=0|Model=LumaAI|CameraPath=Circular',
      },
      [{ motion_type: 'Pan right', prompt: 'a calm sea', quantity: 2, motion_amount: 8, motion_length: 4, loop: 0, model: 'LumaAI', camera_path: 'Circular' }],
    ],
    [
      'a legacy preset with only a motion type',
      { MotionType: 'Static' },
      [{ ...DEFAULTS, motion_type: 'Static' }],
    ],
    [
      'a legacy preset with only params',
      { Params: 'Prompt=x=y|Quantity=abc|Loop=' },
      [{ ...DEFAULTS, prompt: 'x=y' }],
    ],
    [
      'an array mixing both versions',
      [{ motion_type: 'Orbit left' }, { MotionType: 'Parallax', Params: 'CameraPath=StepIn|Quantity=3' }],
      [
        { ...DEFAULTS, motion_type: 'Orbit left' },
        { ...DEFAULTS, motion_type: 'Parallax', quantity: 3, camera_path: 'StepIn' },
      ],
    ],
    ['an array element that is not an object becomes defaults', [42, null], [DEFAULTS, DEFAULTS]],
    ['a JSON string', '{"MotionType":"Aerial","Params":"Quantity=4"}', [{ ...DEFAULTS, motion_type: 'Aerial', quantity: 4 }]],
    ['text that is not JSON', 'Auto', []],
    ['null', null, []],
    ['a number', 7, []],
    [
      'a quantity below 1 or not a number falls back to 1; fractions are cut',
      [{ quantity: 0 }, { quantity: -2 }, { quantity: 2.7 }, { quantity: Number.NaN }],
      [DEFAULTS, DEFAULTS, { ...DEFAULTS, quantity: 2 }, DEFAULTS],
    ],
    ['an empty motion type falls back to Auto', { motion_type: '  ' }, [DEFAULTS]],
  ])('%s', (_, raw, expected) => {
    expect(parsePosePreset(raw)).toEqual(expected);
  });
});

describe('parseLegacyParams', () => {
  it('splits on | and on the first = only, skipping pairs without a key', () => {
    expect(parseLegacyParams('Prompt=a=b|=x|Loop=1|junk')).toEqual({ Prompt: 'a=b', Loop: '1' });
    expect(parseLegacyParams('')).toEqual({});
  });
});
