/**
 * LoRA fine-tuning (SPEC §1, §2.3 AI Production → LoRA Finetune, §5 image counts, §9 costs and
 * training times): pure data shared by the web app and the local server.
 */

export type FinetuneKind = 'FluxFinetune' | 'FluxProFinetune' | 'FluxKontextFinetune';

export interface FinetuneKindInfo {
  value: FinetuneKind;
  label: string;
  /** Plain pictures (Flux, Flux Pro): how many. */
  images?: { min: number; max: number };
  /** Input/output pairs (Flux Kontext): how many pairs; image_urls then alternate input, output, input, output… */
  pairs?: { min: number; max: number };
  /** Flux Kontext also needs a prompt: what the pairs teach (SPEC §5). */
  promptRequired: boolean;
  /** SPEC §9 "Fine-tune training time", shown to the person before they start. */
  trainingMinutes: number;
  /** The model option the trained model is used through (SPEC §9 costs 8), and the tool pages that offer it. */
  baseModel: 'FluxFinetuned' | 'FluxKontextFinetuned';
  tools: readonly ('text-to-image' | 'image-to-image')[];
}

export const FINETUNE_KINDS: Readonly<Record<FinetuneKind, FinetuneKindInfo>> = {
  FluxFinetune: {
    value: 'FluxFinetune',
    label: 'Flux Fine-tune',
    images: { min: 5, max: 20 },
    promptRequired: false,
    trainingMinutes: 2,
    baseModel: 'FluxFinetuned',
    tools: ['text-to-image'],
  },
  FluxProFinetune: {
    value: 'FluxProFinetune',
    label: 'Flux Pro Fine-tune',
    images: { min: 1, max: 10 },
    promptRequired: false,
    trainingMinutes: 20,
    baseModel: 'FluxFinetuned',
    tools: ['text-to-image'],
  },
  FluxKontextFinetune: {
    value: 'FluxKontextFinetune',
    label: 'Flux Kontext Fine-tune',
    pairs: { min: 1, max: 20 },
    promptRequired: true,
    trainingMinutes: 30,
    baseModel: 'FluxKontextFinetuned',
    tools: ['image-to-image'],
  },
};

export const FINETUNE_KIND_LIST: readonly FinetuneKindInfo[] = Object.values(FINETUNE_KINDS);
export const isFinetuneKind = (value: string): value is FinetuneKind => Object.prototype.hasOwnProperty.call(FINETUNE_KINDS, value);

/** The trained model's name: what the model lists show. */
export const FINETUNE_NAME = { min: 1, max: 40 } as const;
/** Optional word that calls the learned style or subject up in a prompt. */
export const FINETUNE_TRIGGER_WORD_MAX = 30;
/** The multipart field an image call names a trained model with (Kinora's), beside `option` = its base model. */
export const FINETUNE_ID_FIELD = 'finetune_id';
/** The media item's `tool` of a training job. */
export const FINETUNE_TOOL = 'finetune';
