import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { safeFileName } from '../../../src/lib/safe-file-name.ts';
import { findMediaFile, findMediaFileByRelPath, type MediaFileRow } from '../db/files.ts';
import type { ObjectStore } from '../storage/object-store.ts';
import { HttpError } from './http.ts';
import type { MediaRouteDeps } from './media-deps.ts';
import { DETAILS } from './messages.ts';

/**
 * Types a browser shows without running anything: served inline as stored. Every other stored type
 * (an SVG original, which can carry script; TIFF, HEIC, PSD originals the browser cannot show) is
 * served as a download of plain bytes, never as what it claims to be.
 */
const INLINE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/avif']);
const isInline = (contentType: string): boolean =>
  INLINE_TYPES.has(contentType) || contentType.startsWith('audio/') || contentType.startsWith('video/');

/** `bytes=start-end` / `bytes=start-` / `bytes=-suffix` (one range; audio and video players seek with it). */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'invalid' | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, from = '', to = ''] = match;
  if (from === '' && to === '') return 'invalid';
  let start: number;
  let end: number;
  if (from === '') {
    start = Math.max(0, size - Number(to));
    end = size - 1;
  } else {
    start = Number(from);
    end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  }
  if (start > end || start >= size) return 'invalid';
  return { start, end };
}

/**
 * Sends a stored file. No Authorization: the link's signature is the permission. A displayable
 * file is sent as the type it was stored with, never sniffed; anything else as a download
 * (INLINE_TYPES); and every answer is sandboxed, so an uploaded SVG cannot run script on this origin.
 */
async function sendStoredFile(
  request: FastifyRequest,
  reply: FastifyReply,
  objects: ObjectStore,
  file: MediaFileRow,
  expires: string,
): Promise<FastifyReply> {
  const size = await objects.size(file.path);
  if (size === null) throw new HttpError(404, DETAILS.notFound);
  const maxAge = Math.max(0, Math.floor(Number(expires) - Date.now() / 1000));
  const inline = isInline(file.content_type);
  reply
    .header('Content-Type', inline ? file.content_type : 'application/octet-stream')
    .header('Cache-Control', `private, max-age=${maxAge}`)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Disposition', `${inline ? 'inline' : 'attachment'}; filename="${safeFileName(file.name)}"`)
    .header('Content-Security-Policy', 'sandbox');
  return sendRanged(request, reply, objects, file.path, size);
}

/**
 * Streams a stored object whose headers are set, whole or the one byte range asked for (players
 * seek with it): 206 with Content-Range, 416 for a range outside the file. The range is worked out
 * here from the size, so the local folder and a bucket answer alike; a bucket is asked for just
 * those bytes (GetObject's Range).
 */
async function sendRanged(request: FastifyRequest, reply: FastifyReply, objects: ObjectStore, key: string, size: number): Promise<FastifyReply> {
  reply.header('Accept-Ranges', 'bytes');
  const range = parseRange(request.headers.range, size);
  if (range === 'invalid') {
    return reply.code(416).header('Content-Range', `bytes */${size}`).send();
  }
  if (range) {
    reply
      .code(206)
      .header('Content-Range', `bytes ${range.start}-${range.end}/${size}`)
      .header('Content-Length', range.end - range.start + 1);
    return reply.send(await objects.read(key, range));
  }
  reply.header('Content-Length', size);
  return reply.send(await objects.read(key));
}

/** A public MP4 the server rendered itself (promo videos, tutorials): cached a day, ranged. */
export async function sendPublicVideo(request: FastifyRequest, reply: FastifyReply, objects: ObjectStore, key: string): Promise<FastifyReply> {
  const size = await objects.size(key);
  if (size === null) throw new Error(`the rendered clip ${key} is not stored`);
  reply.type('video/mp4').header('Cache-Control', 'public, max-age=86400').header('X-Content-Type-Options', 'nosniff');
  return sendRanged(request, reply, objects, key, size);
}

/**
 * GET files/{fileId}?expires&signature: a stored file by id (ARCHITECTURE.md §4); and GET
 * files/m/{mediaId}/{expires}/{signature}/{path}: a version "3" media's file by its SPEC §3 path
 * below the media's signed base_url (`batch/1/HorizontalArc/video.mp4`).
 */
export async function fileRoutes(app: FastifyInstance, { db, signer, engine }: MediaRouteDeps): Promise<void> {
  app.get<{ Params: { fileId: string }; Querystring: { expires?: string; signature?: string } }>(
    '/files/:fileId',
    async (request, reply) => {
      const { fileId } = request.params;
      const { expires, signature } = request.query;
      if (!expires || !signer.verify(fileId, expires, signature)) throw new HttpError(403, DETAILS.fileLinkInvalid);
      const file = await findMediaFile(db, fileId);
      if (!file) throw new HttpError(404, DETAILS.notFound);
      return sendStoredFile(request, reply, engine.store.objects, file, expires);
    },
  );

  app.get<{ Params: { mediaId: string; expires: string; signature: string; '*': string } }>(
    '/files/m/:mediaId/:expires/:signature/*',
    async (request, reply) => {
      const { mediaId, expires, signature } = request.params;
      if (!signer.verifyMediaBase(mediaId, expires, signature)) throw new HttpError(403, DETAILS.fileLinkInvalid);
      const file = await findMediaFileByRelPath(db, mediaId, request.params['*']);
      if (!file) throw new HttpError(404, DETAILS.notFound);
      return sendStoredFile(request, reply, engine.store.objects, file, expires);
    },
  );
}
