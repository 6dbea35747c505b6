import type { MediaKind } from '@/config/enums';
import { UPLOAD_RULES } from '@/config/limits';
import { safeFileName } from '@/lib/safe-file-name';

/** The file facts a check needs; a browser File has them all. */
export interface UploadCandidate {
  name: string;
  type: string;
  size: number;
}

export type UploadValidation = { ok: true; safeName: string } | { ok: false; message: string };

/**
 * Extensions SPEC §5 does not list but that a file of an accepted MIME type plausibly has: a JPEG
 * saved as .jpeg, a HEIC photo as .heic. They count only together with that MIME type, or with no type at all.
 */
const PLAUSIBLE_EXTENSIONS: Readonly<Record<string, readonly string[]>> = {
  'image/jpeg': ['.jpeg'],
  'image/heic': ['.heic'],
};

const KIND_NOUN: Readonly<Record<MediaKind, { one: string; many: string }>> = {
  image: { one: 'an accepted image', many: 'images' },
  video: { one: 'an accepted video', many: 'videos' },
  audio: { one: 'an accepted audio file', many: 'audio files' },
};

const BYTES_PER_MB = 1_000_000;

const extensionOf = (name: string): string => {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot).toLowerCase();
};

const mimeMatches = (accepted: string, type: string): boolean => {
  const actual = type.toLowerCase();
  if (accepted.endsWith('/*')) return actual.startsWith(accepted.slice(0, -1));
  return actual === accepted;
};

/** The extensions a kind accepts (SPEC §5's list, then the plausible ones), for messages and file pickers. */
export function acceptedExtensions(kind: MediaKind): string[] {
  const { accept } = UPLOAD_RULES[kind];
  const listed = Object.values(accept).flat();
  const plausible = Object.keys(accept).flatMap((type) => PLAUSIBLE_EXTENSIONS[type] ?? []);
  return [...new Set([...listed, ...plausible])];
}

const isAcceptedType = (kind: MediaKind, file: UploadCandidate): boolean => {
  const extension = extensionOf(file.name);
  if (extension === '') return false;
  const { accept } = UPLOAD_RULES[kind];
  // A listed extension is enough: the browser's MIME type is ignored on purpose (browsers guess it
  // from the name, or leave it empty); the server checks the bytes themselves.
  if (Object.values(accept).some((extensions) => extensions.includes(extension))) return true;
  // A plausible extension needs its own MIME type, or none at all: most browsers give HEIC
  // photos an empty type.
  return Object.keys(accept).some(
    (type) => (file.type === '' || mimeMatches(type, file.type)) && (PLAUSIBLE_EXTENSIONS[type] ?? []).includes(extension),
  );
};

const megabytes = (bytes: number): string => `${Number((bytes / BYTES_PER_MB).toFixed(1))} MB`;

/** A size worded so it visibly exceeds the limit: one decimal, or the exact bytes when that would round down to it. */
const sizeOverLimit = (size: number, limit: number): string =>
  Number((size / BYTES_PER_MB).toFixed(1)) > limit / BYTES_PER_MB
    ? megabytes(size)
    : `${size.toLocaleString('en-US')} bytes`;

/**
 * SPEC §5 upload check, made before a byte is sent: the file's extension must be one the kind lists
 * (in any case), or one plausible for an accepted MIME type (.jpeg for image/jpeg, .heic for
 * image/heic); its size must not exceed the kind's limit (a file of exactly the limit passes).
 * Messages name the file (by its safe name) and the rule it broke.
 */
export function validateUpload(file: UploadCandidate, kind: MediaKind): UploadValidation {
  const safeName = safeFileName(file.name);
  const noun = KIND_NOUN[kind];
  if (!isAcceptedType(kind, file)) {
    return {
      ok: false,
      message: `"${safeName}" is not ${noun.one}. Accepted: ${acceptedExtensions(kind).join(', ')}.`,
    };
  }
  const limit = UPLOAD_RULES[kind].maxBytes;
  if (file.size > limit) {
    return {
      ok: false,
      message: `"${safeName}" is ${sizeOverLimit(file.size, limit)}; ${noun.many} can be at most ${megabytes(limit)}.`,
    };
  }
  if (file.size <= 0) return { ok: false, message: `"${safeName}" is empty.` };
  return { ok: true, safeName };
}
