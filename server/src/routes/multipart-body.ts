import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { FIELD_COUNT_MAX, FIELD_VALUE_MAX_LENGTH } from '../config.ts';
import { HttpError } from './http.ts';
import { checkInputValue } from './input-guard.ts';
import { DETAILS } from './messages.ts';

/** The file part, read into memory (uploads are at most 100 MB, SPEC §5). */
export interface FilePart {
  field: string;
  fileName: string;
  mimeType: string;
  data: Buffer;
}

/** A multipart request: text fields (repeated keys collected in order) and file parts. */
export interface MultipartBody {
  fields: Record<string, string[]>;
  files: FilePart[];
}

/** A file field a call takes, with its size limit. */
export interface FileFieldRule {
  maxBytes: number;
  /** The 413 to answer when the file passes maxBytes. */
  tooLarge: () => HttpError;
}

export interface ReadMultipartOptions {
  /**
   * The file fields this call takes (e.g. `{ image_file: … }`); absent → no file parts at all. At
   * most one file part is read; any other file part is refused with 400 before a byte of it is read.
   */
  files?: Readonly<Record<string, FileFieldRule>>;
  /** Longest text value, in characters (FIELD_VALUE_MAX_LENGTH unless given). */
  maxValueLength?: number;
  /** Most text fields (FIELD_COUNT_MAX unless given). */
  maxFields?: number;
}

/** `image_urls[]` and `image_urls` are one field (SPEC §7: arrays are sent as repeated keys). */
const fieldName = (name: string): string => name.replace(/\[\]$/, '');

const isMultipartError = (error: unknown, code: string): boolean =>
  typeof error === 'object' && error !== null && 'code' in error && error.code === code;

/**
 * Reads the parts of a multipart request. The file is counted while it streams in, so an
 * oversized upload is refused when its byte count passes the limit, not after it was all stored;
 * text values are capped by the parser itself, so a huge value is never held in memory.
 */
export async function readMultipart(request: FastifyRequest, options: ReadMultipartOptions = {}): Promise<MultipartBody> {
  if (!request.isMultipart()) throw new HttpError(400, DETAILS.notMultipart);
  const maxValueLength = options.maxValueLength ?? FIELD_VALUE_MAX_LENGTH;
  const maxFields = options.maxFields ?? FIELD_COUNT_MAX;
  const rules = options.files ?? {};
  // No prototype: a field named like an Object method is just a field.
  const body: MultipartBody = { fields: Object.create(null) as Record<string, string[]>, files: [] };
  const largest = Math.max(0, ...Object.values(rules).map((rule) => rule.maxBytes));
  let reading: FileFieldRule | undefined;
  try {
    // A character is at most 4 bytes of UTF-8: the parser cuts a value above that, and the length
    // check below refuses it.
    const limits = { fieldSize: maxValueLength * 4, fields: maxFields, ...(largest > 0 ? { fileSize: largest + 1 } : {}) };
    const parts = request.parts({ limits });
    for await (const part of parts) {
      const name = fieldName(part.fieldname);
      if (part.type === 'field') {
        const value = typeof part.value === 'string' ? part.value : String(part.value);
        if (part.valueTruncated || value.length > maxValueLength) throw new HttpError(400, DETAILS.fieldTooLong(name, maxValueLength));
        checkInputValue({ [name]: value }, 'The form');
        (body.fields[name] ??= []).push(value);
        continue;
      }
      checkInputValue({ [name]: part.filename }, 'The file name');
      const rule = Object.hasOwn(rules, name) ? rules[name] : undefined;
      if (!rule) throw new HttpError(400, Object.keys(rules).length === 0 ? DETAILS.noFilesHere : DETAILS.unexpectedFile(name, Object.keys(rules)));
      if (body.files.length > 0) throw new HttpError(400, DETAILS.oneFileOnly);
      reading = rule;
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of part.file as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > rule.maxBytes) throw rule.tooLarge();
        chunks.push(chunk);
      }
      reading = undefined;
      body.files.push({ field: name, fileName: part.filename, mimeType: part.mimetype, data: Buffer.concat(chunks, size) });
    }
  } catch (error) {
    // @fastify/multipart's own cap is the same refusal as ours.
    if (isMultipartError(error, 'FST_REQ_FILE_TOO_LARGE') && reading) throw reading.tooLarge();
    if (isMultipartError(error, 'FST_FIELDS_LIMIT')) throw new HttpError(400, DETAILS.tooManyFields(maxFields));
    throw error;
  }
  return body;
}

/** A text field sent at most once (a repeated one is a 400), or undefined. */
export function single(body: MultipartBody, name: string): string | undefined {
  const values = body.fields[name];
  if (!values || values.length === 0) return undefined;
  if (values.length > 1) throw new HttpError(400, DETAILS.sentOnce(name));
  return values[0];
}

/**
 * A digest of everything a request says: route, query, every field value in order and every
 * file's name, type and bytes. Two requests with one Idempotency-Key must agree on it.
 */
export function requestDigest(route: string, query: Record<string, unknown>, body: MultipartBody | unknown): string {
  const hash = createHash('sha256');
  const add = (label: string, value: string | Buffer): void => {
    const bytes = typeof value === 'string' ? Buffer.from(value) : value;
    hash.update(`${label}:${bytes.length}:`);
    hash.update(bytes);
  };
  add('route', route);
  for (const key of Object.keys(query).sort()) add(`query.${key}`, JSON.stringify(query[key]));
  if (isMultipartBody(body)) {
    for (const key of Object.keys(body.fields).sort()) {
      for (const value of body.fields[key] ?? []) add(`field.${key}`, value);
    }
    for (const file of body.files) {
      add('file.field', file.field);
      add('file.name', file.fileName);
      add('file.type', file.mimeType);
      add('file.data', file.data);
    }
  } else {
    add('json', JSON.stringify(body ?? null));
  }
  return hash.digest('hex');
}

function isMultipartBody(value: unknown): value is MultipartBody {
  return typeof value === 'object' && value !== null && 'fields' in value && 'files' in value;
}
