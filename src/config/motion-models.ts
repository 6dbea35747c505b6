import type { Flag } from './tools';

/** A model that turns a picture (or a text) into a moving video (SPEC §3 "Video motion model"). */
export interface VideoMotionModel {
  value: string;
  label: string;
  text_prompt: Flag;
  first_frame: Flag;
  end_frame: Flag;
  motion_amount: Flag;
  required_credits: number;
  active: Flag;
}

type MotionFlags = Partial<Pick<VideoMotionModel, 'text_prompt' | 'end_frame' | 'motion_amount'>>;

// Every motion model starts from a first frame and takes a text prompt unless SPEC says otherwise.
const motion = (value: string, label: string, required_credits: number, flags: MotionFlags = {}): VideoMotionModel => ({
  value,
  label,
  text_prompt: flags.text_prompt ?? 1,
  first_frame: 1,
  end_frame: flags.end_frame ?? 0,
  motion_amount: flags.motion_amount ?? 0,
  required_credits,
  active: 1,
});

/** SPEC §9 "Motion models", in SPEC order. */
export const MOTION_MODELS: readonly VideoMotionModel[] = [
  motion('Auto', 'Auto', 40, { end_frame: 1, motion_amount: 1 }),
  motion('AutoT3', 'Auto T3', 80, { end_frame: 1 }),
  motion('KlingAI', 'Kling AI', 40, { end_frame: 1 }),
  motion('Kling2', 'Kling 2', 160),
  motion('LumaAI', 'Luma AI', 40, { end_frame: 1 }),
  motion('LumaRay2', 'Luma Ray2', 80),
  motion('VeoFast', 'Veo Fast', 80),
  motion('Veo', 'Veo', 160),
  motion('RunwayML', 'Runway ML', 40, { end_frame: 1 }),
  motion('MinimaxHailuo', 'Minimax Hailuo', 40),
  motion('Seedance', 'Seedance', 80),
  motion('Hunyuan', 'Hunyuan', 40),
  motion('Pixverse', 'Pixverse', 40),
  motion('PicoMotion', 'Pico Motion', 20, { end_frame: 1 }),
  motion('StaticMotion', 'Static Motion', 4),
  motion('Wan', 'Wan', 40),
  motion('Sora', 'Sora', 40),
  motion('SoraPro', 'Sora Pro', 240),
  motion('TryOnVideo', 'Try On Video', 40, { text_prompt: 0, end_frame: 1, motion_amount: 1 }),
];

export const DEFAULT_MOTION_MODEL = 'Auto';
