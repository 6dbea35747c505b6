import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { couponRedemptionSchema } from '../../../src/services/schemas/coupon.ts';
import { userCreditsSchema } from '../../../src/services/schemas/credits.ts';
import { STARTING_CREDIT_GRANT } from '../../../server/src/config.ts';
import { callApi, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

const NOT_AUTHENTICATED = { detail: 'User needs to be authenticated to call this API.' };

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

async function balance(token: string): Promise<number> {
  const answer = await callApi(server, 'credits/get', { token });
  expect(answer.status).toBe(200);
  return userCreditsSchema.parse(answer.body?.data).credit;
}

async function ledger(sub: string) {
  const { rows } = await server.db.query<{ kind: string; amount: number; reason: string }>(
    'SELECT kind, amount, reason FROM credit_ledger WHERE user_sub = $1 ORDER BY id',
    [sub],
  );
  return rows;
}

describe('user calls need a valid token', () => {
  it.each([
    ['credits/get', 'GET'],
    ['coupon/WELCOME50', 'GET'],
    ['users', 'DELETE'],
  ])('%s (%s) answers 401 without a token', async (path, method) => {
    const answer = await callApi(server, path, { method });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(NOT_AUTHENTICATED);
  });

  it('answers 401 for a token the emulator did not sign', async () => {
    const user = await signUpUser(server, 'forger');
    const [header, payload] = user.accessToken.split('.');
    const forged = `${header}.${payload}.${Buffer.from('not the signature').toString('base64url')}`;
    const answer = await callApi(server, 'credits/get', { token: forged });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(NOT_AUTHENTICATED);
    expect((await callApi(server, 'credits/get', { token: 'garbage' })).status).toBe(401);
  });
});

describe('GET credits/get', () => {
  it('gives a new account its starting grant once, as one ledger row', async () => {
    const user = await signUpUser(server, 'credits');
    expect(await balance(user.accessToken)).toBe(STARTING_CREDIT_GRANT);
    expect(await balance(user.accessToken)).toBe(STARTING_CREDIT_GRANT);
    expect(await ledger(user.sub)).toEqual([{ kind: 'grant', amount: STARTING_CREDIT_GRANT, reason: 'Welcome credits' }]);
  });
});

describe('GET coupon/{code}', () => {
  it('redeems a code once per user and puts the credits in the ledger', async () => {
    const user = await signUpUser(server, 'coupon');
    const first = await callApi(server, 'coupon/welcome50', { token: user.accessToken });
    expect(first.status).toBe(200);
    expect(couponRedemptionSchema.parse(first.body?.data)).toEqual({ code: 'WELCOME50', credits: 50 });

    const again = await callApi(server, 'coupon/WELCOME50', { token: user.accessToken });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ detail: 'You have already redeemed this coupon.' });

    const rows = await ledger(user.sub);
    expect(rows.filter((row) => row.kind === 'coupon')).toEqual([
      { kind: 'coupon', amount: 50, reason: 'Coupon WELCOME50' },
    ]);
    const sum = rows.reduce((total, row) => total + row.amount, 0);
    expect(await balance(user.accessToken)).toBe(sum);
    expect(sum).toBe(STARTING_CREDIT_GRANT + 50);
  });

  it('lets another user redeem the same code', async () => {
    const other = await signUpUser(server, 'coupon-other');
    const answer = await callApi(server, 'coupon/WELCOME50', { token: other.accessToken });
    expect(answer.status).toBe(200);
    expect(await balance(other.accessToken)).toBe(STARTING_CREDIT_GRANT + 50);
  });

  it('answers 404 for an unknown or inactive code and changes nothing', async () => {
    const user = await signUpUser(server, 'coupon-missing');
    const unknown = await callApi(server, 'coupon/NO-SUCH-CODE', { token: user.accessToken });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'This coupon code does not exist or is no longer active.' });

    await server.db.query("INSERT INTO coupons (code, credits, active) VALUES ('RETIRED10', 10, false)");
    expect((await callApi(server, 'coupon/RETIRED10', { token: user.accessToken })).status).toBe(404);
    expect(await balance(user.accessToken)).toBe(STARTING_CREDIT_GRANT);
  });

  it('stops at max_redemptions', async () => {
    await server.db.query("INSERT INTO coupons (code, credits, max_redemptions) VALUES ('ONLYONE', 5, 1)");
    const first = await signUpUser(server, 'limit-a');
    const second = await signUpUser(server, 'limit-b');
    expect((await callApi(server, 'coupon/ONLYONE', { token: first.accessToken })).status).toBe(200);
    const late = await callApi(server, 'coupon/ONLYONE', { token: second.accessToken });
    expect(late.status).toBe(409);
    expect(late.body).toEqual({ detail: 'This coupon has been redeemed the maximum number of times.' });
  });

  it('gives exactly one credit row when the same user redeems a code 10 times at once', async () => {
    const user = await signUpUser(server, 'coupon-race');
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => callApi(server, 'coupon/KINORA100', { token: user.accessToken })),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(9);

    const coupons = (await ledger(user.sub)).filter((row) => row.kind === 'coupon');
    expect(coupons).toEqual([{ kind: 'coupon', amount: 100, reason: 'Coupon KINORA100' }]);
    const { rows } = await server.db.query<{ n: number }>(
      'SELECT count(*)::integer AS n FROM coupon_redemptions WHERE code = $1 AND user_sub = $2',
      ['KINORA100', user.sub],
    );
    expect(rows[0]?.n).toBe(1);
    expect(await balance(user.accessToken)).toBe(STARTING_CREDIT_GRANT + 100);
  });
});
