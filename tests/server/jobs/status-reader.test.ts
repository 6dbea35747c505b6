import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../../server/src/db/database.ts';
import { insertMedia, QUEUED_STATUS } from '../../../server/src/db/media.ts';
import { createStatusReader, type StatusReaderOptions } from '../../../server/src/jobs/status-reader.ts';
import { openTestDatabase } from '../helpers/database-template.ts';

/**
 * processing-status's reads (issue 19 item 5) on a real database: the requests that arrive
 * together are one query, a request that arrives during a read waits for a fresh one, a read is
 * remembered for a moment and forgotten when the job ends here.
 */

let db: Database;
const USER = 'status-reader-user';

beforeAll(async () => {
  db = await openTestDatabase();
  await db.query(`INSERT INTO users (sub, username, email) VALUES ($1, $1, 'status@example.test')`, [USER]);
});
afterAll(async () => {
  await db?.close();
});

/** The real database, with the queries it was sent counted. */
function counted(target: Queryable) {
  const sent: unknown[][] = [];
  const queryable: Queryable = {
    query: (sql, params = []) => {
      sent.push(params);
      return target.query(sql, params);
    },
  };
  return { queryable, sent };
}

const newJob = () => insertMedia(db, { userSub: USER, kind: 'image', tool: 'text-to-image', status: QUEUED_STATUS, items: [] });
const setProgress = (id: string, progress: number) => db.query('UPDATE media SET progress = $2, updated_at = now() WHERE id = $1', [id, progress]);

function reader(options: StatusReaderOptions = {}) {
  const { queryable, sent } = counted(db);
  return { statuses: createStatusReader(queryable, options), sent };
}

describe('status reader', () => {
  it('reads the requests that arrive together in one query, each id once, and answers null for an unknown id', async () => {
    const [a, b] = [await newJob(), await newJob()];
    const { statuses, sent } = reader();
    const answers = await Promise.all([statuses.read(a.id), statuses.read(b.id), statuses.read(a.id), statuses.read('no-such-job')]);
    expect(sent).toHaveLength(1);
    expect(new Set(sent[0]![0] as string[])).toEqual(new Set([a.id, b.id, 'no-such-job']));
    expect(answers.map((row) => row?.id ?? null)).toEqual([a.id, b.id, a.id, null]);
    expect(answers[0]).toMatchObject({ status: QUEUED_STATUS, progress: 0, items: [] });
  });

  it('reads a request that arrives while a read is on its way afresh, after that read', async () => {
    const job = await newJob();
    const { statuses, sent } = reader({ freshMs: 0 });
    const first = statuses.read(job.id);
    // Let the first read start, then change the job and ask again.
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toHaveLength(1);
    await setProgress(job.id, 40);
    const second = statuses.read(job.id);
    expect((await first)?.progress).toBe(0);
    expect((await second)?.progress).toBe(40);
    expect(sent).toHaveLength(2);
  });

  it('answers from the last read for STATUS_FRESH_MS, then reads again; forget reads again at once', async () => {
    const job = await newJob();
    let clock = 1_000;
    const { statuses, sent } = reader({ freshMs: 50, now: () => clock });
    expect((await statuses.read(job.id))?.progress).toBe(0);
    await setProgress(job.id, 25);
    clock += 49;
    expect((await statuses.read(job.id))?.progress).toBe(0);
    expect(sent).toHaveLength(1);
    clock += 1;
    expect((await statuses.read(job.id))?.progress).toBe(25);
    expect(sent).toHaveLength(2);

    await setProgress(job.id, 60);
    statuses.forget(job.id);
    expect((await statuses.read(job.id))?.progress).toBe(60);
    expect(sent).toHaveLength(3);
  });

  it('rejects every request of a failed read, and the next read works', async () => {
    const job = await newJob();
    let fail = true;
    const flaky: Queryable = {
      query: (sql, params) => (fail ? Promise.reject(new Error('connection lost')) : db.query(sql, params)),
    };
    const statuses = createStatusReader(flaky, { freshMs: 0 });
    const answers = await Promise.allSettled([statuses.read(job.id), statuses.read('other')]);
    expect(answers.map((answer) => answer.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect((await statuses.read(job.id))?.id).toBe(job.id);
  });
});
