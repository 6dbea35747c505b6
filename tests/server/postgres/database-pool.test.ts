import { afterEach, describe, expect, it } from 'vitest';
import { parseDatabaseEnvironment } from '../../../server/src/config.ts';
import { openDatabase, type Database } from '../../../server/src/db/database.ts';
import { MIGRATIONS } from '../../../server/src/db/migrations.ts';
import { freshPostgresUrl } from '../helpers/postgres.ts';

/**
 * openDatabase's PostgreSQL path on a real server (issue 20): the pool settings main.ts reads from
 * KINORA_DB_POOL_SIZE and KINORA_DB_STATEMENT_TIMEOUT_MS reach `pg` and the server, and two
 * processes starting on one empty database migrate it once.
 */

const opened: Database[] = [];
const open = async (...args: Parameters<typeof openDatabase>): Promise<Database> => {
  const db = await openDatabase(...args);
  opened.push(db);
  return db;
};
afterEach(async () => {
  await Promise.all(opened.splice(0).map((db) => db.close()));
});

/** The server-side process ids that answered `count` queries sent at once, each holding its connection 200 ms. */
async function backendsUsed(db: Database, count: number): Promise<number> {
  const answers = await Promise.all(
    Array.from({ length: count }, () => db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid, pg_sleep(0.2)')),
  );
  return new Set(answers.map((answer) => answer.rows[0]?.pid)).size;
}

describe('parseDatabaseEnvironment', () => {
  it('reads DATABASE_URL and the pool settings, leaving pg its defaults when they are unset or 0', () => {
    expect(parseDatabaseEnvironment({})).toEqual({});
    expect(parseDatabaseEnvironment({ DATABASE_URL: ' ', KINORA_DB_POOL_SIZE: '', KINORA_DB_STATEMENT_TIMEOUT_MS: '0' })).toEqual({});
    expect(
      parseDatabaseEnvironment({
        DATABASE_URL: 'postgres://kinora@db.example:5432/kinora',
        KINORA_DB_POOL_SIZE: '25',
        KINORA_DB_STATEMENT_TIMEOUT_MS: '15000',
      }),
    ).toEqual({ url: 'postgres://kinora@db.example:5432/kinora', poolSize: 25, statementTimeoutMs: 15000 });
  });

  it('stops the server with a readable error on a bad value', () => {
    for (const value of ['0', '-1', '2.5', 'ten']) {
      expect(() => parseDatabaseEnvironment({ KINORA_DB_POOL_SIZE: value })).toThrow(
        `KINORA_DB_POOL_SIZE must be a whole number ≥ 1 (got "${value}")`,
      );
    }
    for (const value of ['-5', '1.5', 'soon']) {
      expect(() => parseDatabaseEnvironment({ KINORA_DB_STATEMENT_TIMEOUT_MS: value })).toThrow(
        `KINORA_DB_STATEMENT_TIMEOUT_MS must be a whole number of milliseconds ≥ 0 (got "${value}")`,
      );
    }
  });
});

describe('the pool options on a real PostgreSQL', () => {
  it('opens at most `size` connections: 6 queries at once share 2 (pg’s default of 10 opens 6)', async () => {
    const url = await freshPostgresUrl();
    const small = await open({ url, pool: { size: 2 } });
    expect(small.kind).toBe('postgres');
    expect(await backendsUsed(small, 6)).toBe(2);
    const usual = await open({ url });
    expect(await backendsUsed(usual, 6)).toBe(6);
  });

  it('has PostgreSQL cancel a statement that outruns the time-out (57014), and the pool goes on', async () => {
    const url = await freshPostgresUrl();
    const db = await open({ url, pool: { statementTimeoutMs: 300 } });
    expect((await db.query<{ statement_timeout: string }>('SHOW statement_timeout')).rows).toEqual([{ statement_timeout: '300ms' }]);
    const started = Date.now();
    await expect(db.query('SELECT pg_sleep(5)')).rejects.toMatchObject({ code: '57014' });
    expect(Date.now() - started).toBeLessThan(4000);
    // Inside a transaction too: rolled back, the connection returns to the pool usable.
    await expect(db.transaction((tx) => tx.query('SELECT pg_sleep(5)'))).rejects.toMatchObject({ code: '57014' });
    expect((await db.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    // Without the option there is no limit.
    const unlimited = await open({ url });
    expect((await unlimited.query<{ statement_timeout: string }>('SHOW statement_timeout')).rows).toEqual([{ statement_timeout: '0' }]);
  });
});

describe('two servers starting on one empty database', () => {
  it('migrate it once and seed it once (the migrations take an advisory lock)', async () => {
    const url = await freshPostgresUrl();
    const [a, b] = await Promise.all([open({ url }), open({ url })]);
    const { rows } = await a.query<{ id: number }>('SELECT id FROM schema_migrations ORDER BY id');
    expect(rows.map((row) => row.id)).toEqual(MIGRATIONS.map((migration) => migration.id));
    const coupons = await b.query<{ code: string }>('SELECT code FROM coupons ORDER BY code');
    expect(coupons.rows.map((row) => row.code)).toEqual(['KINORA100', 'WELCOME50']);
    // The guards are the ones migration 12 left: no FOR UPDATE that deadlocks with foreign keys.
    const { rows: guards } = await a.query<{ definition: string }>(
      "SELECT pg_get_functiondef(p.oid) AS definition FROM pg_proc p WHERE p.proname IN ('credit_ledger_guard_balance', 'customer_ledger_guard_balance')",
    );
    expect(guards).toHaveLength(2);
    for (const guard of guards) expect(guard.definition).toContain('FOR NO KEY UPDATE');
  });
});
