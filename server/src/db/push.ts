import { LIVE_STATUSES } from './media.ts';
import type { Queryable } from './database.ts';

/**
 * Done alerts' rows (migration 19, server/src/db/migrations-push.ts): the browsers' push
 * subscriptions, the person's opt-in, and the claim that makes a finished job's alert go out once.
 */

export interface PushSubscriptionRow {
  endpoint: string;
  user_sub: string;
  p256dh: string;
  auth: string;
}

/** Statuses whose end is announced: SPEC §4's successes, failed and nsfw (never a cancel the person made). */
export const ALERTED_STATUSES: readonly string[] = ['success', 'success_image', 'failed', 'nsfw'];

/**
 * Stores a browser's subscription for `userSub` and turns the person's alerts on, in `tx`. A known
 * endpoint is taken over with its new keys: one browser is one row, whoever signed in on it last.
 */
export async function saveSubscription(tx: Queryable, userSub: string, subscription: Omit<PushSubscriptionRow, 'user_sub'>): Promise<void> {
  await tx.query(
    `INSERT INTO push_subscriptions (endpoint, user_sub, p256dh, auth) VALUES ($1, $2, $3, $4)
     ON CONFLICT (endpoint) DO UPDATE SET user_sub = EXCLUDED.user_sub, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth,
       last_error = NULL, last_error_at = NULL`,
    [subscription.endpoint, userSub, subscription.p256dh, subscription.auth],
  );
  await setPushAlerts(tx, userSub, true);
}

/** Removes the caller's own subscription of this endpoint (another person's is left alone). */
export async function removeSubscription(db: Queryable, userSub: string, endpoint: string): Promise<void> {
  await db.query('DELETE FROM push_subscriptions WHERE endpoint = $1 AND user_sub = $2', [endpoint, userSub]);
}

/** The push service said the subscription is gone (404/410): it is deleted, whoever owns it. */
export async function forgetSubscription(db: Queryable, endpoint: string): Promise<void> {
  await db.query('DELETE FROM push_subscriptions WHERE endpoint = $1', [endpoint]);
}

/** A send that failed otherwise: kept on the row for whoever looks into it. */
export async function recordPushError(db: Queryable, endpoint: string, error: string): Promise<void> {
  await db.query('UPDATE push_subscriptions SET last_error = $2, last_error_at = clock_timestamp() WHERE endpoint = $1', [
    endpoint,
    error.slice(0, 500),
  ]);
}

export async function setPushAlerts(db: Queryable, userSub: string, on: boolean): Promise<void> {
  await db.query('UPDATE users SET push_alerts = $2 WHERE sub = $1', [userSub, on]);
}

export async function pushAlertsOn(db: Queryable, userSub: string): Promise<boolean> {
  const { rows } = await db.query<{ push_alerts: boolean }>('SELECT push_alerts FROM users WHERE sub = $1', [userSub]);
  return rows[0]?.push_alerts ?? false;
}

/** Where the person's alerts go: nowhere unless they opted in (and their account is not deleted). */
export async function alertSubscriptions(db: Queryable, userSub: string): Promise<PushSubscriptionRow[]> {
  const { rows } = await db.query<PushSubscriptionRow>(
    `SELECT s.endpoint, s.user_sub, s.p256dh, s.auth FROM push_subscriptions s JOIN users u ON u.sub = s.user_sub
     WHERE s.user_sub = $1 AND u.push_alerts AND u.deleted_at IS NULL ORDER BY s.created_at`,
    [userSub],
  );
  return rows;
}

/** A finished job as its alert words it. */
export interface AlertedJob {
  id: string;
  user_sub: string;
  tool: string;
  status: string;
  error: string | null;
}

/** The group a job belongs to: its alert waits for the group's last part (a story step, a batch's clips). */
export interface JobGroup {
  column: 'story_id' | 'batch_id';
  id: string;
  tool: string;
}

export async function jobGroupOf(db: Queryable, jobId: string): Promise<JobGroup | null> {
  const { rows } = await db.query<{ story_id: string | null; batch_id: string | null; tool: string }>(
    'SELECT story_id, batch_id, tool FROM media WHERE id = $1',
    [jobId],
  );
  const row = rows[0];
  if (row?.story_id) return { column: 'story_id', id: row.story_id, tool: row.tool };
  if (row?.batch_id) return { column: 'batch_id', id: row.batch_id, tool: row.tool };
  return null;
}

const alertedColumns = 'id, user_sub, tool, status, error';

/**
 * Takes a finished job's alert: answers the job when this call is the one to announce it, null when
 * it has not finished (a stage handed over, a cancel), belongs to a group, or was announced already.
 * One UPDATE, so two processes that both see the end cannot both send.
 */
export async function claimJobAlert(db: Queryable, jobId: string): Promise<AlertedJob | null> {
  const { rows } = await db.query<AlertedJob>(
    `UPDATE media SET alerted_at = clock_timestamp()
     WHERE id = $1 AND alerted_at IS NULL AND status = ANY($2::text[]) AND story_id IS NULL AND batch_id IS NULL
     RETURNING ${alertedColumns}`,
    [jobId, ALERTED_STATUSES],
  );
  return rows[0] ?? null;
}

/**
 * Takes the alert of a group's finished parts once none is live any more: answers the parts not
 * announced yet (empty while a part still runs, or when another process took them). Under READ
 * COMMITTED a second UPDATE waits for the first's row locks and then skips the rows it marked, and
 * whichever part ends last sees every other part ended, so the step is announced exactly once.
 */
export async function claimGroupAlert(db: Queryable, group: JobGroup): Promise<AlertedJob[]> {
  const { column } = group;
  const { rows } = await db.query<AlertedJob>(
    `UPDATE media SET alerted_at = clock_timestamp()
     WHERE ${column} = $1 AND tool = $2 AND alerted_at IS NULL AND status = ANY($3::text[])
       AND NOT EXISTS (SELECT 1 FROM media live WHERE live.${column} = $1 AND live.tool = $2 AND live.status = ANY($4::text[]))
     RETURNING ${alertedColumns}`,
    [group.id, group.tool, ALERTED_STATUSES, LIVE_STATUSES],
  );
  return rows;
}
