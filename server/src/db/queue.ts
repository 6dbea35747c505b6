import type { Queryable } from './database.ts';
import { mediaColumns, QUEUED_STATUS, type MediaRow } from './media.ts';

/**
 * A queue the person controls (issue 21 item 2; migration 17): their own jobs that have not
 * started (`queue_source`) may be held, resumed, run next or edited. Each change is conditional on
 * the job still waiting, so a worker's claim and the change never both win: the claim takes only
 * a row not held, and a change finds no waiting row once the claim has it (null: the caller says
 * 409). The claim's side is claimNextJob (media.ts).
 */

/** Held: the claim passes it by until its owner resumes it. Null when it is not a waiting job of theirs. */
export async function holdJob(db: Queryable, id: string, userSub: string): Promise<MediaRow | null> {
  const { rows } = await db.query<MediaRow>(
    `UPDATE media SET held_at = COALESCE(held_at, clock_timestamp()), updated_at = clock_timestamp()
     WHERE id = $1 AND user_sub = $2 AND status = $3 RETURNING ${mediaColumns}`,
    [id, userSub, QUEUED_STATUS],
  );
  return rows[0] ?? null;
}

/** Back in the queue at the place it had (its queue_at is kept). Null when it is not a waiting job of theirs. */
export async function resumeJob(db: Queryable, id: string, userSub: string): Promise<MediaRow | null> {
  const { rows } = await db.query<MediaRow>(
    `UPDATE media SET held_at = NULL, updated_at = clock_timestamp()
     WHERE id = $1 AND user_sub = $2 AND status = $3 RETURNING ${mediaColumns}`,
    [id, userSub, QUEUED_STATUS],
  );
  return rows[0] ?? null;
}

/**
 * Run next: the job takes the place just before its owner's first waiting job (a microsecond
 * earlier), so it is the next of theirs to start, and no one else's job waits longer for it: it
 * only borrows a place its owner already had. A held job is resumed by it. Null when it is not a
 * waiting job of theirs.
 */
export async function runJobNext(db: Queryable, id: string, userSub: string): Promise<MediaRow | null> {
  const { rows } = await db.query<MediaRow>(
    `UPDATE media SET held_at = NULL, updated_at = clock_timestamp(),
       queue_at = LEAST(queue_at, (
         SELECT min(first.queue_at) - interval '1 microsecond' FROM media AS first
         WHERE first.user_sub = $2 AND first.status = $3 AND first.held_at IS NULL AND first.id <> $1
       ))
     WHERE id = $1 AND user_sub = $2 AND status = $3 RETURNING ${mediaColumns}`,
    [id, userSub, QUEUED_STATUS],
  );
  return rows[0] ?? null;
}

/** The person's waiting job, locked for an edit in `tx`; null once it has started, ended or gone. */
export async function lockWaitingJob(tx: Queryable, id: string, userSub: string): Promise<MediaRow | null> {
  const { rows } = await tx.query<MediaRow>(
    `SELECT ${mediaColumns} FROM media WHERE id = $1 AND user_sub = $2 AND status = $3 FOR UPDATE`,
    [id, userSub, QUEUED_STATUS],
  );
  return rows[0] ?? null;
}

/** What an edit changes of a waiting job (its price already re-quoted). */
export interface QueuedJobChange {
  option: string;
  args: Record<string, unknown>;
  inputs: MediaRow['inputs'];
  cost: number;
}

/** Writes an edit of a waiting job locked by lockWaitingJob, in the same `tx`. */
export async function updateWaitingJob(tx: Queryable, id: string, change: QueuedJobChange): Promise<MediaRow> {
  const { rows } = await tx.query<MediaRow>(
    `UPDATE media SET option = $2, args = $3::jsonb, inputs = $4::jsonb, cost = $5, charged = $5 > 0, updated_at = clock_timestamp()
     WHERE id = $1 RETURNING ${mediaColumns}`,
    [id, change.option, JSON.stringify(change.args), JSON.stringify(change.inputs), change.cost],
  );
  const row = rows[0];
  if (!row) throw new Error(`the waiting job ${id} was not updated`);
  return row;
}

/**
 * Each of the person's waiting jobs (not held) by id, with its place among them in the order the
 * claim takes them (1 = next), in one query: the History page's rows and the queue calls' answers.
 */
export async function queuePositions(db: Queryable, userSub: string): Promise<Map<string, number>> {
  const { rows } = await db.query<{ id: string; position: number }>(
    `SELECT id, (row_number() OVER (ORDER BY queue_at, id))::integer AS position FROM media
     WHERE user_sub = $1 AND status = $2 AND held_at IS NULL`,
    [userSub, QUEUED_STATUS],
  );
  return new Map(rows.map((row) => [row.id, row.position]));
}
