import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
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
function findBinaries(): { initdb: string; pgCtl: string } {
  const initdb = onPath('initdb');
  const pgCtl = onPath('pg_ctl');
  if (initdb && pgCtl) return { initdb, pgCtl };
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql') : [];
  for (const version of versions.filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a))) {
    const bin = path.join('/usr/lib/postgresql', version, 'bin');
    if (existsSync(path.join(bin, 'initdb')) && existsSync(path.join(bin, 'pg_ctl'))) {
      return { initdb: path.join(bin, 'initdb'), pgCtl: path.join(bin, 'pg_ctl') };
    }
  }
  throw new Error(`PostgreSQL's initdb and pg_ctl were found neither on PATH nor under /usr/lib/postgresql/*/bin: ${INSTALL_HINT}.`);
}

/**
 * A port for the cluster, drawn at random from a range the kernel does not hand out for port 0
 * (32768 and up on Linux): the draw needs no event loop (see startPostgresCluster), and a port
 * that turns out to be taken makes pg_ctl fail, after which another is drawn.
 */
const randomPort = (): number => 20_000 + Math.floor(Math.random() * 12_000);

/** Runs a PostgreSQL program, as the `postgres` user when this process is root. */
async function runAsOwner(program: string, args: readonly string[], cwd: string, label = path.basename(program)): Promise<void> {
  const asRoot = process.getuid?.() === 0;
  const [file, argv] = asRoot ? ['runuser', ['-u', SYSTEM_USER, '--', program, ...args]] : [program, [...args]];
  try {
    await run(file, argv, { cwd, env: { ...process.env, LC_ALL: 'C' } });
  } catch (error) {
    const detail = error instanceof Error && 'stderr' in error ? String(error.stderr).trim() : String(error);
    throw new Error(`${label} failed: ${detail}`, { cause: error });
  }
}

/** The server's settings: this port and socket folder, localhost only, durability off, room for many pools. */
const serverSettings = (port: number, socketDir: string): string =>
  [
    `-p ${port}`,
    `-k '${socketDir}'`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=250',
  ].join(' ');

/** initdb, then pg_ctl start, in one child process: $1 initdb, $2 pg_ctl, $3 data folder, $4 log file, $5 settings. */
const INIT_AND_START = `"$1" -D "$3" --auth=trust -U ${SUPERUSER} -E UTF8 --no-sync --locale=C >/dev/null && "$2" start -w -t 30 -D "$3" -l "$4" -o "$5" >/dev/null`;

/**
 * initdb (trust authentication, superuser `kinora`, UTF8, C locale, no fsync) and pg_ctl start on
 * a port of 127.0.0.1, its socket in the same temporary folder; durability is off (fsync,
 * synchronous_commit, full_page_writes), as nothing outlives the run. Fails with what to install
 * when the binaries are missing.
 *
 * Everything up to launching initdb and pg_ctl (one child process) happens before this function
 * returns: the global setup builds the PGlite template at the same time, whose WebAssembly keeps
 * the event loop busy for seconds, and the cluster then starts beside it instead of after it.
 */
export function startPostgresCluster(): Promise<PostgresCluster> {
  let folder: string | undefined;
  try {
    const { initdb, pgCtl } = findBinaries();
    folder = mkdtempSync(path.join(tmpdir(), 'kinora-postgres-'));
    if (process.getuid?.() === 0) {
      let ids: [number, number];
      try {
        ids = [Number(execFileSync('id', ['-u', SYSTEM_USER]).toString()), Number(execFileSync('id', ['-g', SYSTEM_USER]).toString())];
      } catch (error) {
        throw new Error(`running as root, the cluster needs the \`${SYSTEM_USER}\` system user: ${INSTALL_HINT}.`, { cause: error });
      }
      chownSync(folder, ...ids);
    }
    const dataDir = path.join(folder, 'data');
    const logFile = path.join(folder, 'postgres.log');
    const port = randomPort();
    // Launched now (execFile spawns synchronously); awaited in finishCluster.
    const started = runAsOwner('sh', ['-c', INIT_AND_START, 'sh', initdb, pgCtl, dataDir, logFile, serverSettings(port, folder)], folder, 'initdb + pg_ctl start');
    return finishCluster({ folder, dataDir, logFile, pgCtl, port, started });
  } catch (error) {
    if (folder) rmSync(folder, { recursive: true, force: true });
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

async function finishCluster(launch: {
  folder: string;
  dataDir: string;
  logFile: string;
  pgCtl: string;
  port: number;
  started: Promise<void>;
}): Promise<PostgresCluster> {
  const { folder, dataDir, logFile, pgCtl } = launch;
  const stop = async (): Promise<void> => {
    await runAsOwner(pgCtl, ['stop', '-w', '-D', dataDir, '-m', 'immediate'], folder).catch(() => undefined);
    await rm(folder, { recursive: true, force: true });
  };
  try {
    let port = launch.port;
    let outcome = await launch.started.then(() => null, (error: unknown) => error);
    // initdb did its part but the server did not start (most likely the port was taken): other ports.
    for (let retry = 0; outcome !== null && existsSync(path.join(dataDir, 'PG_VERSION')) && retry < 3; retry += 1) {
      port = randomPort();
      outcome = await runAsOwner(pgCtl, ['start', '-w', '-t', '30', '-D', dataDir, '-l', logFile, '-o', serverSettings(port, folder)], folder).then(
        () => null,
        (error: unknown) => error,
      );
    }
    if (outcome !== null) {
      const log = await readFile(logFile, 'utf8').catch(() => '');
      throw new Error(`PostgreSQL did not start: ${outcome instanceof Error ? outcome.message : String(outcome)}\n${log.slice(-2000)}`, {
        cause: outcome,
      });
    }
    const adminUrl = `postgres://${SUPERUSER}@127.0.0.1:${port}/postgres`;
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
    await client.end();
    return { adminUrl, version: rows[0]?.server_version ?? 'unknown', stop };
  } catch (error) {
    await stop();
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
