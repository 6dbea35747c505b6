import { defaultAppConfiguration } from '../../../src/config/app-config.ts';
import { optionsForTool, type ModelOption } from '../../../src/config/asset-tools.ts';
import type { GenerationToolSpec, ImageInputSpec } from '../../../src/config/generation-tools.ts';
import { MESSAGES } from '../../../src/config/messages.ts';
import { DEFAULT_VOICE, VOICES } from '../../../src/config/voices.ts';
import { PROMPT_MAX_LENGTH } from '../config.ts';
import { HttpError } from './http.ts';
import { DETAILS } from './messages.ts';
import { single, type MultipartBody } from './multipart-body.ts';

/** What a generation call asks for, checked against its GenerationToolSpec and the chosen model. */
export interface GenerationRequest {
  model: ModelOption;
  /**
   * The request's fields as the job keeps them: only the ones its GenerationToolSpec asks for
   * (prompt, option, aspect_ratio, voice, duration, order_indices), each checked. Any other field
   * is ignored, so nothing unchecked reaches the row, the render or a public view.
   */
  args: Record<string, unknown>;
  /** Picture links by field, in order (`image_urls` may hold several). */
  pictures: { field: ImageInputSpec['field']; link: string }[];
  asyncMode: boolean;
}

const MAX_FACE_INDEX = 9;

const bad = (detail: string): HttpError => new HttpError(400, detail);

function parseAsyncMode(value: string | undefined): boolean {
  if (value === undefined || value === '') return true;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw bad('async_mode must be "true" or "false".');
}

/** The model the call names (`option`), or the tool's first active model when it names none. */
export function chooseModel(tool: GenerationToolSpec, option: string | undefined): ModelOption {
  const models = optionsForTool(defaultAppConfiguration.asset_tools, tool.slug);
  const model = option === undefined || option === '' ? models[0] : models.find((candidate) => candidate.value === option);
  if (!model) throw bad(DETAILS.unknownModel(option ?? '', tool.title));
  return model;
}

function missingPicture(tool: GenerationToolSpec, spec: ImageInputSpec): HttpError {
  // SPEC §5/§8: the tools that need an upload (image-to-image, reimagine) say exactly this.
  if (tool.requiresUpload && spec === tool.images[0]) return bad(MESSAGES.noUploadFile);
  return bad(`${spec.label} is required (${spec.field}).`);
}

function readPictures(tool: GenerationToolSpec, model: ModelOption, body: MultipartBody): GenerationRequest['pictures'] {
  const pictures: GenerationRequest['pictures'] = [];
  for (const spec of tool.images) {
    const links = (body.fields[spec.field] ?? []).map((link) => link.trim()).filter((link) => link !== '');
    const required = spec.required === 'always' || (spec.required === 'model' && model.end_frame === 1);
    if (spec.count) {
      if (links.length === 0 && required) throw missingPicture(tool, spec);
      if (links.length > 0 && (links.length < spec.count.min || links.length > spec.count.max)) {
        throw bad(`${spec.label}: send ${spec.count.min} to ${spec.count.max} pictures as ${spec.field}.`);
      }
    } else {
      if (links.length > 1) throw bad(`${spec.field} must be sent once.`);
      if (links.length === 0 && required) throw missingPicture(tool, spec);
    }
    for (const link of links) pictures.push({ field: spec.field, link });
  }
  return pictures;
}

function readPrompt(tool: GenerationToolSpec, model: ModelOption, body: MultipartBody): string | undefined {
  const prompt = single(body, 'prompt')?.trim();
  if (prompt !== undefined && prompt.length > PROMPT_MAX_LENGTH) {
    throw bad(`${tool.promptLabel} can be at most ${PROMPT_MAX_LENGTH} characters.`);
  }
  const required = tool.prompt === 'required' || (tool.prompt === 'model' && model.text_prompt === 1);
  if (required && !prompt) throw bad(`${tool.promptLabel} is required (prompt).`);
  return prompt;
}

/** Validates a generation call's fields (400 with a readable detail) and shapes what the job keeps. */
export function parseGenerationRequest(tool: GenerationToolSpec, body: MultipartBody): GenerationRequest {
  const model = chooseModel(tool, single(body, 'option'));
  const args: Record<string, unknown> = { option: model.value };
  const prompt = readPrompt(tool, model, body);
  if (prompt !== undefined) args.prompt = prompt;

  if (tool.aspectRatios) {
    const ratio = single(body, 'aspect_ratio') || tool.aspectRatios[0];
    if (!ratio || !(tool.aspectRatios as readonly string[]).includes(ratio)) {
      throw bad(`aspect_ratio must be one of ${tool.aspectRatios.join(', ')}.`);
    }
    args.aspect_ratio = ratio;
  }
  if (tool.voice) {
    const voices = model.available_voices ?? VOICES;
    const voice = single(body, 'voice') || DEFAULT_VOICE;
    if (!voices.some((candidate) => candidate.value === voice)) throw bad(`"${voice}" is not a voice of ${model.label}.`);
    args.voice = voice;
  }
  if (tool.duration) {
    const raw = single(body, 'duration');
    const duration = raw === undefined || raw === '' ? tool.duration.defaultSeconds : Number(raw);
    if (!Number.isFinite(duration) || duration < tool.duration.minSeconds || duration > tool.duration.maxSeconds) {
      throw bad(`duration must be a number of seconds from ${tool.duration.minSeconds} to ${tool.duration.maxSeconds}.`);
    }
    args.duration = duration;
  }
  const pictures = readPictures(tool, model, body);
  if (tool.orderIndices) {
    const faces = Math.max(0, pictures.filter((picture) => picture.field === 'image_urls').length - 1);
    const sent = body.fields.order_indices ?? [];
    if (sent.length > 0 && sent.length !== faces) throw bad(`Send one order_indices value per face picture (${faces}).`);
    const indices = sent.length > 0 ? sent.map(Number) : Array.from({ length: faces }, (_, index) => index);
    if (indices.some((index) => !Number.isInteger(index) || index < 0 || index > MAX_FACE_INDEX)) {
      throw bad(`order_indices must be whole numbers from 0 (the leftmost face) to ${MAX_FACE_INDEX}.`);
    }
    args.order_indices = indices;
  }
  return { model, args, pictures, asyncMode: parseAsyncMode(single(body, 'async_mode')) };
}
