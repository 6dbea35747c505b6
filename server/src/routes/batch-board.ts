import type { BatchType } from '../../../src/config/batch.ts';
import { CAMERA_MOTIONS } from '../../../src/config/camera-motions.ts';
import { DEFAULT_MOTION_MODEL } from '../../../src/config/motion-models.ts';
import { PARALLAX_CAMERA_PATH_OPTIONS } from '../../../src/config/parallax-paths.ts';
import {
  isParallaxCameraPath,
  MOTION_AMOUNT,
  MOTION_LENGTH,
  motionModelsFor,
  type VideoCreationType,
} from '../../../src/config/video-creation.ts';
import { albumClipPrice, CLIP_CREATION_TYPE } from '../../../src/lib/album-quote.ts';
import type { PosePreset } from '../../../src/lib/pose-preset.ts';
import { scriptBoardSchema, type ScriptBoard, type ScriptBoardClip } from '../../../src/services/schemas/batch.ts';
import { describeZodError, HttpError } from './http.ts';

/**
 * A batch album's script board (SPEC §3 Batch): checking one a person sends, writing one from the
 * album's pictures, and turning a clip into the one-preset video job it makes.
 */

const bad = (detail: string): HttpError => new HttpError(400, detail);

/** The motion type of every parallax clip: its folder is named after the camera path (SPEC §3). */
const PARALLAX_MOTION_TYPE = 'Parallax';

/**
 * The camera motions a written AI board cycles through: Auto leaves the camera to the model and
 * Static does not move it, so neither gives an album the variety a written board is for.
 */
const BOARD_CAMERA_MOTIONS = CAMERA_MOTIONS.filter((motion) => motion.value !== 'Auto' && motion.value !== 'Static');

const aiModels = (): string[] => motionModelsFor(CLIP_CREATION_TYPE.ai).map((model) => model.value);

/** A `script_board` field: JSON, read with the shared schema; a readable 400 otherwise. */
export function parseScriptBoard(raw: string): ScriptBoard {
  let value: unknown;
  try {
    value = JSON.parse(raw) as unknown;
  } catch {
    throw bad('script_board must be JSON: {"clips": [...]}.');
  }
  const result = scriptBoardSchema.safeParse(value);
  if (!result.success) throw bad(`script_board is invalid: ${describeZodError(result.error)}`);
  return result.data;
}

/** Whether each clip can be made as the album type's video: motion, path, model and length. */
export function checkScriptBoard(type: BatchType, board: ScriptBoard): ScriptBoard {
  const ids = new Set<string>();
  board.clips.forEach((clip, index) => {
    const where = `script_board clip ${index + 1}`;
    if (ids.has(clip.id)) throw bad(`${where}: the id "${clip.id}" is used twice.`);
    ids.add(clip.id);
    if (clip.motion_length < MOTION_LENGTH.min || clip.motion_length > MOTION_LENGTH.max) {
      throw bad(`${where}: motion_length must be ${MOTION_LENGTH.min} to ${MOTION_LENGTH.max} seconds.`);
    }
    if (type === 'parallax') {
      if (clip.motion_type !== PARALLAX_MOTION_TYPE) throw bad(`${where}: a parallax clip's motion_type is ${PARALLAX_MOTION_TYPE}.`);
      if (!clip.camera_path || !isParallaxCameraPath(clip.camera_path)) {
        throw bad(`${where}: camera_path must be one of ${PARALLAX_CAMERA_PATH_OPTIONS.map((path) => path.value).join(', ')}.`);
      }
      return;
    }
    if (!CAMERA_MOTIONS.some((motion) => motion.value === clip.motion_type)) {
      throw bad(`${where}: motion_type must be a camera motion (${CAMERA_MOTIONS.map((motion) => motion.value).join(', ')}).`);
    }
    if (clip.model !== '' && !aiModels().includes(clip.model)) throw bad(`${where}: "${clip.model}" is not an available motion model.`);
  });
  return board;
}

/** The fields POST batch/{id}/script-board takes for the clips it writes. */
export interface BoardSettings {
  /** AI albums: the motion model of every clip. */
  model: string;
  motionLength: number;
  motionAmount: number;
}

function numberField(raw: string | undefined, name: string, range: { min: number; max: number; default: number }): number {
  if (raw === undefined || raw.trim() === '') return range.default;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < range.min || value > range.max) throw bad(`${name} must be ${range.min} to ${range.max}.`);
  return value;
}

export function parseBoardSettings(type: BatchType, fields: { model?: string; motion_length?: string; motion_amount?: string }): BoardSettings {
  const model = fields.model?.trim() || DEFAULT_MOTION_MODEL;
  if (type === 'ai' && !aiModels().includes(model)) throw bad(`"${model}" is not an available motion model.`);
  return {
    model: type === 'ai' ? model : '',
    motionLength: numberField(fields.motion_length, 'motion_length', MOTION_LENGTH),
    motionAmount: numberField(fields.motion_amount, 'motion_amount', MOTION_AMOUNT),
  };
}

/** One picture of the album as the board writer sees it: its link and, for AI albums, its description. */
export interface BoardPicture {
  link: string;
  description: string;
}

/**
 * A board with one clip per picture. AI: the picture's description as the prompt and a camera
 * motion per clip, cycling through the moving ones; parallax: a camera path per clip, cycling
 * through SPEC §9's paths. The person edits it afterwards, so every clip starts different.
 */
export function writeScriptBoard(type: BatchType, pictures: readonly BoardPicture[], settings: BoardSettings): ScriptBoard {
  const clips = pictures.map((picture, index): ScriptBoardClip => {
    const common = {
      id: `clip-${index + 1}`,
      image_url: picture.link,
      motion_length: settings.motionLength,
      motion_amount: settings.motionAmount,
    };
    if (type === 'parallax') {
      const path = PARALLAX_CAMERA_PATH_OPTIONS[index % PARALLAX_CAMERA_PATH_OPTIONS.length]?.value ?? null;
      return { ...common, prompt: '', motion_type: PARALLAX_MOTION_TYPE, camera_path: path, model: '' };
    }
    const motion = BOARD_CAMERA_MOTIONS[index % BOARD_CAMERA_MOTIONS.length]?.value ?? DEFAULT_MOTION_MODEL;
    return { ...common, prompt: picture.description, motion_type: motion, camera_path: null, model: settings.model };
  });
  return { clips };
}

/**
 * The person's prompt with the camera motion's text appended (SPEC §3: a camera motion's prompt is
 * "text appended to the generation prompt"), as the video creation page does for one video.
 */
export function appendCameraPrompt(prompt: string, motionValue: string): string {
  const own = prompt.trim();
  const added = CAMERA_MOTIONS.find((motion) => motion.value === motionValue)?.prompt.trim() ?? '';
  if (added === '') return own;
  if (own === '') return added;
  return /[.!?]$/.test(own) ? `${own} ${added}` : `${own}. ${added}`;
}

/** What one clip's video job is: its model (`option`), its price and its one preset. */
export interface ClipJob {
  creationType: VideoCreationType;
  option: string;
  modelLabel: string;
  price: number;
  preset: PosePreset;
}

/** The clip as a one-preset video creation (quantity 1): parallax by its camera path, AI by its motion. */
export function clipJob(type: BatchType, clip: ScriptBoardClip, loop: number): ClipJob {
  // The model and price the quote (albumQuote) counts: one function for both.
  const { creationType, option, modelLabel, price } = albumClipPrice(type, clip);
  const common = { quantity: 1, motion_amount: clip.motion_amount, motion_length: clip.motion_length, loop };
  if (type === 'parallax') {
    return {
      creationType,
      option,
      modelLabel,
      price,
      preset: { ...common, motion_type: PARALLAX_MOTION_TYPE, prompt: '', model: '', camera_path: clip.camera_path },
    };
  }
  return {
    creationType,
    option,
    modelLabel,
    price,
    preset: { ...common, motion_type: clip.motion_type, prompt: appendCameraPrompt(clip.prompt, clip.motion_type), model: option, camera_path: null },
  };
}
