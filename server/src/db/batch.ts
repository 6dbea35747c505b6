import type { BatchType } from '../../../src/config/batch.ts';
import type { ScriptBoard } from '../../../src/services/schemas/batch.ts';
import { closeHoldsOfProjects } from './credit-holds.ts';
import type { Queryable } from './database.ts';
import { endJobWithRefund, LIVE_STATUSES, newPublicId, type StoredImageRef } from './media.ts';

/**
 * The batches table: an album (SPEC §3 Batch) of pictures, its script board, the sound and videos
 * its concatenation joins, and the media rows of its last generation (`video_media_ids`) and of its
 * concatenation (`concat_media_id`). Every clip and concat job points back with media.batch_id, so
 * deleting an album finds all of them, including clips of earlier generations.
 */

/** An extra video of the concatenation: a file reference (or a shared link) plus its label. */
export type StoredAdditionalVideo = StoredImageRef & { label: string };

export interface BatchRow {
  id: string;
  user_sub: string;
  batch_type: BatchType;
  title: string;
  image_urls: StoredImageRef[];
  audio_urls: StoredImageRef[];
  concat_video_urls: StoredImageRef[];
  additional_videos: StoredAdditionalVideo[];
  script_board: ScriptBoard | null;
  args: Record<string, unknown>;
  video_media_ids: string[];
  concat_media_id: string | null;
  created_at: Date;
  updated_at: Date;
}

const batchColumns = `id, user_sub, batch_type, title, image_urls, audio_urls, concat_video_urls, additional_videos,
  script_board, args, video_media_ids, concat_media_id, created_at, updated_at`;

export interface NewBatch {
  userSub: string;
  batchType: BatchType;
  title: string;
  imageUrls: StoredImageRef[];
  scriptBoard: ScriptBoard | null;
  args: Record<string, unknown>;
}

export async function insertBatch(db: Queryable, batch: NewBatch): Promise<BatchRow> {
  const { rows } = await db.query<BatchRow>(
    `INSERT INTO batches (id, user_sub, batch_type, title, image_urls, script_board, args)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7::jsonb) RETURNING ${batchColumns}`,
    [
      newPublicId(),
      batch.userSub,
      batch.batchType,
      batch.title,
      JSON.stringify(batch.imageUrls),
      batch.scriptBoard === null ? null : JSON.stringify(batch.scriptBoard),
      JSON.stringify(batch.args),
    ],
  );
  const row = rows[0];
  if (!row) throw new Error('INSERT INTO batches returned no row');
  return row;
}

/** The caller's album; another user's id is treated as unknown (404, never 403). */
export async function findOwnBatch(db: Queryable, id: string, userSub: string): Promise<BatchRow | null> {
  const { rows } = await db.query<BatchRow>(`SELECT ${batchColumns} FROM batches WHERE id = $1 AND user_sub = $2`, [id, userSub]);
  return rows[0] ?? null;
}

/**
 * The caller's album locked for the rest of the transaction (FOR UPDATE): a generation, a hold and
 * a join of one album take it first, before the owner's and the hold's locks (one lock order).
 */
export async function lockOwnBatch(tx: Queryable, id: string, userSub: string): Promise<BatchRow | null> {
  const { rows } = await tx.query<BatchRow>(`SELECT ${batchColumns} FROM batches WHERE id = $1 AND user_sub = $2 FOR UPDATE`, [id, userSub]);
  return rows[0] ?? null;
}

/** How far each clip of the album's last generation is: its job's model and status, by board clip id. */
export async function albumClipJobs(db: Queryable, mediaIds: readonly string[]): Promise<{ clip_id: string | null; option: string | null; status: string }[]> {
  if (mediaIds.length === 0) return [];
  const { rows } = await db.query<{ clip_id: string | null; option: string | null; status: string }>(
    "SELECT args->>'batch_clip_id' AS clip_id, option, status FROM media WHERE id = ANY($1::text[]) ORDER BY created_at",
    [mediaIds],
  );
  return rows;
}

/** The caller's albums, newest first. */
export async function listOwnBatches(db: Queryable, userSub: string): Promise<BatchRow[]> {
  const { rows } = await db.query<BatchRow>(
    `SELECT ${batchColumns} FROM batches WHERE user_sub = $1 ORDER BY created_at DESC, id DESC`,
    [userSub],
  );
  return rows;
}

/** What an edit, a board or a generation changes; absent fields are kept. `args` is merged. */
export interface BatchChange {
  title?: string;
  imageUrls?: StoredImageRef[];
  audioUrls?: StoredImageRef[];
  concatVideoUrls?: StoredImageRef[];
  additionalVideos?: StoredAdditionalVideo[];
  scriptBoard?: ScriptBoard;
  args?: Record<string, unknown>;
  videoMediaIds?: string[];
  concatMediaId?: string;
}

const jsonOrNull = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));

export async function updateBatch(db: Queryable, id: string, userSub: string, change: BatchChange): Promise<BatchRow | null> {
  const { rows } = await db.query<BatchRow>(
    `UPDATE batches SET
       title = COALESCE($3, title),
       image_urls = COALESCE($4::jsonb, image_urls),
       audio_urls = COALESCE($5::jsonb, audio_urls),
       concat_video_urls = COALESCE($6::jsonb, concat_video_urls),
       additional_videos = COALESCE($7::jsonb, additional_videos),
       script_board = COALESCE($8::jsonb, script_board),
       args = args || $9::jsonb,
       video_media_ids = COALESCE($10::jsonb, video_media_ids),
       concat_media_id = COALESCE($11, concat_media_id),
       updated_at = clock_timestamp()
     WHERE id = $1 AND user_sub = $2 RETURNING ${batchColumns}`,
    [
      id,
      userSub,
      change.title ?? null,
      jsonOrNull(change.imageUrls),
      jsonOrNull(change.audioUrls),
      jsonOrNull(change.concatVideoUrls),
      jsonOrNull(change.additionalVideos),
      jsonOrNull(change.scriptBoard),
      JSON.stringify(change.args ?? {}),
      jsonOrNull(change.videoMediaIds),
      change.concatMediaId ?? null,
    ],
  );
  return rows[0] ?? null;
}

/** The album a media row belongs to (an Idempotency-Key replay of a generation finds its album so). */
export async function batchIdOfMedia(db: Queryable, mediaId: string): Promise<string | null> {
  const { rows } = await db.query<{ batch_id: string | null }>('SELECT batch_id FROM media WHERE id = $1', [mediaId]);
  return rows[0]?.batch_id ?? null;
}

/**
 * Removes albums with every media row that points at them: live jobs are cancelled and refunded
 * first (as DELETE media does), then the media rows (their file rows go with them) and the albums.
 * Answers the removed media ids, so the caller can announce their end and remove their folders
 * once `tx` has committed.
 */
async function deleteBatchesWhere(tx: Queryable, condition: string, params: unknown[]): Promise<{ batchIds: string[]; mediaIds: string[] }> {
  const batches = await tx.query<{ id: string }>(`SELECT id FROM batches WHERE ${condition} FOR UPDATE`, params);
  const batchIds = batches.rows.map((row) => row.id);
  if (batchIds.length === 0) return { batchIds, mediaIds: [] };
  const live = await tx.query<{ id: string }>('SELECT id FROM media WHERE batch_id = ANY($1::text[]) AND status = ANY($2::text[])', [
    batchIds,
    LIVE_STATUSES,
  ]);
  for (const { id } of live.rows) await endJobWithRefund(tx, id, 'cancelled', null);
  const media = await tx.query<{ id: string }>('DELETE FROM media WHERE batch_id = ANY($1::text[]) RETURNING id', [batchIds]);
  await tx.query('DELETE FROM batches WHERE id = ANY($1::text[])', [batchIds]);
  // What their holds still keep (the refunds above gave their draws back first) returns to the balance.
  await closeHoldsOfProjects(tx, 'album', batchIds, 'deleted');
  return { batchIds, mediaIds: media.rows.map((row) => row.id) };
}

/** DELETE batch/{id}: null when the album is not the caller's (or gone), else the media ids removed. */
export async function deleteOwnBatch(tx: Queryable, id: string, userSub: string): Promise<string[] | null> {
  const removed = await deleteBatchesWhere(tx, 'id = $1 AND user_sub = $2', [id, userSub]);
  return removed.batchIds.length === 0 ? null : removed.mediaIds;
}

/**
 * Every album of these users (the guest's weekly clean-up, a deleted account) with its media;
 * answers the media ids removed.
 */
export async function deleteBatchesOfUsers(tx: Queryable, userSubs: readonly string[]): Promise<string[]> {
  if (userSubs.length === 0) return [];
  return (await deleteBatchesWhere(tx, 'user_sub = ANY($1::text[])', [userSubs])).mediaIds;
}
