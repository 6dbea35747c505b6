import { readFile } from 'node:fs/promises';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../../../server/src/db/database.ts';
import './provided.ts';

let template: Promise<Blob> | null = null;

/** The run's migrated template (global-setup.ts), read once per test file. */
export const loadTemplate = (): Promise<Blob> => {
  template ??= readFile(inject('pgliteTemplate')).then((bytes) => new Blob([bytes]));
  return template;
};

/**
 * A fresh in-memory database for one test: a copy of the run's migrated template. openDatabase
 * still runs the pending migrations (none) and the idempotent seed on it;
 * database-template.test.ts checks the copy's schema equals a freshly migrated one, and
 * database.test.ts still migrates from empty.
 */
export async function openTestDatabase(): Promise<Database> {
  return openDatabase({ template: await loadTemplate() });
}
