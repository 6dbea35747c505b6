import type { Readable } from 'node:stream';

/**
 * Where Kinora keeps every stored file (ARCHITECTURE.md §4b "files"): uploads, results,
 * thumbnails, GIFs, and the promo and tutorial clips. Two implementations: the local folder
 * (local-folder.ts, the default) and an S3-compatible bucket (s3-bucket.ts, KINORA_S3_BUCKET).
 *
 * Objects are named by keys of `/`-separated segments, the relative paths the media_files rows
 * already hold (`${mediaId}/${fileId}-${name}`); the first segment is the key's folder (a media
 * item's id, or a cache folder such as `promo.cache`). A key is written once and never changed,
 * which is what makes localCopy's cache safe.
 */
export interface ObjectStore {
  /** What this store is, for logs and errors ("the local folder /data/media", "the S3 bucket kinora"). */
  readonly description: string;
  /** Stores the bytes under `key`; a reader never sees half an object. */
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** The object's size in bytes, or null when there is no such object. */
  size(key: string): Promise<number | null>;
  /**
   * The object's bytes, whole or `start`–`end` (both included, inside the object): the stream the
   * file routes send. Fails when there is no such object.
   */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /**
   * A file on this machine holding the object's bytes, for the renderers and probes that read a
   * path: the stored file itself in the local folder, a cached download for a bucket.
   */
  localCopy(key: string): Promise<string>;
  /** Removes these objects (a missing one is no error). */
  remove(keys: readonly string[]): Promise<void>;
  /** Removes every object of a folder (the first key segment). */
  removeFolder(folder: string): Promise<void>;
  /** The folders (first key segments) that hold objects. */
  listFolders(): Promise<string[]>;
  /** When an object of the folder last changed (ms since the epoch), or null when it holds none. */
  folderChangedAt(folder: string): Promise<number | null>;
  /**
   * A cheap readiness check (the local folder can be written; the bucket answers HeadBucket);
   * throws with the reason when the store cannot be used.
   */
  check(): Promise<void>;
}

/** Bytes `start` to `end`, both included (as in an HTTP Range). */
export interface ByteRange {
  start: number;
  end: number;
}

/** A key's segments must be plain names: no empty, `.` or `..` segment, no backslash or NUL. */
export function checkKey(key: string): string {
  const segments = key.split('/');
  if (key.length === 0 || key.length > 1024 || /[\\\0]/.test(key) || segments.some((segment) => segment === '' || segment === '.' || segment === '..')) {
    throw new Error(`not a storage key: ${JSON.stringify(key)}`);
  }
  return key;
}

/** A folder is one key segment. */
export function checkFolder(folder: string): string {
  if (folder.includes('/')) throw new Error(`not a storage folder: ${JSON.stringify(folder)}`);
  return checkKey(folder);
}
