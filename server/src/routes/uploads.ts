import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MEDIA_KINDS, type MediaKind } from '../../../src/config/enums.ts';
import { UPLOAD_ENDPOINTS } from '../../../src/config/generation-tools.ts';
import { MESSAGES } from '../../../src/config/messages.ts';
import { UPLOAD_RULES } from '../../../src/config/limits.ts';
import { userFileUploadSchema, type UploadedUserFile } from '../../../src/services/schemas/users.ts';
import type { Media } from '../../../src/services/schemas/media.ts';
import { insertMedia, newPublicId, successStatusFor } from '../db/media.ts';
import type { FileToStore } from '../jobs/media-store.ts';
import { storedFileName } from '../lib/stored-file-name.ts';
import { checkUpload } from '../render/uploads.ts';
import { HttpError, ok, parseInput } from './http.ts';
import { mediaAnswer } from './media-answer.ts';
import { requestOrigin, type MediaRouteDeps } from './media-deps.ts';
import { DETAILS } from './messages.ts';
import { requireOwnAssetId } from '../db/assets.ts';
import { readMultipart, type FileFieldRule } from './multipart-body.ts';
import type { AuthUser } from './user-auth.ts';

const KIND_PLURALS: Readonly<Record<MediaKind, string>> = { image: 'images', video: 'videos', audio: 'audio files' };

/** SPEC §5 limit of the kind, as a 413 with the limit in words. */
export const fileTooLarge = (kind: MediaKind): HttpError =>
  new HttpError(413, DETAILS.fileTooLarge(KIND_PLURALS[kind], UPLOAD_RULES[kind].maxBytes / 1_000_000));

/** A multipart file field of this kind, with the kind's SPEC §5 limit. */
export const uploadRule = (kind: MediaKind): FileFieldRule => ({ maxBytes: UPLOAD_RULES[kind].maxBytes, tooLarge: () => fileTooLarge(kind) });

/**
 * users/me/file sends the file as base64 in JSON: the body may be a third larger than the file,
 * plus the data-URL prefix and the other fields.
 */
const USER_FILE_BODY_LIMIT = Math.ceil((Math.max(...MEDIA_KINDS.map((kind) => UPLOAD_RULES[kind].maxBytes)) * 4) / 3) + 64 * 1024;

interface IncomingFile {
  fileName: string;
  declaredType: string;
  data: Buffer;
}

/** The file of a data: URL or of plain base64; null when it is neither. */
function decodeBlob(blob: string): Buffer | null {
  const match = /^data:[^,]*?;base64,(.*)$/s.exec(blob);
  const base64 = (match ? match[1] ?? '' : blob).replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(base64)) return null;
  return Buffer.from(base64, 'base64');
}

/**
 * POST image / audio / video and POST users/me/file: the upload is checked again on the server (size
 * per SPEC §5, the type by its bytes, not its name), stored under a safe name, and kept as a media
 * item of its kind (tool `upload-*`) whose first item links to a browser-displayable copy.
 */
export async function uploadRoutes(app: FastifyInstance, deps: MediaRouteDeps): Promise<void> {
  const { db, auth, engine, signer } = deps;

  async function storeUpload(
    request: FastifyRequest,
    user: AuthUser,
    kind: MediaKind,
    incoming: IncomingFile,
    assetId: string | null,
  ): Promise<Media> {
    if (incoming.data.length > UPLOAD_RULES[kind].maxBytes) throw fileTooLarge(kind);
    const name = storedFileName(incoming.fileName || `upload.${kind}`);
    const check = await checkUpload(kind, incoming.data, name, incoming.declaredType);
    if (!check.ok) throw new HttpError(check.status, check.status === 413 ? check.reason : DETAILS.fileTypeRefused(kind, check.reason));
    const files: FileToStore[] = [
      {
        role: 'original',
        name,
        contentType: check.contentType,
        data: incoming.data,
        width: check.width ?? null,
        height: check.height ?? null,
        durationSeconds: check.durationSeconds ?? null,
      },
    ];
    if (check.display) {
      files.push({
        role: 'display',
        name: check.display.name,
        contentType: check.display.contentType,
        data: check.display.data,
        width: check.width ?? null,
        height: check.height ?? null,
      });
    }
    if (check.thumbnail) {
      files.push({ role: 'thumbnail', name: check.thumbnail.name, contentType: check.thumbnail.contentType, data: check.thumbnail.data });
    }
    const id = newPublicId();
    try {
      const rows = await engine.store.write(id, user.sub, files);
      const shown = rows.find((row) => row.role === 'display') ?? rows.find((row) => row.role === 'original');
      const thumbnail = rows.find((row) => row.role === 'thumbnail');
      const media = await db.transaction(async (tx) => {
        const inserted = await insertMedia(tx, {
          id,
          userSub: user.sub,
          kind,
          tool: UPLOAD_ENDPOINTS[kind].tool,
          endpoint: UPLOAD_ENDPOINTS[kind].endpoint,
          status: successStatusFor(kind),
          progress: 100,
          args: { file_name: name },
          items: [{ status: 'success', file_id: shown?.id ?? null, thumbnail_file_id: thumbnail?.id ?? null }],
          assetId,
          logoVariant: user.row.logo_variant,
          finished: true,
        });
        await engine.store.insertRows(tx, rows);
        return inserted;
      });
      return await mediaAnswer(db, media, { origin: requestOrigin(request), signer });
    } catch (error) {
      await engine.store.removeMedia(id);
      throw error;
    }
  }

  for (const kind of MEDIA_KINDS) {
    const { endpoint, field } = UPLOAD_ENDPOINTS[kind];
    app.post<{ Querystring: { asset_id?: string } }>(`/${endpoint}`, async (request): Promise<{ data: Media }> => {
      const user = await auth.requireUser(request);
      // A wrong asset is refused before the file is read.
      const assetId = await requireOwnAssetId(db, user.sub, request.query.asset_id);
      // Only this kind's field: a file under any other name is refused before it is read.
      const body = await readMultipart(request, { files: { [field]: uploadRule(kind) } });
      const file = body.files[0];
      if (!file || file.data.length === 0) throw new HttpError(400, MESSAGES.noUploadFile);
      const incoming = { fileName: file.fileName, declaredType: file.mimeType, data: file.data };
      return ok(await storeUpload(request, user, kind, incoming, assetId));
    });
  }

  // The caller is known before the body (up to ~135 MB of JSON) is read: an anonymous call is
  // refused at once instead of after the server has received and parsed all of it.
  const fileSenders = new WeakMap<FastifyRequest, AuthUser>();
  app.post<{ Querystring: { asset_id?: string } }>(
    '/users/me/file',
    {
      bodyLimit: USER_FILE_BODY_LIMIT,
      onRequest: async (request) => {
        fileSenders.set(request, await auth.requireUser(request));
      },
    },
    async (request): Promise<{ data: UploadedUserFile & { media_id: string; file_id: string | null } }> => {
      const user = fileSenders.get(request) ?? (await auth.requireUser(request));
      const upload = parseInput(userFileUploadSchema, request.body);
      const kind = upload.type as MediaKind;
      if (!MEDIA_KINDS.includes(kind)) throw new HttpError(400, `type must be one of ${MEDIA_KINDS.join(', ')}.`);
      const data = decodeBlob(upload.blob);
      if (!data) throw new HttpError(400, 'blob must be the file as base64 or a data: URL.');
      if (data.length === 0) throw new HttpError(400, MESSAGES.noUploadFile);
      const incoming = { fileName: upload.filename, declaredType: upload.content_type, data };
      const media = await storeUpload(request, user, kind, incoming, await requireOwnAssetId(db, user.sub, request.query.asset_id));
      const item = media.items[0];
      return ok({ url: item?.url ?? '', media_id: media.id, file_id: item?.file_id ?? null });
    },
  );
}
