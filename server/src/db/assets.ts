import type { MediaKind } from '../../../src/config/enums.ts';
import { HttpError } from '../routes/http.ts';
import { DETAILS } from '../routes/messages.ts';
import type { Queryable } from './database.ts';
import { mediaColumns, newPublicId, type MediaRow, type StoredItem } from './media.ts';

/**
 * SPEC §3 Asset: a named collection of the person's media (media.asset_id points here), with free
 * form fields. Only the owner's own media count as attached: a media row of someone else that
 * names the id is never shown with it.
 */

export interface AssetRow {
  id: string;
  user_sub: string;
  name: string;
  description: string;
  fields: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
  media_count: number;
  /** The newest attached finished picture or video: its kind and items (for the cover picture). */
  cover_kind: MediaKind | null;
  cover_items: StoredItem[] | null;
}

const assetColumns = `a.id, a.user_sub, a.name, a.description, a.fields, a.created_at, a.updated_at,
  (SELECT count(*)::integer FROM media m WHERE m.asset_id = a.id AND m.user_sub = a.user_sub) AS media_count,
  cover.kind AS cover_kind, cover.items AS cover_items`;

const coverJoin = `LEFT JOIN LATERAL (
    SELECT m.kind, m.items FROM media m
    WHERE m.asset_id = a.id AND m.user_sub = a.user_sub AND m.kind IN ('image', 'video') AND m.status LIKE 'success%'
    ORDER BY m.created_at DESC, m.id DESC LIMIT 1
  ) cover ON true`;

export async function listOwnAssets(db: Queryable, userSub: string): Promise<AssetRow[]> {
  const { rows } = await db.query<AssetRow>(
    `SELECT ${assetColumns} FROM assets a ${coverJoin} WHERE a.user_sub = $1 ORDER BY a.updated_at DESC, a.id DESC`,
    [userSub],
  );
  return rows;
}

export async function findOwnAsset(db: Queryable, id: string, userSub: string): Promise<AssetRow | null> {
  const { rows } = await db.query<AssetRow>(
    `SELECT ${assetColumns} FROM assets a ${coverJoin} WHERE a.id = $1 AND a.user_sub = $2`,
    [id, userSub],
  );
  return rows[0] ?? null;
}

/** The owner's media attached to the asset, newest first. */
export async function listAssetMedia(db: Queryable, id: string, userSub: string, limit: number): Promise<MediaRow[]> {
  const { rows } = await db.query<MediaRow>(
    `SELECT ${mediaColumns} FROM media WHERE asset_id = $1 AND user_sub = $2 ORDER BY created_at DESC, id DESC LIMIT $3`,
    [id, userSub, limit],
  );
  return rows;
}

export async function countOwnAssets(db: Queryable, userSub: string): Promise<number> {
  const { rows } = await db.query<{ count: number }>('SELECT count(*)::integer AS count FROM assets WHERE user_sub = $1', [userSub]);
  return rows[0]?.count ?? 0;
}

export interface AssetFields {
  name: string;
  description: string;
  fields: Record<string, unknown>;
}

export async function insertAsset(db: Queryable, userSub: string, asset: AssetFields): Promise<string> {
  const id = newPublicId();
  await db.query('INSERT INTO assets (id, user_sub, name, description, fields) VALUES ($1, $2, $3, $4, $5::jsonb)', [
    id,
    userSub,
    asset.name,
    asset.description,
    JSON.stringify(asset.fields),
  ]);
  return id;
}

/** The whole object (SPEC §3 "the whole object is sent on update"); false when it is not the caller's. */
export async function updateAsset(tx: Queryable, id: string, userSub: string, asset: AssetFields): Promise<boolean> {
  const { rowCount } = await tx.query(
    `UPDATE assets SET name = $3, description = $4, fields = $5::jsonb, updated_at = clock_timestamp()
     WHERE id = $1 AND user_sub = $2`,
    [id, userSub, asset.name, asset.description, JSON.stringify(asset.fields)],
  );
  return rowCount > 0;
}

/**
 * Makes exactly `mediaIds` (the caller's own media) the asset's media: the others are detached.
 * Answers the ids that are not the caller's media (nothing should then be kept: the caller rolls back).
 */
export async function setAssetMedia(tx: Queryable, id: string, userSub: string, mediaIds: readonly string[]): Promise<string[]> {
  const wanted = [...new Set(mediaIds)];
  await tx.query('UPDATE media SET asset_id = NULL WHERE asset_id = $1 AND user_sub = $2 AND NOT (id = ANY($3::text[]))', [
    id,
    userSub,
    wanted,
  ]);
  const { rows } = await tx.query<{ id: string }>(
    'UPDATE media SET asset_id = $1 WHERE user_sub = $2 AND id = ANY($3::text[]) RETURNING id',
    [id, userSub, wanted],
  );
  const found = new Set(rows.map((row) => row.id));
  return wanted.filter((mediaId) => !found.has(mediaId));
}

/** Deletes the caller's asset; its media stay, no longer attached. False when it is not the caller's. */
export async function deleteAsset(tx: Queryable, id: string, userSub: string): Promise<boolean> {
  const { rowCount } = await tx.query('DELETE FROM assets WHERE id = $1 AND user_sub = $2', [id, userSub]);
  if (rowCount === 0) return false;
  await tx.query('UPDATE media SET asset_id = NULL WHERE asset_id = $1', [id]);
  return true;
}

/**
 * `?asset_id=` of a generation call (generation, video creation, fine-tune): null when not given;
 * otherwise it must be one of the caller's assets (else a 400, before anything is charged), whose
 * updated_at is touched so it comes first in the list.
 */
export async function requireOwnAssetId(db: Queryable, userSub: string, assetId: unknown): Promise<string | null> {
  if (assetId === undefined || assetId === null || assetId === '') return null;
  if (typeof assetId !== 'string') throw new HttpError(400, DETAILS.assetUnknownForJob);
  const { rows } = await db.query<{ id: string }>(
    'UPDATE assets SET updated_at = clock_timestamp() WHERE id = $1 AND user_sub = $2 RETURNING id',
    [assetId, userSub],
  );
  if (!rows[0]) throw new HttpError(400, DETAILS.assetUnknownForJob);
  return rows[0].id;
}
