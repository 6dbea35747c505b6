import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STARTING_CREDIT_GRANT } from '../../../server/src/config.ts';
import { asMedia, balanceOf, hasEnded, ledgerRows, postForm } from '../helpers/media.ts';
import { untilJobs, type JobRow } from '../helpers/job-rows.ts';
import { freshPostgresUrl } from '../helpers/postgres.ts';
import { callApi, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * Two servers on one PostgreSQL database, as two processes would be (issue 20): each has its own
 * pool, its own job engine and its own media folder, and both take jobs from the one queue with
 * FOR UPDATE SKIP LOCKED. PGlite is one connection in one process, so only a real server shows
 * whether a job can be claimed, rendered or debited twice.
 */

const JOBS = { durationMs: 200, pollIntervalMs: 20, concurrency: 2 } as const;

let first: TestServer;
let second: TestServer;
beforeAll(async () => {
  const databaseUrl = await freshPostgresUrl();
  first = await startTestServer({ databaseUrl, jobs: JOBS });
  second = await startTestServer({ databaseUrl, emulator: first.emulator, jobs: JOBS });
});
afterAll(async () => {
  await second?.close();
  await first?.close();
});

/** Waits until every job has ended, or fails naming the jobs' statuses. */
const untilEnded = (ids: readonly string[]): Promise<JobRow[]> => untilJobs(first.db, ids, (rows) => rows.every((row) => hasEnded(row.status)), 45_000);

describe('two job engines on one database', () => {
  it('claim, render and finish each of 24 jobs once, debited once, sharing the work', async () => {
    const users = await Promise.all([signUpUser(first, 'pgworker-a'), signUpUser(first, 'pgworker-b')]);
    for (const user of users) expect((await callApi(first, 'credits/get', { token: user.accessToken })).status).toBe(200);

    // 12 jobs each, every other one sent through the second server's API, all at once.
    const answers = await Promise.all(
      users.flatMap((user, u) =>
        Array.from({ length: 12 }, (_, index) =>
          postForm(index % 2 === 0 ? first : second, 'image/text-2-image', { prompt: `shared queue ${u}-${index}` }, { token: user.accessToken }),
        ),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array<number>(24).fill(200));
    const ids = answers.map((answer) => asMedia(answer).id);
    expect(new Set(ids).size).toBe(24);

    const rows = await untilEnded(ids);
    for (const row of rows) {
      // Claimed once (a second claim counts an attempt), finished as a success, no lease left, no refund.
      expect(row).toMatchObject({ status: 'success_image', attempts: 1, cost: 4, lease_owner: null, refund_ledger_id: null });
    }

    // Rendered once: each job's files were written by exactly one of the two servers, and each file
    // row names a file in that server's folder. Both servers took part.
    const { rows: files } = await first.db.query<{ media_id: string; path: string }>(
      'SELECT media_id, path FROM media_files WHERE media_id = ANY($1::text[])',
      [ids],
    );
    const renderedBy = new Map<string, string[]>();
    for (const id of ids) {
      const owners = [first, second].filter((server) => existsSync(path.join(server.mediaDir, id))).map((server) => server.mediaDir);
      expect(owners).toHaveLength(1);
      renderedBy.set(id, owners);
      const own = files.filter((file) => file.media_id === id);
      expect(own.length).toBeGreaterThanOrEqual(2);
      for (const file of own) expect(existsSync(path.join(owners[0] ?? '', file.path))).toBe(true);
    }
    const byFirst = ids.filter((id) => renderedBy.get(id)?.[0] === first.mediaDir).length;
    expect(byFirst).toBeGreaterThan(0);
    expect(byFirst).toBeLessThan(24);

    // Debited once each, never refunded: 12 × 4 credits from each user's 100.
    for (const user of users) {
      const ledger = await ledgerRows(first, user.sub);
      const debits = ledger.filter((row) => row.kind === 'debit');
      expect(debits).toHaveLength(12);
      expect(new Set(debits.map((row) => row.job_id)).size).toBe(12);
      expect(ledger.filter((row) => row.kind === 'refund')).toEqual([]);
      expect(await balanceOf(first, user.sub)).toBe(STARTING_CREDIT_GRANT - 48);
    }
    const { rows: allDebits } = await first.db.query<{ job_id: string }>(
      "SELECT job_id FROM credit_ledger WHERE kind = 'debit' AND job_id = ANY($1::text[])",
      [ids],
    );
    expect(allDebits.map((row) => row.job_id).sort()).toEqual([...ids].sort());
  });
});
