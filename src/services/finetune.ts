import { apiGet } from '@/services/http';
import { finetuneListSchema } from '@/services/schemas/finetune';
import type { Finetune } from '@/services/schemas/finetune';

export type { Finetune } from '@/services/schemas/finetune';

/**
 * SPEC §7 "Fine-tuning": the call that starts a training (`POST finetune?asset_id=`, multipart
 * image_urls[] + option, name, trigger_word, prompt) is a credit-spending job like the generation
 * calls, so it goes through the jobs registry (submitGeneration with this endpoint, its
 * Idempotency-Key and polling); the answer is the training job, a media item of tool `finetune`.
 */
export const FINETUNE_ENDPOINT = 'finetune';

export interface FinetuneCallOptions {
  signal?: AbortSignal;
}

/** Kinora's `GET finetune`: the signed-in person's trained models, each with its training status. */
export const listFinetunes = async (options: FinetuneCallOptions = {}): Promise<Finetune[]> =>
  (await apiGet(FINETUNE_ENDPOINT, finetuneListSchema, { signal: options.signal })).items;
