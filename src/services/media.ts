import type { MediaKind } from '@/config/enums';
import { UPLOAD_ENDPOINTS } from '@/config/generation-tools';
import {
  deletedSchema,
  fileUrlSchema,
  mediaListSchema,
  mediaSchema,
  processingStatusBatchSchema,
  processingStatusSchema,
} from '@/services/schemas/media';
import { STATUS_BATCH_MAX_IDS } from '@/config/limits';
import { JOB_TEXTS } from '@/config/job-texts';
import { ApiError, statusOf } from '@/services/api-error';
import type { FileUrl, Media, ProcessingStatus } from '@/services/schemas/media';
import type { ShareRequest } from '@/services/schemas/content';
import { apiDelete, apiGet, apiPostMultipart, apiPutJson, apiPutMultipart, uploadFraction } from '@/services/http';
import type { MultipartFields } from '@/services/http';

/** Options every media fetcher takes: a signal so a machine leaving its state stops the request. */
export interface CallOptions {
  signal?: AbortSignal;
}

export interface UploadOptions extends CallOptions {
  /** Called with the fraction sent so far, 0…1. */
  onProgress?: (fraction: number) => void;
}

export interface ListMediaQuery {
  /** A tool slug (`text-to-image`, …); absent → every tool. */
  tool?: string;
  /** At most 50 (the server's cap). */
  limit?: number;
}

const mediaPath = (id: string): string => `media/${encodeURIComponent(id)}`;

/** GET media/{id}?fields=a,b (owner only). `fields` limits the top-level keys; id always comes back. */
export const getMedia = (id: string, fields?: readonly string[], options: CallOptions = {}): Promise<Media> =>
  apiGet(mediaPath(id), mediaSchema, {
    query: fields && fields.length > 0 ? { fields: fields.join(',') } : undefined,
    signal: options.signal,
  });

interface PollWaiter {
  resolve(status: ProcessingStatus): void;
  reject(error: unknown): void;
  signal?: AbortSignal;
}

/** Polls asked for in the code now running, sent together once it is done (a microtask). */
let waitingPolls = new Map<string, PollWaiter[]>();
let pollsQueued = false;

const abortedPoll = (): ApiError => new ApiError('The poll was stopped.', { kind: 'network' });

/** One request for `ids`: SPEC's own call for one job, Kinora's batched call for several. */
async function statusesOf(ids: readonly string[], signal: AbortSignal): Promise<Map<string, ProcessingStatus>> {
  if (ids.length === 1) {
    const status = await apiGet(`${mediaPath(ids[0]!)}/processing-status`, processingStatusSchema, { auth: 'none', signal });
    return new Map([[ids[0]!, status]]);
  }
  const answer = await apiGet('media/processing-status', processingStatusBatchSchema, { auth: 'none', query: { ids: ids.join(',') }, signal });
  return new Map(answer.items.map((status) => [status.id, status]));
}

const stillWanted = (waiter: PollWaiter): boolean => !waiter.signal?.aborted;

function sendPolls(allIds: readonly string[], polls: Map<string, PollWaiter[]>): void {
  // A poll stopped before it was sent is not asked for (it was rejected as it stopped).
  const ids = allIds.filter((id) => polls.get(id)?.some(stillWanted));
  if (ids.length === 0) return;
  const waiters = ids.flatMap((id) => polls.get(id) ?? []);
  // The request stops only when every poll it carries has been stopped.
  const controller = new AbortController();
  const stopWhenNoneWanted = () => {
    if (!waiters.some(stillWanted)) controller.abort();
  };
  for (const waiter of waiters) waiter.signal?.addEventListener('abort', stopWhenNoneWanted, { once: true });
  statusesOf(ids, controller.signal).then(
    (byId) => {
      for (const id of ids) {
        const status = byId.get(id);
        for (const waiter of polls.get(id) ?? []) {
          if (status) waiter.resolve(status);
          // Left out of a batched answer: unknown to the server, as the single call's 404 says.
          else waiter.reject(new ApiError(JOB_TEXTS.notFound, { kind: 'http', status: 404 }));
        }
      }
    },
    (error: unknown) => {
      for (const waiter of waiters) waiter.reject(error);
    },
  );
}

function sendWaitingPolls(): void {
  pollsQueued = false;
  const polls = waitingPolls;
  waitingPolls = new Map();
  const ids = [...polls.keys()];
  for (let start = 0; start < ids.length; start += STATUS_BATCH_MAX_IDS) sendPolls(ids.slice(start, start + STATUS_BATCH_MAX_IDS), polls);
}

/**
 * GET media/{id}/processing-status, without user auth (SPEC §6): status, progress and item
 * statuses. Polls that start in the same moment — every job of a page shown again — go as one
 * request (Kinora's GET media/processing-status?ids=…, at most STATUS_BATCH_MAX_IDS ids each), not
 * one each; a poll alone goes as SPEC's call.
 */
export const getProcessingStatus = (id: string, options: CallOptions = {}): Promise<ProcessingStatus> =>
  new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(abortedPoll());
      return;
    }
    const waiter: PollWaiter = { resolve, reject, signal: options.signal };
    // A stopped poll fails at once (an answer that comes later is ignored: the promise is settled).
    options.signal?.addEventListener('abort', () => reject(abortedPoll()), { once: true });
    const waiters = waitingPolls.get(id);
    if (waiters) waiters.push(waiter);
    else waitingPolls.set(id, [waiter]);
    if (pollsQueued) return;
    pollsQueued = true;
    queueMicrotask(sendWaitingPolls);
  });

/**
 * Several jobs' processing-status at once (the History page's live rows): the polls go out
 * together, so they are one request (GET media/processing-status?ids=…, at most
 * STATUS_BATCH_MAX_IDS ids each; SPEC's own call for one job). A job the server no longer knows
 * (deleted meanwhile) is left out; any other failure fails the whole read.
 */
export async function getProcessingStatuses(ids: readonly string[], options: CallOptions = {}): Promise<ProcessingStatus[]> {
  const answers = await Promise.allSettled(ids.map((id) => getProcessingStatus(id, options)));
  const failure = answers.find((answer) => answer.status === 'rejected' && statusOf(answer.reason) !== 404);
  if (failure?.status === 'rejected') throw failure.reason;
  return answers.flatMap((answer) => (answer.status === 'fulfilled' ? [answer.value] : []));
}

/** GET media?tool=&limit= (Kinora's): the caller's own media, newest first. */
export const listMedia = async (query: ListMediaQuery = {}, options: CallOptions = {}): Promise<Media[]> =>
  (await apiGet('media', mediaListSchema, { query: { tool: query.tool, limit: query.limit }, signal: options.signal }))
    .items;

/** PUT media/{id}/cancel with {}: a live job is cancelled (and refunded); an ended one answers 409. */
export const cancelMedia = (id: string, options: CallOptions = {}): Promise<Media> =>
  apiPutJson(`${mediaPath(id)}/cancel`, {}, mediaSchema, { signal: options.signal });

/** DELETE media/{id}: cancels a live job first, then removes it and its files. */
export const deleteMedia = (id: string): Promise<{ id: string; deleted: true }> =>
  apiDelete(mediaPath(id), deletedSchema);

/** GET media/{id}/file/{fileId}/get-url: a signed URL to the file, valid for an hour. */
export const getFileUrl = (id: string, fileId: string): Promise<FileUrl> =>
  apiGet(`${mediaPath(id)}/file/${encodeURIComponent(fileId)}/get-url`, fileUrlSchema);

/** POST media, multipart image_urls[] + fields: a media record without a job. */
export const createMedia = (fields: MultipartFields): Promise<Media> => apiPostMultipart('media', fields, mediaSchema);

/** PUT media/{id}/edit, multipart image_urls[] + fields: merged into the record's args. */
export const editMedia = (id: string, fields: MultipartFields): Promise<Media> =>
  apiPutMultipart(`${mediaPath(id)}/edit`, fields, mediaSchema);

/** GET media/{id}/view, without user auth: the public view of a shared or guest media. */
export const viewMedia = (id: string): Promise<Media> => apiGet(`${mediaPath(id)}/view`, mediaSchema, { auth: 'none' });

/** PUT media/{id}/post-bullet-video, JSON {batch_video_path}. */
export const postBulletVideo = (id: string, batchVideoPath: string): Promise<Media> =>
  apiPutJson(`${mediaPath(id)}/post-bullet-video`, { batch_video_path: batchVideoPath }, mediaSchema);

/**
 * SPEC §7 `POST image` / `POST audio` / `POST video`: the file as its kind's multipart field. The
 * server answers with a media of that kind whose first item holds the file's signed URL.
 */
export const uploadMediaFile = (kind: MediaKind, file: Blob, options: UploadOptions = {}): Promise<Media> => {
  const { endpoint, field } = UPLOAD_ENDPOINTS[kind];
  const { onProgress } = options;
  return apiPostMultipart(endpoint, { [field]: file }, mediaSchema, {
    signal: options.signal,
    onUploadProgress: onProgress
      ? (event) => {
          const fraction = uploadFraction(event);
          if (fraction !== null) onProgress(fraction);
        }
      : undefined,
  });
};

/** PUT media/{id}/share (Kinora's; SPEC §2.8 sharing form): title, description and visibility. */
export const shareMedia = (id: string, body: ShareRequest): Promise<Media> =>
  apiPutJson(`${mediaPath(id)}/share`, body, mediaSchema);
