import { GUEST_USERNAME } from '../../../src/config/limits.ts';
import { STARTING_CREDIT_GRANT } from '../config.ts';
import { appendLedgerEntry, creditBalance } from '../db/credit-ledger.ts';
import type { Database, Queryable } from '../db/database.ts';
import { deleteBatchesOfUsers } from '../db/batch.ts';
import { deleteMediaOfUsers } from '../db/media.ts';
import { deleteStoriesOfUsers } from '../db/stories.ts';
import { createScheduledTask, type ScheduledTask } from './scheduled-task.ts';

/**
 * Removes one kind of content the shared guest account owns (SPEC §6: "deleted weekly"). Each
 * owner of guest content registers one in GUEST_CONTENT_CLEANERS (the job engine: its jobs and
 * media). It runs inside the clean-up's transaction and answers how many items it removed.
 */
export interface GuestContentCleaner {
  name: string;
  clean(tx: Queryable, guestSubs: readonly string[]): Promise<number>;
}

/**
 * The guest's media: generated and uploaded items with their file rows (a live job is cancelled and
 * refunded first, as for a deleted account; its worker sees the row gone and stops). The files on
 * disk are removed by the job engine's sweep of folders without a media row, after this
 * transaction has committed.
 */
export const GUEST_MEDIA_CLEANER: GuestContentCleaner = {
  name: 'media',
  // Albums and stories first (their live jobs are cancelled and refunded with them), then every other item.
  clean: async (tx, guestSubs) =>
    (await deleteBatchesOfUsers(tx, guestSubs)).length +
    (await deleteStoriesOfUsers(tx, guestSubs)).length +
    (await deleteMediaOfUsers(tx, guestSubs)).length,
};

/**
 * Contact-us messages are not content (they are the team's inbox, not shown to other guests) and
 * coupon redemptions and refunds are the ledger's record; both are kept.
 */
export const GUEST_CONTENT_CLEANERS: readonly GuestContentCleaner[] = [GUEST_MEDIA_CLEANER];

export const GUEST_CLEANUP_TASK = 'guest-cleanup';
/** SPEC §6: the guest's content is deleted weekly. */
export const DEFAULT_GUEST_CLEANUP_INTERVAL_MS = 7 * 24 * 60 * 60 * 1000;
export const GUEST_RESET_REASON = 'Weekly guest reset';

export interface GuestCleanupResult extends Record<string, unknown> {
  guests: number;
  removed: Record<string, number>;
  /** Ledger rows written: the signed change that brought each guest back to the starting grant. */
  creditChanges: number[];
}

/**
 * One clean-up: every content cleaner, then each guest's balance back to the starting grant with
 * one 'reset' ledger row (none when it already is; the result is never negative).
 */
export async function cleanGuestContent(
  tx: Queryable,
  cleaners: readonly GuestContentCleaner[] = GUEST_CONTENT_CLEANERS,
): Promise<GuestCleanupResult> {
  // Locking the rows also holds back the guest's debits (the ledger guard locks the same row).
  const { rows } = await tx.query<{ sub: string }>(
    'SELECT sub FROM users WHERE lower(username) = $1 AND deleted_at IS NULL ORDER BY sub FOR UPDATE',
    [GUEST_USERNAME],
  );
  const subs = rows.map((row) => row.sub);
  const result: GuestCleanupResult = { guests: subs.length, removed: {}, creditChanges: [] };
  if (subs.length === 0) return result;
  for (const cleaner of cleaners) result.removed[cleaner.name] = await cleaner.clean(tx, subs);
  for (const sub of subs) {
    const change = STARTING_CREDIT_GRANT - (await creditBalance(tx, sub));
    if (change === 0) continue;
    await appendLedgerEntry(tx, { userSub: sub, amount: change, kind: 'reset', reason: GUEST_RESET_REASON });
    result.creditChanges.push(change);
  }
  return result;
}

export interface GuestCleanupOptions {
  db: Database;
  intervalMs?: number;
  cleaners?: readonly GuestContentCleaner[];
  checkEveryMs?: number;
  onError?(error: unknown): void;
}

/** The weekly guest clean-up, scheduled in the database (see createScheduledTask). */
export function createGuestCleanup(options: GuestCleanupOptions): ScheduledTask {
  return createScheduledTask({
    db: options.db,
    name: GUEST_CLEANUP_TASK,
    intervalMs: options.intervalMs ?? DEFAULT_GUEST_CLEANUP_INTERVAL_MS,
    checkEveryMs: options.checkEveryMs,
    onError: options.onError,
    run: (tx) => cleanGuestContent(tx, options.cleaners),
  });
}

/** KINORA_GUEST_CLEANUP_INTERVAL_MS: a positive whole number of milliseconds. */
export function parseCleanupInterval(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return DEFAULT_GUEST_CLEANUP_INTERVAL_MS;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed <= 0) {
    throw new Error(`KINORA_GUEST_CLEANUP_INTERVAL_MS must be a positive whole number of milliseconds (got "${value}")`);
  }
  return parsed;
}
