import { mediaSchema } from '@/services/schemas/media';
import type { Media } from '@/services/schemas/media';
import { apiPostMultipart } from '@/services/http';
import type { MultipartFields } from '@/services/http';

export interface SubmitGenerationOptions {
  /** One key per user intent, reused on every retry of it (the server replays the first answer). */
  idempotencyKey: string;
  /** Attaches the result to an asset (SPEC §7 `?asset_id=`); left out when null or absent. */
  assetId?: string | null;
  signal?: AbortSignal;
}

/**
 * Every generation call of SPEC §7 (`image/*`, `audio/*`): a multipart POST of the tool's fields
 * with the `Idempotency-Key` header; the server answers with the media job it created (still queued
 * when asynchronous, final otherwise).
 */
export const submitGeneration = (
  endpoint: string,
  fields: MultipartFields,
  options: SubmitGenerationOptions,
): Promise<Media> =>
  apiPostMultipart(endpoint, fields, mediaSchema, {
    idempotencyKey: options.idempotencyKey,
    query: options.assetId ? { asset_id: options.assetId } : undefined,
    signal: options.signal,
  });
