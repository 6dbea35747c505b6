import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Queryable } from '../db/database.ts';
import { insertMediaFile, type FileRole, type MediaFileRow } from '../db/files.ts';
import { newPublicId } from '../db/media.ts';
import { storedFileName } from '../lib/stored-file-name.ts';

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
 * The media files on disk (ARCHITECTURE.md §4: under `.local/media`): one folder per media item,
 * `${mediaDir}/${mediaId}/${fileId}-${name}`. Files are written before their rows are committed and
 * removed after their rows are gone, so a crash in between leaves at most an orphan folder, which
 * sweepOrphans removes.
 */
export interface MediaStore {
  readonly dir: string;
  /** Writes the files to disk; the rows are for `insertRows` in the transaction that commits them. */
  write(mediaId: string, userSub: string, files: readonly FileToStore[]): Promise<MediaFileRow[]>;
  insertRows(tx: Queryable, rows: readonly MediaFileRow[]): Promise<void>;
  absolutePath(file: Pick<MediaFileRow, 'path'>): string;
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

export function createMediaStore(dir: string): MediaStore {
  const root = path.resolve(dir);
  const folderOf = (mediaId: string): string => {
    if (!MEDIA_ID.test(mediaId)) throw new Error(`not a media id: ${mediaId}`);
    return path.join(root, mediaId);
  };

  return {
    dir: root,
    async write(mediaId, userSub, files) {
      const folder = folderOf(mediaId);
      await mkdir(folder, { recursive: true });
      const rows: MediaFileRow[] = [];
      for (const file of files) {
        const id = newPublicId();
        const name = storedFileName(file.name);
        const relative = `${mediaId}/${id}-${name}`;
        await writeFile(path.join(root, relative), file.data);
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
    absolutePath(file) {
      const absolute = path.resolve(root, file.path);
      if (!absolute.startsWith(root + path.sep)) throw new Error(`file path outside the media folder: ${file.path}`);
      return absolute;
    },
    async removeFiles(rows) {
      for (const row of rows) await rm(path.resolve(root, row.path), { force: true });
    },
    async removeMedia(mediaId) {
      await rm(folderOf(mediaId), { recursive: true, force: true });
    },
    async sweepOrphans(db, minAgeMs = ORPHAN_MIN_AGE_MS) {
      let names: string[];
      try {
        names = (await readdir(root, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
      } catch {
        return 0;
      }
      const candidates = names.filter((name) => MEDIA_ID.test(name));
      if (candidates.length === 0) return 0;
      const { rows } = await db.query<{ id: string }>('SELECT id FROM media WHERE id = ANY($1::text[])', [candidates]);
      const live = new Set(rows.map((row) => row.id));
      const orphans: string[] = [];
      for (const name of candidates.filter((candidate) => !live.has(candidate))) {
        const changed = await stat(path.join(root, name)).then((info) => info.mtimeMs, () => 0);
        if (Date.now() - changed >= minAgeMs) orphans.push(name);
      }
      for (const name of orphans) await rm(path.join(root, name), { recursive: true, force: true });
      return orphans.length;
    },
  };
}
