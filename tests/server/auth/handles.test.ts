import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, callCognitoFront, setHandle, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

function updateHandle(accessToken: string, handle: string) {
  return callCognitoFront(server, 'UpdateUserAttributes', {
    AccessToken: accessToken,
    UserAttributes: [{ Name: 'preferred_username', Value: handle }],
  });
}

async function poolHandle(accessToken: string): Promise<string | null> {
  const answer = await fetch(`${server.url}/cognito/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-amz-json-1.1', 'X-Amz-Target': 'AWSCognitoIdentityProviderService.GetUser' },
    body: JSON.stringify({ AccessToken: accessToken }),
  });
  const user = (await answer.json()) as { UserAttributes: { Name: string; Value: string }[] };
  return user.UserAttributes.find((attribute) => attribute.Name === 'preferred_username')?.Value ?? null;
}

async function rowHandle(sub: string): Promise<string | null | undefined> {
  const { rows } = await server.db.query<{ preferred_username: string | null }>(
    'SELECT preferred_username FROM users WHERE sub = $1',
    [sub],
  );
  return rows[0]?.preferred_username;
}

describe('setting a handle through the /cognito front', () => {
  it('claims it in the users table, creating the row on a first call, then sets it in the pool', async () => {
    const user = await signUpUser(server, 'first');
    expect(await rowHandle(user.sub)).toBeUndefined();

    const answer = await updateHandle(user.accessToken, 'first.claim');

    expect(answer.status).toBe(200);
    expect(await rowHandle(user.sub)).toBe('first.claim');
    expect(await poolHandle(user.accessToken)).toBe('first.claim');
    // The row came with its starting grant, like any first call.
    const credits = await callApi<{ credit: number }>(server, 'credits/get', { token: user.accessToken });
    expect(credits.body?.data?.credit).toBe(100);
  });

  it('refuses a handle another user holds, in any case, the Cognito way, and leaves the pool untouched', async () => {
    const owner = await signUpUser(server, 'owner');
    const other = await signUpUser(server, 'other');
    await setHandle(server, owner.accessToken, 'Studio_Nine');

    const answer = await updateHandle(other.accessToken, 'studio_nine');

    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      __type: 'AliasExistsException',
      message: 'This handle is already taken. Please choose another.',
    });
    expect(await poolHandle(other.accessToken)).toBeNull();
    expect((await rowHandle(other.sub)) ?? null).toBeNull();
    expect(await rowHandle(owner.sub)).toBe('Studio_Nine');
  });

  it('lets the owner set their own handle again, or change its case', async () => {
    const user = await signUpUser(server, 'again');
    await setHandle(server, user.accessToken, 'again.me');
    expect((await updateHandle(user.accessToken, 'again.me')).status).toBe(200);
    expect((await updateHandle(user.accessToken, 'Again.Me')).status).toBe(200);
    expect(await rowHandle(user.sub)).toBe('Again.Me');
    expect(await poolHandle(user.accessToken)).toBe('Again.Me');
  });

  it('frees the old handle when a user changes it', async () => {
    const mover = await signUpUser(server, 'mover');
    const taker = await signUpUser(server, 'taker');
    await setHandle(server, mover.accessToken, 'old.place');
    await setHandle(server, mover.accessToken, 'new.place');

    expect((await updateHandle(taker.accessToken, 'old.place')).status).toBe(200);
    expect(await rowHandle(taker.sub)).toBe('old.place');
  });

  it.each(['ab', 'has space', ' padded', 'slash/name', ''])('refuses the malformed handle "%s" with the handle rule', async (handle) => {
    const user = await signUpUser(server, 'malformed');
    const answer = await updateHandle(user.accessToken, handle);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      __type: 'InvalidParameterException',
      message: 'A handle has 3 to 30 characters: letters, digits, "_", "." or "-".',
    });
    expect(await poolHandle(user.accessToken)).toBeNull();
  });

  it.each(['guest', 'Admin', 'KINORA'])('refuses the reserved handle "%s"', async (handle) => {
    const user = await signUpUser(server, 'reserved');
    const answer = await updateHandle(user.accessToken, handle);
    expect(answer.status).toBe(400);
    expect(answer.body?.__type).toBe('AliasExistsException');
    expect(await poolHandle(user.accessToken)).toBeNull();
  });

  it('refuses a handle a pool user holds who has no row yet', async () => {
    const holder = await signUpUser(server, 'holder');
    // Straight to the emulator: the pool has the handle, the server's table has never seen the user.
    const direct = await fetch(`${server.emulator.endpoint}/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-amz-json-1.1', 'X-Amz-Target': 'AWSCognitoIdentityProviderService.UpdateUserAttributes' },
      body: JSON.stringify({ AccessToken: holder.accessToken, UserAttributes: [{ Name: 'preferred_username', Value: 'pool.only' }] }),
    });
    expect(direct.status).toBe(200);
    const other = await signUpUser(server, 'poolother');

    const answer = await updateHandle(other.accessToken, 'POOL.only');
    expect(answer.status).toBe(400);
    expect(answer.body?.__type).toBe('AliasExistsException');
  });

  it('gives one handle to exactly one of two users claiming it at the same moment', async () => {
    for (let round = 0; round < 3; round += 1) {
      const [a, b] = await Promise.all([signUpUser(server, 'racea'), signUpUser(server, 'raceb')]);
      const handle = `contested-${round}-${Date.now().toString(36)}`;

      const answers = await Promise.all([updateHandle(a.accessToken, handle), updateHandle(b.accessToken, handle)]);

      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses).toEqual([200, 400]);
      const loser = answers.findIndex((answer) => answer.status === 400);
      expect(answers[loser]?.body?.__type).toBe('AliasExistsException');
      const winner = loser === 0 ? b : a;
      const losingUser = loser === 0 ? a : b;
      expect(await rowHandle(winner.sub)).toBe(handle);
      expect(await poolHandle(winner.accessToken)).toBe(handle);
      expect(await poolHandle(losingUser.accessToken)).toBeNull();
      const { rows } = await server.db.query<{ n: number }>(
        'SELECT count(*)::integer AS n FROM users WHERE lower(preferred_username) = lower($1)',
        [handle],
      );
      expect(rows[0]?.n).toBe(1);
    }
  });

  it('gives the claim back when the emulator refuses the update', async () => {
    const user = await signUpUser(server, 'refused');
    await setHandle(server, user.accessToken, 'kept.handle');
    // A second attribute the pool does not have: the emulator refuses the whole update.
    const answer = await callCognitoFront(server, 'UpdateUserAttributes', {
      AccessToken: user.accessToken,
      UserAttributes: [
        { Name: 'preferred_username', Value: 'wanted.handle' },
        { Name: 'custom:not_in_schema', Value: 'x' },
      ],
    });

    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(await rowHandle(user.sub)).toBe('kept.handle');
    expect(await poolHandle(user.accessToken)).toBe('kept.handle');
    const other = await signUpUser(server, 'refusedother');
    expect((await updateHandle(other.accessToken, 'wanted.handle')).status).toBe(200);
  });

  it('frees the handle in the table when the user deletes the attribute', async () => {
    const user = await signUpUser(server, 'dropper');
    await setHandle(server, user.accessToken, 'dropped.handle');
    const answer = await callCognitoFront(server, 'DeleteUserAttributes', {
      AccessToken: user.accessToken,
      UserAttributeNames: ['preferred_username'],
    });
    expect(answer.status).toBe(200);
    expect(await rowHandle(user.sub)).toBeNull();
  });

  it('refuses a deleted account: its still-signed token claims nothing', async () => {
    const user = await signUpUser(server, 'gone');
    expect((await callApi(server, 'users', { method: 'DELETE', token: user.accessToken })).status).toBe(200);
    const answer = await updateHandle(user.accessToken, 'ghost.handle');
    expect(answer.status).toBe(400);
    expect(answer.body?.__type).toBe('NotAuthorizedException');
    const { rows } = await server.db.query('SELECT 1 FROM users WHERE lower(preferred_username) = $1', ['ghost.handle']);
    expect(rows).toHaveLength(0);
  });
});

/** Sets an attribute straight in the pool, as a production pool without the front would let a user do. */
async function setInPoolDirectly(accessToken: string, attributes: { Name: string; Value: string }[]): Promise<void> {
  const direct = await fetch(`${server.emulator.endpoint}/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-amz-json-1.1', 'X-Amz-Target': 'AWSCognitoIdentityProviderService.UpdateUserAttributes' },
    body: JSON.stringify({ AccessToken: accessToken, UserAttributes: attributes }),
  });
  expect(direct.status).toBe(200);
}

describe('forged handles (issue 17)', () => {
  it('refuses an update that names preferred_username twice, so nobody takes a handle past the check', async () => {
    const victim = await signUpUser(server, 'victim');
    const thief = await signUpUser(server, 'thief');
    await setHandle(server, victim.accessToken, 'victim.handle');

    const answer = await callCognitoFront(server, 'UpdateUserAttributes', {
      AccessToken: thief.accessToken,
      UserAttributes: [
        { Name: 'preferred_username', Value: 'thief.free' },
        { Name: 'preferred_username', Value: 'victim.handle' },
      ],
    });

    expect(answer.status).toBe(400);
    expect(answer.body?.__type).toBe('InvalidParameterException');
    expect(await poolHandle(thief.accessToken)).toBeNull();
    expect((await rowHandle(thief.sub)) ?? null).toBeNull();
    expect(await rowHandle(victim.sub)).toBe('victim.handle');
  });

  it.each([
    ['an attribute the web app never changes', [{ Name: 'email', Value: 'someone.else@example.test' }]],
    ['a handle beside another attribute', [{ Name: 'preferred_username', Value: 'fine.handle' }, { Name: 'name', Value: 'x' }]],
  ])('refuses %s', async (_what, attributes) => {
    const user = await signUpUser(server, 'unexpected');
    const answer = await callCognitoFront(server, 'UpdateUserAttributes', { AccessToken: user.accessToken, UserAttributes: attributes });
    expect(answer.status).toBe(400);
    expect(answer.body?.__type).toBe('InvalidParameterException');
    expect(await poolHandle(user.accessToken)).toBeNull();
  });

  function signUpThroughFront(username: string, attributes: { Name: string; Value: string }[]) {
    return callCognitoFront(server, 'SignUp', {
      ClientId: server.emulator.clientId,
      Username: username,
      Password: 'secret-password-1',
      UserAttributes: [{ Name: 'email', Value: `${username}@example.test` }, ...attributes],
    });
  }

  it('applies the handle rule and the claim to a handle given at sign-up', async () => {
    const owner = await signUpUser(server, 'signupowner');
    await setHandle(server, owner.accessToken, 'owned.at.signup');
    const stamp = Date.now().toString(36);

    const taken = await signUpThroughFront(`taker${stamp}`, [{ Name: 'preferred_username', Value: 'OWNED.at.signup' }]);
    expect(taken.status).toBe(400);
    expect(taken.body?.__type).toBe('AliasExistsException');

    const invalid = await signUpThroughFront(`xss${stamp}`, [{ Name: 'preferred_username', Value: '<img src=x onerror=alert(1)>' }]);
    expect(invalid.status).toBe(400);
    expect(invalid.body?.__type).toBe('InvalidParameterException');

    const twice = await signUpThroughFront(`twice${stamp}`, [
      { Name: 'preferred_username', Value: `free${stamp}` },
      { Name: 'preferred_username', Value: 'owned.at.signup' },
    ]);
    expect(twice.status).toBe(400);

    const fresh = await signUpThroughFront(`fresh${stamp}`, [{ Name: 'preferred_username', Value: `fresh.${stamp}` }]);
    expect(fresh.status).toBe(200);
    const sub = fresh.body?.UserSub as string;
    expect(await rowHandle(sub)).toBe(`fresh.${stamp}`);
    const { rows } = await server.db.query('SELECT 1 FROM users WHERE lower(preferred_username) = $1', ['owned.at.signup']);
    expect(rows).toHaveLength(1);
  });

  it('never stores or serves a handle from the pool that breaks the rule or is another user\'s', async () => {
    const owner = await signUpUser(server, 'realowner');
    await setHandle(server, owner.accessToken, 'real.owner');
    const forger = await signUpUser(server, 'forger');
    await setHandle(server, forger.accessToken, 'forger.own');

    await setInPoolDirectly(forger.accessToken, [{ Name: 'preferred_username', Value: '<img src=x onerror=alert(1)>' }]);
    expect((await callApi(server, 'credits/get', { token: forger.accessToken })).status).toBe(200);
    const served = await callApi<{ preferred_username: string | null }>(server, `users/${forger.sub}?type=id`);
    expect(served.body?.data?.preferred_username).not.toContain('<');
    expect(await rowHandle(forger.sub)).not.toContain('<');

    await setInPoolDirectly(forger.accessToken, [{ Name: 'preferred_username', Value: 'REAL.owner' }]);
    expect((await callApi(server, 'credits/get', { token: forger.accessToken })).status).toBe(200);
    expect(await rowHandle(owner.sub)).toBe('real.owner');
    expect((await rowHandle(forger.sub))?.toLowerCase()).not.toBe('real.owner');
    const byHandle = await callApi<{ id: string }>(server, 'users/real.owner?type=handle');
    expect(byHandle.body?.data?.id).toBe(owner.sub);
  });

  it('never stores a reserved handle set in the pool directly', async () => {
    const user = await signUpUser(server, 'reservedpool');
    await setInPoolDirectly(user.accessToken, [{ Name: 'preferred_username', Value: 'Admin' }]);
    expect((await callApi(server, 'credits/get', { token: user.accessToken })).status).toBe(200);
    expect((await rowHandle(user.sub)) ?? null).toBeNull();
  });
});
