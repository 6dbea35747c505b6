import { randomBytes } from 'node:crypto';
import type { Queryable } from './database.ts';

/** A stored file of a media item: a result, its thumbnail or GIF preview, an upload as sent or its display copy. */
export type FileRole = 'result' | 'thumbnail' | 'gif' | 'original' | 'display';

export interface MediaFileRow {
  id: string;
  media_id: string;
  user_sub: string;
  role: FileRole;
  name: string;
  content_type: string;
  bytes: number;
  /** Relative to the media folder: `${mediaId}/${fileId}-${name}`. */
  path: string;
  width: number | null;
  height: number | null;
  duration_seconds: number | null;
  /**
   * SPEC §3 (media version "3"): where the file is below the media's base_url, e.g.
   * `batch/1/HorizontalArc/video.mp4`; null for files reached by id only.
   */
  rel_path: string | null;
}

const fileColumns =
  'id, media_id, user_sub, role, name, content_type, bytes::integer AS bytes, path, width, height, duration_seconds, rel_path';

export type NewMediaFile = Omit<MediaFileRow, 'width' | 'height' | 'duration_seconds' | 'rel_path'> &
  Partial<Pick<MediaFileRow, 'width' | 'height' | 'duration_seconds' | 'rel_path'>>;

export async function insertMediaFile(tx: Queryable, file: NewMediaFile): Promise<void> {
  await tx.query(
    `INSERT INTO media_files (id, media_id, user_sub, role, name, content_type, bytes, path, width, height, duration_seconds, rel_path)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      file.id,
      file.media_id,
      file.user_sub,
      file.role,
      file.name,
      file.content_type,
      file.bytes,
      file.path,
      file.width ?? null,
      file.height ?? null,
      file.duration_seconds ?? null,
      file.rel_path ?? null,
    ],
  );
}

export async function findMediaFile(db: Queryable, id: string): Promise<MediaFileRow | null> {
  const { rows } = await db.query<MediaFileRow>(`SELECT ${fileColumns} FROM media_files WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/** The file of a media item at this path below its base_url (SPEC §3 version "3"). */
/**
 * A result file by its SPEC §3 path, only once its job has succeeded: a video job writes its files
 * before its last stage, and one cancelled (and refunded) in that stage must not hand them out.
 */
export async function findMediaFileByRelPath(db: Queryable, mediaId: string, relPath: string): Promise<MediaFileRow | null> {
  const { rows } = await db.query<MediaFileRow>(
    `SELECT ${fileColumns} FROM media_files WHERE media_id = $1 AND rel_path = $2
       AND EXISTS (SELECT 1 FROM media WHERE media.id = media_files.media_id AND media.status LIKE 'success%')`,
    [mediaId, relPath],
  );
  return rows[0] ?? null;
}

export async function filesOfMedia(db: Queryable, mediaIds: readonly string[]): Promise<MediaFileRow[]> {
  if (mediaIds.length === 0) return [];
  const { rows } = await db.query<MediaFileRow>(
    `SELECT ${fileColumns} FROM media_files WHERE media_id = ANY($1::text[]) ORDER BY created_at, id`,
    [mediaIds],
  );
  return rows;
}

/** The owner of each of these files that still exists. */
export async function fileOwners(db: Queryable, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ id: string; user_sub: string }>('SELECT id, user_sub FROM media_files WHERE id = ANY($1::text[])', [ids]);
  return new Map(rows.map((row) => [row.id, row.user_sub]));
}

/**
 * A secret the server makes once and keeps in the database, so it is the same after a restart and
 * for every server sharing the database (the first writer wins the race).
 */
export async function serverSecret(db: Queryable, name: string): Promise<string> {
  await db.query('INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    name,
    randomBytes(32).toString('hex'),
  ]);
  const { rows } = await db.query<{ value: string }>('SELECT value FROM server_secrets WHERE name = $1', [name]);
  const value = rows[0]?.value;
  if (!value) throw new Error(`server secret ${name} could not be read`);
  return value;
}
