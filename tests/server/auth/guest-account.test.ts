import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { STARTING_CREDIT_GRANT } from '../../../server/src/config.ts';
import { appendLedgerEntry, creditBalance } from '../../../server/src/db/credit-ledger.ts';
import { openDatabase, type Database } from '../../../server/src/db/database.ts';
import { ensureUser, usesLogoVariant } from '../../../server/src/db/users.ts';
import {
  cleanGuestContent,
  createGuestCleanup,
  GUEST_CLEANUP_TASK,
  parseCleanupInterval,
  type GuestContentCleaner,
} from '../../../server/src/scheduler/guest-cleanup.ts';
import { createScheduledTask } from '../../../server/src/scheduler/scheduled-task.ts';
import { loadTemplate, openTestDatabase } from '../helpers/database-template.ts';
import { callApi, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/**
 * A fresh database: in memory, a copy of the run's migrated template (PostgreSQL's initdb is most
 * of a new PGlite's seconds); in `dataDir`, opened as the server opens its own.
 */
async function freshDb(dataDir?: string): Promise<Database> {
  const db = dataDir ? await openDatabase({ dataDir }) : await openTestDatabase();
  cleanups.push(() => db.close());
  return db;
}

const guest = { sub: 'sub-guest', username: 'guest', email: 'guest@kinora.local', preferredUsername: null };
const member = { sub: 'sub-member', username: 'member', email: 'member@example.test', preferredUsername: null };

async function ledgerKinds(db: Database, sub: string): Promise<{ kind: string; amount: number }[]> {
  const { rows } = await db.query<{ kind: string; amount: number }>(
    'SELECT kind, amount FROM credit_ledger WHERE user_sub = $1 ORDER BY id',
    [sub],
  );
  return rows;
}

describe('the logo flag', () => {
  it('is set for the guest account and for no one else', async () => {
    const db = await freshDb();
    await ensureUser(db, guest);
    await ensureUser(db, member);
    await expect(usesLogoVariant(db, guest.sub)).resolves.toBe(true);
    await expect(usesLogoVariant(db, member.sub)).resolves.toBe(false);
    await expect(usesLogoVariant(db, 'sub-unknown')).resolves.toBe(false);
  });
});

describe('one clean-up', () => {
  it('runs every content cleaner on the guest only, then resets the guest balance to the starting grant', async () => {
    const db = await freshDb();
    await ensureUser(db, guest);
    await ensureUser(db, member);
    await appendLedgerEntry(db, { userSub: guest.sub, amount: 50, kind: 'coupon', reason: 'Coupon WELCOME50' });
    await appendLedgerEntry(db, { userSub: member.sub, amount: 30, kind: 'purchase', reason: 'bought' });
    const seen: (readonly string[])[] = [];
    const cleaner: GuestContentCleaner = {
      name: 'test-items',
      async clean(_tx, subs) {
        seen.push(subs);
        return 3;
      },
    };

    const result = await db.transaction((tx) => cleanGuestContent(tx, [cleaner]));

    expect(seen).toEqual([[guest.sub]]);
    expect(result).toEqual({ guests: 1, removed: { 'test-items': 3 }, creditChanges: [-50] });
    expect(await creditBalance(db, guest.sub)).toBe(STARTING_CREDIT_GRANT);
    expect((await ledgerKinds(db, guest.sub)).at(-1)).toEqual({ kind: 'reset', amount: -50 });
    expect(await creditBalance(db, member.sub)).toBe(STARTING_CREDIT_GRANT + 30);
  });

  it('tops a spent guest balance back up, and writes no row when it already is the grant', async () => {
    const db = await freshDb();
    await ensureUser(db, guest);
    await appendLedgerEntry(db, { userSub: guest.sub, amount: -STARTING_CREDIT_GRANT, kind: 'debit', reason: 'spent it all' });

    await db.transaction((tx) => cleanGuestContent(tx, []));
    expect(await creditBalance(db, guest.sub)).toBe(STARTING_CREDIT_GRANT);
    const rows = (await ledgerKinds(db, guest.sub)).length;

    const again = await db.transaction((tx) => cleanGuestContent(tx, []));
    expect(again.creditChanges).toEqual([]);
    expect(await ledgerKinds(db, guest.sub)).toHaveLength(rows);
  });

  it('does nothing while the guest has never signed in', async () => {
    const db = await freshDb();
    await ensureUser(db, member);
    await expect(db.transaction((tx) => cleanGuestContent(tx, []))).resolves.toEqual({
      guests: 0,
      removed: {},
      creditChanges: [],
    });
  });

  it('rolls back everything when a cleaner fails', async () => {
    const db = await freshDb();
    await ensureUser(db, guest);
    await appendLedgerEntry(db, { userSub: guest.sub, amount: 50, kind: 'coupon', reason: 'Coupon WELCOME50' });
    const failing: GuestContentCleaner = {
      name: 'failing',
      clean: () => Promise.reject(new Error('disk gone')),
    };
    await expect(db.transaction((tx) => cleanGuestContent(tx, [failing]))).rejects.toThrow('disk gone');
    expect(await creditBalance(db, guest.sub)).toBe(STARTING_CREDIT_GRANT + 50);
  });
});

describe('the schedule', () => {
  const nextRunAt = async (db: Database): Promise<number> => {
    const { rows } = await db.query<{ next_run_at: Date }>('SELECT next_run_at FROM scheduled_tasks WHERE name = $1', [
      GUEST_CLEANUP_TASK,
    ]);
    const value = rows[0]?.next_run_at;
    if (!value) throw new Error('no schedule row');
    return new Date(value).getTime();
  };

  it('defaults to a week and refuses a meaningless interval', () => {
    expect(parseCleanupInterval(undefined)).toBe(7 * 24 * 60 * 60 * 1000);
    expect(parseCleanupInterval('25')).toBe(25);
    for (const bad of ['0', '-5', '1.5', 'weekly']) expect(() => parseCleanupInterval(bad)).toThrow(/positive whole number/);
  });

  it('first runs one interval after the first start, and a restart keeps the stored time', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'kinora-schedule-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const week = 7 * 24 * 60 * 60 * 1000;
    // The data folder starts as a copy of the run's migrated template: the restart below is what
    // this test is about, not PostgreSQL's initdb (database.test.ts migrates a folder from empty).
    const first = await openDatabase({ dataDir: dir, template: await loadTemplate() });
    const before = Date.now();
    const task = createGuestCleanup({ db: first, intervalMs: week });
    await task.start();
    await task.stop();
    const stored = await nextRunAt(first);
    expect(stored).toBeGreaterThanOrEqual(before + week - 1000);
    await expect(task.runIfDue()).resolves.toBe('not-due');
    await first.close();

    const second = await freshDb(dir);
    await sleep(20);
    const restarted = createGuestCleanup({ db: second, intervalMs: week });
    await restarted.start();
    await restarted.stop();
    expect(await nextRunAt(second)).toBe(stored);
  });

  it('runs once per interval when due and moves next_run_at on by one interval', async () => {
    const db = await freshDb();
    await ensureUser(db, guest);
    const hour = 60 * 60 * 1000;
    const task = createGuestCleanup({ db, intervalMs: hour });
    await task.start();
    await task.stop();
    await db.query("UPDATE scheduled_tasks SET next_run_at = now() - interval '1 minute' WHERE name = $1", [GUEST_CLEANUP_TASK]);
    const due = await nextRunAt(db);

    await expect(task.runIfDue()).resolves.toBe('ran');
    expect(await nextRunAt(db)).toBe(due + hour);
    await expect(task.runIfDue()).resolves.toBe('not-due');
    const { rows } = await db.query<{ last_result: { guests: number } }>('SELECT last_result FROM scheduled_tasks WHERE name = $1', [
      GUEST_CLEANUP_TASK,
    ]);
    expect(rows[0]?.last_result.guests).toBe(1);
  });

  it('lets exactly one of two schedulers on one database run a due clean-up', async () => {
    const db = await freshDb();
    await ensureUser(db, guest);
    await appendLedgerEntry(db, { userSub: guest.sub, amount: 50, kind: 'coupon', reason: 'Coupon WELCOME50' });
    let runs = 0;
    const counting: GuestContentCleaner = {
      name: 'counting',
      async clean() {
        runs += 1;
        await sleep(30);
        return 0;
      },
    };
    const serverA = createGuestCleanup({ db, intervalMs: 60 * 60 * 1000, cleaners: [counting] });
    const serverB = createGuestCleanup({ db, intervalMs: 60 * 60 * 1000, cleaners: [counting] });
    await serverA.start();
    await serverB.start();
    await serverA.stop();
    await serverB.stop();
    await db.query("UPDATE scheduled_tasks SET next_run_at = now() - interval '1 second' WHERE name = $1", [GUEST_CLEANUP_TASK]);

    const outcomes = await Promise.all([serverA.runIfDue(), serverB.runIfDue()]);

    expect(outcomes.filter((outcome) => outcome === 'ran')).toHaveLength(1);
    expect(runs).toBe(1);
    expect((await ledgerKinds(db, guest.sub)).filter((row) => row.kind === 'reset')).toHaveLength(1);
  });

  it('a failed run is retried at the next check and does not move the schedule', async () => {
    const db = await freshDb();
    let attempts = 0;
    const errors: unknown[] = [];
    const task = createScheduledTask({
      db,
      name: 'flaky',
      intervalMs: 40,
      checkEveryMs: 10,
      onError: (error) => errors.push(error),
      async run() {
        attempts += 1;
        if (attempts === 1) throw new Error('first run fails');
        return { attempt: attempts };
      },
    });
    await task.start();
    await expect.poll(() => attempts, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
    await task.stop();
    expect(errors).toHaveLength(1);
    const { rows } = await db.query<{ last_result: { attempt: number } }>('SELECT last_result FROM scheduled_tasks WHERE name = $1', [
      'flaky',
    ]);
    expect(rows[0]?.last_result.attempt).toBeGreaterThanOrEqual(2);
  });
});

describe('the server with a millisecond clean-up interval', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ guestCleanup: { intervalMs: 150, checkEveryMs: 25 } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('gives the guest account the logo flag on its first call and keeps resetting its credits', async () => {
    const guestUser = await server.emulator.createUser({ username: 'guest', email: 'guest@kinora.local', password: 'kinora-guest' });
    const someone = await signUpUser(server, 'member');
    expect((await callApi(server, 'credits/get', { token: guestUser.accessToken })).status).toBe(200);
    expect((await callApi(server, 'credits/get', { token: someone.accessToken })).status).toBe(200);
    await expect(usesLogoVariant(server.db, guestUser.sub)).resolves.toBe(true);
    await expect(usesLogoVariant(server.db, someone.sub)).resolves.toBe(false);

    // The guest redeems a coupon; the member too. Only the guest's balance goes back.
    expect((await callApi(server, 'coupon/WELCOME50', { token: guestUser.accessToken })).status).toBe(200);
    expect((await callApi(server, 'coupon/WELCOME50', { token: someone.accessToken })).status).toBe(200);
    const balance = async (token: string) =>
      (await callApi<{ credit: number }>(server, 'credits/get', { token })).body?.data?.credit;

    await expect.poll(() => balance(guestUser.accessToken), { timeout: 10_000 }).toBe(STARTING_CREDIT_GRANT);
    expect(await balance(someone.accessToken)).toBe(STARTING_CREDIT_GRANT + 50);
    const { rows } = await server.db.query<{ n: number }>(
      "SELECT count(*)::integer AS n FROM credit_ledger WHERE user_sub = $1 AND kind = 'reset'",
      [guestUser.sub],
    );
    expect(rows[0]?.n).toBe(1);
    // Runs keep coming, every interval.
    const runAt = async () =>
      (await server.db.query<{ last_run_at: Date }>('SELECT last_run_at FROM scheduled_tasks WHERE name = $1', [GUEST_CLEANUP_TASK]))
        .rows[0]?.last_run_at;
    const first = new Date((await runAt()) ?? 0).getTime();
    await expect.poll(async () => new Date((await runAt()) ?? 0).getTime(), { timeout: 10_000 }).toBeGreaterThan(first);
  });
});
