import type { Database, Queryable } from './database.ts';

/**
 * Idempotency keys of credit-spending POSTs (ARCHITECTURE.md §4), per user: the first request with
 * a key runs and its answer is kept; the same key with the same body gets that answer again.
 */

/** Keys are kept this long; an older key counts as never used. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * A key still pending after this long belonged to a request whose server died mid-way (a live
 * handler answers in seconds, or in at most 5 min for async_mode=false, which keeps its key fresh
 * with touchIdempotencyKey): a retry may take it over instead of getting 409 forever.
 */
export const IDEMPOTENCY_PENDING_STALE_MS = 2 * 60 * 1000;

export type IdempotencyClaim =
  | { status: 'claimed' }
  /** `mediaId` set: the answer is that media as it is now (fresh links), with the first status. */
  | { status: 'replay'; responseStatus: number; responseBody: unknown; mediaId: string | null }
  | { status: 'mismatch' }
  | { status: 'in-progress' };

interface KeyRow {
  request_hash: string;
  state: 'pending' | 'done';
  response_status: number | null;
  response_body: unknown;
  media_id: string | null;
  expired: boolean;
  stale: boolean;
  created_at: Date;
}

/**
 * Claims `key` for a request whose body hashes to `requestHash`. Inside one transaction that
 * locks the key's row, so of two concurrent requests with one key exactly one is `claimed`.
 */
export async function claimIdempotencyKey(
  db: Database,
  userSub: string,
  key: string,
  requestHash: string,
): Promise<IdempotencyClaim> {
  return db.transaction(async (tx): Promise<IdempotencyClaim> => {
    const inserted = await tx.query(
      `INSERT INTO idempotency_keys (user_sub, key, request_hash, state) VALUES ($1, $2, $3, 'pending')
       ON CONFLICT (user_sub, key) DO NOTHING`,
      [userSub, key, requestHash],
    );
    if (inserted.rowCount > 0) return { status: 'claimed' };
    const { rows } = await tx.query<KeyRow>(
      `SELECT request_hash, state, response_status, response_body, media_id, created_at,
         created_at < clock_timestamp() - make_interval(secs => $3::double precision / 1000) AS expired,
         created_at < clock_timestamp() - make_interval(secs => $4::double precision / 1000) AS stale
       FROM idempotency_keys WHERE user_sub = $1 AND key = $2 FOR UPDATE`,
      [userSub, key, IDEMPOTENCY_KEY_TTL_MS, IDEMPOTENCY_PENDING_STALE_MS],
    );
    const row = rows[0];
    const takeOver = async (): Promise<IdempotencyClaim> => {
      await tx.query(
        `UPDATE idempotency_keys SET request_hash = $3, state = 'pending', response_status = NULL, response_body = NULL,
           media_id = NULL, created_at = clock_timestamp() WHERE user_sub = $1 AND key = $2`,
        [userSub, key, requestHash],
      );
      return { status: 'claimed' };
    };
    // Freed between our INSERT and SELECT (the first request failed): take it.
    if (!row) {
      await tx.query(
        `INSERT INTO idempotency_keys (user_sub, key, request_hash, state) VALUES ($1, $2, $3, 'pending')`,
        [userSub, key, requestHash],
      );
      return { status: 'claimed' };
    }
    if (row.expired) return takeOver();
    if (row.request_hash !== requestHash) return { status: 'mismatch' };
    if (row.state === 'done') {
      return { status: 'replay', responseStatus: row.response_status ?? 200, responseBody: row.response_body, mediaId: row.media_id };
    }
    if (row.stale && row.media_id !== null) {
      // Its server died after the job and its debit were committed but before the key was marked
      // done: the request did happen, so the retry gets that media, never a second job and debit.
      await tx.query(`UPDATE idempotency_keys SET state = 'done', response_status = 200 WHERE user_sub = $1 AND key = $2`, [userSub, key]);
      return { status: 'replay', responseStatus: 200, responseBody: null, mediaId: row.media_id };
    }
    if (row.stale) return takeOver();
    return { status: 'in-progress' };
  });
}

/**
 * Ties a pending key to the media its request created. Called inside the transaction that inserts
 * the job and debits it, so "paid" and "the key knows what was paid for" commit together.
 */
export async function bindIdempotencyMedia(tx: Queryable, userSub: string, key: string, mediaId: string): Promise<void> {
  await tx.query(`UPDATE idempotency_keys SET media_id = $3 WHERE user_sub = $1 AND key = $2 AND state = 'pending'`, [
    userSub,
    key,
    mediaId,
  ]);
}

/**
 * Keeps the answer of a request that succeeded, for replays. An answer about a media item keeps
 * only its id (replays rebuild it with fresh links); any other answer is kept as it was.
 */
export async function completeIdempotencyKey(
  db: Database,
  userSub: string,
  key: string,
  responseStatus: number,
  responseBody: unknown,
  mediaId: string | null = null,
): Promise<void> {
  await db.query(
    `UPDATE idempotency_keys SET state = 'done', response_status = $3, response_body = $4::jsonb, media_id = COALESCE($5, media_id)
     WHERE user_sub = $1 AND key = $2 AND state = 'pending'`,
    [userSub, key, responseStatus, mediaId === null ? JSON.stringify(responseBody) : null, mediaId],
  );
}

/**
 * A request that failed frees its key: a retry with the same key may succeed. A key already bound
 * to a committed job (it failed after paying) is kept: a retry replays that job, never pays again.
 */
export async function releaseIdempotencyKey(db: Database, userSub: string, key: string): Promise<void> {
  await db.query(`DELETE FROM idempotency_keys WHERE user_sub = $1 AND key = $2 AND state = 'pending' AND media_id IS NULL`, [userSub, key]);
}

/** Keeps a long-running request's key from looking abandoned (async_mode=false waits up to 5 min). */
export async function touchIdempotencyKey(db: Database, userSub: string, key: string): Promise<void> {
  await db.query(
    `UPDATE idempotency_keys SET created_at = clock_timestamp() WHERE user_sub = $1 AND key = $2 AND state = 'pending'`,
    [userSub, key],
  );
}

/** Removes keys past their 24 h (run now and then by the job engine). */
export async function pruneIdempotencyKeys(db: Database): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM idempotency_keys WHERE created_at < clock_timestamp() - make_interval(secs => $1::double precision / 1000)`,
    [IDEMPOTENCY_KEY_TTL_MS],
  );
  return rowCount;
}
