import type { Queryable } from '../db/database.ts';
import { insertMediaFile, type FileRole, type MediaFileRow } from '../db/files.ts';
import { newPublicId } from '../db/media.ts';
import { storedFileName } from '../lib/stored-file-name.ts';
import { createLocalFolder } from '../storage/local-folder.ts';
import type { ObjectStore } from '../storage/object-store.ts';

/** A file about to be stored for a media item. */
export interface FileToStore {
  role: FileRole;
  name: string;
  contentType: string;
  data: Buffer;
  width?: number | null;
  height?: number | null;
  durationSeconds?: number | null;
  /** SPEC §3 path below the media's base_url (`batch/1/HorizontalArc/video.mp4`), for version "3" results. */
  relPath?: string | null;
}

/**
 * The media files (ARCHITECTURE.md §4: under `.local/media`, or in an S3 bucket, §4b): one folder
 * per media item, keys `${mediaId}/${fileId}-${name}` (the rows' `path`) in the object store.
 * Files are written before their rows are committed and removed after their rows are gone, so a
 * crash in between leaves at most an orphan folder, which sweepOrphans removes.
 */
export interface MediaStore {
  /** Where the files are kept (the local folder or a bucket); the file routes read through it. */
  readonly objects: ObjectStore;
  /** Stores the files; the rows are for `insertRows` in the transaction that commits them. */
  write(mediaId: string, userSub: string, files: readonly FileToStore[]): Promise<MediaFileRow[]>;
  insertRows(tx: Queryable, rows: readonly MediaFileRow[]): Promise<void>;
  /** A file on this machine with the stored file's bytes, for the renderers and probes that read a path. */
  localPath(file: Pick<MediaFileRow, 'path'>): Promise<string>;
  /** Removes files whose rows were never committed. */
  removeFiles(rows: readonly Pick<MediaFileRow, 'path'>[]): Promise<void>;
  /** Removes a media item's folder (its rows are gone or were never committed). */
  removeMedia(mediaId: string): Promise<void>;
  /**
   * Removes folders whose media item no longer exists (guest clean-up, crashes); answers how many.
   * Folders changed within `minAgeMs` are left alone: an upload writes its files before its row.
   */
  sweepOrphans(db: Queryable, minAgeMs?: number): Promise<number>;
}

const ORPHAN_MIN_AGE_MS = 10 * 60 * 1000;
const MEDIA_ID = /^[A-Za-z0-9_-]{8,64}$/;

/** The media files in `storage`: an object store, or a folder path for the local folder there. */
export function createMediaStore(storage: ObjectStore | string): MediaStore {
  const objects = typeof storage === 'string' ? createLocalFolder(storage) : storage;
  const checked = (mediaId: string): string => {
    if (!MEDIA_ID.test(mediaId)) throw new Error(`not a media id: ${mediaId}`);
    return mediaId;
  };

  return {
    objects,
    async write(mediaId, userSub, files) {
      checked(mediaId);
      const rows: MediaFileRow[] = [];
      for (const file of files) {
        const id = newPublicId();
        const name = storedFileName(file.name);
        const relative = `${mediaId}/${id}-${name}`;
        await objects.put(relative, file.data, file.contentType);
        rows.push({
          id,
          media_id: mediaId,
          user_sub: userSub,
          role: file.role,
          name,
          content_type: file.contentType,
          bytes: file.data.length,
          path: relative,
          width: file.width ?? null,
          height: file.height ?? null,
          duration_seconds: file.durationSeconds ?? null,
          rel_path: file.relPath ?? null,
        });
      }
      return rows;
    },
    async insertRows(tx, rows) {
      for (const row of rows) await insertMediaFile(tx, row);
    },
    localPath(file) {
      return objects.localCopy(file.path);
    },
    async removeFiles(rows) {
      await objects.remove(rows.map((row) => row.path));
    },
    async removeMedia(mediaId) {
      await objects.removeFolder(checked(mediaId));
    },
    async sweepOrphans(db, minAgeMs = ORPHAN_MIN_AGE_MS) {
      const candidates = (await objects.listFolders()).filter((name) => MEDIA_ID.test(name));
      if (candidates.length === 0) return 0;
      const { rows } = await db.query<{ id: string }>('SELECT id FROM media WHERE id = ANY($1::text[])', [candidates]);
      const live = new Set(rows.map((row) => row.id));
      const orphans: string[] = [];
      for (const name of candidates.filter((candidate) => !live.has(candidate))) {
        const changed = (await objects.folderChangedAt(name)) ?? 0;
        if (Date.now() - changed >= minAgeMs) orphans.push(name);
      }
      for (const name of orphans) await objects.removeFolder(name);
      return orphans.length;
    },
  };
}
