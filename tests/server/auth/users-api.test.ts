import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteAccountResponseSchema, usernameAvailabilitySchema } from '../../../src/services/schemas/users.ts';
import { callApi, setHandle, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

async function checkHandle(token: string, handle: unknown) {
  return callApi(server, 'users/available-username', { method: 'POST', token, json: { preferred_username: handle } });
}

describe('POST users/available-username', () => {
  it('needs a signed-in user', async () => {
    const answer = await callApi(server, 'users/available-username', { method: 'POST', json: { preferred_username: 'x' } });
    expect(answer.status).toBe(401);
  });

  it('answers available for a free handle and not for one taken by someone else, in any case', async () => {
    const owner = await signUpUser(server, 'owner');
    const asker = await signUpUser(server, 'asker');
    expect((await callApi(server, 'credits/get', { token: owner.accessToken })).status).toBe(200);
    await setHandle(server, owner.accessToken, 'Taken_Name');

    const free = await checkHandle(asker.accessToken, 'fresh.handle-1');
    expect(free.status).toBe(200);
    expect(usernameAvailabilitySchema.parse(free.body?.data)).toEqual({
      preferred_username: 'fresh.handle-1',
      available: true,
    });
    expect((await checkHandle(asker.accessToken, 'taken_name')).body?.data).toEqual({
      preferred_username: 'taken_name',
      available: false,
    });
    // The owner may keep (re-check) their own handle.
    expect((await checkHandle(owner.accessToken, 'Taken_Name')).body?.data).toEqual({
      preferred_username: 'Taken_Name',
      available: true,
    });
    expect((await checkHandle(asker.accessToken, 'Guest')).body?.data).toEqual({
      preferred_username: 'Guest',
      available: false,
    });
  });

  it.each(['ab', 'a'.repeat(31), 'has space', 'emoji🙂', 'slash/name'])(
    'answers 400 with the handle rule for "%s"',
    async (handle) => {
      const user = await signUpUser(server, 'rules');
      const answer = await checkHandle(user.accessToken, handle);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        detail: 'A handle has 3 to 30 characters: letters, digits, "_", "." or "-".',
      });
    },
  );

  it('answers 400 when preferred_username is missing', async () => {
    const user = await signUpUser(server, 'missing');
    const answer = await callApi(server, 'users/available-username', { method: 'POST', token: user.accessToken, json: {} });
    expect(answer.status).toBe(400);
    expect(answer.body?.detail).toMatch(/^Request body is invalid: preferred_username: /);
  });
});

describe('POST users/contact-us signed in', () => {
  it('links the message to the sender', async () => {
    const user = await signUpUser(server, 'contact');
    const answer = await callApi<{ id: string }>(server, 'users/contact-us', {
      method: 'POST',
      token: user.accessToken,
      json: { name: 'Member', email: user.email, message: 'A question about credits' },
    });
    expect(answer.status).toBe(201);
    const { rows } = await server.db.query<{ user_sub: string | null }>(
      'SELECT user_sub FROM contact_messages WHERE id = $1',
      [answer.body?.data?.id],
    );
    expect(rows).toEqual([{ user_sub: user.sub }]);
  });
});

describe('DELETE users', () => {
  it('deletes the pool user, marks the row deleted and frees the handle', async () => {
    const user = await signUpUser(server, 'leaver');
    expect((await callApi(server, 'credits/get', { token: user.accessToken })).status).toBe(200);
    await setHandle(server, user.accessToken, 'leaving-soon');
    expect((await callApi(server, 'credits/get', { token: user.accessToken })).status).toBe(200);
    const before = await server.db.query<{ preferred_username: string | null }>(
      'SELECT preferred_username FROM users WHERE sub = $1',
      [user.sub],
    );
    expect(before.rows).toEqual([{ preferred_username: 'leaving-soon' }]);
    expect(await server.emulator.identity.userExistsByEmail(user.email)).toBe(true);
    // What only served the person: a Library folder (through its call) and a browser's push
    // subscription with the alerts' opt-in (written as POST push/subscriptions writes them).
    expect((await callApi(server, 'library/folders', { method: 'POST', token: user.accessToken, json: { name: 'Posters' } })).status).toBe(201);
    await server.db.query(
      `INSERT INTO push_subscriptions (endpoint, user_sub, p256dh, auth) VALUES ('https://push.example.test/leaver', $1, 'key', 'secret')`,
      [user.sub],
    );
    await server.db.query('UPDATE users SET push_alerts = true WHERE sub = $1', [user.sub]);

    // A JSON content type with no body (as an HTTP client may send on DELETE) is not an error.
    const answer = await callApi(server, 'users', {
      method: 'DELETE',
      token: user.accessToken,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(answer.status).toBe(200);
    expect(deleteAccountResponseSchema.parse(answer.body?.data)).toEqual({ deleted: true });

    expect(await server.emulator.identity.userExistsByEmail(user.email)).toBe(false);
    const { rows } = await server.db.query<{ deleted: boolean; preferred_username: string | null }>(
      'SELECT deleted_at IS NOT NULL AS deleted, preferred_username FROM users WHERE sub = $1',
      [user.sub],
    );
    expect(rows).toEqual([{ deleted: true, preferred_username: null }]);
    const kept = await server.db.query<{ folders: number; subscriptions: number; push_alerts: boolean }>(
      `SELECT (SELECT count(*)::int FROM library_folders WHERE user_sub = $1) AS folders,
              (SELECT count(*)::int FROM push_subscriptions WHERE user_sub = $1) AS subscriptions,
              (SELECT push_alerts FROM users WHERE sub = $1) AS push_alerts`,
      [user.sub],
    );
    expect(kept.rows).toEqual([{ folders: 0, subscriptions: 0, push_alerts: false }]);
    expect((await callApi(server, `users/${user.sub}`)).status).toBe(404);
    // The access token is still signed, but it must not bring the account back.
    expect((await callApi(server, 'credits/get', { token: user.accessToken })).status).toBe(401);

    const other = await signUpUser(server, 'newcomer');
    expect((await checkHandle(other.accessToken, 'leaving-soon')).body?.data).toEqual({
      preferred_username: 'leaving-soon',
      available: true,
    });
  });
});

describe('the shared guest account', () => {
  it('cannot be deleted through DELETE users', async () => {
    const guest = await server.emulator.createUser({ username: 'guest', email: 'guest@kinora.local', password: 'kinora-guest' });
    const answer = await callApi(server, 'users', { method: 'DELETE', token: guest.accessToken });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ detail: 'The shared guest account cannot be deleted.' });
    expect(await server.emulator.identity.userExistsByEmail('guest@kinora.local')).toBe(true);
  });
});

describe('handles', () => {
  it('counts a handle held in the pool as taken even before its owner has called the API', async () => {
    const owner = await signUpUser(server, 'poolowner');
    const asker = await signUpUser(server, 'poolasker');
    await setHandle(server, owner.accessToken, 'Pool.Only');
    expect((await checkHandle(asker.accessToken, 'pool.only')).body?.data).toEqual({
      preferred_username: 'pool.only',
      available: false,
    });
  });
});
