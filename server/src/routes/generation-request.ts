import { parseSeed, SEED_MAX } from '../lib/seed.ts';
import { defaultAppConfiguration } from '../../../src/config/app-config.ts';
import { optionsForTool, type ModelOption } from '../../../src/config/asset-tools.ts';
import type { VideoEffect } from '../../../src/config/effects.ts';
import type { MediaKind } from '../../../src/config/enums.ts';
import {
  endpointFor,
  type ChoiceSpec,
  type GenerationToolSpec,
  type ImageInputSpec,
  type MediaInputField,
} from '../../../src/config/generation-tools.ts';
import { MAX_IMAGES_PER_RUN, maxImagesFor, NEGATIVE_PROMPT_MAX_LENGTH, takesNegativePrompt } from '../../../src/config/image-model-capabilities.ts';
import { MESSAGES } from '../../../src/config/messages.ts';
import { DEFAULT_VOICE, VOICES } from '../../../src/config/voices.ts';
import { PROMPT_MAX_LENGTH } from '../config.ts';
import { HttpError } from './http.ts';
import { DETAILS } from './messages.ts';
import { single, type MultipartBody } from './multipart-body.ts';

/** A file link the call names, with the kind of file its field must hold. */
export interface MediaInputLink {
  field: MediaInputField;
  link: string;
  media: MediaKind;
}

/** What a generation call asks for, checked against its GenerationToolSpec and the chosen model. */
export interface GenerationRequest {
  model: ModelOption;
  /**
   * The request's fields as the job keeps them: only the ones its GenerationToolSpec asks for
   * with this model (option, prompt, aspect_ratio, voice, duration, order_indices, effect,
   * enhance_mode, mode, num_images, negative_prompt), each checked. Any other field is ignored, so nothing unchecked reaches
   * the row, the render or a public view.
   */
  args: Record<string, unknown>;
  /** The seed the person chose (`seed`, issue 21 item 7); null: the request's own is recorded. */
  seed: number | null;
  /** File links by field, in order (`image_urls` may hold several). */
  inputs: MediaInputLink[];
  asyncMode: boolean;
}

const MAX_FACE_INDEX = 9;

const FILE_NOUNS: Readonly<Record<MediaKind, string>> = { image: 'pictures', video: 'videos', audio: 'audio files' };

const bad = (detail: string): HttpError => new HttpError(400, detail);

/** Inputs and choices may be limited to some models (Edit Video's audio only for AttachAudio). */
const appliesTo = (spec: { models?: readonly string[] }, model: ModelOption): boolean =>
  !spec.models || spec.models.includes(model.value);

/** A field's values without the blanks a form leaves for an empty input. */
const givenValues = (body: MultipartBody, field: string): string[] =>
  (body.fields[field] ?? []).map((value) => value.trim()).filter((value) => value !== '');

function parseAsyncMode(value: string | undefined): boolean {
  if (value === undefined || value === '') return true;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw bad('async_mode must be "true" or "false".');
}

/**
 * The model the call names (`option`), or, when it names none, the first active model this
 * endpoint serves. Edit Video's operations are separate calls (video/enhance is EnhanceVideo's
 * only), so a model sent to another operation's call is refused rather than run as the wrong one.
 */
export function chooseModel(tool: GenerationToolSpec, option: string | undefined, endpoint = tool.endpoint): ModelOption {
  const models = optionsForTool(defaultAppConfiguration.asset_tools, tool.slug);
  if (option === undefined || option === '') {
    const served = models.find((candidate) => endpointFor(tool, candidate.value) === endpoint);
    if (!served) throw bad(`${endpoint} has no available model.`);
    return served;
  }
  const model = models.find((candidate) => candidate.value === option);
  if (!model) throw bad(DETAILS.unknownModel(option, tool.title));
  const expected = endpointFor(tool, model.value);
  if (expected !== endpoint) throw bad(`"${option}" is not a model of ${endpoint}: send it to ${expected}.`);
  return model;
}

/**
 * The choices of the tool that apply to the model (effect, enhance_mode, mode), written into
 * `args`. Returns the chosen effect: whether the end frame is needed depends on it.
 */
function readChoices(tool: GenerationToolSpec, model: ModelOption, body: MultipartBody, args: Record<string, unknown>): VideoEffect | undefined {
  let chosenEffect: VideoEffect | undefined;
  for (const choice of tool.choices ?? []) {
    if (!appliesTo(choice, model)) continue;
    const sent = single(body, choice.field)?.trim();
    if (choice.options === 'effects') {
      // An effect has no default: each family's effects are different clips (SPEC §5).
      if (!sent) throw bad(`${choice.label} is required (${choice.field}).`);
      chosenEffect = model.available_effects?.find((effect) => effect.value === sent);
      if (!chosenEffect) throw bad(`"${sent}" is not an effect of ${model.label}.`);
      args[choice.field] = chosenEffect.value;
      continue;
    }
    args[choice.field] = readListChoice(choice, choice.options, sent);
  }
  return chosenEffect;
}

function readListChoice(choice: ChoiceSpec, options: Exclude<ChoiceSpec['options'], 'effects'>, sent: string | undefined): string {
  const values = options.map((option) => option.value);
  const value = sent || values[0];
  if (value === undefined || !values.includes(value)) throw bad(`${choice.field} must be one of ${values.join(', ')}.`);
  return value;
}

function missingInput(tool: GenerationToolSpec, spec: ImageInputSpec, effect: VideoEffect | undefined): HttpError {
  // SPEC §5/§8: the tools that need an upload (image-to-image, reimagine) say exactly this.
  if (tool.requiresUpload && spec === tool.images[0]) return bad(MESSAGES.noUploadFile);
  if (spec.required === 'effect' && effect) return bad(`${spec.label} is required for the ${effect.label} effect (${spec.field}).`);
  return bad(`${spec.label} is required (${spec.field}).`);
}

function isRequired(spec: ImageInputSpec, model: ModelOption, effect: VideoEffect | undefined): boolean {
  switch (spec.required) {
    case 'always':
      return true;
    case 'model':
      return model.end_frame === 1;
    case 'effect':
      return effect?.end_frame === 1;
    case 'never':
      return false;
  }
}

function readInputs(
  tool: GenerationToolSpec,
  model: ModelOption,
  effect: VideoEffect | undefined,
  body: MultipartBody,
): GenerationRequest['inputs'] {
  const inputs: GenerationRequest['inputs'] = [];
  const specs = tool.images.filter((spec) => appliesTo(spec, model));
  for (const spec of specs) {
    const links = givenValues(body, spec.field);
    const media = spec.media ?? 'image';
    if (spec.count) {
      if (links.length === 0 && isRequired(spec, model, effect)) throw missingInput(tool, spec, effect);
      if (links.length > 0 && (links.length < spec.count.min || links.length > spec.count.max)) {
        throw bad(`${spec.label}: send ${spec.count.min} to ${spec.count.max} ${FILE_NOUNS[media]} as ${spec.field}.`);
      }
    } else {
      if (links.length > 1) throw bad(DETAILS.sentOnce(spec.field));
      if (links.length === 0 && isRequired(spec, model, effect)) throw missingInput(tool, spec, effect);
    }
    for (const link of links) inputs.push({ field: spec.field, link, media });
  }
  // Alternatives (lip sync's face picture or face video): at least one of each group.
  const groups = new Set(specs.flatMap((spec) => (spec.oneOf ? [spec.oneOf] : [])));
  for (const group of groups) {
    const members = specs.filter((spec) => spec.oneOf === group);
    if (members.some((spec) => inputs.some((input) => input.field === spec.field))) continue;
    throw bad(`${members.map((spec) => spec.label).join(' or ')} is required (${members.map((spec) => spec.field).join(' or ')}).`);
  }
  return inputs;
}

/** The prompt the job keeps, or undefined when the tool (with this model, these inputs) takes none. */
function readPrompt(tool: GenerationToolSpec, model: ModelOption, body: MultipartBody, hasAudio: boolean): string | undefined {
  const prompt = single(body, 'prompt')?.trim();
  if (prompt !== undefined && prompt.length > PROMPT_MAX_LENGTH) {
    throw bad(`${tool.promptLabel} can be at most ${PROMPT_MAX_LENGTH} characters.`);
  }
  switch (tool.prompt) {
    case 'none':
      return undefined;
    case 'unlessAudio':
      // SPEC §7 lip-sync: "audio_url or (prompt, voice)": the given audio is what is spoken.
      if (hasAudio) return undefined;
      if (!prompt) throw bad(`${tool.promptLabel} is required (prompt) when no audio_url is given.`);
      return prompt;
    case 'model':
      if (model.text_prompt !== 1) return undefined;
      if (!prompt) throw bad(`${tool.promptLabel} is required (prompt).`);
      return prompt;
    case 'required':
      if (!prompt) throw bad(`${tool.promptLabel} is required (prompt).`);
      return prompt;
    case 'optional':
      return prompt;
  }
}

/**
 * Issue 21 item 7: `num_images` (1 to the model's most, kept as args.num_images when above 1) and
 * `negative_prompt` (kept as args.negative_prompt), for image tools whose model takes them
 * (src/config/image-model-capabilities.ts). Asking a model for what it cannot do is a 400, not
 * silently dropped: the person would think it applied.
 */
function readImageOptions(tool: GenerationToolSpec, model: ModelOption, body: MultipartBody, args: Record<string, unknown>): void {
  const sentCount = single(body, 'num_images')?.trim();
  if (sentCount !== undefined && sentCount !== '') {
    const count = Number(sentCount);
    const most = tool.kind === 'image' ? maxImagesFor(model.value) : 1;
    if (!Number.isInteger(count) || count < 1 || count > MAX_IMAGES_PER_RUN) throw bad(`num_images must be a whole number from 1 to ${MAX_IMAGES_PER_RUN}.`);
    if (count > most) throw bad(`${model.label} makes one picture per run: send num_images 1 or leave it out.`);
    if (count > 1) args.num_images = count;
  }
  const negative = single(body, 'negative_prompt')?.trim();
  if (negative !== undefined && negative !== '') {
    if (tool.kind !== 'image' || !takesNegativePrompt(model.value)) throw bad(`${model.label} takes no negative prompt (negative_prompt).`);
    if (negative.length > NEGATIVE_PROMPT_MAX_LENGTH) throw bad(`The negative prompt can be at most ${NEGATIVE_PROMPT_MAX_LENGTH} characters.`);
    args.negative_prompt = negative;
  }
}

/** Validates a generation call's fields (400 with a readable detail) and shapes what the job keeps. */
export function parseGenerationRequest(tool: GenerationToolSpec, body: MultipartBody, endpoint = tool.endpoint): GenerationRequest {
  const model = chooseModel(tool, single(body, 'option'), endpoint);
  const args: Record<string, unknown> = { option: model.value };
  const effect = readChoices(tool, model, body, args);
  const inputs = readInputs(tool, model, effect, body);
  const hasAudio = inputs.some((input) => input.media === 'audio');
  const prompt = readPrompt(tool, model, body, hasAudio);
  if (prompt !== undefined) args.prompt = prompt;

  if (tool.aspectRatios && (!tool.aspectRatioModels || tool.aspectRatioModels.includes(model.value))) {
    const ratio = single(body, 'aspect_ratio') || tool.aspectRatios[0];
    if (!ratio || !(tool.aspectRatios as readonly string[]).includes(ratio)) {
      throw bad(`aspect_ratio must be one of ${tool.aspectRatios.join(', ')}.`);
    }
    args.aspect_ratio = ratio;
  }
  // Lip sync with an audio file speaks that file: a voice would be unused.
  if (tool.voice && !(tool.prompt === 'unlessAudio' && hasAudio)) {
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
  if (tool.orderIndices) {
    const faces = Math.max(0, inputs.filter((input) => input.field === 'image_urls').length - 1);
    const sent = body.fields.order_indices ?? [];
    if (sent.length > 0 && sent.length !== faces) throw bad(`Send one order_indices value per face picture (${faces}).`);
    const indices = sent.length > 0 ? sent.map(Number) : Array.from({ length: faces }, (_, index) => index);
    if (indices.some((index) => !Number.isInteger(index) || index < 0 || index > MAX_FACE_INDEX)) {
      throw bad(`order_indices must be whole numbers from 0 (the leftmost face) to ${MAX_FACE_INDEX}.`);
    }
    args.order_indices = indices;
  }
  readImageOptions(tool, model, body, args);
  const sentSeed = single(body, 'seed');
  const seed = sentSeed === undefined || sentSeed === '' ? null : parseSeed(sentSeed);
  if (sentSeed !== undefined && sentSeed !== '' && seed === null) throw bad(`seed must be a whole number from 0 to ${SEED_MAX}.`);
  return { model, args, seed, inputs, asyncMode: parseAsyncMode(single(body, 'async_mode')) };
}
