import { setTimeout as sleep } from 'node:timers/promises';
import type { Queryable } from '../../../server/src/db/database.ts';

/** What the tests of several engines on one database check of each job's row. */
export interface JobRow {
  id: string;
  status: string;
  attempts: number;
  cost: number;
  lease_owner: string | null;
  refund_ledger_id: string | null;
}

export async function jobRows(db: Queryable, ids: readonly string[]): Promise<JobRow[]> {
  const { rows } = await db.query<JobRow>(
    'SELECT id, status, attempts, cost, lease_owner, refund_ledger_id::text FROM media WHERE id = ANY($1::text[]) ORDER BY id',
    [ids],
  );
  return rows;
}

/** Waits until `done` holds for every job's row, or fails after `timeoutMs` naming each job's status. */
export async function untilJobs(db: Queryable, ids: readonly string[], done: (rows: JobRow[]) => boolean, timeoutMs: number): Promise<JobRow[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await jobRows(db, ids);
    if (rows.length === ids.length && done(rows)) return rows;
    if (Date.now() > deadline) {
      throw new Error(`the jobs were not there after ${timeoutMs} ms: ${rows.map((row) => `${row.id} ${row.status}`).join(', ')}`);
    }
    await sleep(25);
  }
}
