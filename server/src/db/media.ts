import { randomBytes } from 'node:crypto';
import type { MediaKind } from '../../../src/config/enums.ts';
import { returnDrawToHold } from './credit-holds.ts';
import { appendLedgerEntry } from './credit-ledger.ts';
import type { Queryable } from './database.ts';

/**
 * The media table: a media item of SPEC §3, which is also the job that makes it. Statuses follow
 * SPEC §4. Every job waits and runs in stages, each a `queue_{stage}` → `processing_{stage}` pair:
 * images and audio, video tools, fine-tunes and a batch's concat have the one stage `source` and
 * end in `success_image` (images) / `success`; video creation jobs pass `source` → `3d` → `bullet`
 * and end in `success`. Any job may instead end as `failed`, `nsfw` or `cancelled` (each refunded
 * once). The web app takes every success_* as done, so a stage never ends in one.
 */

export const JOB_STAGES = ['source', '3d', 'bullet'] as const;
export type JobStage = (typeof JOB_STAGES)[number];

export const queueStatus = (stage: JobStage): string => `queue_${stage}`;
export const processingStatus = (stage: JobStage): string => `processing_${stage}`;

export const QUEUED_STATUS = queueStatus('source');
/** Statuses of a job waiting for a worker (the claim takes them oldest first). */
export const QUEUE_STATUSES: readonly string[] = JOB_STAGES.map(queueStatus);
/** Statuses of a job a worker holds under a lease (reclaimed when the lease runs out). */
export const PROCESSING_STATUSES: readonly string[] = JOB_STAGES.map(processingStatus);
/** Statuses of a job that has not ended: cancel stops it, delete cancels it first. */
export const LIVE_STATUSES: readonly string[] = [...QUEUE_STATUSES, ...PROCESSING_STATUSES];
/**
 * Statuses of a job that has started and not ended (a video job between its stages too): what the
 * per-person limit counts. A job still at `queue_source` has not started: its owner may hold it,
 * resume it, run it next or edit it (server/src/db/queue.ts).
 */
export const STARTED_STATUSES: readonly string[] = LIVE_STATUSES.filter((status) => status !== QUEUED_STATUS);
export type EndStatus = 'failed' | 'nsfw' | 'cancelled';

/** Whether a job with this status has not ended yet. */
export const isLive = (status: string): boolean => LIVE_STATUSES.includes(status);

/** The stage a live status belongs to (null for an ended job). */
export function stageOf(status: string): JobStage | null {
  return JOB_STAGES.find((stage) => status === queueStatus(stage) || status === processingStatus(stage)) ?? null;
}

/** SPEC §4 success status of a finished generation of this kind. */
export const successStatusFor = (kind: MediaKind): string => (kind === 'image' ? 'success_image' : 'success');

export type ItemState = 'new' | 'processing' | 'success' | 'failed' | 'nsfw';

/** One result of a job as the row keeps it; URLs are made from the file ids at answer time. */
export interface StoredItem {
  status: ItemState;
  file_id?: string | null;
  thumbnail_file_id?: string | null;
  /** A video's GIF preview. */
  gif_file_id?: string | null;
  /** SPEC §3 result folder below the media's base_url (`batch/1/HorizontalArc`). */
  folder_path?: string | null;
  /** SPEC §3 result label `{run}.{index}.{option}`. */
  label?: string | null;
  /** Issue 21 item 7: the seed this picture was made with (a run of several pictures: seed, seed + 1, …). */
  seed?: number | null;
}

/** A picture the request referred to: a stored file, or (POST media) a URL Kinora does not store. */
export type StoredImageRef = { file_id: string } | { url: string };

/** A resolved input picture of a job: the multipart field and the stored file it names. */
export interface StoredInput {
  field: string;
  file_id: string;
}

export interface MediaRow {
  id: string;
  user_sub: string;
  kind: MediaKind;
  tool: string;
  endpoint: string | null;
  option: string | null;
  status: string;
  progress: number;
  cost: number;
  charged: boolean;
  refund_ledger_id: string | null;
  error: string | null;
  args: Record<string, unknown>;
  image_urls: StoredImageRef[];
  inputs: StoredInput[];
  items: StoredItem[];
  asset_id: string | null;
  visibility: 'private' | 'unlisted' | 'public';
  /** Sharing (migration 10): the title and description it is shared under, and when it was first shared. */
  title: string;
  description: string;
  shared_at: Date | null;
  logo_variant: boolean;
  version: string;
  base_url: string;
  lease_owner: string | null;
  lease_expires_at: Date | null;
  attempts: number;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
  /** The batch album this clip or joined video belongs to. */
  batch_id: string | null;
  /** A remote provider's requests for this job, by call key (migration 11). */
  provider_requests: Record<string, { endpoint: string; requestId: string }>;
  /** The seed its model was given (generation jobs; null for uploads and older rows). */
  seed: number | null;
  /** Migration 17: when its owner held it (a held job waits until resumed), null when not held. */
  held_at: Date | null;
  /** Migration 17: its place in the queue (created_at, or earlier once its owner asked to run it next). */
  queue_at: Date;
}

export const mediaColumns = `id, user_sub, kind, tool, endpoint, option, status, progress, cost, charged,
  refund_ledger_id::text AS refund_ledger_id, error, args, image_urls, inputs, items, asset_id, visibility,
  title, description, shared_at, logo_variant, version, base_url, lease_owner, lease_expires_at, attempts, created_at, updated_at, finished_at, batch_id, provider_requests, seed,
  held_at, queue_at`;

/** Ids that are hard to guess and safe in a URL path (media and files are addressed by them). */
export const newPublicId = (): string => randomBytes(12).toString('base64url');

export interface NewMedia {
  id?: string;
  userSub: string;
  kind: MediaKind;
  tool: string;
  endpoint?: string | null;
  option?: string | null;
  status: string;
  progress?: number;
  cost?: number;
  charged?: boolean;
  args?: Record<string, unknown>;
  imageUrls?: StoredImageRef[];
  inputs?: StoredInput[];
  items?: StoredItem[];
  assetId?: string | null;
  logoVariant?: boolean;
  finished?: boolean;
  /** SPEC §3: "3" when the results live at paths below base_url (video creation jobs). */
  version?: string;
  batchId?: string | null;
  /** The AI Story this job makes a part of (media.story_id). */
  storyId?: string | null;
  seed?: number | null;
}

export async function insertMedia(tx: Queryable, media: NewMedia): Promise<MediaRow> {
  const { rows } = await tx.query<MediaRow>(
    `INSERT INTO media (id, user_sub, kind, tool, endpoint, option, status, progress, cost, charged, args, image_urls,
       inputs, items, asset_id, logo_variant, finished_at, version, batch_id, story_id, seed)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb, $12::jsonb, $13::jsonb, $14::jsonb, $15, $16,
       CASE WHEN $17::boolean THEN clock_timestamp() END, $18, $19, $20, $21)
     RETURNING ${mediaColumns}`,
    [
      media.id ?? newPublicId(),
      media.userSub,
      media.kind,
      media.tool,
      media.endpoint ?? null,
      media.option ?? null,
      media.status,
      media.progress ?? 0,
      media.cost ?? 0,
      media.charged ?? false,
      JSON.stringify(media.args ?? {}),
      JSON.stringify(media.imageUrls ?? []),
      JSON.stringify(media.inputs ?? []),
      JSON.stringify(media.items ?? []),
      media.assetId ?? null,
      media.logoVariant ?? false,
      media.finished ?? false,
      media.version ?? '1',
      media.batchId ?? null,
      media.storyId ?? null,
      media.seed ?? null,
    ],
  );
  const row = rows[0];
  if (!row) throw new Error('INSERT INTO media returned no row');
  return row;
}

export async function findMedia(db: Queryable, id: string): Promise<MediaRow | null> {
  const { rows } = await db.query<MediaRow>(`SELECT ${mediaColumns} FROM media WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/** Those of these media rows that exist and are `userSub`'s, in one query (a story's answer names dozens). */
export async function findOwnMediaRows(db: Queryable, ids: readonly string[], userSub: string): Promise<MediaRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<MediaRow>(`SELECT ${mediaColumns} FROM media WHERE id = ANY($1::text[]) AND user_sub = $2`, [
    [...new Set(ids)],
    userSub,
  ]);
  return rows;
}

/** The caller's own media item; another user's id is treated as unknown (404, never 403). */
export async function findOwnMedia(db: Queryable, id: string, userSub: string): Promise<MediaRow | null> {
  const { rows } = await db.query<MediaRow>(`SELECT ${mediaColumns} FROM media WHERE id = $1 AND user_sub = $2`, [id, userSub]);
  return rows[0] ?? null;
}

/** POST media / PUT media/{id}/edit / post-bullet-video: args merged, image_urls replaced when given. */
export async function updateMediaRecord(
  db: Queryable,
  id: string,
  userSub: string,
  change: { args?: Record<string, unknown>; imageUrls?: StoredImageRef[] },
): Promise<MediaRow | null> {
  const { rows } = await db.query<MediaRow>(
    `UPDATE media SET args = args || $3::jsonb, image_urls = COALESCE($4::jsonb, image_urls), updated_at = clock_timestamp()
     WHERE id = $1 AND user_sub = $2 RETURNING ${mediaColumns}`,
    [id, userSub, JSON.stringify(change.args ?? {}), change.imageUrls ? JSON.stringify(change.imageUrls) : null],
  );
  return rows[0] ?? null;
}

export const REFUND_REASONS: Readonly<Record<EndStatus, string>> = {
  failed: 'Refund: the generation failed',
  nsfw: 'Refund: the result was flagged as unsafe',
  cancelled: 'Refund: the job was cancelled',
};

/**
 * Ends a live job as failed, nsfw or cancelled and gives its credits back, all in `tx`. The status
 * change is conditional on the job still being live, so of two enders (a cancel and the worker's
 * failure) exactly one wins, and the refund row is written only by the winner and only while
 * refund_ledger_id is unset: a job is refunded exactly once. Null when the job was not live.
 */
export async function endJobWithRefund(
  tx: Queryable,
  id: string,
  status: EndStatus,
  error: string | null,
  options: { leaseOwner?: string } = {},
): Promise<MediaRow | null> {
  const { rows } = await tx.query<MediaRow>(
    `UPDATE media SET status = $2, error = $3, lease_owner = NULL, lease_expires_at = NULL,
       items = (SELECT COALESCE(jsonb_agg(item || jsonb_build_object('status', $5::text)), '[]'::jsonb) FROM jsonb_array_elements(items) AS item),
       updated_at = clock_timestamp(), finished_at = clock_timestamp()
     WHERE id = $1 AND status = ANY($4::text[]) AND ($6::text IS NULL OR lease_owner = $6)
     RETURNING ${mediaColumns}`,
    [id, status, error, LIVE_STATUSES, status === 'nsfw' ? 'nsfw' : 'failed', options.leaseOwner ?? null],
  );
  const ended = rows[0];
  if (!ended) return null;
  if (!ended.charged || ended.cost <= 0 || ended.refund_ledger_id !== null) return ended;
  const ledgerId = await appendLedgerEntry(tx, {
    userSub: ended.user_sub,
    amount: ended.cost,
    kind: 'refund',
    reason: REFUND_REASONS[status],
    jobId: ended.id,
  });
  // What the job drew from its project's open hold goes back to the hold (after the refund's row).
  await returnDrawToHold(tx, ended.id);
  const refunded = await tx.query<MediaRow>(
    `UPDATE media SET refund_ledger_id = $2 WHERE id = $1 AND refund_ledger_id IS NULL RETURNING ${mediaColumns}`,
    [ended.id, ledgerId],
  );
  return refunded.rows[0] ?? ended;
}

/** Deletes the row (its media_files rows go with it); true when it existed and was the caller's. */
export async function deleteMediaRow(tx: Queryable, id: string, userSub: string): Promise<boolean> {
  const { rowCount } = await tx.query('DELETE FROM media WHERE id = $1 AND user_sub = $2', [id, userSub]);
  return rowCount > 0;
}

// ---- the worker's side -------------------------------------------------------------------------

/**
 * Takes the first waiting job (of any stage) in queue order (`queue_at`: creation, or earlier once
 * its owner asked to run it next), or a processing job whose worker stopped renewing its lease (a
 * crashed or killed server), for `owner`: a token of this one claim, so a worker whose lease ran
 * out can never complete, renew or release the job another worker has claimed since. SKIP LOCKED
 * lets several workers (and servers sharing one PostgreSQL) claim concurrently without waiting on
 * each other or taking one job twice. The job moves to its stage's processing status.
 *
 * Issue 21 item 2: a held job is passed by, and a job that has not started (`queue_source`) is
 * passed by while its owner already has `maxRunningPerUser` started jobs (null: no limit), so one
 * person cannot take every worker. Two workers may pick two jobs of one person at the same moment:
 * the owner's count is taken again under a lock of theirs (an advisory lock held to this claim's
 * commit), and the second claim gives way (null: the worker looks again at once).
 */
export async function claimNextJob(
  tx: Queryable,
  owner: string,
  leaseMs: number,
  maxRunningPerUser: number | null = null,
): Promise<MediaRow | null> {
  const { rows } = await tx.query<{ id: string; user_sub: string; status: string }>(
    `SELECT id, user_sub, status FROM media AS job
     WHERE (status = ANY($1::text[]) AND held_at IS NULL AND (status <> $3 OR $5::integer IS NULL
         OR (SELECT count(*) FROM media AS started WHERE started.user_sub = job.user_sub AND started.status = ANY($4::text[])) < $5))
       OR (status = ANY($2::text[]) AND lease_expires_at < clock_timestamp())
     ORDER BY queue_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
    [QUEUE_STATUSES, PROCESSING_STATUSES, QUEUED_STATUS, STARTED_STATUSES, maxRunningPerUser],
  );
  const candidate = rows[0];
  if (!candidate) return null;
  if (candidate.status === QUEUED_STATUS && maxRunningPerUser !== null) {
    await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [RUNNING_LOCK_SPACE, candidate.user_sub]);
    const started = await tx.query<{ count: number }>(
      'SELECT count(*)::integer AS count FROM media WHERE user_sub = $1 AND status = ANY($2::text[])',
      [candidate.user_sub, STARTED_STATUSES],
    );
    if ((started.rows[0]?.count ?? 0) >= maxRunningPerUser) return null;
  }
  const claimed = await tx.query<MediaRow>(
    `UPDATE media SET status = regexp_replace(status, '^queue_', 'processing_'), lease_owner = $2,
       lease_expires_at = clock_timestamp() + make_interval(secs => $3::double precision / 1000),
       attempts = attempts + 1,
       items = (SELECT COALESCE(jsonb_agg(item || '{"status":"processing"}'::jsonb), '[]'::jsonb) FROM jsonb_array_elements(items) AS item),
       updated_at = clock_timestamp()
     WHERE id = $1 RETURNING ${mediaColumns}`,
    [candidate.id, owner, leaseMs],
  );
  return claimed.rows[0] ?? null;
}

/** The advisory lock space of "a person's started jobs are being counted" (any fixed number). */
const RUNNING_LOCK_SPACE = 7_341_021;

/**
 * The worker's heartbeat: new progress and a renewed lease, only while the job is still this
 * worker's and still processing. False means stop: the job was cancelled, deleted or reclaimed.
 */
/** Stores a remote provider's request with the job, while this claim holds it (false when it no longer does). */
export async function rememberProviderRequest(
  db: Queryable,
  id: string,
  owner: string,
  key: string,
  request: { endpoint: string; requestId: string },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE media SET provider_requests = provider_requests || jsonb_build_object($3::text, $4::jsonb), updated_at = clock_timestamp()
     WHERE id = $1 AND lease_owner = $2`,
    [id, owner, key, JSON.stringify(request)],
  );
  return rowCount > 0;
}

export async function renewJob(db: Queryable, id: string, owner: string, progress: number, leaseMs: number): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE media SET progress = GREATEST(progress, $3), updated_at = clock_timestamp(),
       lease_expires_at = clock_timestamp() + make_interval(secs => $4::double precision / 1000)
     WHERE id = $1 AND status = ANY($5::text[]) AND lease_owner = $2`,
    [id, owner, progress, leaseMs, PROCESSING_STATUSES],
  );
  return rowCount > 0;
}

/**
 * A stopping server hands its job back to its stage's queue so the next worker starts that stage
 * at once (what earlier stages made is kept). The claim's attempt is given back too: only jobs
 * whose server died count towards MAX_JOB_ATTEMPTS, not ones that graceful restarts interrupted.
 */
export async function releaseJob(db: Queryable, id: string, owner: string): Promise<void> {
  await db.query(
    `UPDATE media SET status = regexp_replace(status, '^processing_', 'queue_'), lease_owner = NULL, lease_expires_at = NULL,
       updated_at = clock_timestamp(), attempts = GREATEST(attempts - 1, 0),
       items = (SELECT COALESCE(jsonb_agg(item || '{"status":"new"}'::jsonb), '[]'::jsonb) FROM jsonb_array_elements(items) AS item)
     WHERE id = $1 AND status = ANY($3::text[]) AND lease_owner = $2`,
    [id, owner, PROCESSING_STATUSES],
  );
}

/**
 * Ends this worker's stage of a job and queues the next one (`queue_{next}`), only if the job is
 * still this worker's live job. What the stage made is committed with it (`items`, and the file
 * rows the caller inserts in `tx`), so a restart resumes at the next stage. Attempts start again
 * at 0: MAX_JOB_ATTEMPTS counts the takeovers of one stage.
 */
export async function advanceJob(
  tx: Queryable,
  id: string,
  owner: string,
  next: JobStage,
  change: { progress: number; items?: StoredItem[] },
): Promise<MediaRow | null> {
  const { rows } = await tx.query<MediaRow>(
    `UPDATE media SET status = $3, progress = GREATEST(progress, $4), lease_owner = NULL, lease_expires_at = NULL, attempts = 0,
       items = (SELECT COALESCE(jsonb_agg(item || '{"status":"new"}'::jsonb), '[]'::jsonb) FROM jsonb_array_elements(COALESCE($5::jsonb, items)) AS item),
       updated_at = clock_timestamp()
     WHERE id = $1 AND lease_owner = $2 AND status = ANY($6::text[]) RETURNING ${mediaColumns}`,
    [id, owner, queueStatus(next), change.progress, change.items ? JSON.stringify(change.items) : null, PROCESSING_STATUSES],
  );
  return rows[0] ?? null;
}

/**
 * Marks the job done with its result items, only if it is still this worker's live job. `version`
 * "3" says the items' files live at paths below base_url (SPEC §3).
 */
export async function completeJob(
  tx: Queryable,
  id: string,
  owner: string,
  status: string,
  items: StoredItem[],
  options: { version?: string } = {},
): Promise<MediaRow | null> {
  const { rows } = await tx.query<MediaRow>(
    `UPDATE media SET status = $3, progress = 100, items = $4::jsonb, lease_owner = NULL, lease_expires_at = NULL,
       version = COALESCE($6, version), updated_at = clock_timestamp(), finished_at = clock_timestamp()
     WHERE id = $1 AND lease_owner = $2 AND status = ANY($5::text[]) RETURNING ${mediaColumns}`,
    [id, owner, status, JSON.stringify(items), PROCESSING_STATUSES, options.version ?? null],
  );
  return rows[0] ?? null;
}

/**
 * Removes every media item of these users (the guest's weekly clean-up, a deleted account): live
 * jobs are cancelled and refunded first, then the rows go with their file rows. Answers the ids, so
 * the caller can remove their folders once `tx` has committed (the engine's sweep does otherwise).
 */
export async function deleteMediaOfUsers(tx: Queryable, userSubs: readonly string[]): Promise<string[]> {
  if (userSubs.length === 0) return [];
  const live = await tx.query<{ id: string }>('SELECT id FROM media WHERE user_sub = ANY($1::text[]) AND status = ANY($2::text[])', [
    userSubs,
    LIVE_STATUSES,
  ]);
  for (const { id } of live.rows) await endJobWithRefund(tx, id, 'cancelled', null);
  const { rows } = await tx.query<{ id: string }>('DELETE FROM media WHERE user_sub = ANY($1::text[]) RETURNING id', [userSubs]);
  return rows.map((row) => row.id);
}

/** GET media/{id}/processing-status reads only these columns (it is polled often, without auth). */
export interface ProcessingStatusRow {
  id: string;
  status: string;
  progress: number;
  items: StoredItem[];
  updated_at: Date;
  /** Issue 21 item 2: its owner holds it (it waits until resumed). */
  held: boolean;
  /** Issue 21 item 2: a waiting job's place among its owner's waiting jobs (1 = next), else null. */
  queue_position: number | null;
}

/** The progress of several jobs in one query, by id (an unknown id is absent). */
export async function findProcessingStatuses(db: Queryable, ids: readonly string[]): Promise<Map<string, ProcessingStatusRow>> {
  if (ids.length === 0) return new Map();
  // The position is counted only for a waiting job, among its owner's (an index range of theirs).
  const { rows } = await db.query<ProcessingStatusRow>(
    `SELECT id, status, progress, items, updated_at, held_at IS NOT NULL AS held,
       CASE WHEN status = $2 AND held_at IS NULL THEN (
         SELECT count(*)::integer + 1 FROM media AS ahead
         WHERE ahead.user_sub = job.user_sub AND ahead.status = $2 AND ahead.held_at IS NULL AND (ahead.queue_at, ahead.id) < (job.queue_at, job.id)
       ) END AS queue_position
     FROM media AS job WHERE id = ANY($1::text[])`,
    [ids, QUEUED_STATUS],
  );
  return new Map(rows.map((row) => [row.id, row]));
}

/** Statuses of several jobs at once (the engine's one poller for every async_mode=false waiter). */
export async function statusesOf(db: Queryable, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ id: string; status: string }>('SELECT id, status FROM media WHERE id = ANY($1::text[])', [ids]);
  return new Map(rows.map((row) => [row.id, row.status]));
}
