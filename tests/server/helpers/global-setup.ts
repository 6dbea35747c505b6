import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../../server/src/db/database.ts';
import './provided.ts';

/**
 * The server project's global setup: one database migrated and seeded by `openDatabase`, dumped to
 * a file that every server test starts its own in-memory PGlite from (database-template.ts).
 * PostgreSQL's initdb, most of a fresh PGlite's seconds, then runs once per run instead of once
 * per test file.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const folder = await mkdtemp(path.join(tmpdir(), 'kinora-pglite-template-'));
  const dataDir = path.join(folder, 'db');
  await (await openDatabase({ dataDir })).close();
  const pglite = await PGlite.create(dataDir);
  try {
    const dump = await pglite.dumpDataDir('none');
    await writeFile(path.join(folder, 'template.tar'), Buffer.from(await dump.arrayBuffer()));
  } finally {
    await pglite.close();
  }
  project.provide('pgliteTemplate', path.join(folder, 'template.tar'));
  return () => rm(folder, { recursive: true, force: true });
}
