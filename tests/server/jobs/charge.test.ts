import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEVELOPER_GROUP } from '../../../src/config/limits.ts';
import { creditBalance } from '../../../server/src/db/credit-ledger.ts';
import { type Database, type Queryable } from '../../../server/src/db/database.ts';
import { openTestDatabase } from '../helpers/database-template.ts';
import { claimIdempotencyKey } from '../../../server/src/db/idempotency.ts';
import { endJobWithRefund, findMedia, newPublicId, QUEUED_STATUS } from '../../../server/src/db/media.ts';
import { chargeJobs, costFor, isDeveloper, theJob, type Payer, type PaidJob } from '../../../server/src/jobs/charge.ts';
import { HttpError } from '../../../server/src/routes/http.ts';

/**
 * The one charge module every paid route calls (issue 18 item 4), against a real PGlite database:
 * a job and its debit in one commit, all or nothing with a 402 naming the whole price, SPEC §6's
 * Developer group paying nothing, the Idempotency-Key bound in the same commit, refunds once.
 */

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(async () => {
  await db?.close();
});

let payer: Payer;
let developer: Payer;
beforeEach(async () => {
  const sub = `charge-${newPublicId()}`;
  await db.query(`INSERT INTO users (sub, username, email) VALUES ($1, $1, 'charge@example.test')`, [sub]);
  await db.query(`INSERT INTO credit_ledger (user_sub, amount, kind, reason) VALUES ($1, 100, 'grant', 'test')`, [sub]);
  payer = { sub, groups: [], row: { logo_variant: false } };
  developer = { ...payer, groups: [DEVELOPER_GROUP] };
});

const job = (price: number, reason = 'Text to Image · Flux'): PaidJob => ({
  media: { id: newPublicId(), kind: 'image', tool: 'text-to-image', endpoint: 'image/text-to-image', option: 'flux', items: [{ status: 'new' }] },
  price,
  reason,
});

async function ledgerOf(sub: string) {
  const { rows } = await db.query<{ amount: number; kind: string; reason: string; job_id: string | null }>(
    `SELECT amount, kind, reason, job_id FROM credit_ledger WHERE user_sub = $1 AND kind <> 'grant' ORDER BY id`,
    [sub],
  );
  return rows;
}

/** Counts through `on`: inside a transaction PGlite's one connection is the transaction's. */
async function mediaCount(sub: string, on: Queryable = db): Promise<number> {
  const { rows } = await on.query<{ count: number }>('SELECT count(*)::integer AS count FROM media WHERE user_sub = $1', [sub]);
  return rows[0]?.count ?? -1;
}

async function keyMedia(sub: string, key: string): Promise<string | null | undefined> {
  const { rows } = await db.query<{ media_id: string | null }>('SELECT media_id FROM idempotency_keys WHERE user_sub = $1 AND key = $2', [sub, key]);
  return rows[0]?.media_id;
}

describe('the Developer rule', () => {
  it('members of the Developer group pay nothing; everyone else pays the price', () => {
    expect(isDeveloper({ groups: [DEVELOPER_GROUP] })).toBe(true);
    expect(isDeveloper({ groups: ['Guest'] })).toBe(false);
    expect(costFor({ groups: [DEVELOPER_GROUP, 'Other'] }, 30)).toBe(0);
    expect(costFor({ groups: [] }, 30)).toBe(30);
  });
});

describe('chargeJobs', () => {
  it('writes the queued job and one debit naming it, in one commit', async () => {
    const paid = job(30);
    const row = await chargeJobs(db, payer, { jobs: [paid], idempotencyKey: null, finish: theJob });
    expect(row).toMatchObject({ id: paid.media.id, user_sub: payer.sub, status: QUEUED_STATUS, cost: 30, charged: true, logo_variant: false });
    expect(await ledgerOf(payer.sub)).toEqual([{ amount: -30, kind: 'debit', reason: 'Text to Image · Flux', job_id: paid.media.id }]);
    expect(await creditBalance(db, payer.sub)).toBe(70);
  });

  it('charges a Developer nothing: cost 0, not charged, no ledger row', async () => {
    const row = await chargeJobs(db, developer, { jobs: [job(30)], idempotencyKey: null, finish: theJob });
    expect(row).toMatchObject({ cost: 0, charged: false });
    expect(await ledgerOf(developer.sub)).toEqual([]);
    expect(await creditBalance(db, developer.sub)).toBe(100);
  });

  it('writes no debit for a free job', async () => {
    const row = await chargeJobs(db, payer, { jobs: [job(0)], idempotencyKey: null, finish: theJob });
    expect(row).toMatchObject({ cost: 0, charged: false });
    expect(await ledgerOf(payer.sub)).toEqual([]);
  });

  it('debits every job of a call and binds the Idempotency-Key to the first', async () => {
    await claimIdempotencyKey(db, payer.sub, 'key-1', 'hash');
    const jobs = [job(20, 'AI Batch · Kling'), job(30, 'AI Batch · Kling')];
    const ids = await chargeJobs(db, payer, { jobs, idempotencyKey: 'key-1', finish: async (_tx, rows) => rows.map((row) => row.id) });
    expect(ids).toEqual(jobs.map((paid) => paid.media.id));
    expect((await ledgerOf(payer.sub)).map((entry) => [entry.amount, entry.job_id])).toEqual([
      [-20, jobs[0]?.media.id],
      [-30, jobs[1]?.media.id],
    ]);
    expect(await keyMedia(payer.sub, 'key-1')).toBe(jobs[0]?.media.id);
  });

  it('is all or nothing: a balance too small for the whole call is a 402 naming its price and balance, and nothing is written', async () => {
    await claimIdempotencyKey(db, payer.sub, 'key-2', 'hash');
    const error = await chargeJobs(db, payer, { jobs: [job(60), job(60)], idempotencyKey: 'key-2', finish: theJob }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ statusCode: 402, message: 'Not enough credits: this costs 120 credits and you have 100.' });
    expect(await mediaCount(payer.sub)).toBe(0);
    expect(await ledgerOf(payer.sub)).toEqual([]);
    expect(await keyMedia(payer.sub, 'key-2')).toBeNull();
    expect(await creditBalance(db, payer.sub)).toBe(100);
  });

  it('runs prepare first and finish last in the same transaction; their errors pass through and write nothing', async () => {
    const order: string[] = [];
    const prepared = await chargeJobs(db, payer, {
      jobs: [job(10)],
      idempotencyKey: null,
      prepare: async (tx) => {
        order.push(`prepare:${await mediaCount(payer.sub, tx)}`);
        return 'locked';
      },
      finish: async (tx, rows, value) => {
        order.push(`finish:${await mediaCount(payer.sub, tx)}:${rows.length}:${value}`);
        return value;
      },
    });
    expect(prepared).toBe('locked');
    expect(order).toEqual(['prepare:0', 'finish:1:1:locked']);

    const gone = new HttpError(404, 'Failed to find a Story with this id');
    await expect(chargeJobs(db, payer, { jobs: [job(10)], idempotencyKey: null, finish: () => Promise.reject(gone) })).rejects.toBe(gone);
    await expect(chargeJobs(db, payer, { jobs: [job(10)], idempotencyKey: null, prepare: () => Promise.reject(gone), finish: theJob })).rejects.toBe(gone);
    expect(await mediaCount(payer.sub)).toBe(1);
    expect(await creditBalance(db, payer.sub)).toBe(90);
  });

  it('a charged job ended twice is refunded once', async () => {
    const row = await chargeJobs(db, payer, { jobs: [job(25)], idempotencyKey: null, finish: theJob });
    await db.transaction((tx) => endJobWithRefund(tx, row.id, 'failed', 'broken'));
    await db.transaction((tx) => endJobWithRefund(tx, row.id, 'cancelled', null));
    expect((await ledgerOf(payer.sub)).map((entry) => [entry.kind, entry.amount])).toEqual([
      ['debit', -25],
      ['refund', 25],
    ]);
    expect(await findMedia(db, row.id)).toMatchObject({ status: 'failed' });
    expect(await creditBalance(db, payer.sub)).toBe(100);
  });
});
