import type { FastifyReply } from 'fastify';
import { CAMERA_MOTIONS } from '../../../src/config/camera-motions.ts';
import { ribbonLabelFor } from '../../../src/config/creation-types.ts';
import { DEFAULT_MOTION_MODEL, type VideoMotionModel } from '../../../src/config/motion-models.ts';
import { PARALLAX_CAMERA_PATHS } from '../../../src/config/parallax-paths.ts';
import {
  COMPOSER_PICTURES,
  isParallaxCameraPath,
  MAX_VIDEOS_PER_JOB,
  MOTION_AMOUNT,
  MOTION_LENGTH,
  MOTION_MODES,
  motionModelsFor,
  PARALLAX_OPTION,
  PROMPT_STRENGTH,
  TEXT_VIDEO_RATIOS,
  TRY_ON_VIDEO_MODEL,
  VIDEO_CREATION_TOOLS,
  VIDEO_CREATION_TYPES,
  VIDEO_QUANTITY,
  videoJobCost,
  type MotionMode,
  type VideoCreationType,
} from '../../../src/config/video-creation.ts';
import { parseLegacyParams, parseOnePosePreset, PARALLAX_MOTION_TYPE, type PosePreset } from '../../../src/lib/pose-preset.ts';
import { isRecord } from '../../../src/lib/records.ts';
import { PROMPT_MAX_LENGTH } from '../config.ts';
import { requireOwnAssetId } from '../db/assets.ts';
import type { Queryable } from '../db/database.ts';
import { findMedia, newPublicId, type MediaRow, type StoredImageRef, type StoredInput } from '../db/media.ts';
import { chargeJobs, theJob, writeChargedJob, type JobMedia } from '../jobs/charge.ts';
import { HttpError, ok } from './http.ts';
import { runIdempotent, type HandlerAnswer } from './idempotent.ts';
import { resolveMediaLink } from './image-inputs.ts';
import { mediaAnswer } from './media-answer.ts';
import { inputCut, type CutInput } from './input-cut.ts';
import { requestOrigin, type MediaRouteDeps } from './media-deps.ts';
import { DETAILS } from './messages.ts';
import { requestDigest, single, type MultipartBody } from './multipart-body.ts';
import { type PaidCallRequest } from './route-schemas.ts';
import type { AuthUser } from './user-auth.ts';

/**
 * `POST media` with a `pose_preset` (SPEC §2.4, §3, contract §1): a video creation job. The
 * request is validated per creation type, then its credits are debited and the job queued in one
 * transaction, like the generation calls (402 when short, Idempotency-Key, Developer not charged).
 */

/** The `endpoint` a creation job's row records: it was made by POST media. */
export const VIDEO_CREATION_ENDPOINT = 'media';
const FRAME_SELECTIONS = ['First', 'Last'] as const;
type FrameSelectionValue = (typeof FRAME_SELECTIONS)[number];

/** A validated creation request: what the job row keeps, and the links still to resolve. */
export interface VideoCreationRequest {
  creationType: VideoCreationType;
  /** The motion model; null for parallax (its option is PARALLAX_OPTION, priced per video). */
  model: VideoMotionModel | null;
  option: string;
  presets: PosePreset[];
  /** What the job keeps: creation_type, motion_mode, pose_preset, prompt, aspect_ratio, prompt_strength, frame_selection. */
  args: Record<string, unknown>;
  /** Picture links (`image_urls`), in order. */
  pictures: string[];
  /** The driving video (character animate) or the video to extend. */
  videoLink: string | null;
  /** Videos the job makes (Σ quantity) and its price before the Developer exemption. */
  videos: number;
  cost: number;
}

const bad = (detail: string): HttpError => new HttpError(400, detail);

const isWhole = (value: number): boolean => Number.isInteger(value);

/** A preset's fields by v3 name, whichever version sent them (legacy values are strings of its Params). */
function presetFields(raw: Record<string, unknown>): Record<string, unknown> {
  if (!('MotionType' in raw) && !('Params' in raw)) return raw;
  const params = typeof raw.Params === 'string' ? parseLegacyParams(raw.Params) : {};
  return {
    motion_type: raw.MotionType,
    prompt: params.Prompt,
    quantity: params.Quantity,
    motion_amount: params.MotionAmount,
    motion_length: params.MotionLength,
    loop: params.Loop,
    model: params.Model,
    camera_path: params.CameraPath,
  };
}

/**
 * parsePosePreset fills an unreadable number with SPEC's default; a request must not be charged
 * for something other than it asked, so a number that was sent must be one, within its range.
 */
function checkPresetNumbers(fields: Record<string, unknown>, position: string): void {
  const rules: [string, { min: number; max: number }, boolean][] = [
    ['quantity', VIDEO_QUANTITY, true],
    ['motion_length', MOTION_LENGTH, false],
    ['motion_amount', MOTION_AMOUNT, false],
    ['loop', { min: 0, max: 1 }, true],
  ];
  for (const [name, range, whole] of rules) {
    const value = fields[name];
    if (value === undefined || value === null || value === '') continue;
    const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : Number.NaN;
    if (!Number.isFinite(number) || number < range.min || number > range.max || (whole && !isWhole(number))) {
      const kind = whole ? 'a whole number' : 'a number';
      throw bad(`pose_preset${position}: ${name} must be ${kind} from ${range.min} to ${range.max}.`);
    }
  }
}

/** The pose_preset field: one preset or an array of them, v3 or legacy, each checked. */
function readPresets(body: MultipartBody): PosePreset[] {
  const raw = single(body, 'pose_preset');
  if (raw === undefined || raw.trim() === '') throw bad('pose_preset is required: the motion to make.');
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw bad('pose_preset must be JSON: one preset object or an array of them.');
  }
  const raws = Array.isArray(value) ? value : [value];
  if (raws.length === 0) throw bad('pose_preset must hold at least one preset.');
  return raws.map((item, index) => {
    const position = Array.isArray(value) ? `[${index}]` : '';
    if (!isRecord(item)) throw bad(`pose_preset${position} must be an object.`);
    const fields = presetFields(item);
    checkPresetNumbers(fields, position);
    const preset = parseOnePosePreset(item);
    if (preset.prompt.length > PROMPT_MAX_LENGTH) throw bad(`pose_preset${position}: prompt can be at most ${PROMPT_MAX_LENGTH} characters.`);
    return preset;
  });
}

function readCreationType(body: MultipartBody): VideoCreationType {
  const value = single(body, 'creation_type');
  if (!value) throw bad(`creation_type is required: one of ${VIDEO_CREATION_TYPES.join(', ')}.`);
  const type = VIDEO_CREATION_TYPES.find((candidate) => candidate === value);
  if (!type) throw bad(`creation_type must be one of ${VIDEO_CREATION_TYPES.join(', ')} (got "${value}").`);
  return type;
}

/** The motion model (`option`) the creation type offers; Auto, or Try On Video for try-on, when none is named. */
function readModel(type: VideoCreationType, body: MultipartBody): VideoMotionModel {
  const offered = motionModelsFor(type);
  const fallback = type === 'try-on' ? TRY_ON_VIDEO_MODEL : DEFAULT_MOTION_MODEL;
  const option = single(body, 'option') || fallback;
  const model = offered.find((candidate) => candidate.value === option);
  if (!model) throw bad(`option must be one of the motion models for ${type}: ${offered.map((candidate) => candidate.value).join(', ')} (got "${option}").`);
  return model;
}

function checkParallaxPresets(presets: readonly PosePreset[]): void {
  const seen = new Set<string>();
  const paths = Object.keys(PARALLAX_CAMERA_PATHS).join(', ');
  for (const [index, preset] of presets.entries()) {
    const position = presets.length > 1 ? `[${index}]` : '';
    if (preset.motion_type !== PARALLAX_MOTION_TYPE) throw bad(`pose_preset${position}: motion_type must be "${PARALLAX_MOTION_TYPE}" for parallax motion.`);
    if (!preset.camera_path || !isParallaxCameraPath(preset.camera_path)) {
      throw bad(`pose_preset${position}: camera_path must be one of ${paths} (got "${preset.camera_path ?? ''}").`);
    }
    if (seen.has(preset.camera_path)) throw bad(`pose_preset: each camera path can be chosen once (${preset.camera_path} is there twice).`);
    seen.add(preset.camera_path);
  }
}

function checkMotionPreset(presets: readonly PosePreset[]): PosePreset {
  const [preset] = presets;
  if (!preset || presets.length !== 1) throw bad('pose_preset must be exactly one preset for this creation type.');
  if (!CAMERA_MOTIONS.some((motion) => motion.value === preset.motion_type)) {
    throw bad(`pose_preset: motion_type must be one of ${CAMERA_MOTIONS.map((motion) => motion.value).join(', ')} (got "${preset.motion_type}").`);
  }
  return preset;
}

const linksOf = (body: MultipartBody, field: string): string[] =>
  (body.fields[field] ?? []).map((link) => link.trim()).filter((link) => link !== '');

function expectPictures(pictures: readonly string[], count: { min: number; max: number }, what: string): void {
  if (pictures.length >= count.min && pictures.length <= count.max) return;
  const wanted = count.min === count.max ? `${count.min}` : `${count.min} to ${count.max}`;
  throw bad(`${what}: send ${wanted} picture${count.max === 1 ? '' : 's'} as image_urls (got ${pictures.length}).`);
}

function readPromptStrength(body: MultipartBody): number {
  const raw = single(body, 'prompt_strength');
  if (raw === undefined || raw === '') return PROMPT_STRENGTH.default;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < PROMPT_STRENGTH.min || value > PROMPT_STRENGTH.max) {
    throw bad(`prompt_strength must be a number from ${PROMPT_STRENGTH.min} to ${PROMPT_STRENGTH.max}.`);
  }
  return value;
}

function readMotionMode(body: MultipartBody): MotionMode {
  const raw = single(body, 'motion_mode') || 'image';
  const mode = MOTION_MODES.find((candidate) => candidate.value === raw);
  if (!mode) throw bad(`motion_mode must be one of ${MOTION_MODES.map((candidate) => candidate.value).join(', ')} (got "${raw}").`);
  return mode.value;
}

/** AI Motion's four ways to start: which pictures, whether a prompt or an aspect ratio. */
function readAiMotion(
  body: MultipartBody,
  model: VideoMotionModel,
  prompt: string,
  pictures: readonly string[],
  args: Record<string, unknown>,
): void {
  const mode = readMotionMode(body);
  args.motion_mode = mode;
  switch (mode) {
    case 'image':
      expectPictures(pictures, { min: 1, max: 1 }, 'AI Motion from a picture');
      break;
    case 'text': {
      if (pictures.length > 0) throw bad('AI Motion from a text takes no pictures: leave image_urls out.');
      if (prompt === '') throw bad('AI Motion from a text needs a prompt (pose_preset.prompt).');
      const ratio = single(body, 'aspect_ratio') || TEXT_VIDEO_RATIOS[0];
      if (!ratio || !(TEXT_VIDEO_RATIOS as readonly string[]).includes(ratio)) throw bad(`aspect_ratio must be one of ${TEXT_VIDEO_RATIOS.join(', ')}.`);
      args.aspect_ratio = ratio;
      break;
    }
    case 'transition':
      if (model.end_frame !== 1) throw bad(`${model.label} cannot make a transition to an end frame: choose a model with an end frame.`);
      expectPictures(pictures, { min: 2, max: 2 }, 'A transition (first frame, end frame)');
      break;
    case 'composer':
      expectPictures(pictures, COMPOSER_PICTURES, 'The video composer');
      break;
  }
  // With a picture and a text, how much the text drives the motion (kept with every picture mode).
  if (mode !== 'text') args.prompt_strength = readPromptStrength(body);
}

/** Validates a creation request (400 with a readable detail); answers what the job keeps and costs. */
export function parseVideoCreation(body: MultipartBody): VideoCreationRequest {
  const creationType = readCreationType(body);
  const presets = readPresets(body);
  const pictures = linksOf(body, 'image_urls');
  const videoLinks = linksOf(body, 'video_url');
  if (videoLinks.length > 1) throw bad(DETAILS.sentOnce('video_url'));
  const videoLink = videoLinks[0] ?? null;
  const args: Record<string, unknown> = { creation_type: creationType };
  let model: VideoMotionModel | null = null;
  let option: string;

  if (creationType === 'parallax-motion') {
    const sent = single(body, 'option');
    if (sent && sent !== PARALLAX_OPTION) throw bad(`option must be "${PARALLAX_OPTION}" for parallax motion (got "${sent}").`);
    option = PARALLAX_OPTION;
    checkParallaxPresets(presets);
    expectPictures(pictures, { min: 1, max: 1 }, 'Parallax motion');
  } else {
    model = readModel(creationType, body);
    option = model.value;
    const preset = checkMotionPreset(presets);
    // The model charged is the one rendered: the preset's own `model` text is not trusted.
    preset.model = model.value;
    if (creationType === 'try-on') preset.prompt = '';
    args.prompt = preset.prompt;
    switch (creationType) {
      case 'ai-motion':
        readAiMotion(body, model, preset.prompt, pictures, args);
        break;
      case 'try-on':
        expectPictures(pictures, { min: 2, max: 2 }, 'Try on (a person, then the clothes)');
        break;
      case 'character-animate':
        expectPictures(pictures, { min: 1, max: 1 }, 'Character animate');
        if (!videoLink) throw bad('Character animate needs the driving video as video_url.');
        break;
      case 'extend-video': {
        if (!videoLink) throw bad('Extend video needs the video to extend as video_url.');
        if (pictures.length > 0) throw bad('Extend video takes no pictures: leave image_urls out.');
        const frame = single(body, 'frame_selection') || 'Last';
        if (!(FRAME_SELECTIONS as readonly string[]).includes(frame)) throw bad(`frame_selection must be First or Last (got "${frame}").`);
        args.frame_selection = frame as FrameSelectionValue;
        break;
      }
    }
  }
  if (creationType !== 'character-animate' && creationType !== 'extend-video' && videoLink) {
    throw bad(`${creationType} takes no video_url.`);
  }
  const quantities = presets.map((preset) => preset.quantity);
  const videos = quantities.reduce((sum, quantity) => sum + quantity, 0);
  if (videos > MAX_VIDEOS_PER_JOB) {
    throw bad(`One job makes at most ${MAX_VIDEOS_PER_JOB} videos; these presets ask for ${videos}.`);
  }
  args.option = option;
  args.pose_preset = presets;
  if (args.prompt === undefined) args.prompt = presets[0]?.prompt ?? '';
  return { creationType, model, option, presets, args, pictures, videoLink, videos, cost: videoJobCost(creationType, model ?? undefined, quantities) };
}

/** A video creation job as its media row: kind video, version "3", one `new` item per video. */
export interface VideoJob {
  id: string;
  /** The media `tool` (VIDEO_CREATION_TOOLS[type], or a batch's clip tool). */
  tool: string;
  option: string;
  /** Must hold creation_type and pose_preset (the parsed v3 presets, an array). */
  args: Record<string, unknown>;
  imageUrls: StoredImageRef[];
  /** Pictures as `image_urls`, the input video as `video_url`, in order. */
  inputs: StoredInput[];
  /** Σ quantity of the presets: one result item each. */
  videos: number;
  assetId?: string | null;
  batchId?: string | null;
}

export function videoJobMedia(job: VideoJob): JobMedia {
  return {
    id: job.id,
    kind: 'video',
    tool: job.tool,
    endpoint: VIDEO_CREATION_ENDPOINT,
    option: job.option,
    args: job.args,
    imageUrls: job.imageUrls,
    inputs: job.inputs,
    items: Array.from({ length: job.videos }, () => ({ status: 'new' as const })),
    assetId: job.assetId ?? null,
    version: '3',
    batchId: job.batchId ?? null,
  };
}

/** What insertVideoJob writes: one queued video job and its debit. */
export interface NewVideoJob extends VideoJob {
  userSub: string;
  /** Credits to debit now (0: not charged, e.g. the Developer group). */
  cost: number;
  /** The ledger row's reason, e.g. "Parallax · Parallax". */
  debitReason: string;
  logoVariant: boolean;
}

/**
 * Writes a video creation job whose cost is already decided in `tx` (tests queue jobs this way;
 * the route goes through chargeJobs). A balance that would go negative throws the ledger's error.
 */
export async function insertVideoJob(tx: Queryable, job: NewVideoJob): Promise<MediaRow> {
  return writeChargedJob(tx, { media: videoJobMedia(job), userSub: job.userSub, logoVariant: job.logoVariant, cost: job.cost, reason: job.debitReason });
}

/** The request's picture and video links as the job's inputs (each must be the named kind). */
async function resolveCreationInputs(
  deps: MediaRouteDeps,
  user: AuthUser,
  parsed: VideoCreationRequest,
): Promise<{ inputs: StoredInput[]; imageUrls: StoredImageRef[] }> {
  const inputs: StoredInput[] = [];
  const imageUrls: StoredImageRef[] = [];
  const links: { field: 'image_urls' | 'video_url'; link: string; kind: 'image' | 'video' }[] = [
    ...parsed.pictures.map((link) => ({ field: 'image_urls' as const, link, kind: 'image' as const })),
    ...(parsed.videoLink ? [{ field: 'video_url' as const, link: parsed.videoLink, kind: 'video' as const }] : []),
  ];
  const cutInputs: CutInput[] = [];
  for (const { field, link, kind } of links) {
    const file = await resolveMediaLink(deps, user, link, field, { kind, required: true });
    if (!file) continue;
    inputs.push({ field, file_id: file.id });
    // Extend and Character Animate use only the first 30 s of their video: the job says so.
    if (kind === 'video') {
      const cut = await inputCut(deps, file, field);
      if (cut) cutInputs.push(cut);
    }
    // Another user's file (shared with a signed link) stays that link: answers never sign it again.
    if (field === 'image_urls') imageUrls.push(file.user_sub === user.sub ? { file_id: file.id } : { url: link });
  }
  if (cutInputs.length > 0) parsed.args.cut_inputs = cutInputs;
  return { inputs, imageUrls };
}

/** "Parallax · Parallax", "AI-motion · Kling AI": what the ledger row says the credits paid for. */
function debitReason(parsed: VideoCreationRequest): string {
  const type = ribbonLabelFor(parsed.creationType) ?? 'Extend video';
  return `${type} · ${parsed.model?.label ?? parsed.option}`;
}

/** POST media with pose_preset: validate, resolve the inputs, debit and queue in one transaction. */
export async function createVideoCreationJob(
  deps: MediaRouteDeps,
  request: PaidCallRequest,
  reply: FastifyReply,
  user: AuthUser,
  body: MultipartBody,
): Promise<unknown> {
  const { db, engine, signer } = deps;
  const answerOf = async (row: MediaRow): Promise<unknown> => ok(await mediaAnswer(db, row, { origin: requestOrigin(request), signer }));
  const handler = async (key: string | null): Promise<HandlerAnswer> => {
    const parsed = parseVideoCreation(body);
    const { inputs, imageUrls } = await resolveCreationInputs(deps, user, parsed);
    // Checked before anything is charged (a 400 for an asset that is not the caller's).
    const assetId = await requireOwnAssetId(db, user.sub, request.query.asset_id);
    const id = newPublicId();
    const row = await chargeJobs(db, user, {
      jobs: [
        {
          media: videoJobMedia({
            id,
            tool: VIDEO_CREATION_TOOLS[parsed.creationType],
            option: parsed.option,
            args: parsed.args,
            imageUrls,
            inputs,
            videos: parsed.videos,
            assetId,
          }),
          price: parsed.cost,
          reason: debitReason(parsed),
        },
      ],
      idempotencyKey: key,
      finish: theJob,
    });
    engine.notify();
    return { statusCode: 200, payload: await answerOf(row), mediaId: row.id };
  };
  return runIdempotent(db, request, reply, user.sub, requestDigest(VIDEO_CREATION_ENDPOINT, request.query, body), handler, async (mediaId) => {
    const row = await findMedia(db, mediaId);
    return row ? answerOf(row) : null;
  });
}
