import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { runMigrations } from './migrations.ts';
import { seedDatabase } from './seed.ts';
import type { Database, Queryable } from './sql.ts';

// Every query module imports these from here; sql.ts holds them so migrations.ts and seed.ts need not.
export type { Database, Queryable } from './sql.ts';

export interface OpenDatabaseOptions {
  /** Folder PGlite persists to; undefined keeps the database in memory. */
  dataDir?: string;
  /** A postgres:// (or postgresql://) URL: use that server through `pg` instead of PGlite. */
  url?: string;
  /** With `url`: the connection pool's settings (KINORA_DB_POOL_SIZE, KINORA_DB_STATEMENT_TIMEOUT_MS). */
  pool?: PostgresPoolOptions;
  /**
   * A PGlite data folder dumped with `dumpDataDir` to start from instead of an empty one (tests:
   * one migrated copy per run spares each server test PostgreSQL's initdb).
   */
  template?: Blob;
}

/** How the server talks to a PostgreSQL server (server/src/config.ts parseDatabaseEnvironment). */
export interface PostgresPoolOptions {
  /** Connections the pool opens at most (pg's `max`; pg's default is 10). */
  size?: number;
  /**
   * Milliseconds any one statement may run before PostgreSQL cancels it (the session's
   * statement_timeout, SQLSTATE 57014); 0 or absent: no limit.
   */
  statementTimeoutMs?: number;
}

/** PostgreSQL's SQLSTATE for unique_violation. */
export const UNIQUE_VIOLATION = '23505';

export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === UNIQUE_VIOLATION;
}

/**
 * Opens the database, runs every pending migration and the idempotent seed, and returns it.
 * PGlite and `pg` speak the same SQL, so every caller writes plain PostgreSQL.
 */
export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<Database> {
  const db = options.url ? openPostgres(options.url, options.pool) : await openPglite(options.dataDir, options.template);
  try {
    await runMigrations(db);
    await seedDatabase(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}

async function openPglite(dataDir: string | undefined, template: Blob | undefined): Promise<Database> {
  if (dataDir) await mkdir(dataDir, { recursive: true });
  const client = await PGlite.create({ dataDir, loadDataDir: template });
  const wrap = (target: Pick<PGlite, 'query'>): Queryable => ({
    async query<T>(sql: string, params: unknown[] = []) {
      const result = await target.query<T>(sql, params);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
  });
  return {
    kind: 'pglite',
    ...wrap(client),
    // PGlite is one connection: its transaction() holds a mutex, so transactions never interleave.
    transaction: (fn) => client.transaction((tx) => fn(wrap(tx))),
    close: () => client.close(),
  };
}

function openPostgres(url: string, options: PostgresPoolOptions = {}): Database {
  if (!/^postgres(ql)?:\/\//.test(url)) {
    throw new Error(`DATABASE_URL must start with postgres:// or postgresql:// (got "${url}")`);
  }
  const pool = new pg.Pool({
    connectionString: url,
    ...(options.size ? { max: options.size } : {}),
    // Sent as the session's statement_timeout when each connection opens.
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
  });
  // An idle connection the server dropped (a restart, a killed backend) is an 'error' event on the
  // pool; unhandled, it would end the process. The pool discards that client and opens a new one
  // for the next query, so there is nothing more to do.
  pool.on('error', () => undefined);
  const wrap = (target: pg.Pool | pg.PoolClient): Queryable => ({
    async query<T>(sql: string, params: unknown[] = []) {
      const result = await target.query(sql, params);
      return { rows: result.rows as T[], rowCount: result.rowCount ?? result.rows.length };
    },
  });
  return {
    kind: 'postgres',
    ...wrap(pool),
    async transaction(fn) {
      const client = await pool.connect();
      // A connection that cannot even roll back is broken: released with the error, the pool closes it.
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await fn(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: unknown) => {
          broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
        });
        throw error;
      } finally {
        client.release(broken);
      }
    },
    listen: (channel, onMessage) => listenOn(url, channel, onMessage),
    close: () => pool.end(),
  };
}

/** How long a dropped LISTEN connection waits before it connects again. */
const RELISTEN_MS = 1000;

/**
 * LISTEN on a connection outside the pool (a pooled one would be handed to other queries). A
 * notification sent while the connection was down is lost, so listeners must also poll, as the job
 * engine's workers do (this only makes them faster).
 */
async function listenOn(url: string, channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    const again = (): void => {
      next.removeAllListeners();
      next.on('error', () => undefined);
      void next.end().catch(() => undefined);
      if (stopped || client !== next) return;
      client = undefined;
      retry = setTimeout(() => void connect().catch(again), RELISTEN_MS);
      retry.unref();
    };
    client = next;
    next.on('error', again);
    next.on('end', again);
    next.on('notification', (message) => {
      if (message.channel === channel) onMessage(message.payload ?? '');
    });
    await next.connect();
    await next.query(`LISTEN ${channel}`);
  };
  try {
    await connect();
  } catch (error) {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => undefined);
    throw error;
  }
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const last = client;
    client = undefined;
    last?.removeAllListeners();
    last?.on('error', () => undefined);
    await last?.end().catch(() => undefined);
  };
}
