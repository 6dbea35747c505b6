import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../../server/src/db/database.ts';
import { startPostgresCluster, type PostgresCluster } from './postgres.ts';
import './provided.ts';

/** One database migrated and seeded by `openDatabase`, dumped to a tarball in `folder`. */
async function buildPgliteTemplate(folder: string): Promise<string> {
  const dataDir = path.join(folder, 'db');
  await (await openDatabase({ dataDir })).close();
  const pglite = await PGlite.create(dataDir);
  try {
    const dump = await pglite.dumpDataDir('none');
    const file = path.join(folder, 'template.tar');
    await writeFile(file, Buffer.from(await dump.arrayBuffer()));
    return file;
  } finally {
    await pglite.close();
  }
}

/**
 * The server project's global setup:
 * - one database migrated and seeded by `openDatabase`, dumped to a file that every server test
 *   starts its own in-memory PGlite from (database-template.ts). PostgreSQL's initdb, most of a
 *   fresh PGlite's seconds, then runs once per run instead of once per test file;
 * - one throw-away PostgreSQL cluster (postgres.ts) for tests/server/postgres, started beside the
 *   template (initdb and the server are processes of their own, about a second of the template's
 *   eight), so the suite waits no longer than before. A cluster that cannot start (PostgreSQL not installed) is handed
 *   on as its reason: the PostgreSQL tests fail with it, the others run.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The cluster first: its initdb and server are launched before the template's WebAssembly
  // starts keeping the event loop busy, so the two run side by side.
  const clusterStart = startPostgresCluster();
  // Handled below (allSettled); this keeps a rejection during the next await from counting as unhandled.
  clusterStart.catch(() => undefined);
  const folder = await mkdtemp(path.join(tmpdir(), 'kinora-pglite-template-'));
  const [template, cluster] = await Promise.allSettled([buildPgliteTemplate(folder), clusterStart]);
  const running: PostgresCluster | null = cluster.status === 'fulfilled' ? cluster.value : null;
  const teardown = async (): Promise<void> => {
    await Promise.all([running?.stop(), rm(folder, { recursive: true, force: true })]);
  };
  if (template.status === 'rejected') {
    await teardown();
    throw template.reason;
  }
  project.provide('pgliteTemplate', template.value);
  const reason: unknown = cluster.status === 'rejected' ? cluster.reason : null;
  project.provide(
    'postgres',
    running ? { adminUrl: running.adminUrl, version: running.version } : { error: reason instanceof Error ? reason.message : String(reason) },
  );
  return teardown;
}
