import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { appendLedgerEntry, creditBalance, isNegativeBalance } from '../../../server/src/db/credit-ledger.ts';
import { openDatabase, type Database } from '../../../server/src/db/database.ts';
import { MIGRATIONS, runMigrations } from '../../../server/src/db/migrations.ts';
import { SEED_COUPONS, SEED_PROMO_VIDEOS } from '../../../server/src/db/seed.ts';
import { ensureUser } from '../../../server/src/db/users.ts';
import { STARTING_CREDIT_GRANT } from '../../../server/src/config.ts';
import { loadTemplate, openTestDatabase } from '../helpers/database-template.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kinora-db-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function open(dataDir?: string): Promise<Database> {
  const db = await openDatabase({ dataDir });
  cleanups.push(() => db.close());
  return db;
}

const count = async (db: Database, table: string): Promise<number> =>
  (await db.query<{ n: number }>(`SELECT count(*)::integer AS n FROM ${table}`)).rows[0]?.n ?? -1;

describe('openDatabase', () => {
  // One migration from empty for the whole file (PGlite's first open fills its memory and runs
  // every migration: seconds alone, a minute when the browser tests share the two cores), so the
  // on-disk open that the reopen needs is also the one that checks the migrations; its own
  // timeout because it opens twice.
  it('runs every migration once, and opens the same data folder again without re-applying them or duplicating the seed', async () => {
    const dir = await tempDir();
    const first = await openDatabase({ dataDir: dir });
    const { rows } = await first.query<{ id: number }>('SELECT id FROM schema_migrations ORDER BY id');
    expect(rows.map((row) => row.id)).toEqual(MIGRATIONS.map((migration) => migration.id));
    expect(await runMigrations(first)).toEqual([]);
    expect(await count(first, 'coupons')).toBe(SEED_COUPONS.length);
    await first.close();

    const second = await open(dir);
    expect(await count(second, 'schema_migrations')).toBe(MIGRATIONS.length);
    expect(await count(second, 'coupons')).toBe(SEED_COUPONS.length);
    expect(await count(second, 'promo_videos')).toBe(SEED_PROMO_VIDEOS.length);
  }, 120_000);

  it('keeps users and ledger rows across a reopen', async () => {
    const dir = await tempDir();
    // A folder already migrated (a copy of the run's template, made by this same openDatabase on
    // a folder): what matters here is the reopen; the test above migrates from empty.
    const first = await openDatabase({ dataDir: dir, template: await loadTemplate() });
    await ensureUser(first, { sub: 'sub-persist', username: 'persist', email: 'persist@example.test', preferredUsername: null });
    await appendLedgerEntry(first, { userSub: 'sub-persist', amount: 25, kind: 'purchase', reason: 'test purchase' });
    await first.close();

    const second = await open(dir);
    expect(await creditBalance(second, 'sub-persist')).toBe(STARTING_CREDIT_GRANT + 25);
    const user = await ensureUser(second, { sub: 'sub-persist', username: 'persist', email: 'persist@example.test', preferredUsername: null });
    expect(user.email).toBe('persist@example.test');
    // Seeing the user again must not grant the starting credits a second time.
    expect(await creditBalance(second, 'sub-persist')).toBe(STARTING_CREDIT_GRANT + 25);
  });

  it('rejects a postgres URL that is not one', async () => {
    await expect(openDatabase({ url: 'mysql://localhost/kinora' })).rejects.toThrow(/postgres:\/\//);
  });
});

describe('credit ledger', () => {
  // One database for these tests (each uses its own user), a copy of the run's migrated template:
  // the first test above migrates from empty.
  let db: Database;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(async () => {
    await db.close();
  });

  it('grants the starting credits once, even to concurrent first calls', async () => {
    const user = { sub: 'sub-race', username: 'race', email: null, preferredUsername: null };
    await Promise.all(Array.from({ length: 5 }, () => ensureUser(db, user)));
    const { rows } = await db.query<{ kind: string; amount: number }>(
      'SELECT kind, amount FROM credit_ledger WHERE user_sub = $1',
      ['sub-race'],
    );
    expect(rows).toEqual([{ kind: 'grant', amount: STARTING_CREDIT_GRANT }]);
  });

  it('refuses a row that would take the balance below zero and keeps the balance', async () => {
    await ensureUser(db, { sub: 'sub-spend', username: 'spend', email: null, preferredUsername: null });
    await appendLedgerEntry(db, { userSub: 'sub-spend', amount: -60, kind: 'debit', reason: 'a job', jobId: 'job-1' });

    const overdraw = appendLedgerEntry(db, { userSub: 'sub-spend', amount: -41, kind: 'debit', reason: 'too much' });
    const error: unknown = await overdraw.then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(isNegativeBalance(error)).toBe(true);
    expect(await creditBalance(db, 'sub-spend')).toBe(STARTING_CREDIT_GRANT - 60);

    await appendLedgerEntry(db, { userSub: 'sub-spend', amount: -40, kind: 'debit', reason: 'exactly the rest' });
    expect(await creditBalance(db, 'sub-spend')).toBe(0);
  });

  it('is append-only: rows cannot be edited or deleted', async () => {
    await ensureUser(db, { sub: 'sub-append', username: 'append', email: null, preferredUsername: null });
    await expect(db.query('UPDATE credit_ledger SET amount = 1000')).rejects.toThrow(/append-only/);
    await expect(db.query('DELETE FROM credit_ledger')).rejects.toThrow(/append-only/);
    expect(await creditBalance(db, 'sub-append')).toBe(STARTING_CREDIT_GRANT);
  });

  it('rolls back every statement of a failed transaction', async () => {
    await ensureUser(db, { sub: 'sub-tx', username: 'tx', email: null, preferredUsername: null });
    await expect(
      db.transaction(async (tx) => {
        await appendLedgerEntry(tx, { userSub: 'sub-tx', amount: 500, kind: 'purchase', reason: 'rolled back' });
        throw new Error('payment failed');
      }),
    ).rejects.toThrow('payment failed');
    expect(await creditBalance(db, 'sub-tx')).toBe(STARTING_CREDIT_GRANT);
  });
});
