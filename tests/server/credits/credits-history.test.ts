import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STARTING_CREDIT_GRANT } from '../../../server/src/config.ts';
import { appendLedgerEntry } from '../../../server/src/db/credit-ledger.ts';
import { userCreditsSchema } from '../../../src/services/schemas/credits.ts';
import { creditHistorySchema, type CreditHistory } from '../../../src/services/schemas/payments.ts';
import { asMedia, postForm } from '../helpers/media.ts';
import { buyPack } from '../helpers/payments.ts';
import { callApi, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  // Jobs run long enough to be cancelled (and so refunded) before they finish.
  server = await startTestServer({ jobs: { durationMs: 60_000 } });
});
afterAll(async () => {
  await server?.close();
});

async function history(token: string, nextStartKeys?: string) {
  const query = nextStartKeys === undefined ? '' : `?next_start_keys=${encodeURIComponent(nextStartKeys)}`;
  const answer = await callApi(server, `credits/history${query}`, { token });
  expect(answer.status).toBe(200);
  return creditHistorySchema.parse(answer.body?.data);
}

async function balance(token: string): Promise<number> {
  return userCreditsSchema.parse((await callApi(server, 'credits/get', { token })).body?.data).credit;
}

describe('GET credits/history', () => {
  it('lists grant, coupon, purchase, debit and refund rows newest first, with the balance after each', async () => {
    const user = await signUpUser(server, 'history');
    expect((await callApi(server, 'coupon/WELCOME50', { token: user.accessToken })).status).toBe(200);
    await buyPack(server, user.accessToken);
    const job = asMedia(await postForm(server, 'image/text-2-image', { prompt: 'a red kite' }, { token: user.accessToken }));
    const cancelled = await callApi(server, `media/${job.id}/cancel`, { method: 'PUT', token: user.accessToken });
    expect(cancelled.status).toBe(200);

    const page = await history(user.accessToken);
    expect(page.next_start_keys).toBeNull();
    const { rows: payments } = await server.db.query<{ id: string }>('SELECT id FROM payments WHERE user_sub = $1', [user.sub]);
    const total = STARTING_CREDIT_GRANT + 50 + 100;
    expect(page.items.map(({ kind, amount, balance_after, job_id, payment_id, reason }) => ({ kind, amount, balance_after, job_id, payment_id, reason }))).toEqual([
      { kind: 'refund', amount: 4, balance_after: total, job_id: job.id, payment_id: null, reason: expect.any(String) },
      { kind: 'debit', amount: -4, balance_after: total - 4, job_id: job.id, payment_id: null, reason: expect.any(String) },
      { kind: 'purchase', amount: 100, balance_after: total, job_id: null, payment_id: payments[0]?.id, reason: 'Bought 100 credits (Starter)' },
      { kind: 'coupon', amount: 50, balance_after: STARTING_CREDIT_GRANT + 50, job_id: null, payment_id: null, reason: 'Coupon WELCOME50' },
      { kind: 'grant', amount: STARTING_CREDIT_GRANT, balance_after: STARTING_CREDIT_GRANT, job_id: null, payment_id: null, reason: 'Welcome credits' },
    ]);
    expect(payments).toHaveLength(1);
    expect(page.items[0]?.balance_after).toBe(await balance(user.accessToken));
    for (const item of page.items) expect(Number.isNaN(Date.parse(item.created_at))).toBe(false);
  });

  it('pages by next_start_keys, 20 rows a page, without gaps or repeats', async () => {
    const user = await signUpUser(server, 'pager');
    const other = await signUpUser(server, 'neighbour');
    await callApi(server, 'credits/get', { token: user.accessToken });
    await callApi(server, 'credits/get', { token: other.accessToken });
    for (let index = 0; index < 44; index += 1) {
      await server.db.transaction((tx) => appendLedgerEntry(tx, { userSub: user.sub, amount: -1, kind: 'debit', reason: `step ${index}` }));
    }
    await server.db.transaction((tx) => appendLedgerEntry(tx, { userSub: other.sub, amount: -3, kind: 'debit', reason: 'not yours' }));

    const pages: CreditHistory[] = [await history(user.accessToken)];
    while (pages.at(-1)?.next_start_keys) pages.push(await history(user.accessToken, pages.at(-1)?.next_start_keys ?? undefined));
    expect(pages.map((page) => page.items.length)).toEqual([20, 20, 5]);
    const items = pages.flatMap((page) => page.items);

    const { rows } = await server.db.query<{ id: string; amount: number }>(
      'SELECT id::text AS id, amount FROM credit_ledger WHERE user_sub = $1 ORDER BY credit_ledger.id',
      [user.sub],
    );
    expect(items.map((item) => item.id)).toEqual(rows.map((row) => row.id).reverse());
    let running = 0;
    const expected = rows.map((row) => {
      running += row.amount;
      return running;
    });
    expect(items.map((item) => item.balance_after)).toEqual(expected.reverse());
    expect(items[0]?.balance_after).toBe(STARTING_CREDIT_GRANT - 44);
    expect(items.map((item) => item.reason)).not.toContain('not yours');
    expect(items.at(-1)?.kind).toBe('grant');
  });

  it('refuses a cursor it did not give out (400) and needs a signed-in user (401)', async () => {
    const user = await signUpUser(server, 'cursor');
    const answer = await callApi(server, 'credits/history?next_start_keys=not-a-key', { token: user.accessToken });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ detail: 'next_start_keys is not a key this call gave out.' });
    const twice = await callApi(server, 'credits/history?next_start_keys=a&next_start_keys=b', { token: user.accessToken });
    expect(twice.status).toBe(400);
    expect((await callApi(server, 'credits/history')).status).toBe(401);
  });
});
