import type { MediaKind } from '@/config/enums';
import { UPLOAD_ENDPOINTS } from '@/config/generation-tools';
import {
  deletedSchema,
  fileUrlSchema,
  mediaListSchema,
  mediaSchema,
  processingStatusSchema,
} from '@/services/schemas/media';
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

/** GET media/{id}/processing-status, without user auth (SPEC §6): status, progress and item statuses. */
export const getProcessingStatus = (id: string, options: CallOptions = {}): Promise<ProcessingStatus> =>
  apiGet(`${mediaPath(id)}/processing-status`, processingStatusSchema, { auth: 'none', signal: options.signal });

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
