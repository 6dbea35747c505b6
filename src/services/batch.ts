import type { BatchType } from '@/config/batch';
import { apiDelete, apiGet, apiPostMultipart, apiPutMultipart } from '@/services/http';
import type { MultipartFields } from '@/services/http';
import { getMedia, getProcessingStatus } from '@/services/media';
import type { CallOptions } from '@/services/media';
import { batchDeletedSchema, batchListSchema, batchSchema } from '@/services/schemas/batch';
import type { AdditionalVideo, Batch, ScriptBoard } from '@/services/schemas/batch';
import type { Media, ProcessingStatus } from '@/services/schemas/media';
import { classifyStatus } from '@/lib/job-status';

/**
 * SPEC §7 batch calls (AI batch and parallax batch albums) and Kinora's `GET batch`. Every answer
 * is checked against `batchSchema`; bodies are multipart (arrays as repeated keys, JSON fields as
 * strings, see http.ts).
 */

export interface CreateBatchFields {
  title: string;
  batch_type: BatchType;
  /** The album's pictures (the caller's uploads), 1–12, in order. */
  image_urls: readonly string[];
}

export interface GenerateBatchOptions extends CallOptions {
  /** One per click on "Generate videos"; every retry of it sends the same key. */
  idempotencyKey: string;
}

export interface EditBatchFields {
  image_urls?: readonly string[];
  audio_urls?: readonly string[];
  concat_video_urls?: readonly string[];
  additional_videos?: readonly AdditionalVideo[];
  /** Kinora's: the album's own script board, saved without generating. */
  script_board?: ScriptBoard;
  /** Kinora's: also start the job joining the clips (and extra videos) into one video. */
  concat?: boolean;
}

const batchPath = (id: string): string => `batch/${encodeURIComponent(id)}`;

/**
 * A list field of PUT edit: absent leaves the album's list as it is; an empty list is sent as one
 * blank value, which empties it (a multipart body cannot carry an empty repeated key).
 */
const listValue = (list: readonly string[] | undefined): readonly string[] | string | undefined =>
  list === undefined ? undefined : list.length === 0 ? '' : list;

/** GET batch (Kinora's): the caller's albums, newest first. */
export const listBatches = async (options: CallOptions = {}): Promise<Batch[]> =>
  (await apiGet('batch', batchListSchema, { signal: options.signal })).items;

/** POST batch, multipart image_urls[] + batch_type + title: a new album without a script board. */
export const createBatch = (fields: CreateBatchFields, options: CallOptions = {}): Promise<Batch> =>
  apiPostMultipart('batch', { ...fields }, batchSchema, { signal: options.signal });

/** POST batch/advanced: the same, with the person's own script board. */
export const createAdvancedBatch = (
  fields: CreateBatchFields & { script_board: ScriptBoard },
  options: CallOptions = {},
): Promise<Batch> => apiPostMultipart('batch/advanced', { ...fields }, batchSchema, { signal: options.signal });

/** GET batch/{id}?fields=a,b. */
export const getBatch = (id: string, fields?: readonly string[], options: CallOptions = {}): Promise<Batch> =>
  apiGet(batchPath(id), batchSchema, {
    query: fields && fields.length > 0 ? { fields: fields.join(',') } : undefined,
    signal: options.signal,
  });

/**
 * POST batch/{id}/script-board, multipart image_urls[] (optional: replaces the pictures) + fields
 * (e.g. model, motion_length): the server writes one clip per picture. Free.
 */
export const writeScriptBoard = (id: string, fields: MultipartFields = {}, options: CallOptions = {}): Promise<Batch> =>
  apiPostMultipart(`${batchPath(id)}/script-board`, fields, batchSchema, { signal: options.signal });

/**
 * POST batch/{id}/videos, multipart script_board (JSON) + fields: one video job per clip, paid in
 * one go (402 when short, nothing made). Credit-spending, so it carries the Idempotency-Key.
 */
export const generateBatchVideos = (
  id: string,
  scriptBoard: ScriptBoard,
  options: GenerateBatchOptions,
  fields: MultipartFields = {},
): Promise<Batch> =>
  apiPostMultipart(`${batchPath(id)}/videos`, { ...fields, script_board: scriptBoard }, batchSchema, {
    idempotencyKey: options.idempotencyKey,
    signal: options.signal,
  });

/**
 * PUT batch/{id}/edit, multipart image_urls[], audio_urls[], concat_video_urls[],
 * additional_videos (JSON) + fields; `concat: true` also starts the joining job.
 */
export const editBatch = (id: string, fields: EditBatchFields, options: CallOptions = {}): Promise<Batch> =>
  apiPutMultipart(
    `${batchPath(id)}/edit`,
    {
      image_urls: listValue(fields.image_urls),
      audio_urls: listValue(fields.audio_urls),
      concat_video_urls: listValue(fields.concat_video_urls),
      // Sent even when empty: an empty list removes the extra videos.
      additional_videos: fields.additional_videos ? JSON.stringify(fields.additional_videos) : undefined,
      script_board: fields.script_board,
      concat: fields.concat === undefined ? undefined : String(fields.concat),
    },
    batchSchema,
    { signal: options.signal },
  );

/** DELETE batch/{id}: the album, its clips and its joined video (live jobs cancelled and refunded). */
export const deleteBatch = (id: string, options: CallOptions = {}): Promise<{ id: string; deleted: true }> =>
  apiDelete(batchPath(id), batchDeletedSchema, { signal: options.signal });

/** What one poll learnt of one of an album's jobs (a clip, or the joined video). */
export type BatchJobUpdate =
  | { id: string; kind: 'status'; status: ProcessingStatus }
  | { id: string; kind: 'ended'; media: Media }
  | { id: string; kind: 'error'; error: unknown };

const updateOf = async (id: string, options: CallOptions): Promise<BatchJobUpdate> => {
  try {
    const status = await getProcessingStatus(id, options);
    if (classifyStatus(status.status) === 'processing') return { id, kind: 'status', status };
    // Ended: the full media carries the video's signed URLs, the error and the refund.
    return { id, kind: 'ended', media: await getMedia(id, undefined, options) };
  } catch (error) {
    return { id, kind: 'error', error };
  }
};

/**
 * One poll of an album's running jobs: each one's processing-status (SPEC §7, no auth), and for
 * those that have ended, the full media. One job failing to answer does not hide the others'
 * answers: its update says why.
 */
export const pollBatchJobs = (ids: readonly string[], options: CallOptions = {}): Promise<BatchJobUpdate[]> =>
  Promise.all(ids.map((id) => updateOf(id, options)));
