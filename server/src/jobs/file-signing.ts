import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed, expiring file links (ARCHITECTURE.md §4): `/api/files/{fileId}?expires={unixSeconds}&signature={hex}`,
 * the signature an HMAC-SHA256 of the file id and the expiry under the server's secret. Anyone
 * holding a link can fetch the file until it expires; nobody can make one for another file.
 */

/** SPEC §7 get-url links (and every URL in a media answer) last one hour. */
export const FILE_LINK_TTL_SECONDS = 60 * 60;

export const FILES_PATH = '/api/files/';
/**
 * SPEC §3 version "3" media answer a `base_url` under which their files are reached by path:
 * `/api/files/m/{mediaId}/{expires}/{signature}/{relative path}`, the signature an HMAC of
 * `m:{mediaId}` and the expiry (the `m:` keeps it apart from a file id's). The signature is a path
 * segment, not a query, so `${base_url}/batch/1/HorizontalArc/video.mp4` is a working link.
 */
export const MEDIA_FILES_PATH = `${FILES_PATH}m/`;

export interface FileSigner {
  /** An absolute link to the file, valid for FILE_LINK_TTL_SECONDS from `now`. */
  sign(origin: string, fileId: string, now?: number): { url: string; expiresAt: Date };
  /** Whether `signature` is this server's for the file and expiry and the expiry has not passed. */
  verify(fileId: string, expires: string | undefined, signature: string | undefined, now?: number): boolean;
  /** A media item's signed base_url (no trailing slash), valid as long as a file link. */
  signMediaBase(origin: string, mediaId: string, now?: number): { url: string; expiresAt: Date };
  /** Whether the base_url's expiry and signature are this server's for the media and not expired. */
  verifyMediaBase(mediaId: string, expires: string | undefined, signature: string | undefined, now?: number): boolean;
}

export function createFileSigner(secret: string): FileSigner {
  const digest = (subject: string, expires: string): Buffer =>
    createHmac('sha256', secret).update(`${subject}\n${expires}`).digest();

  // Whether the signature is this server's, expired or not.
  const isGenuine = (subject: string, expires: string | undefined, signature: string | undefined): boolean => {
    if (!expires || !signature || !/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/i.test(signature)) return false;
    return timingSafeEqual(digest(subject, expires), Buffer.from(signature, 'hex'));
  };
  const isCurrent = (subject: string, expires: string | undefined, signature: string | undefined, now: number): boolean =>
    isGenuine(subject, expires, signature) && Number(expires) * 1000 > now;

  // Rounded up to the next minute: links made within one minute are identical, so the browser's
  // cache keeps working across polls.
  const expiryFrom = (now: number): number => Math.ceil((now / 1000 + FILE_LINK_TTL_SECONDS) / 60) * 60;
  const mediaSubject = (mediaId: string): string => `m:${mediaId}`;

  return {
    sign(origin, fileId, now = Date.now()) {
      const expires = expiryFrom(now);
      const signature = digest(fileId, String(expires)).toString('hex');
      return {
        url: `${origin}${FILES_PATH}${encodeURIComponent(fileId)}?expires=${expires}&signature=${signature}`,
        expiresAt: new Date(expires * 1000),
      };
    },
    verify(fileId, expires, signature, now = Date.now()) {
      return isCurrent(fileId, expires, signature, now);
    },
    signMediaBase(origin, mediaId, now = Date.now()) {
      const expires = expiryFrom(now);
      const signature = digest(mediaSubject(mediaId), String(expires)).toString('hex');
      return { url: `${origin}${MEDIA_FILES_PATH}${encodeURIComponent(mediaId)}/${expires}/${signature}`, expiresAt: new Date(expires * 1000) };
    },
    verifyMediaBase(mediaId, expires, signature, now = Date.now()) {
      return isCurrent(mediaSubject(mediaId), expires, signature, now);
    },
  };
}

/** The file id and query of a Kinora file link (absolute or path-only), or null for any other URL. */
export function parseFileLink(link: string): { fileId: string; expires?: string; signature?: string } | null {
  let url: URL;
  try {
    url = new URL(link, 'http://kinora.invalid');
  } catch {
    return null;
  }
  if (!url.pathname.startsWith(FILES_PATH)) return null;
  let fileId: string;
  try {
    fileId = decodeURIComponent(url.pathname.slice(FILES_PATH.length));
  } catch {
    // Malformed percent-encoding: not a link this server made.
    return null;
  }
  if (!/^[A-Za-z0-9_-]{8,64}$/.test(fileId)) return null;
  return {
    fileId,
    expires: url.searchParams.get('expires') ?? undefined,
    signature: url.searchParams.get('signature') ?? undefined,
  };
}

/** A link below a media's signed base_url (absolute or path-only): its parts, or null for any other URL. */
export function parseMediaPathLink(link: string): { mediaId: string; expires: string; signature: string; relPath: string } | null {
  let url: URL;
  try {
    url = new URL(link, 'http://kinora.invalid');
  } catch {
    return null;
  }
  if (!url.pathname.startsWith(MEDIA_FILES_PATH)) return null;
  const segments = url.pathname.slice(MEDIA_FILES_PATH.length).split('/');
  const [mediaId = '', expires = '', signature = '', ...rest] = segments;
  let relPath: string;
  try {
    relPath = rest.map((segment) => decodeURIComponent(segment)).join('/');
  } catch {
    return null;
  }
  if (!/^[A-Za-z0-9_-]{8,64}$/.test(mediaId) || relPath === '' || rest.some((segment) => segment === '' || segment === '.' || segment === '..')) {
    return null;
  }
  return { mediaId, expires, signature, relPath };
}
