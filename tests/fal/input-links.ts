/**
 * The links in a fal input and what fetching them gave. fal downloads every file it is sent by
 * URL before the model runs, so Kinora must hand it links that work from outside: short-lived
 * signed `http(s)` links to its own files, or `data:` URIs, never a path on its disk.
 */

/** What became of one link of a request's input. */
export type InputFetch =
  | { requestId: string; field: string; kind: 'http'; url: string; status: number; bytes: number; contentType: string | null }
  | { requestId: string; field: string; kind: 'http'; url: string; status: 0; bytes: 0; error: string }
  | { requestId: string; field: string; kind: 'data'; url: string; bytes: number; contentType: string }
  | { requestId: string; field: string; kind: 'violation'; url: string; reason: string };

export interface InputLink {
  /** Where it sits in the input: `image_url`, `image_urls[1]`, `loras[0].path`. */
  field: string;
  value: string;
  /** Whether the key names a link (`*_url`, `*_urls`), so any value there must be one. */
  linkField: boolean;
}

const HTTP = /^https?:\/\//i;
const DATA = /^data:/i;
const LINK_KEY = /(^|_)urls?$/i;
/** A value that names a file on some disk: `file:` URLs, absolute POSIX or Windows paths, `./x`, `../x`. */
const DISK_PATH = /^(file:|\/(?!\/)\S*\/\S|[a-z]:[\\/]|\.{1,2}[\\/])/i;
/** How much of a data URI a record keeps. */
const DATA_PREVIEW = 48;

/** Every string in the input that is, or should be, a link. */
export function linksIn(input: unknown, field = '', linkField = false): InputLink[] {
  if (typeof input === 'string') {
    if (linkField || HTTP.test(input) || DATA.test(input) || DISK_PATH.test(input)) return [{ field, value: input, linkField }];
    return [];
  }
  if (Array.isArray(input)) return input.flatMap((item, index) => linksIn(item, `${field}[${index}]`, linkField));
  if (input && typeof input === 'object') {
    return Object.entries(input).flatMap(([key, value]) => linksIn(value, field === '' ? key : `${field}.${key}`, LINK_KEY.test(key)));
  }
  return [];
}

function dataUriBytes(uri: string): { bytes: number; contentType: string } {
  const comma = uri.indexOf(',');
  const meta = uri.slice(5, comma < 0 ? undefined : comma);
  const payload = comma < 0 ? '' : uri.slice(comma + 1);
  const base64 = /;base64$/i.test(meta);
  const bytes = base64 ? Buffer.from(payload, 'base64').length : Buffer.byteLength(decodeURIComponent(payload));
  return { bytes, contentType: meta.replace(/;base64$/i, '') || 'text/plain' };
}

/** Fetches (or reads, or refuses) one link, as fal's file download would. */
export async function fetchLink(requestId: string, link: InputLink, timeoutMs: number): Promise<InputFetch> {
  const { field, value } = link;
  if (HTTP.test(value)) {
    try {
      const response = await fetch(value, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
      const body = Buffer.from(await response.arrayBuffer());
      return { requestId, field, kind: 'http', url: value, status: response.status, bytes: body.length, contentType: response.headers.get('content-type') };
    } catch (error) {
      return { requestId, field, kind: 'http', url: value, status: 0, bytes: 0, error: error instanceof Error ? error.message : String(error) };
    }
  }
  if (DATA.test(value)) return { requestId, field, kind: 'data', url: value.slice(0, DATA_PREVIEW), ...dataUriBytes(value) };
  const reason = DISK_PATH.test(value) ? 'a path on a disk, which fal cannot reach' : 'not an http(s) link or a data URI';
  return { requestId, field, kind: 'violation', url: value, reason };
}

/** Whether fal could have used the file: a 2xx download or a data URI. */
export const fetchWorked = (fetched: InputFetch): boolean =>
  fetched.kind === 'data' || (fetched.kind === 'http' && fetched.status >= 200 && fetched.status < 300);
