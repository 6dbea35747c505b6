import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STARTING_CREDIT_GRANT } from '../../../server/src/config.ts';
import { appendLedgerEntry, creditBalance } from '../../../server/src/db/credit-ledger.ts';
import { openDatabase, type Database } from '../../../server/src/db/database.ts';
import { ensureUser } from '../../../server/src/db/users.ts';
import { createGuestCleanup, GUEST_CLEANUP_TASK, GUEST_MEDIA_CLEANER, type GuestContentCleaner } from '../../../server/src/scheduler/guest-cleanup.ts';
import { freshPostgresUrl } from '../helpers/postgres.ts';

/**
 * Issue 20 item 3: the weekly guest clean-up runs once however many processes schedule it. Two
 * pools on one PostgreSQL database stand for two API processes; PGlite (one connection) cannot
 * show whether two transactions both find the task due.
 */

let first: Database;
let second: Database;
beforeAll(async () => {
  const url = await freshPostgresUrl();
  first = await openDatabase({ url });
  second = await openDatabase({ url });
});
afterAll(async () => {
  await second?.close();
  await first?.close();
});

describe('the guest clean-up on two processes', () => {
  it('runs once when both find it due at the same moment, then not again until the next week', async () => {
    let runs = 0;
    const counting: GuestContentCleaner = {
      name: 'counting',
      async clean(tx, subs) {
        runs += 1;
        // Held a moment inside the transaction, so the other process's check certainly overlaps it.
        await tx.query('SELECT pg_sleep(0.2)');
        return GUEST_MEDIA_CLEANER.clean(tx, subs);
      },
    };
    // The shared guest account has spent 30 credits: one run puts it back to the grant, with one row.
    const guest = await ensureUser(first, { sub: 'guest-sub-once', username: 'guest', email: 'guest@example.test', preferredUsername: null });
    await appendLedgerEntry(first, { userSub: guest.sub, amount: -30, kind: 'debit', reason: 'spent' });
    const spent = await creditBalance(first, guest.sub);
    const tasks = [first, second].map((db) => createGuestCleanup({ db, intervalMs: 7 * 24 * 3600 * 1000, cleaners: [counting], checkEveryMs: 3_600_000 }));
    await Promise.all(tasks.map((task) => task.start()));
    await first.query("UPDATE scheduled_tasks SET next_run_at = now() - interval '1 second' WHERE name = $1", [GUEST_CLEANUP_TASK]);

    const outcomes = await Promise.all([...tasks, ...tasks, ...tasks].map((task) => task.runIfDue()));
    expect(outcomes.filter((outcome) => outcome === 'ran')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === 'busy' || outcome === 'not-due')).toHaveLength(5);
    expect(runs).toBe(1);
    const { rows } = await first.query<{ later: boolean }>(
      "SELECT next_run_at > now() + interval '6 days' AS later FROM scheduled_tasks WHERE name = $1",
      [GUEST_CLEANUP_TASK],
    );
    expect(rows).toEqual([{ later: true }]);
    const { rows: resets } = await first.query<{ amount: number }>("SELECT amount FROM credit_ledger WHERE user_sub = $1 AND kind = 'reset'", [guest.sub]);
    expect(resets.map((row) => Number(row.amount))).toEqual([STARTING_CREDIT_GRANT - spent]);

    // Checked again at once, from both: not due (or busy, while the other holds the row to look).
    const again = await Promise.all(tasks.map((task) => task.runIfDue()));
    expect(again).not.toContain('ran');
    expect(again).toContain('not-due');
    expect(runs).toBe(1);
    await Promise.all(tasks.map((task) => task.stop()));
  });
});
