import { z } from 'zod';
import type { ModelOption } from '@/config/asset-tools';
import type { GenerationToolSpec, ImageInputSpec } from '@/config/generation-tools';
import { TOOL_TEXTS } from '@/config/job-texts';
import { MESSAGES } from '@/config/messages';
import { DEFAULT_VOICE } from '@/config/voices';
import type { PromptPurpose } from '@/machines/prompt-helper/prompt-helper.machine';

/**
 * What a generation tool page asks for, worked out from its GenerationToolSpec and the chosen
 * model's flags (SPEC §3 "Model / tool option", §5 "Model inputs"), and how the answers become the
 * multipart fields of the call. Pure, so the rules read (and are tested) apart from the JSX.
 */

/** One picture the form asks for: a single field, or one place of a repeated `image_urls`. */
export interface PictureSlot {
  /** Stable key for React, the upload actor and the form values (no dots: react-hook-form reads them as paths). */
  key: string;
  field: ImageInputSpec['field'];
  label: string;
  required: boolean;
  /** Face swap: this picture is a face (not the target) and carries a face order index. */
  face: boolean;
  /** Face swap: the face's order index until the person picks one (faces numbered left to right: 0, 1, …). */
  defaultOrderIndex: number;
  /** Slots beyond the minimum of a repeated field can be removed again. */
  removable: boolean;
}

export interface GenerationFormValues {
  option: string;
  prompt: string;
  aspect_ratio: string;
  voice: string;
  duration: number;
  /** The uploaded URL per picture slot key; '' or absent while the slot is empty. */
  pictures: Record<string, string>;
  /** Face swap: the face order index per face slot key. */
  order_indices: Record<string, number>;
}

export type PromptNeed = 'required' | 'optional' | 'hidden';

/** SPEC §5: a prompt is asked for by the tool, or (rule `model`) when the model takes one. */
export function promptNeed(spec: GenerationToolSpec, model: ModelOption | undefined): PromptNeed {
  switch (spec.prompt) {
    case 'required':
      return 'required';
    case 'optional':
      return 'optional';
    case 'model':
      return model?.text_prompt === 1 ? 'required' : 'hidden';
    case 'unlessAudio':
      return 'required';
    case 'none':
      return 'hidden';
  }
}

/** Whether an input the tool lists is shown for this model (`end_frame` = a second picture). */
const inputShown = (input: ImageInputSpec, model: ModelOption | undefined): boolean =>
  input.required === 'always' || model?.end_frame === 1;

/**
 * The picture slots of the form. `extra[field]` lists the ids of the slots a person added beyond
 * the minimum of a repeated field (Image Elements, Face Swap faces), in order: removing one removes
 * exactly that slot (its key, its upload, its value), and the ones after it keep theirs.
 */
export function pictureSlots(
  spec: GenerationToolSpec,
  model: ModelOption | undefined,
  extra: Readonly<Record<string, readonly string[]>> = {},
): PictureSlot[] {
  const slots: PictureSlot[] = [];
  for (const input of spec.images) {
    if (!inputShown(input, model)) continue;
    if (!input.count) {
      slots.push({
        key: input.field,
        field: input.field,
        label: input.label,
        required: input.required === 'always' || (input.required === 'model' && model?.end_frame === 1),
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

/** SPEC §5/§8: image-to-image and reimagine without a picture fail with "No upload file". */
export const missingPictureMessage = (spec: GenerationToolSpec, slot: PictureSlot): string =>
  spec.requiresUpload ? MESSAGES.noUploadFile : TOOL_TEXTS.addPicture(slot.label);

/** The zod schema of the form for this tool, model and set of picture slots. */
export function generationFormSchema(
  spec: GenerationToolSpec,
  model: ModelOption | undefined,
  slots: readonly PictureSlot[],
) {
  const need = promptNeed(spec, model);
  const promptMessage = spec.slug === 'text-to-speech' ? TOOL_TEXTS.enterText : TOOL_TEXTS.enterPrompt;
  const duration = spec.duration;
  return z
    .object({
      option: z.string().min(1, TOOL_TEXTS.noModel),
      prompt: z.string(),
      aspect_ratio: z.string(),
      voice: z.string(),
      duration: duration
        ? z.number().min(duration.minSeconds).max(duration.maxSeconds)
        : z.number(),
      pictures: z.record(z.string(), z.string()),
      order_indices: z.record(z.string(), z.number().int().min(0)),
    })
    .superRefine((values, context) => {
      if (need === 'required' && values.prompt.trim() === '') {
        context.addIssue({ code: 'custom', path: ['prompt'], message: promptMessage });
      }
      for (const slot of slots) {
        if (slot.required && !values.pictures[slot.key]) {
          context.addIssue({ code: 'custom', path: ['pictures', slot.key], message: missingPictureMessage(spec, slot) });
        }
      }
    });
}

export function defaultFormValues(
  spec: GenerationToolSpec,
  options: readonly ModelOption[],
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
  };
}

export type GenerationFields = Record<string, string | string[]>;

/**
 * The multipart fields of the call (SPEC §7): prompt, option, aspect_ratio, voice, duration, the
 * picture URLs under their field names (`image_urls` repeated, face swap's target first), the
 * face order indices, and `async_mode` where the spec sends it.
 */
export function generationFields(
  spec: GenerationToolSpec,
  model: ModelOption | undefined,
  slots: readonly PictureSlot[],
  values: GenerationFormValues,
): GenerationFields {
  const fields: GenerationFields = { option: values.option };
  if (promptNeed(spec, model) !== 'hidden' && values.prompt.trim() !== '') fields.prompt = values.prompt.trim();
  if (spec.aspectRatios && values.aspect_ratio) fields.aspect_ratio = values.aspect_ratio;
  if (spec.voice) fields.voice = values.voice || DEFAULT_VOICE;
  if (spec.duration) fields.duration = String(values.duration);
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
  if (spec.asyncMode) fields.async_mode = 'true';
  return fields;
}

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
