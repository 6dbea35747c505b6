import { safeFileName } from '../../../src/lib/safe-file-name.ts';

/** Longest stored file name: a media folder path stays far below any file system's name limit (255 bytes). */
export const STORED_NAME_MAX_LENGTH = 100;
/** An extension longer than this is not one (a dot inside a long name). */
const EXTENSION_MAX_LENGTH = 16;

/**
 * The name a file is stored and served under: safeFileName (SPEC §5), cut to
 * STORED_NAME_MAX_LENGTH characters keeping the extension, which the type check and the download
 * name rely on. The web app sends names made safe but not shortened.
 */
export function storedFileName(name: string): string {
  const safe = safeFileName(name);
  if (safe.length <= STORED_NAME_MAX_LENGTH) return safe;
  const dot = safe.lastIndexOf('.');
  const extension = dot > 0 && safe.length - dot <= EXTENSION_MAX_LENGTH ? safe.slice(dot) : '';
  return safe.slice(0, STORED_NAME_MAX_LENGTH - extension.length) + extension;
}
