import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markUserDeleted } from '../../../server/src/db/users.ts';
import { callApi, signUpUser, startTestServer, type ApiCallOptions, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

/**
 * Every call that needs the signed-in user's auth (SPEC §6). A later issue that adds one adds it
 * here: each must create the caller's row on a first call and refuse a deleted account.
 */
const AUTHENTICATED_CALLS: { name: string; path: string; options: Omit<ApiCallOptions, 'token'> }[] = [
  { name: 'GET credits/get', path: 'credits/get', options: {} },
  { name: 'GET coupon/{code}', path: 'coupon/NO-SUCH-CODE', options: {} },
  { name: 'POST users/available-username', path: 'users/available-username', options: { method: 'POST', json: { preferred_username: 'some.handle' } } },
  { name: 'DELETE users', path: 'users', options: { method: 'DELETE' } },
];

async function row(sub: string) {
  const { rows } = await server.db.query<{ deleted_at: Date | null }>('SELECT deleted_at FROM users WHERE sub = $1', [sub]);
  return rows[0];
}

async function grants(sub: string): Promise<number> {
  const { rows } = await server.db.query<{ n: number }>(
    "SELECT count(*)::integer AS n FROM credit_ledger WHERE user_sub = $1 AND kind = 'grant'",
    [sub],
  );
  return rows[0]?.n ?? 0;
}

describe('the first authenticated call', () => {
  it.each(AUTHENTICATED_CALLS)('$name creates the caller’s row with its starting grant', async ({ path, options }) => {
    const user = await signUpUser(server, 'first');
    expect(await row(user.sub)).toBeUndefined();

    const answer = await callApi(server, path, { ...options, token: user.accessToken });

    expect(answer.status).not.toBe(401);
    expect(await row(user.sub)).toBeDefined();
    expect(await grants(user.sub)).toBe(1);
  });

  it('POST users/contact-us (auth optional) creates the row of a signed-in sender', async () => {
    const user = await signUpUser(server, 'contact');
    const answer = await callApi(server, 'users/contact-us', {
      method: 'POST',
      token: user.accessToken,
      json: { name: 'A', email: user.email, message: 'Hello, Kinora team' },
    });
    expect(answer.status).toBe(201);
    expect(await row(user.sub)).toBeDefined();
  });
});

describe('a deleted account', () => {
  it.each(AUTHENTICATED_CALLS)('$name answers 401 to its still-signed token', async ({ path, options }) => {
    const user = await signUpUser(server, 'deleted');
    expect((await callApi(server, 'users', { method: 'DELETE', token: user.accessToken })).status).toBe(200);

    const answer = await callApi(server, path, { ...options, token: user.accessToken });

    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ detail: 'User needs to be authenticated to call this API.' });
  });

  it('stays refused and is not brought back while the pool still knows the user', async () => {
    const user = await signUpUser(server, 'zombie');
    expect((await callApi(server, 'credits/get', { token: user.accessToken })).status).toBe(200);
    // The row is marked deleted but the pool user exists (e.g. an operator deleted it here only).
    await markUserDeleted(server.db, user.sub);

    for (const { path, options } of AUTHENTICATED_CALLS) {
      expect((await callApi(server, path, { ...options, token: user.accessToken })).status, path).toBe(401);
    }
    const contact = await callApi(server, 'users/contact-us', {
      method: 'POST',
      token: user.accessToken,
      json: { name: 'A', email: user.email, message: 'Hello, Kinora team' },
    });
    expect(contact.status).toBe(201);
    const { rows } = await server.db.query<{ user_sub: string | null }>('SELECT user_sub FROM contact_messages WHERE id = $1', [
      (contact.body?.data as { id: string }).id,
    ]);
    expect(rows[0]?.user_sub).toBeNull();
    expect((await row(user.sub))?.deleted_at).not.toBeNull();
    expect(await grants(user.sub)).toBe(1);
  });
});
