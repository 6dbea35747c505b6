import type { StoryStage } from '../../../src/config/story.ts';
import type { Storyboard } from '../../../src/services/schemas/story.ts';
import { closeHoldsOfProjects } from './credit-holds.ts';
import type { Queryable } from './database.ts';
import { endJobWithRefund, LIVE_STATUSES, newPublicId, type StoredImageRef, type StoredItem } from './media.ts';

/**
 * The stories table: an AI Story (SPEC §3 Story) — the idea and its settings, the reference
 * pictures it started from, the storyboard (which names every generated part by its media job)
 * and its last join. Every job a story makes points back with media.story_id, so deleting a story
 * finds all of them, including parts the storyboard no longer names.
 */

export interface StoryRow {
  id: string;
  user_sub: string;
  idea: string;
  duration: number;
  aspect_ratio: string;
  style: string;
  image_urls: StoredImageRef[];
  step: StoryStage;
  storyboard: Storyboard;
  args: Record<string, unknown>;
  concat_media_id: string | null;
  concat_source: string;
  created_at: Date;
  updated_at: Date;
}

const storyColumns = `id, user_sub, idea, duration, aspect_ratio, style, image_urls, step, storyboard, args, concat_media_id,
  concat_source, created_at, updated_at`;

export interface NewStory {
  userSub: string;
  idea: string;
  duration: number;
  aspectRatio: string;
  style: string;
  imageUrls: StoredImageRef[];
  storyboard: Storyboard;
}

export async function insertStory(db: Queryable, story: NewStory): Promise<StoryRow> {
  const { rows } = await db.query<StoryRow>(
    `INSERT INTO stories (id, user_sub, idea, duration, aspect_ratio, style, image_urls, step, storyboard)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, 'storyboard', $8::jsonb) RETURNING ${storyColumns}`,
    [
      newPublicId(),
      story.userSub,
      story.idea,
      story.duration,
      story.aspectRatio,
      story.style,
      JSON.stringify(story.imageUrls),
      JSON.stringify(story.storyboard),
    ],
  );
  const row = rows[0];
  if (!row) throw new Error('INSERT INTO stories returned no row');
  return row;
}

/** The caller's story; another user's id is treated as unknown (404, never 403). */
export async function findOwnStory(db: Queryable, id: string, userSub: string): Promise<StoryRow | null> {
  const { rows } = await db.query<StoryRow>(`SELECT ${storyColumns} FROM stories WHERE id = $1 AND user_sub = $2`, [id, userSub]);
  return rows[0] ?? null;
}

/** The caller's story locked for the rest of `tx` (FOR UPDATE): a generation or join re-reads it so before writing. */
export async function lockOwnStory(tx: Queryable, id: string, userSub: string): Promise<StoryRow | null> {
  const { rows } = await tx.query<StoryRow>(`SELECT ${storyColumns} FROM stories WHERE id = $1 AND user_sub = $2 FOR UPDATE`, [id, userSub]);
  return rows[0] ?? null;
}

/** The caller's stories, newest first. */
export async function listOwnStories(db: Queryable, userSub: string): Promise<StoryRow[]> {
  const { rows } = await db.query<StoryRow>(
    `SELECT ${storyColumns} FROM stories WHERE user_sub = $1 ORDER BY created_at DESC, id DESC`,
    [userSub],
  );
  return rows;
}

/** What an edit or a generation changes; absent fields are kept. */
export interface StoryChange {
  idea?: string;
  duration?: number;
  aspectRatio?: string;
  style?: string;
  step?: StoryStage;
  storyboard?: Storyboard;
  concatMediaId?: string;
  concatSource?: string;
}

export async function updateStory(db: Queryable, id: string, userSub: string, change: StoryChange): Promise<StoryRow | null> {
  const { rows } = await db.query<StoryRow>(
    `UPDATE stories SET
       idea = COALESCE($3, idea),
       duration = COALESCE($4::integer, duration),
       aspect_ratio = COALESCE($5, aspect_ratio),
       style = COALESCE($6, style),
       step = COALESCE($7, step),
       storyboard = COALESCE($8::jsonb, storyboard),
       concat_media_id = COALESCE($9, concat_media_id),
       concat_source = COALESCE($10, concat_source),
       updated_at = clock_timestamp()
     WHERE id = $1 AND user_sub = $2 RETURNING ${storyColumns}`,
    [
      id,
      userSub,
      change.idea ?? null,
      change.duration ?? null,
      change.aspectRatio ?? null,
      change.style ?? null,
      change.step ?? null,
      change.storyboard === undefined ? null : JSON.stringify(change.storyboard),
      change.concatMediaId ?? null,
      change.concatSource ?? null,
    ],
  );
  return rows[0] ?? null;
}

/** The story a media row belongs to (an Idempotency-Key replay of a generation finds its story so). */
export async function storyIdOfMedia(db: Queryable, mediaId: string): Promise<string | null> {
  const { rows } = await db.query<{ story_id: string | null }>('SELECT story_id FROM media WHERE id = $1', [mediaId]);
  return rows[0]?.story_id ?? null;
}

/** What a story's checks need to know of a media row. */
export interface StoryMediaInfo {
  id: string;
  user_sub: string;
  story_id: string | null;
  tool: string;
  status: string;
  items: StoredItem[];
}

/** Those media rows (the ones that exist), by id. */
export async function storyMediaInfo(db: Queryable, ids: readonly string[]): Promise<Map<string, StoryMediaInfo>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<StoryMediaInfo>('SELECT id, user_sub, story_id, tool, status, items FROM media WHERE id = ANY($1::text[])', [
    [...new Set(ids)],
  ]);
  return new Map(rows.map((row) => [row.id, row]));
}

/** The live jobs of a story made with this tool (PUT story/{id}/cancel). */
export async function liveStoryJobs(db: Queryable, storyId: string, tool: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM media WHERE story_id = $1 AND tool = $2 AND status = ANY($3::text[])', [
    storyId,
    tool,
    LIVE_STATUSES,
  ]);
  return rows.map((row) => row.id);
}

/**
 * Removes stories with every media row that points at them: live jobs are cancelled and refunded
 * first (as DELETE media does), then the media rows (their file rows go with them) and the stories.
 * Answers the removed media ids, so the caller can announce their end and remove their folders once
 * `tx` has committed.
 */
async function deleteStoriesWhere(tx: Queryable, condition: string, params: unknown[]): Promise<{ storyIds: string[]; mediaIds: string[] }> {
  const stories = await tx.query<{ id: string }>(`SELECT id FROM stories WHERE ${condition} FOR UPDATE`, params);
  const storyIds = stories.rows.map((row) => row.id);
  if (storyIds.length === 0) return { storyIds, mediaIds: [] };
  const live = await tx.query<{ id: string }>('SELECT id FROM media WHERE story_id = ANY($1::text[]) AND status = ANY($2::text[])', [
    storyIds,
    LIVE_STATUSES,
  ]);
  for (const { id } of live.rows) await endJobWithRefund(tx, id, 'cancelled', null);
  const media = await tx.query<{ id: string }>('DELETE FROM media WHERE story_id = ANY($1::text[]) RETURNING id', [storyIds]);
  // The stories' holds close after their live jobs' refunds went back to them: the rest is freed.
  await closeHoldsOfProjects(tx, 'story', storyIds, 'deleted');
  await tx.query('DELETE FROM stories WHERE id = ANY($1::text[])', [storyIds]);
  return { storyIds, mediaIds: media.rows.map((row) => row.id) };
}

/** DELETE story/{id}: null when the story is not the caller's (or gone), else the media ids removed. */
export async function deleteOwnStory(tx: Queryable, id: string, userSub: string): Promise<string[] | null> {
  const removed = await deleteStoriesWhere(tx, 'id = $1 AND user_sub = $2', [id, userSub]);
  return removed.storyIds.length === 0 ? null : removed.mediaIds;
}

/** Every story of these users (the guest's weekly clean-up, a deleted account) with its media; answers the media ids removed. */
export async function deleteStoriesOfUsers(tx: Queryable, userSubs: readonly string[]): Promise<string[]> {
  if (userSubs.length === 0) return [];
  return (await deleteStoriesWhere(tx, 'user_sub = ANY($1::text[])', [userSubs])).mediaIds;
}
