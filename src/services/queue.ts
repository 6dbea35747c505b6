import { mediaSchema, type Media } from '@/services/schemas/media';
import { apiPatchJson, apiPostJson } from '@/services/http';

/**
 * A queue the person controls (issue 21 item 2): their own jobs that have not started are held,
 * resumed, run next or edited. Each call answers the job as it now is (with `held` and its
 * `queue_position`); 409 once the job has started or ended, 404 for anyone else's.
 */

export interface QueueCallOptions {
  signal?: AbortSignal;
}

/** What a waiting job's edit may change: its prompt and its tool's params (the model, the aspect ratio). */
export interface QueuedJobEdit {
  prompt?: string;
  option?: string;
  aspect_ratio?: string;
  voice?: string;
  /** Seconds of audio (sound effects, music), sent as a number. */
  duration?: number;
}

export type QueueControl = 'hold' | 'resume' | 'run-next';

const path = (id: string, control: QueueControl): string => `media/${encodeURIComponent(id)}/${control}`;

/** POST media/{id}/hold, resume or run-next. */
export const controlQueuedJob = (id: string, control: QueueControl, options: QueueCallOptions = {}): Promise<Media> =>
  apiPostJson(path(id, control), {}, mediaSchema, { signal: options.signal });

/**
 * PATCH media/{id}: the waiting job changed, re-quoted, the difference debited or refunded. A
 * paying call: `idempotencyKey` is one per intent, the same on every retry.
 */
export const editQueuedJob = (id: string, edit: QueuedJobEdit, idempotencyKey: string, options: QueueCallOptions = {}): Promise<Media> =>
  apiPatchJson(`media/${encodeURIComponent(id)}`, edit, mediaSchema, { signal: options.signal, idempotencyKey });
