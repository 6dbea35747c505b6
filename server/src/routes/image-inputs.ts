import { findMediaFile, type MediaFileRow } from '../db/files.ts';
import { parseFileLink } from '../jobs/file-signing.ts';
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

/**
 * The stored file a picture link names. Only this server's `/api/files/{fileId}` links count, and
 * only for the file's owner or with a signature this server made (a link someone shared): nobody
 * can feed another user's file to a job by guessing its id.
 */
export async function resolvePictureLink(
  deps: Pick<MediaRouteDeps, 'db' | 'signer'>,
  user: AuthUser,
  link: string,
  field: string,
  options: ResolveOptions,
): Promise<MediaFileRow | null> {
  const refuse = (): null => {
    if (options.required) throw new HttpError(400, DETAILS.notAKinoraFile(field));
    return null;
  };
  const parsed = parseFileLink(link.trim());
  if (!parsed) return refuse();
  const file = await findMediaFile(deps.db, parsed.fileId);
  if (!file) return refuse();
  const allowed = file.user_sub === user.sub || deps.signer.verify(file.id, parsed.expires, parsed.signature);
  if (!allowed) return refuse();
  if (options.picturesOnly && !file.content_type.startsWith('image/')) throw new HttpError(400, DETAILS.notAPicture(field));
  return file;
}
