import type { Queryable } from './database.ts';
import { newPublicId } from './media.ts';

/**
 * The Library's folders (issue 21 item 7, migration 18): the owner's named sets of their finished
 * results. Every read and write names the owner, so no one reaches another person's folder.
 */

export interface FolderRow {
  id: string;
  name: string;
  item_count: number;
  created_at: Date;
  updated_at: Date;
}

const folderColumns = `f.id, f.name, f.created_at, f.updated_at,
  (SELECT count(*)::integer FROM library_folder_items i WHERE i.folder_id = f.id) AS item_count`;

/** The owner's folders by name (any case), then by age. */
export async function listOwnFolders(db: Queryable, userSub: string): Promise<FolderRow[]> {
  const { rows } = await db.query<FolderRow>(
    `SELECT ${folderColumns} FROM library_folders f WHERE f.user_sub = $1 ORDER BY lower(f.name), f.created_at, f.id`,
    [userSub],
  );
  return rows;
}

export async function findOwnFolder(db: Queryable, id: string, userSub: string): Promise<FolderRow | null> {
  const { rows } = await db.query<FolderRow>(`SELECT ${folderColumns} FROM library_folders f WHERE f.id = $1 AND f.user_sub = $2`, [
    id,
    userSub,
  ]);
  return rows[0] ?? null;
}

export async function countOwnFolders(db: Queryable, userSub: string): Promise<number> {
  const { rows } = await db.query<{ count: number }>('SELECT count(*)::integer AS count FROM library_folders WHERE user_sub = $1', [userSub]);
  return rows[0]?.count ?? 0;
}

/** A new folder's id; a name the owner already uses (any case) fails with the unique index's violation. */
export async function insertFolder(db: Queryable, userSub: string, name: string): Promise<string> {
  const id = newPublicId();
  await db.query('INSERT INTO library_folders (id, user_sub, name) VALUES ($1, $2, $3)', [id, userSub, name]);
  return id;
}

/** Renames the owner's folder; false when it is not theirs (or not there). */
export async function renameFolder(db: Queryable, id: string, userSub: string, name: string): Promise<boolean> {
  const { rows } = await db.query<{ id: string }>(
    'UPDATE library_folders SET name = $3, updated_at = clock_timestamp() WHERE id = $1 AND user_sub = $2 RETURNING id',
    [id, userSub, name],
  );
  return rows.length > 0;
}

/** Deletes the owner's folder and its memberships (the media stay); false when it is not theirs. */
export async function deleteFolder(db: Queryable, id: string, userSub: string): Promise<boolean> {
  const { rows } = await db.query<{ id: string }>('DELETE FROM library_folders WHERE id = $1 AND user_sub = $2 RETURNING id', [id, userSub]);
  return rows.length > 0;
}

/** Puts a media item in a folder (again: no change). The caller checks both are the owner's. */
export async function addFolderItem(db: Queryable, folderId: string, mediaId: string): Promise<void> {
  await db.query('INSERT INTO library_folder_items (folder_id, media_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [folderId, mediaId]);
  await db.query('UPDATE library_folders SET updated_at = clock_timestamp() WHERE id = $1', [folderId]);
}

/** Takes a media item out of a folder (not in it: no change). */
export async function removeFolderItem(db: Queryable, folderId: string, mediaId: string): Promise<void> {
  await db.query('DELETE FROM library_folder_items WHERE folder_id = $1 AND media_id = $2', [folderId, mediaId]);
}

/** The folders each of these media is in (by id; a media in none is absent), owner's folders only. */
export async function folderIdsOf(db: Queryable, userSub: string, mediaIds: readonly string[]): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  if (mediaIds.length === 0) return found;
  const { rows } = await db.query<{ media_id: string; folder_id: string }>(
    `SELECT i.media_id, i.folder_id FROM library_folder_items i JOIN library_folders f ON f.id = i.folder_id
     WHERE f.user_sub = $1 AND i.media_id = ANY($2::text[]) ORDER BY lower(f.name), f.created_at, f.id`,
    [userSub, mediaIds],
  );
  for (const row of rows) found.set(row.media_id, [...(found.get(row.media_id) ?? []), row.folder_id]);
  return found;
}
