import { z } from 'zod';
import { FINETUNE_KINDS, FINETUNE_NAME, FINETUNE_TRIGGER_WORD_MAX, type FinetuneKind, type FinetuneKindInfo } from '@/config/finetune';
import { FINETUNE_TEXTS } from '@/config/finetune-texts';

/**
 * The rules of the LoRA Finetune form (SPEC §5 "Fine-tune image counts", §7 POST finetune) and how
 * its answers become the call's multipart fields. Pure, so the rules read (and are tested) apart
 * from the JSX.
 */

export interface FinetuneFormValues {
  kind: FinetuneKind;
  name: string;
  trigger_word: string;
  prompt: string;
  /** The uploaded URL per picture key ('' or absent while empty). */
  pictures: Record<string, string>;
}

/**
 * The picture places the form shows: `images` (Flux, Flux Pro) are picture keys in order; `pairs`
 * (Flux Kontext) are pair ids, each with an input and an output picture (pairInputKey/pairOutputKey).
 * Ids are stable, so removing one place removes exactly that one.
 */
export interface FinetuneSlots {
  images: readonly string[];
  pairs: readonly string[];
}

/** Where the count rule's message goes: beside the picture keys, never one of them. */
export const COUNT_ERROR_KEY = 'count';

export const pairInputKey = (pairId: string): string => `${pairId}-input`;
export const pairOutputKey = (pairId: string): string => `${pairId}-output`;

export const DEFAULT_FINETUNE_KIND: FinetuneKind = 'FluxFinetune';

/** How many places a kind starts with (and never goes below when switching to it): its minimum. */
export const minimumPlaces = (kind: FinetuneKindInfo): number => (kind.pairs ? kind.pairs.min : (kind.images?.min ?? 1));

/** The most places the person may add for a kind. */
export const maximumPlaces = (kind: FinetuneKindInfo): number => (kind.pairs ? kind.pairs.max : (kind.images?.max ?? 1));

const filled = (pictures: Readonly<Record<string, string>>, key: string): string => (pictures[key] ?? '').trim();

/** The uploaded pictures of a Flux / Flux Pro form, in order. */
export const filledPictures = (slots: FinetuneSlots, pictures: Readonly<Record<string, string>>): string[] =>
  slots.images.map((key) => filled(pictures, key)).filter((url) => url !== '');

/** The Kontext pairs with both pictures, in order, as [input, output]. */
export const completePairs = (slots: FinetuneSlots, pictures: Readonly<Record<string, string>>): [string, string][] =>
  slots.pairs.flatMap((id): [string, string][] => {
    const input = filled(pictures, pairInputKey(id));
    const output = filled(pictures, pairOutputKey(id));
    return input && output ? [[input, output]] : [];
  });

/** The count shown beside the pictures: "3 of 5–20 pictures" or "2 of 1–20 pairs". */
export function countText(kind: FinetuneKindInfo, slots: FinetuneSlots, pictures: Readonly<Record<string, string>>): string {
  if (kind.pairs) return FINETUNE_TEXTS.pairCount(completePairs(slots, pictures).length, kind.pairs.min, kind.pairs.max);
  const range = kind.images ?? { min: 0, max: 0 };
  return FINETUNE_TEXTS.pictureCount(filledPictures(slots, pictures).length, range.min, range.max);
}

/** The schema of the form for the chosen kind and the places shown. */
export function finetuneFormSchema(slots: FinetuneSlots) {
  return z
    .object({
      kind: z.enum(Object.keys(FINETUNE_KINDS) as [FinetuneKind, ...FinetuneKind[]]),
      name: z
        .string()
        .trim()
        .min(FINETUNE_NAME.min, FINETUNE_TEXTS.enterName)
        .max(FINETUNE_NAME.max, FINETUNE_TEXTS.nameTooLong(FINETUNE_NAME.max)),
      trigger_word: z.string().trim().max(FINETUNE_TRIGGER_WORD_MAX, FINETUNE_TEXTS.triggerWordTooLong(FINETUNE_TRIGGER_WORD_MAX)),
      prompt: z.string(),
      pictures: z.record(z.string(), z.string()),
    })
    .superRefine((values, context) => {
      const kind = FINETUNE_KINDS[values.kind];
      if (kind.pairs) {
        slots.pairs.forEach((id, index) => {
          const input = filled(values.pictures, pairInputKey(id));
          const output = filled(values.pictures, pairOutputKey(id));
          if (Boolean(input) === Boolean(output)) return;
          context.addIssue({
            code: 'custom',
            path: ['pictures', input ? pairOutputKey(id) : pairInputKey(id)],
            message: FINETUNE_TEXTS.pairIncomplete(index + 1),
          });
        });
        const count = completePairs(slots, values.pictures).length;
        if (count < kind.pairs.min || count > kind.pairs.max) {
          context.addIssue({
            code: 'custom',
            path: ['pictures', COUNT_ERROR_KEY],
            message: FINETUNE_TEXTS.pairsRange(kind.pairs.min, kind.pairs.max),
          });
        }
      } else if (kind.images) {
        const count = filledPictures(slots, values.pictures).length;
        if (count < kind.images.min || count > kind.images.max) {
          context.addIssue({
            code: 'custom',
            path: ['pictures', COUNT_ERROR_KEY],
            message: FINETUNE_TEXTS.picturesRange(kind.images.min, kind.images.max),
          });
        }
      }
      if (kind.promptRequired && values.prompt.trim() === '') {
        context.addIssue({ code: 'custom', path: ['prompt'], message: FINETUNE_TEXTS.enterPrompt });
      }
    });
}

export const defaultFinetuneValues = (): FinetuneFormValues => ({
  kind: DEFAULT_FINETUNE_KIND,
  name: '',
  trigger_word: '',
  prompt: '',
  pictures: {},
});

export type FinetuneFields = Record<string, string | string[]>;

/**
 * The multipart fields of POST finetune: option = the kind, name, trigger_word (when given), prompt
 * (Kontext), image_urls[] in order (Kontext: input, output, input, output…).
 */
export function finetuneFields(slots: FinetuneSlots, values: FinetuneFormValues): FinetuneFields {
  const kind = FINETUNE_KINDS[values.kind];
  const fields: FinetuneFields = {
    option: kind.value,
    name: values.name.trim(),
    image_urls: kind.pairs ? completePairs(slots, values.pictures).flat() : filledPictures(slots, values.pictures),
  };
  const triggerWord = values.trigger_word.trim();
  if (triggerWord) fields.trigger_word = triggerWord;
  if (kind.promptRequired) fields.prompt = values.prompt.trim();
  return fields;
}
