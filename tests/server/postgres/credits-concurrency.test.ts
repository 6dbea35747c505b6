import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerSchema, transferResultSchema } from '../../../src/services/schemas/customers.ts';
import { STARTING_CREDIT_GRANT } from '../../../server/src/config.ts';
import { creditCustomerAccount } from '../../../server/src/db/customer-ledger.ts';
import { asMedia, balanceOf, ledgerRows, postForm } from '../helpers/media.ts';
import { freshPostgresUrl } from '../helpers/postgres.ts';
import { callApi, signUpUser, startTestServer, type ApiAnswer, type TestServer } from '../helpers/server.ts';

/**
 * The credit paths under real concurrency (issue 20): PGlite runs one transaction at a time, so
 * only a PostgreSQL server, with transactions interleaving on READ COMMITTED across a pool of
 * connections, shows whether the row locks and the ledger's guard hold. The server runs on its own
 * database of the run's cluster, opened by openDatabase (migrations and seed) as in production.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ databaseUrl: await freshPostgresUrl() });
});
afterAll(async () => {
  await server?.close();
});

/** Flux 1.1 Pro Ultra costs 8 credits a job. */
const ULTRA = { prompt: 'a lighthouse in fog', option: 'Flux1.1ProUltra' };
const ULTRA_COST = 8;

/** A signed-up user whose row and starting grant exist (their first call). */
async function knownUser(prefix: string) {
  const user = await signUpUser(server, prefix);
  expect((await callApi(server, 'credits/get', { token: user.accessToken })).status).toBe(200);
  return user;
}

/** Every prefix of the user's ledger, in commit order, is ≥ 0. */
async function expectNeverNegative(sub: string): Promise<void> {
  let running = 0;
  for (const row of await ledgerRows(server, sub)) {
    running += row.amount;
    expect(running).toBeGreaterThanOrEqual(0);
  }
}

const statuses = (answers: readonly ApiAnswer[]): number[] => answers.map((answer) => answer.status).sort((a, b) => a - b);

describe('the server runs on PostgreSQL', () => {
  it('is a PostgreSQL server, migrated and seeded by openDatabase', async () => {
    expect(server.db.kind).toBe('postgres');
    const { rows } = await server.db.query<{ version: string }>("SELECT current_setting('server_version') AS version");
    expect(rows[0]?.version).toMatch(/^\d+\.\d+/);
    const coupons = await server.db.query<{ code: string }>('SELECT code FROM coupons ORDER BY code');
    expect(coupons.rows.map((row) => row.code)).toEqual(['KINORA100', 'WELCOME50']);
  });
});

describe('50 concurrent paid submits near zero balance', () => {
  it('accept exactly what the balance affords (44 credits at 8 → 5 jobs), never overdraw, one debit per job', async () => {
    const user = await knownUser('pgrush');
    // Down to 44 credits: five jobs fit, a sixth would need 48.
    await server.db.query("INSERT INTO credit_ledger (user_sub, amount, kind, reason) VALUES ($1, -56, 'debit', 'spent before')", [user.sub]);
    expect(await balanceOf(server, user.sub)).toBe(44);

    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        postForm(server, 'image/text-2-image', { ...ULTRA, prompt: `rush ${index}` }, { token: user.accessToken }),
      ),
    );
    expect(statuses(answers)).toEqual([...Array<number>(5).fill(200), ...Array<number>(45).fill(402)]);
    // A refusal comes only once the five debits are in: the balance it names is the final one.
    for (const answer of answers.filter((entry) => entry.status === 402)) {
      expect(answer.body).toEqual({ detail: `Not enough credits: this costs ${ULTRA_COST} credits and you have 4.` });
    }
    const accepted = answers.filter((answer) => answer.status === 200).map((answer) => asMedia(answer).id);
    expect(new Set(accepted).size).toBe(5);

    const { rows: jobs } = await server.db.query<{ id: string }>('SELECT id FROM media WHERE user_sub = $1', [user.sub]);
    expect(jobs.map((job) => job.id).sort()).toEqual([...accepted].sort());
    const debits = (await ledgerRows(server, user.sub)).filter((row) => row.kind === 'debit' && row.job_id !== null);
    expect(debits.map((row) => row.job_id).sort()).toEqual([...accepted].sort());
    expect(debits.every((row) => row.amount === -ULTRA_COST)).toBe(true);
    await expectNeverNegative(user.sub);
    expect(await balanceOf(server, user.sub)).toBe(4);
  });
});

describe('concurrent coupon redemptions', () => {
  it('credit one user once when they redeem the same coupon 20 times at once', async () => {
    const user = await knownUser('pgcoupon');
    const answers = await Promise.all(Array.from({ length: 20 }, () => callApi(server, 'coupon/WELCOME50', { token: user.accessToken })));
    expect(statuses(answers)).toEqual([200, ...Array<number>(19).fill(409)]);
    for (const answer of answers.filter((entry) => entry.status === 409)) {
      expect(answer.body).toEqual({ detail: 'You have already redeemed this coupon.' });
    }
    const coupons = (await ledgerRows(server, user.sub)).filter((row) => row.kind === 'coupon');
    expect(coupons).toEqual([{ kind: 'coupon', amount: 50, job_id: null }]);
    const { rows } = await server.db.query<{ n: number }>(
      "SELECT count(*)::integer AS n FROM coupon_redemptions WHERE code = 'WELCOME50' AND user_sub = $1",
      [user.sub],
    );
    expect(rows[0]?.n).toBe(1);
    expect(await balanceOf(server, user.sub)).toBe(STARTING_CREDIT_GRANT + 50);
  });

  it('never go over a redemption limit: 8 users × 3 requests at once for a coupon of 3 → 3 redemptions, by 3 users', async () => {
    await server.db.query("INSERT INTO coupons (code, credits, max_redemptions) VALUES ('PGLIMIT3', 5, 3)");
    const users = await Promise.all(Array.from({ length: 8 }, (_, index) => knownUser(`pglimit${index}`)));
    const calls = users.flatMap((user) => [0, 1, 2].map(() => ({ user, answer: callApi(server, 'coupon/pglimit3', { token: user.accessToken }) })));
    const answers = await Promise.all(calls.map((call) => call.answer));
    expect(statuses(answers)).toEqual([200, 200, 200, ...Array<number>(21).fill(409)]);
    for (const answer of answers.filter((entry) => entry.status === 409)) {
      expect(['You have already redeemed this coupon.', 'This coupon has been redeemed the maximum number of times.']).toContain(
        answer.body?.detail,
      );
    }
    const winners = calls.filter((_, index) => answers[index]?.status === 200).map((call) => call.user.sub);
    expect(new Set(winners).size).toBe(3);

    const { rows } = await server.db.query<{ user_sub: string }>("SELECT user_sub FROM coupon_redemptions WHERE code = 'PGLIMIT3'");
    expect(rows.map((row) => row.user_sub).sort()).toEqual([...winners].sort());
    for (const user of users) {
      const won = winners.includes(user.sub);
      expect((await ledgerRows(server, user.sub)).filter((row) => row.kind === 'coupon')).toHaveLength(won ? 1 : 0);
      expect(await balanceOf(server, user.sub)).toBe(STARTING_CREDIT_GRANT + (won ? 5 : 0));
    }
  });
});

describe('concurrent organisation transfers', () => {
  it('never overdraw the organisation and conserve every credit, while the members spend at the same time', async () => {
    const owner = await knownUser('pgowner');
    const members = await Promise.all([0, 1, 2].map((index) => knownUser(`pgmember${index}`)));
    const created = await callApi(server, 'customers', { method: 'POST', token: owner.accessToken, json: { name: 'Concurrent Studio' } });
    expect(created.status).toBe(201);
    const organisation = customerSchema.parse(created.body?.data);
    for (const member of members) {
      const added = await callApi(server, 'customers/members', {
        method: 'POST',
        token: owner.accessToken,
        json: { customer_id: organisation.id, member: member.email },
      });
      expect(added.status).toBe(200);
    }
    // 100 credits bought: 14 transfers of 7 fit, leaving 2.
    await server.db.transaction((tx) =>
      creditCustomerAccount(tx, { customerId: organisation.id, amount: 100, kind: 'purchase', reason: 'Bought 100 credits (test)' }),
    );

    // 30 transfers of 7, ten to each member, and each member's 5 jobs of 8 (40 of their 100), all at once.
    const transfers = Array.from({ length: 30 }, (_, index) => {
      const member = members[index % 3];
      if (!member) throw new Error('no member');
      return {
        member,
        answer: callApi(server, 'customers/credits/transfer', {
          method: 'POST',
          token: owner.accessToken,
          json: { customer_id: organisation.id, member_id: member.sub, credits: 7 },
          headers: { 'Idempotency-Key': `pg-transfer-${index}` },
        }),
      };
    });
    const spends = members.flatMap((member) =>
      Array.from({ length: 5 }, (_, index) => postForm(server, 'image/text-2-image', { ...ULTRA, prompt: `spend ${index}` }, { token: member.accessToken })),
    );
    const [transferAnswers, spendAnswers] = await Promise.all([Promise.all(transfers.map((entry) => entry.answer)), Promise.all(spends)]);

    expect(statuses(transferAnswers)).toEqual([...Array<number>(14).fill(200), ...Array<number>(16).fill(402)]);
    for (const answer of transferAnswers.filter((entry) => entry.status === 402)) {
      expect(answer.body).toEqual({ detail: 'The organisation has 2 credits; it cannot transfer 7.' });
    }
    expect(statuses(spendAnswers)).toEqual(Array<number>(15).fill(200));

    const { rows: orgRows } = await server.db.query<{ amount: number }>('SELECT amount FROM customer_ledger WHERE customer_id = $1 ORDER BY id', [
      organisation.id,
    ]);
    let orgBalance = 0;
    for (const row of orgRows) {
      orgBalance += row.amount;
      expect(orgBalance).toBeGreaterThanOrEqual(0);
    }
    expect(orgBalance).toBe(2);
    expect(orgRows).toHaveLength(15);

    const received = new Map(members.map((member) => [member.sub, 0]));
    transferAnswers.forEach((answer, index) => {
      const entry = transfers[index];
      if (answer.status !== 200 || !entry) return;
      expect(transferResultSchema.parse(answer.body?.data).transfer.member_id).toBe(entry.member.sub);
      received.set(entry.member.sub, (received.get(entry.member.sub) ?? 0) + 7);
    });
    let movedToMembers = 0;
    for (const member of members) {
      const rows = await ledgerRows(server, member.sub);
      const transferred = rows.filter((row) => row.kind === 'transfer').reduce((sum, row) => sum + row.amount, 0);
      expect(transferred).toBe(received.get(member.sub));
      expect(rows.filter((row) => row.kind === 'debit')).toHaveLength(5);
      await expectNeverNegative(member.sub);
      expect(await balanceOf(server, member.sub)).toBe(STARTING_CREDIT_GRANT + transferred - 5 * ULTRA_COST);
      movedToMembers += transferred;
    }
    // Conserved: what left the organisation is exactly what its members received.
    expect(movedToMembers).toBe(98);
    expect(orgBalance + movedToMembers).toBe(100);
    const { rows: transferRows } = await server.db.query<{ total: number; n: number }>(
      'SELECT COALESCE(SUM(credits), 0)::integer AS total, count(*)::integer AS n FROM customer_transfers WHERE customer_id = $1',
      [organisation.id],
    );
    expect(transferRows[0]).toEqual({ total: 98, n: 14 });
  });
});
