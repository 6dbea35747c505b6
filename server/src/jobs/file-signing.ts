import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed, expiring file links (ARCHITECTURE.md §4): `/api/files/{fileId}?expires={unixSeconds}&signature={hex}`,
 * the signature an HMAC-SHA256 of the file id and the expiry under the server's secret. Anyone
 * holding a link can fetch the file until it expires; nobody can make one for another file.
 */

/** SPEC §7 get-url links (and every URL in a media answer) last one hour. */
export const FILE_LINK_TTL_SECONDS = 60 * 60;

export const FILES_PATH = '/api/files/';

export interface FileSigner {
  /** An absolute link to the file, valid for FILE_LINK_TTL_SECONDS from `now`. */
  sign(origin: string, fileId: string, now?: number): { url: string; expiresAt: Date };
  /** Whether `signature` is this server's for the file and expiry and the expiry has not passed. */
  verify(fileId: string, expires: string | undefined, signature: string | undefined, now?: number): boolean;
}

export function createFileSigner(secret: string): FileSigner {
  const digest = (fileId: string, expires: string): Buffer =>
    createHmac('sha256', secret).update(`${fileId}\n${expires}`).digest();

  // Whether the signature is this server's, expired or not.
  const isGenuine = (fileId: string, expires: string | undefined, signature: string | undefined): boolean => {
    if (!expires || !signature || !/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/i.test(signature)) return false;
    return timingSafeEqual(digest(fileId, expires), Buffer.from(signature, 'hex'));
  };

  return {
    sign(origin, fileId, now = Date.now()) {
      // Rounded up to the next minute: links made within one minute are identical, so the
      // browser's cache keeps working across polls.
      const expires = Math.ceil((now / 1000 + FILE_LINK_TTL_SECONDS) / 60) * 60;
      const signature = digest(fileId, String(expires)).toString('hex');
      return {
        url: `${origin}${FILES_PATH}${encodeURIComponent(fileId)}?expires=${expires}&signature=${signature}`,
        expiresAt: new Date(expires * 1000),
      };
    },
    verify(fileId, expires, signature, now = Date.now()) {
      return isGenuine(fileId, expires, signature) && Number(expires) * 1000 > now;
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
