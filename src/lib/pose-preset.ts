import { MOTION_PRESET_DEFAULTS } from '@/config/limits';
import { isRecord } from '@/lib/records';

/**
 * A media item's motion preset (SPEC §3 "Media item" → pose_preset), read into one shape whatever
 * version wrote it. `camera_path` is null when the preset names none.
 */
export interface PosePreset {
  motion_type: string;
  prompt: string;
  quantity: number;
  motion_amount: number;
  motion_length: number;
  loop: number;
  model: string;
  camera_path: string | null;
}

/** The motion type whose folder is named after the camera path (SPEC §3 result paths). */
export const PARALLAX_MOTION_TYPE = 'Parallax';


const text = (value: unknown, fallback: string): string => {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return fallback;
};

const nonEmptyText = (value: unknown, fallback: string): string => {
  const result = text(value, fallback).trim();
  return result === '' ? fallback : result;
};

const number = (value: unknown, fallback: number): number => {
  if (typeof value === 'number') return Number.isFinite(value) ? value : fallback;
  if (typeof value === 'string' && value.trim() !== '') {
    const parsed = Number(value.trim());
    return Number.isFinite(parsed) ? parsed : fallback;
  }
  return fallback;
};

/** A count of videos: a whole number of at least 1. */
const quantity = (value: unknown): number => {
  const parsed = Math.floor(number(value, MOTION_PRESET_DEFAULTS.quantity));
  return parsed >= 1 ? parsed : MOTION_PRESET_DEFAULTS.quantity;
};

const cameraPath = (value: unknown): string | null => {
  const result = text(value, '').trim();
  return result === '' ? null : result;
};

/**
 * The legacy `Params` string: "Key=Value" pairs joined by "|". A value may itself hold "=" (a
 * prompt often does), so only the first "=" splits; pairs without one are ignored.
 */
export function parseLegacyParams(params: string): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const pair of params.split('|')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    pairs[pair.slice(0, at).trim()] = pair.slice(at + 1);
  }
  return pairs;
}

const isLegacy = (raw: Record<string, unknown>): boolean => 'MotionType' in raw || 'Params' in raw;

const fromLegacy = (raw: Record<string, unknown>): PosePreset => {
  const params = typeof raw.Params === 'string' ? parseLegacyParams(raw.Params) : {};
  return {
    motion_type: nonEmptyText(raw.MotionType, MOTION_PRESET_DEFAULTS.motion_type),
    prompt: text(params.Prompt, MOTION_PRESET_DEFAULTS.prompt),
    quantity: quantity(params.Quantity),
    motion_amount: number(params.MotionAmount, MOTION_PRESET_DEFAULTS.motion_amount),
    motion_length: number(params.MotionLength, MOTION_PRESET_DEFAULTS.motion_length),
    loop: number(params.Loop, MOTION_PRESET_DEFAULTS.loop),
    model: text(params.Model, MOTION_PRESET_DEFAULTS.model),
    camera_path: cameraPath(params.CameraPath),
  };
};

const fromV3 = (raw: Record<string, unknown>): PosePreset => ({
  motion_type: nonEmptyText(raw.motion_type, MOTION_PRESET_DEFAULTS.motion_type),
  prompt: text(raw.prompt, MOTION_PRESET_DEFAULTS.prompt),
  quantity: quantity(raw.quantity),
  motion_amount: number(raw.motion_amount, MOTION_PRESET_DEFAULTS.motion_amount),
  motion_length: number(raw.motion_length, MOTION_PRESET_DEFAULTS.motion_length),
  loop: number(raw.loop, MOTION_PRESET_DEFAULTS.loop),
  model: text(raw.model, MOTION_PRESET_DEFAULTS.model),
  camera_path: cameraPath(raw.camera_path),
});

/** One preset object, v3 (`motion_type`, …) or legacy (`MotionType` + `Params`); SPEC's defaults fill gaps. */
export function parseOnePosePreset(raw: unknown): PosePreset {
  if (!isRecord(raw)) return fromV3({});
  return isLegacy(raw) ? fromLegacy(raw) : fromV3(raw);
}

/**
 * SPEC §3 pose_preset: one object or an array of them, in either version, or the same as a JSON
 * string (as stored in a media's free-form fields). Anything unreadable gives an empty list; an
 * unreadable element of an array gives a preset of defaults, so positions stay aligned.
 */
export function parsePosePreset(raw: unknown): PosePreset[] {
  let value = raw;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      return [];
    }
  }
  if (Array.isArray(value)) return value.map(parseOnePosePreset);
  if (isRecord(value)) return [parseOnePosePreset(value)];
  return [];
}
