import type { MediaKind } from '../../../src/config/enums.ts';
import { findMediaFile, findMediaFileByRelPath, type MediaFileRow } from '../db/files.ts';
import { parseFileLink, parseMediaPathLink } from '../jobs/file-signing.ts';
import { HttpError } from './http.ts';
import type { MediaRouteDeps } from './media-deps.ts';
import { DETAILS } from './messages.ts';
import type { AuthUser } from './user-auth.ts';

export interface ResolveOptions {
  /** Refuse files that are not pictures (generation inputs). */
  picturesOnly: boolean;
  /** true: a link that is not a Kinora file is a 400; false: it is answered with null. */
  required: boolean;
}

export interface ResolveMediaOptions {
  /** The media kind the field takes: a file of another kind is a 400 naming the field. */
  kind: MediaKind;
  /** true: a link that is not a Kinora file is a 400; false: it is answered with null. */
  required: boolean;
}

/** Whether a stored file's (checked) content type is of this media kind. */
export const isFileOfKind = (file: Pick<MediaFileRow, 'content_type'>, kind: MediaKind): boolean =>
  file.content_type.startsWith(`${kind}/`);

/**
 * The stored file a link names, whatever its kind. Only this server's file links count (a file's
 * `/api/files/{fileId}` link, or a path below a media's signed base_url), and only for the file's
 * owner or with a signature this server made (a link someone shared): nobody can feed another
 * user's file to a job by guessing its id.
 */
async function resolveFileLink(
  deps: Pick<MediaRouteDeps, 'db' | 'signer'>,
  user: AuthUser,
  link: string,
  field: string,
  required: boolean,
): Promise<MediaFileRow | null> {
  const refuse = (): null => {
    if (required) throw new HttpError(400, DETAILS.notAKinoraFile(field));
    return null;
  };
  const byPath = parseMediaPathLink(link.trim());
  if (byPath) {
    const file = await findMediaFileByRelPath(deps.db, byPath.mediaId, byPath.relPath);
    if (!file) return refuse();
    const allowed = file.user_sub === user.sub || deps.signer.verifyMediaBase(byPath.mediaId, byPath.expires, byPath.signature);
    return allowed ? file : refuse();
  }
  const parsed = parseFileLink(link.trim());
  if (!parsed) return refuse();
  const file = await findMediaFile(deps.db, parsed.fileId);
  if (!file) return refuse();
  const allowed = file.user_sub === user.sub || deps.signer.verify(file.id, parsed.expires, parsed.signature);
  if (!allowed) return refuse();
  return file;
}

/** The stored picture (or, with picturesOnly false, any file) a link names; see resolveFileLink. */
export async function resolvePictureLink(
  deps: Pick<MediaRouteDeps, 'db' | 'signer'>,
  user: AuthUser,
  link: string,
  field: string,
  options: ResolveOptions,
): Promise<MediaFileRow | null> {
  const file = await resolveFileLink(deps, user, link, field, options.required);
  if (file && options.picturesOnly && !isFileOfKind(file, 'image')) throw new HttpError(400, DETAILS.notAPicture(field));
  return file;
}

/**
 * The stored file a link names, which must be of `kind` (a video field names a video file, an
 * audio field an audio file). A video upload's link names its original; so does a video job's
 * result link (its MP4), which is what Extend Video and the video tools take.
 */
export async function resolveMediaLink(
  deps: Pick<MediaRouteDeps, 'db' | 'signer'>,
  user: AuthUser,
  link: string,
  field: string,
  options: ResolveMediaOptions,
): Promise<MediaFileRow | null> {
  const file = await resolveFileLink(deps, user, link, field, options.required);
  if (file && !isFileOfKind(file, options.kind)) throw new HttpError(400, DETAILS.notOfKind(field, options.kind));
  return file;
}
