import { z } from 'zod';
import type { TrainedModelOption } from '@/components/finetune/trained-models';
import type { ModelOption } from '@/config/asset-tools';
import type { VideoEffect } from '@/config/effects';
import type { MediaKind, Option } from '@/config/enums';
import { FINETUNE_ID_FIELD } from '@/config/finetune';
import { durationValid, endpointFor, type ChoiceSpec, type GenerationToolSpec, type ImageInputSpec } from '@/config/generation-tools';
import { TOOL_TEXTS } from '@/config/job-texts';
import { MESSAGES } from '@/config/messages';
import { ROUTES } from '@/config/routes';
import { SEED_MAX } from '@/config/limits';
import { MAX_IMAGES_PER_RUN, maxImagesFor, NEGATIVE_PROMPT_MAX_LENGTH, runPrice, takesNegativePrompt } from '@/config/image-model-capabilities';
import { DEFAULT_VOICE } from '@/config/voices';
import type { PromptPurpose } from '@/machines/prompt-helper/prompt-helper.machine';

/**
 * What a generation tool page asks for, worked out from its GenerationToolSpec and the chosen
 * model's flags (SPEC §3 "Model / tool option", §5 "Model inputs"), and how the answers become the
 * multipart fields of the call. Pure, so the rules read (and are tested) apart from the JSX.
 */

/** One input the form asks for: a single field, or one place of a repeated `image_urls`. */
export interface PictureSlot {
  /** Stable key for React, the upload actor and the form values (no dots: react-hook-form reads them as paths). */
  key: string;
  field: ImageInputSpec['field'];
  label: string;
  required: boolean;
  /** What the file is: decides the upload kind and its upload page. */
  media: MediaKind;
  /** Inputs sharing a group are alternatives: at least one of them must be given. */
  oneOf: string | null;
  /** Said under the input, e.g. why an end frame is now needed. */
  note: string | null;
  /** Face swap: this picture is a face (not the target) and carries a face order index. */
  face: boolean;
  /** Face swap: the face's order index until the person picks one (faces numbered left to right: 0, 1, …). */
  defaultOrderIndex: number;
  /** Slots beyond the minimum of a repeated field can be removed again. */
  removable: boolean;
}

export interface GenerationFormValues {
  /** The chosen entry of the model list: a model's value, or a trained model's `finetune:{id}`. */
  option: string;
  prompt: string;
  aspect_ratio: string;
  voice: string;
  /** Seconds (tools with a duration); '' while the field is cleared, which is refused with its bounds. */
  duration: number | '';
  /** The uploaded URL per slot key; '' or absent while the slot is empty. */
  pictures: Record<string, string>;
  /** Face swap: the face order index per face slot key. */
  order_indices: Record<string, number>;
  /** The chosen value per choice field (effect, enhance_mode, mode); absent → the first option. */
  choices: Partial<Record<string, string>>;
  /** Image tools (issue 21 item 7): a seed to make a result again; '' → the request's own. */
  seed: string;
  /** Image tools whose model makes several (issue 21 item 7): pictures per run, '1'…'4'. */
  num_images: string;
  /** Image tools whose model takes one (issue 21 item 7): what the picture must not show. */
  negative_prompt: string;
}

/** Image tools take a seed (issue 21 item 7): a result's seed makes the same picture again. */
export const seedShown = (spec: Pick<GenerationToolSpec, 'kind'>): boolean => spec.kind === 'image';

/** The "Images" choice (1 to the model's most) is asked for on image tools whose model makes several per run. */
export const imagesShown = (spec: Pick<GenerationToolSpec, 'kind'>, model: Pick<ModelOption, 'value'> | undefined): boolean =>
  spec.kind === 'image' && maxImagesFor(model?.value) > 1;

/** The choices of "Images": 1 to the model's most. */
export const imageCountOptions = (model: Pick<ModelOption, 'value'> | undefined): string[] =>
  Array.from({ length: maxImagesFor(model?.value) }, (_, index) => String(index + 1));

/** The "Negative prompt" is asked for on image tools whose model takes one. */
export const negativePromptShown = (spec: Pick<GenerationToolSpec, 'kind'>, model: Pick<ModelOption, 'value'> | undefined): boolean =>
  spec.kind === 'image' && takesNegativePrompt(model?.value);

/** How many pictures this run makes: the chosen count where the model makes several, else 1. */
export function imageCount(spec: Pick<GenerationToolSpec, 'kind'>, model: Pick<ModelOption, 'value'> | undefined, value: string | undefined): number {
  if (!imagesShown(spec, model)) return 1;
  const count = Number(value);
  return Number.isInteger(count) && count >= 1 ? Math.min(count, maxImagesFor(model?.value)) : 1;
}

/** What "Generate" costs: the model's credits for each picture of the run (the affordability check uses it). */
export const runCost = (
  spec: Pick<GenerationToolSpec, 'kind'>,
  chosen: Pick<FormModel, 'required_credits' | 'model'>,
  count: string | undefined,
): number => runPrice(chosen.required_credits, imageCount(spec, chosen.model, count));

/** A seed as typed: '' (none) or a whole number from 0 to SEED_MAX. */
const SEED_PATTERN = /^\d{1,10}$/;
export const seedValid = (seed: string): boolean => seed.trim() === '' || (SEED_PATTERN.test(seed.trim()) && Number(seed.trim()) <= SEED_MAX);

/**
 * One entry of a tool page's model list. `model` is the model whose flags and value the rules and
 * the call use: the option itself, or a trained model's base model (sent as `option`, with
 * `finetune_id`).
 */
export interface FormModel {
  value: string;
  label: string;
  required_credits: number;
  model: ModelOption;
  finetuneId: string | null;
}

/**
 * The model list: the tool's models, then the person's trained ones. A trained model is offered
 * only where its base model is one of this tool's models (the call would be refused otherwise).
 */
export function formModels(options: readonly ModelOption[], trained: readonly TrainedModelOption[] = []): FormModel[] {
  const own = options.map((model) => ({
    value: model.value,
    label: model.label,
    required_credits: model.required_credits,
    model,
    finetuneId: null,
  }));
  const tuned = trained.flatMap((entry): FormModel[] => {
    const base = options.find((model) => model.value === entry.baseModel);
    return base
      ? [{ value: entry.value, label: entry.label, required_credits: entry.required_credits, model: base, finetuneId: entry.finetuneId }]
      : [];
  });
  return [...own, ...tuned];
}

export type PromptNeed = 'required' | 'optional' | 'hidden';

/**
 * SPEC §5: a prompt is asked for by the tool, or (rule `model`) when the model takes one; lip sync
 * (rule `unlessAudio`) speaks an uploaded audio instead when one is given.
 */
export function promptNeed(spec: GenerationToolSpec, model: ModelOption | undefined, audioGiven = false): PromptNeed {
  switch (spec.prompt) {
    case 'required':
      return 'required';
    case 'optional':
      return 'optional';
    case 'model':
      return model?.text_prompt === 1 ? 'required' : 'hidden';
    case 'unlessAudio':
      return audioGiven ? 'hidden' : 'required';
    case 'none':
      return 'hidden';
  }
}

/** The voice is asked for with the text it speaks (never beside an uploaded lip sync audio). */
export const voiceShown = (spec: GenerationToolSpec, audioGiven = false): boolean =>
  Boolean(spec.voice) && !(spec.prompt === 'unlessAudio' && audioGiven);

/** The aspect ratio is asked for by the tools that offer ratios, with the models that take one. */
export const aspectRatioShown = (spec: GenerationToolSpec, model: ModelOption | undefined): boolean =>
  Boolean(spec.aspectRatios?.length) &&
  (!spec.aspectRatioModels || (model !== undefined && spec.aspectRatioModels.includes(model.value)));

const forModel = (models: readonly string[] | undefined, model: ModelOption | undefined): boolean =>
  !models || (model !== undefined && models.includes(model.value));

/** The options of a choice for this model: the model's effects, or the spec's list. */
export function choiceOptions(choice: ChoiceSpec, model: ModelOption | undefined): Option[] {
  if (choice.options === 'effects') {
    return (model?.available_effects ?? []).map((effect) => ({ value: effect.value, label: effect.label }));
  }
  return choice.options.map((option) => ({ value: option.value, label: option.label }));
}

export interface ShownChoice {
  spec: ChoiceSpec;
  options: Option[];
  /** The chosen value: the person's when it is one of the options, else the first option. */
  value: string;
}

/** The choices asked for with this model, each with its current value (a new model resets a value it lacks). */
export function shownChoices(
  spec: GenerationToolSpec,
  model: ModelOption | undefined,
  chosen: Readonly<Partial<Record<string, string>>> = {},
): ShownChoice[] {
  return (spec.choices ?? []).flatMap((choice): ShownChoice[] => {
    if (!forModel(choice.models, model)) return [];
    const options = choiceOptions(choice, model);
    const first = options[0];
    if (!first) return [];
    const picked = chosen[choice.field];
    const value = picked !== undefined && options.some((option) => option.value === picked) ? picked : first.value;
    return [{ spec: choice, options, value }];
  });
}

/** The effect the form is set to: the chosen one of the model's effects, else its first. */
export function chosenEffect(model: ModelOption | undefined, chosen: Readonly<Partial<Record<string, string>>> = {}): VideoEffect | undefined {
  const effects = model?.available_effects ?? [];
  return effects.find((effect) => effect.value === chosen.effect) ?? effects[0];
}

/**
 * Whether an input the tool lists is asked for with this model (and effect): its `models` filter;
 * `model` inputs only when the model's `end_frame` flag is 1; `effect` inputs (the end frame of a
 * video effect) only when the chosen effect's `end_frame` flag is 1 (SPEC §5).
 */
export function inputShown(input: ImageInputSpec, model: ModelOption | undefined, effect: VideoEffect | undefined): boolean {
  if (!forModel(input.models, model)) return false;
  if (input.required === 'model') return model?.end_frame === 1;
  if (input.required === 'effect') return effect?.end_frame === 1;
  return true;
}

/**
 * The input slots of the form. `extra[field]` lists the ids of the slots a person added beyond
 * the minimum of a repeated field (Image Elements, Face Swap faces), in order: removing one removes
 * exactly that slot (its key, its upload, its value), and the ones after it keep theirs.
 */
export function pictureSlots(
  spec: GenerationToolSpec,
  model: ModelOption | undefined,
  extra: Readonly<Record<string, readonly string[]>> = {},
  chosen: Readonly<Partial<Record<string, string>>> = {},
): PictureSlot[] {
  const effect = chosenEffect(model, chosen);
  const slots: PictureSlot[] = [];
  for (const input of spec.images) {
    if (!inputShown(input, model, effect)) continue;
    const media = input.media ?? 'image';
    const oneOf = input.oneOf ?? null;
    if (!input.count) {
      // Shown at all means needed for `model` and `effect` inputs.
      const required = input.required !== 'never';
      slots.push({
        key: input.field,
        field: input.field,
        label: input.label,
        required,
        media,
        oneOf,
        note: input.required === 'effect' ? TOOL_TEXTS.endFrameNeeded : null,
        face: false,
        defaultOrderIndex: 0,
        removable: false,
      });
      continue;
    }
    const base = Array.from({ length: input.count.min }, (_, index) => String(index));
    const ids = [...base, ...(extra[input.field] ?? [])].slice(0, input.count.max);
    ids.forEach((id, index) => {
      const face = Boolean(spec.orderIndices) && index > 0;
      const label = spec.orderIndices
        ? index === 0
          ? TOOL_TEXTS.targetPicture
          : TOOL_TEXTS.facePicture(index)
        : TOOL_TEXTS.numberedPicture(input.label, index + 1);
      slots.push({
        key: `${input.field}-${id}`,
        field: input.field,
        label,
        required: index < (input.count?.min ?? 0),
        media,
        oneOf,
        note: null,
        face,
        defaultOrderIndex: Math.max(0, index - 1),
        removable: index >= (input.count?.min ?? 0),
      });
    });
  }
  return slots;
}

/** The repeated field whose slots can still grow, if any. */
export function growableField(spec: GenerationToolSpec, slots: readonly PictureSlot[]): ImageInputSpec | null {
  const repeated = spec.images.find((input) => input.count);
  if (!repeated?.count) return null;
  const present = slots.filter((slot) => slot.field === repeated.field).length;
  return present > 0 && present < repeated.count.max ? repeated : null;
}

/** Whether an audio file is among the given inputs (lip sync then speaks it instead of a text). */
export const audioGiven = (slots: readonly PictureSlot[], pictures: Readonly<Record<string, string>> | undefined): boolean =>
  slots.some((slot) => slot.media === 'audio' && Boolean(pictures?.[slot.key]));

/** SPEC §5/§8: image-to-image and reimagine without a picture fail with "No upload file". */
export const missingPictureMessage = (spec: GenerationToolSpec, slot: PictureSlot): string =>
  spec.requiresUpload ? MESSAGES.noUploadFile : TOOL_TEXTS.addInput(slot.label, slot.media);

/** The upload page of a kind of file, linked from every input of that kind (SPEC §2.5). */
export const UPLOAD_PAGES: Readonly<Record<MediaKind, string>> = {
  image: ROUTES.aiImage.uploadImage,
  video: ROUTES.aiVideo.uploadVideo,
  audio: ROUTES.aiAudio.uploadAudio,
};

/** The zod schema of the form for this tool, model and set of input slots. */
export function generationFormSchema(
  spec: GenerationToolSpec,
  model: ModelOption | undefined,
  slots: readonly PictureSlot[],
) {
  const promptMessage = spec.slug === 'text-to-speech' ? TOOL_TEXTS.enterText : TOOL_TEXTS.enterPrompt;
  const duration = spec.duration;
  return z
    .object({
      option: z.string().min(1, TOOL_TEXTS.noModel),
      prompt: z.string(),
      aspect_ratio: z.string(),
      voice: z.string(),
      duration: z.union([z.number(), z.literal('')]),
      pictures: z.record(z.string(), z.string()),
      order_indices: z.record(z.string(), z.number().int().min(0)),
      // A choice left as it is has no value yet (its first option applies).
      choices: z.record(z.string(), z.string().optional()),
      seed: z.string(),
      num_images: z.string(),
      negative_prompt: z.string(),
    })
    .superRefine((values, context) => {
      if (duration && !durationValid(values.duration, duration)) {
        context.addIssue({ code: 'custom', path: ['duration'], message: TOOL_TEXTS.durationRange(duration.minSeconds, duration.maxSeconds) });
      }
      if (seedShown(spec) && !seedValid(values.seed)) context.addIssue({ code: 'custom', path: ['seed'], message: TOOL_TEXTS.seedInvalid(SEED_MAX) });
      if (negativePromptShown(spec, model) && values.negative_prompt.trim().length > NEGATIVE_PROMPT_MAX_LENGTH) {
        context.addIssue({ code: 'custom', path: ['negative_prompt'], message: TOOL_TEXTS.negativePromptTooLong(NEGATIVE_PROMPT_MAX_LENGTH) });
      }
      const need = promptNeed(spec, model, audioGiven(slots, values.pictures));
      if (need === 'required' && values.prompt.trim() === '') {
        context.addIssue({ code: 'custom', path: ['prompt'], message: promptMessage });
      }
      for (const slot of slots) {
        if (slot.required && !values.pictures[slot.key]) {
          context.addIssue({ code: 'custom', path: ['pictures', slot.key], message: missingPictureMessage(spec, slot) });
        }
      }
      // A group of alternatives: the message sits on its first input.
      const groups = new Map<string, PictureSlot[]>();
      for (const slot of slots) {
        if (slot.oneOf) groups.set(slot.oneOf, [...(groups.get(slot.oneOf) ?? []), slot]);
      }
      for (const group of groups.values()) {
        const [first] = group;
        if (!first || group.some((slot) => Boolean(values.pictures[slot.key]))) continue;
        context.addIssue({
          code: 'custom',
          path: ['pictures', first.key],
          message: TOOL_TEXTS.addOneOf(group.map((slot) => slot.label)),
        });
      }
    });
}

export function defaultFormValues(
  spec: GenerationToolSpec,
  options: readonly Pick<FormModel, 'value'>[],
): GenerationFormValues {
  return {
    option: options[0]?.value ?? '',
    prompt: '',
    aspect_ratio: spec.aspectRatios?.[0] ?? '',
    voice: DEFAULT_VOICE,
    duration: spec.duration?.defaultSeconds ?? 0,
    pictures: {},
    // Faces are numbered left to right as they are added: face 1 → 0, face 2 → 1, … (the slots
    // added later get theirs from PictureSlot.defaultOrderIndex).
    order_indices: spec.orderIndices ? { 'image_urls-1': 0 } : {},
    choices: {},
    seed: '',
    num_images: '1',
    negative_prompt: '',
  };
}

export type GenerationFields = Record<string, string | string[]>;

/**
 * The multipart fields of the call (SPEC §7): option (a trained model's base model, with its
 * `finetune_id`), prompt, aspect_ratio, voice, duration, the chosen effect / upscale / sync mode,
 * the input URLs under their field names (`image_urls` repeated, face swap's target first), the
 * face order indices, and `async_mode` where the spec sends it. Only what this model is asked for
 * is sent.
 */
export function generationFields(
  spec: GenerationToolSpec,
  model: ModelOption | undefined,
  slots: readonly PictureSlot[],
  values: GenerationFormValues,
  finetuneId: string | null = null,
): GenerationFields {
  const fields: GenerationFields = { option: model?.value ?? values.option };
  if (finetuneId) fields[FINETUNE_ID_FIELD] = finetuneId;
  const withAudio = audioGiven(slots, values.pictures);
  if (promptNeed(spec, model, withAudio) !== 'hidden' && values.prompt.trim() !== '') fields.prompt = values.prompt.trim();
  if (aspectRatioShown(spec, model) && values.aspect_ratio) fields.aspect_ratio = values.aspect_ratio;
  if (voiceShown(spec, withAudio)) fields.voice = values.voice || DEFAULT_VOICE;
  if (spec.duration && values.duration !== '') fields.duration = String(values.duration);
  for (const choice of shownChoices(spec, model, values.choices)) fields[choice.spec.field] = choice.value;
  const repeated: string[] = [];
  const orderIndices: string[] = [];
  for (const slot of slots) {
    const url = values.pictures[slot.key];
    if (!url) continue;
    if (slot.field === 'image_urls') {
      repeated.push(url);
      if (slot.face) orderIndices.push(String(values.order_indices[slot.key] ?? slot.defaultOrderIndex));
    } else {
      fields[slot.field] = url;
    }
  }
  if (repeated.length > 0) fields.image_urls = repeated;
  if (spec.orderIndices && orderIndices.length > 0) fields.order_indices = orderIndices;
  if (seedShown(spec) && values.seed.trim() !== '') fields.seed = values.seed.trim();
  const count = imageCount(spec, model, values.num_images);
  if (count > 1) fields.num_images = String(count);
  if (negativePromptShown(spec, model) && values.negative_prompt.trim() !== '') fields.negative_prompt = values.negative_prompt.trim();
  if (spec.asyncMode) fields.async_mode = 'true';
  return fields;
}

/** The call this model's job is sent to (Edit Video: each operation has its own). */
export const submitEndpoint = (spec: GenerationToolSpec, model: ModelOption | undefined): string =>
  endpointFor(spec, model?.value);

/** What the prompt helper is asked to write for (`mode` of POST text/prompt, Kinora's). */
export function promptHelperPurpose(spec: GenerationToolSpec): PromptPurpose {
  switch (spec.slug) {
    case 'text-to-speech':
      return 'speech';
    case 'text-to-music':
      return 'music';
    case 'text-to-audio':
      return 'sound';
    default:
      return spec.kind;
  }
}

/** A past job of this tool, as Remix reads it: its args and its input pictures. */
export interface RemixSource {
  args: Readonly<Record<string, unknown>>;
  image_urls: readonly string[];
  /** The seed its model was given (issue 21 item 7). */
  seed?: number | null;
}

/** What Remix fills in: the form values, the input URLs per slot key, and the slots added beyond a repeated field's minimum. */
export interface RemixFill {
  values: GenerationFormValues;
  pictures: Record<string, string>;
  extra: Record<string, string[]>;
}

const argText = (args: RemixSource['args'], key: string): string | null => {
  const value = args[key];
  return typeof value === 'string' && value !== '' ? value : null;
};

const argList = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string' && item !== '') : typeof value === 'string' && value !== '' ? [value] : [];

/**
 * The form filled in from a past job of this tool (`?remix={mediaId}`): its model (when the tool
 * still offers it), prompt, aspect ratio, voice, duration and choices, and its input pictures in
 * the slots that take them (a repeated field gets as many slots as it had pictures, within its
 * maximum). What the job did not have stays as `current` holds it.
 */
export function remixFill(
  spec: GenerationToolSpec,
  source: RemixSource,
  options: readonly Pick<FormModel, 'value'>[],
  current: GenerationFormValues,
): RemixFill {
  const { args } = source;
  const values: GenerationFormValues = { ...current, choices: { ...current.choices }, pictures: {}, order_indices: { ...current.order_indices } };
  const option = argText(args, 'option');
  if (option && options.some((candidate) => candidate.value === option)) values.option = option;
  const prompt = argText(args, 'prompt') ?? argText(args, 'text');
  if (prompt) values.prompt = prompt;
  const ratio = argText(args, 'aspect_ratio');
  if (ratio && spec.aspectRatios?.some((candidate) => candidate === ratio)) values.aspect_ratio = ratio;
  const voice = argText(args, 'voice');
  if (voice) values.voice = voice;
  if (seedShown(spec) && typeof source.seed === 'number') values.seed = String(source.seed);
  // Issue 21 item 7: as many pictures, and the same negative prompt, as the job had.
  if (spec.kind === 'image') {
    const count = Number(args.num_images);
    values.num_images = Number.isInteger(count) && count >= 1 && count <= MAX_IMAGES_PER_RUN ? String(count) : '1';
    values.negative_prompt = argText(args, 'negative_prompt') ?? '';
  }
  const duration = Number(args.duration);
  if (spec.duration && args.duration !== undefined && Number.isFinite(duration)) values.duration = duration;
  for (const choice of spec.choices ?? []) {
    const value = argText(args, choice.field);
    if (value) values.choices[choice.field] = value;
  }
  const pictures: Record<string, string> = {};
  const extra: Record<string, string[]> = {};
  for (const input of spec.images) {
    const { count } = input;
    if (!count) {
      const url = argText(args, input.field);
      if (url) pictures[input.field] = url;
      continue;
    }
    const fromArgs = argList(args[input.field]);
    const urls = (fromArgs.length > 0 ? fromArgs : [...source.image_urls]).slice(0, count.max);
    const orderIndices = argList(args.order_indices).map(Number);
    urls.forEach((url, index) => {
      const id = index < count.min ? String(index) : `remix${index}`;
      if (index >= count.min) extra[input.field] = [...(extra[input.field] ?? []), id];
      const key = `${input.field}-${id}`;
      pictures[key] = url;
      const order = orderIndices[index - 1];
      if (spec.orderIndices && index > 0 && order !== undefined && Number.isInteger(order) && order >= 0) values.order_indices[key] = order;
    });
  }
  values.pictures = { ...pictures };
  return { values, pictures, extra };
}
