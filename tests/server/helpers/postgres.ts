import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { inject } from 'vitest';
import './provided.ts';

/**
 * A throw-away PostgreSQL cluster for the server tests (issue 20): Debian's `initdb` and `pg_ctl`
 * into a temporary folder, no system service. global-setup.ts starts one per run; each test file
 * that needs it makes its own database in it (createPostgresDatabase).
 */

const run = promisify(execFile);

/** The role every test database belongs to (initdb -U). */
const SUPERUSER = 'kinora';
/** PostgreSQL refuses to run as root: as root, the cluster is the Debian package's `postgres` user's. */
const SYSTEM_USER = 'postgres';
const INSTALL_HINT =
  "install Debian's `postgresql` package (`apt-get install postgresql`; .ci/run does it when initdb is missing)";

export interface PostgresCluster {
  /** The maintenance database's URL (postgres://kinora@127.0.0.1:<port>/postgres). */
  adminUrl: string;
  /** The server's version line (`SHOW server_version`). */
  version: string;
  stop(): Promise<void>;
}

function onPath(name: string): string | null {
  for (const folder of (process.env.PATH ?? '').split(path.delimiter)) {
    if (folder && existsSync(path.join(folder, name))) return path.join(folder, name);
  }
  return null;
}

/** `initdb` and `pg_ctl` on PATH, or else in the highest /usr/lib/postgresql/<version>/bin. */
async function findBinaries(): Promise<{ initdb: string; pgCtl: string }> {
  const initdb = onPath('initdb');
  const pgCtl = onPath('pg_ctl');
  if (initdb && pgCtl) return { initdb, pgCtl };
  const versions = await readdir('/usr/lib/postgresql').catch(() => [] as string[]);
  for (const version of versions.filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a))) {
    const bin = path.join('/usr/lib/postgresql', version, 'bin');
    if (existsSync(path.join(bin, 'initdb')) && existsSync(path.join(bin, 'pg_ctl'))) {
      return { initdb: path.join(bin, 'initdb'), pgCtl: path.join(bin, 'pg_ctl') };
    }
  }
  throw new Error(`PostgreSQL's initdb and pg_ctl were found neither on PATH nor under /usr/lib/postgresql/*/bin: ${INSTALL_HINT}.`);
}

/** A port nothing listens on now (the kernel's pick for port 0). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Runs a PostgreSQL program, as the `postgres` user when this process is root. */
async function runAsOwner(program: string, args: readonly string[], cwd: string): Promise<void> {
  const asRoot = process.getuid?.() === 0;
  const [file, argv] = asRoot ? ['runuser', ['-u', SYSTEM_USER, '--', program, ...args]] : [program, [...args]];
  try {
    await run(file, argv, { cwd, env: { ...process.env, LC_ALL: 'C' } });
  } catch (error) {
    const detail = error instanceof Error && 'stderr' in error ? String(error.stderr).trim() : String(error);
    throw new Error(`${path.basename(program)} failed: ${detail}`, { cause: error });
  }
}

/**
 * initdb (trust authentication, superuser `kinora`, UTF8, C locale, no fsync) and pg_ctl start on
 * a free port of 127.0.0.1, its socket in the same temporary folder; durability is off (fsync,
 * synchronous_commit, full_page_writes), as nothing outlives the run. Fails with what to install
 * when the binaries are missing.
 */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  const { initdb, pgCtl } = await findBinaries();
  const folder = await mkdtemp(path.join(tmpdir(), 'kinora-postgres-'));
  const dataDir = path.join(folder, 'data');
  const logFile = path.join(folder, 'postgres.log');
  try {
    if (process.getuid?.() === 0) {
      const { stdout } = await run('id', ['-u', SYSTEM_USER]).catch(() => {
        throw new Error(`running as root, the cluster needs the \`${SYSTEM_USER}\` system user: ${INSTALL_HINT}.`);
      });
      const { stdout: group } = await run('id', ['-g', SYSTEM_USER]);
      await chown(folder, Number(stdout.trim()), Number(group.trim()));
    }
    await runAsOwner(initdb, ['-D', dataDir, '--auth=trust', '-U', SUPERUSER, '-E', 'UTF8', '--no-sync', '--locale=C'], folder);
    // A port picked free may be taken before PostgreSQL binds it: try another a few times.
    let lastError: unknown;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const port = await freePort();
      const settings = [
        `-p ${port}`,
        `-k '${folder}'`,
        '-c listen_addresses=127.0.0.1',
        '-c fsync=off',
        '-c synchronous_commit=off',
        '-c full_page_writes=off',
        '-c max_connections=250',
      ].join(' ');
      try {
        await runAsOwner(pgCtl, ['start', '-w', '-t', '30', '-D', dataDir, '-l', logFile, '-o', settings], folder);
      } catch (error) {
        lastError = error;
        continue;
      }
      const adminUrl = `postgres://${SUPERUSER}@127.0.0.1:${port}/postgres`;
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
      await client.end();
      return {
        adminUrl,
        version: rows[0]?.server_version ?? 'unknown',
        async stop() {
          await runAsOwner(pgCtl, ['stop', '-w', '-D', dataDir, '-m', 'immediate'], folder).catch(() => undefined);
          await rm(folder, { recursive: true, force: true });
        },
      };
    }
    const log = await readFile(logFile, 'utf8').catch(() => '');
    throw new Error(`PostgreSQL did not start: ${String(lastError)}\n${log.slice(-2000)}`);
  } catch (error) {
    await runAsOwner(pgCtl, ['stop', '-w', '-D', dataDir, '-m', 'immediate'], folder).catch(() => undefined);
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
}

let databaseCounter = 0;

/**
 * A new, empty database in the cluster (CREATE DATABASE), answered as its URL: one per test file,
 * so files running side by side never see each other's rows. openDatabase migrates and seeds it.
 */
export async function createPostgresDatabase(adminUrl: string, prefix = 'kinora'): Promise<string> {
  databaseCounter += 1;
  const name = `${prefix}_${process.pid}_${databaseCounter}_${Date.now().toString(36)}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A fresh database in the run's cluster (global-setup.ts) for this test file. When the cluster
 * could not start (PostgreSQL is not installed), this fails with the set-up's reason, so the
 * PostgreSQL tests fail saying what to install while the rest of the server suite runs.
 */
export async function freshPostgresUrl(): Promise<string> {
  const cluster = inject('postgres');
  if ('error' in cluster) throw new Error(`The test PostgreSQL cluster did not start: ${cluster.error}`);
  return createPostgresDatabase(cluster.adminUrl);
}
