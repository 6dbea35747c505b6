import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../server/src/db/database.ts';
import { MIGRATIONS } from '../../../server/src/db/migrations.ts';
import { openTestDatabase } from './database-template.ts';

/**
 * Server tests start from one migrated copy per run (global-setup.ts) instead of migrating their
 * own database: that copy must be the very database a fresh migration gives.
 */

/** What a schema is made of, read from PostgreSQL's catalogue, in a stable order. */
const CATALOGUE = {
  columns: `SELECT table_name, column_name, ordinal_position, data_type, udt_name, is_nullable, column_default, character_maximum_length
    FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
  constraints: `SELECT c.relname AS table_name, k.conname, k.contype, pg_get_constraintdef(k.oid) AS definition
    FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' ORDER BY c.relname, k.conname`,
  indexes: `SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY tablename, indexname`,
  relations: `SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' ORDER BY c.relname`,
  views: `SELECT table_name, view_definition FROM information_schema.views WHERE table_schema = 'public' ORDER BY table_name`,
  functions: `SELECT p.proname, pg_get_functiondef(p.oid) AS definition FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE n.nspname = 'public' ORDER BY p.proname`,
  triggers: `SELECT c.relname AS table_name, t.tgname, pg_get_triggerdef(t.oid) AS definition FROM pg_trigger t
    JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND NOT t.tgisinternal ORDER BY c.relname, t.tgname`,
  migrations: 'SELECT id, name FROM schema_migrations ORDER BY id',
};

const describeSchema = async (db: Database): Promise<Record<keyof typeof CATALOGUE, unknown[]>> => {
  const parts = await Promise.all(Object.entries(CATALOGUE).map(async ([part, sql]) => [part, (await db.query(sql)).rows] as const));
  return Object.fromEntries(parts) as Record<keyof typeof CATALOGUE, unknown[]>;
};

/** Every public table's row count: the seed is the same too. */
const rowCounts = async (db: Database): Promise<Record<string, number>> => {
  const { rows } = await db.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name",
  );
  const counts: Record<string, number> = {};
  for (const { table_name: table } of rows) {
    counts[table] = (await db.query<{ n: number }>(`SELECT count(*)::integer AS n FROM "${table}"`)).rows[0]!.n;
  }
  return counts;
};

describe('the migrated database template', () => {
  let fresh: Database;
  let copy: Database;
  // Two databases, one of them migrated from empty: more than the project's hook time-out when
  // the machine is busy.
  beforeAll(async () => {
    fresh = await openDatabase({});
    copy = await openTestDatabase();
  }, 180_000);
  afterAll(async () => {
    await Promise.all([fresh?.close(), copy?.close()]);
  });

  it('has the schema a fresh migration gives: tables, columns, constraints, indexes, functions, triggers and migrations', async () => {
    const expected = await describeSchema(fresh);
    expect((expected.migrations as { id: number }[]).map((row) => row.id)).toEqual(MIGRATIONS.map((migration) => migration.id));
    expect(expected.columns.length).toBeGreaterThan(20);
    expect(expected.indexes.length).toBeGreaterThan(5);
    expect(await describeSchema(copy)).toEqual(expected);
  });

  it('has the seed a fresh database gets', async () => {
    expect(await rowCounts(copy)).toEqual(await rowCounts(fresh));
  });

  it('is a copy: what one test writes, another does not see', async () => {
    const other = await openTestDatabase();
    try {
      await copy.query("INSERT INTO schema_migrations (id, name) VALUES (9999, 'only-here')");
      expect((await other.query('SELECT id FROM schema_migrations WHERE id = 9999')).rows).toEqual([]);
    } finally {
      await copy.query('DELETE FROM schema_migrations WHERE id = 9999');
      await other.close();
    }
  });
});
