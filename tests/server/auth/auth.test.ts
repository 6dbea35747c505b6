import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AMZ_JSON, createCognitoClient } from '../../../server/src/auth/cognito-client.ts';
import { createCognitoIdentity } from '../../../server/src/auth/identity.ts';
import { provision } from '../../../server/src/auth/provision.ts';
import { seedAccounts } from '../../../server/src/auth/seed-accounts.ts';
import { startEmulator } from '../helpers/emulator.ts';
import type { TestEmulator } from '../helpers/emulator.ts';

let emulator: TestEmulator;
let app: FastifyInstance;

beforeAll(async () => {
  emulator = await startEmulator();
  // Only the identity plugin, so these tests do not depend on the rest of the API server.
  app = Fastify();
  const routes = emulator.identity.routes;
  if (!routes) throw new Error('the cognito identity provider must expose its routes');
  await app.register(routes);
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await emulator?.stop();
});

function cognitoCall(action: string, body: unknown) {
  return app.inject({
    method: 'POST',
    url: '/cognito',
    headers: { 'content-type': AMZ_JSON, 'x-amz-target': `AWSCognitoIdentityProviderService.${action}` },
    payload: JSON.stringify(body),
  });
}

/** Signs claims with the emulator's own key (shipped in the package), as cognito-local does. */
async function signAsEmulator(claims: Record<string, unknown>, expiresAt: number): Promise<string> {
  const require = createRequire(import.meta.url);
  const keyFile = require.resolve('cognito-local/lib/keys/cognitoLocal.private.json');
  const { pem } = JSON.parse(await readFile(keyFile, 'utf8')) as { pem: string };
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: 'CognitoLocal' })
    .setIssuer(`${emulator.endpoint}/${emulator.userPoolId}`)
    .setIssuedAt(now - 7200)
    .setExpirationTime(expiresAt)
    .sign(createPrivateKey(pem));
}

describe('provisioning', () => {
  it('is idempotent: a second run reuses the pool, the client, the group and the seed accounts', async () => {
    const client = createCognitoClient(emulator.endpoint);
    const accounts = seedAccounts({});
    const first = await provision(client, { accounts });
    const second = await provision(client, { accounts });

    expect(first).toEqual({ userPoolId: emulator.userPoolId, clientId: emulator.clientId });
    expect(second).toEqual(first);
    const { UserPools } = await client.call<{ UserPools: { Name: string }[] }>('ListUserPools', { MaxResults: 60 });
    expect(UserPools.filter((pool) => pool.Name === 'kinora-local')).toHaveLength(1);
    const { UserPoolClients } = await client.call<{ UserPoolClients: unknown[] }>('ListUserPoolClients', {
      UserPoolId: first.userPoolId,
      MaxResults: 60,
    });
    expect(UserPoolClients).toHaveLength(1);
    const { Groups } = await client.call<{ Groups: { GroupName: string }[] }>('AdminListGroupsForUser', {
      UserPoolId: first.userPoolId,
      Username: 'developer',
    });
    expect(Groups.map((group) => group.GroupName)).toEqual(['Developer']);
  });

  it('seeds a confirmed guest called literally "guest" who can sign in with the documented password', async () => {
    const guest = seedAccounts({}).find((account) => account.username === 'guest');
    const response = await cognitoCall('InitiateAuth', {
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: emulator.clientId,
      AuthParameters: { USERNAME: 'guest', PASSWORD: guest?.password },
    });

    expect(response.statusCode).toBe(200);
    const token = response.json<{ AuthenticationResult: { AccessToken: string } }>().AuthenticationResult.AccessToken;
    await expect(emulator.identity.verifyAccessToken(token)).resolves.toMatchObject({
      username: 'guest',
      email: 'guest@kinora.local',
      groups: [],
    });
  });
});

describe('verifyAccessToken', () => {
  let developer: Awaited<ReturnType<TestEmulator['createUser']>>;

  beforeAll(async () => {
    developer = await emulator.createUser({
      username: 'dana',
      email: 'dana@example.com',
      password: 'secret1',
      groups: ['Developer'],
    });
  });

  it('accepts a real access token and reads sub, username, e-mail and groups', async () => {
    await expect(emulator.identity.verifyAccessToken(developer.accessToken)).resolves.toEqual({
      sub: developer.sub,
      username: 'dana',
      email: 'dana@example.com',
      preferredUsername: null,
      groups: ['Developer'],
    });
  });

  it('refuses a token whose payload was changed after signing', async () => {
    const [header, , signature] = developer.accessToken.split('.');
    const payload = { ...decodeJwt(developer.accessToken), username: 'guest' };
    const tampered = [header, Buffer.from(JSON.stringify(payload)).toString('base64url'), signature].join('.');

    await expect(emulator.identity.verifyAccessToken(tampered)).resolves.toBeNull();
  });

  it('refuses an expired token signed with the emulator key, and accepts the same claims unexpired', async () => {
    const claims = { ...decodeJwt(developer.accessToken), exp: undefined, iat: undefined, iss: undefined };
    const now = Math.floor(Date.now() / 1000);

    await expect(emulator.identity.verifyAccessToken(await signAsEmulator(claims, now - 60))).resolves.toBeNull();
    await expect(emulator.identity.verifyAccessToken(await signAsEmulator(claims, now + 600))).resolves.toMatchObject({
      username: 'dana',
    });
  });

  it('refuses a token signed by another key', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const forged = await new SignJWT({ ...decodeJwt(developer.accessToken) })
      .setProtectedHeader({ alg: 'RS256', kid: 'CognitoLocal' })
      .sign(privateKey);

    await expect(emulator.identity.verifyAccessToken(forged)).resolves.toBeNull();
  });

  it('refuses an ID token, a token of another pool and a string that is not a JWT', async () => {
    const client = createCognitoClient(emulator.endpoint);
    const other = await provision(client, { poolName: 'someone-else', accounts: [] });
    const otherIdentity = createCognitoIdentity({ endpoint: emulator.endpoint, ...other, localMode: false });
    await provision(client, {
      poolName: 'someone-else',
      accounts: [{ username: 'olga', email: 'olga@example.com', password: 'secret1', groups: [], description: '' }],
    });
    const { AuthenticationResult } = await client.call<{ AuthenticationResult: { AccessToken: string } }>('InitiateAuth', {
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: other.clientId,
      AuthParameters: { USERNAME: 'olga', PASSWORD: 'secret1' },
    });

    await expect(otherIdentity.verifyAccessToken(AuthenticationResult.AccessToken)).resolves.toMatchObject({ username: 'olga' });
    await expect(emulator.identity.verifyAccessToken(AuthenticationResult.AccessToken)).resolves.toBeNull();
    await expect(emulator.identity.verifyAccessToken(developer.idToken)).resolves.toBeNull();
    await expect(emulator.identity.verifyAccessToken('not-a-token')).resolves.toBeNull();
  });
});

describe('users', () => {
  it('finds a user by e-mail whatever its capitals, and no longer after deleting it', async () => {
    const user = await emulator.createUser({ username: 'erin', email: 'erin@example.com', password: 'secret1' });

    await expect(emulator.identity.userExistsByEmail('Erin@Example.com')).resolves.toBe(true);
    await expect(emulator.identity.userExistsByEmail('nobody@example.com')).resolves.toBe(false);

    await emulator.identity.deleteUser('erin');
    await expect(emulator.identity.userExistsByEmail('erin@example.com')).resolves.toBe(false);
    // Its still-signed token no longer names a user.
    await expect(emulator.identity.verifyAccessToken(user.accessToken)).resolves.toBeNull();
    // A retried delete is not an error.
    await expect(emulator.identity.deleteUser('erin')).resolves.toBeUndefined();
  });
});

describe('the /cognito front', () => {
  it('answers GetTokensFromRefreshToken with fresh tokens from the emulator', async () => {
    const user = await emulator.createUser({ username: 'fred', email: 'fred@example.com', password: 'secret1' });

    const response = await cognitoCall('GetTokensFromRefreshToken', { ClientId: emulator.clientId, RefreshToken: user.refreshToken });

    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain(AMZ_JSON);
    const result = response.json<{
      AuthenticationResult: { AccessToken: string; IdToken: string; RefreshToken: string; ExpiresIn: number; TokenType: string };
    }>().AuthenticationResult;
    expect(result.AccessToken).not.toBe(user.accessToken);
    expect(result.RefreshToken).toBe(user.refreshToken);
    expect(result.ExpiresIn).toBeGreaterThan(0);
    expect(result.TokenType).toBe('Bearer');
    expect(decodeJwt(result.IdToken).email).toBe('fred@example.com');
    await expect(emulator.identity.verifyAccessToken(result.AccessToken)).resolves.toMatchObject({ username: 'fred' });
  });

  it('refuses an unknown refresh token the way Cognito does', async () => {
    const response = await cognitoCall('GetTokensFromRefreshToken', { ClientId: emulator.clientId, RefreshToken: 'stale' });

    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ __type: 'NotAuthorizedException' });
  });

  it('answers GlobalSignOut itself for a valid token and refuses an invalid one', async () => {
    const user = await emulator.createUser({ username: 'gina', email: 'gina@example.com', password: 'secret1' });

    const signedOut = await cognitoCall('GlobalSignOut', { AccessToken: user.accessToken });
    expect(signedOut.statusCode).toBe(200);
    expect(signedOut.json()).toEqual({});

    const refused = await cognitoCall('GlobalSignOut', { AccessToken: 'not-a-token' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ __type: 'NotAuthorizedException' });
  });

  it('forwards the calls a browser makes and refuses admin calls', async () => {
    const user = await emulator.createUser({ username: 'hugo', email: 'hugo@example.com', password: 'secret1' });

    const getUser = await cognitoCall('GetUser', { AccessToken: user.accessToken });
    expect(getUser.statusCode).toBe(200);
    expect(getUser.json()).toMatchObject({ Username: 'hugo' });

    const admin = await cognitoCall('AdminSetUserPassword', {
      UserPoolId: emulator.userPoolId,
      Username: 'guest',
      Password: 'taken-over',
      Permanent: true,
    });
    expect(admin.statusCode).toBe(403);
    expect(admin.json()).toMatchObject({ __type: 'AccessDeniedException' });
  });

  it('verifies every forwarded access token: an unsigned token naming another user reaches nothing', async () => {
    const victim = await emulator.createUser({ username: 'vera', email: 'vera@example.com', password: 'secret1' });
    // cognito-local itself only decodes tokens; this one claims to be Vera with no signature at all.
    const claims = decodeJwt(victim.accessToken);
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const forged = `${encode({ alg: 'none', typ: 'JWT' })}.${encode(claims)}.`;

    for (const action of ['GetUser', 'DeleteUser', 'UpdateUserAttributes']) {
      const answer = await cognitoCall(action, {
        AccessToken: forged,
        UserAttributes: [{ Name: 'email', Value: 'attacker@example.com' }],
      });
      expect(answer.statusCode, action).toBe(400);
      expect(answer.json(), action).toMatchObject({ __type: 'NotAuthorizedException' });
    }
    expect(await emulator.identity.userExistsByEmail('vera@example.com')).toBe(true);
    // Her own, signed token still works.
    expect((await cognitoCall('GetUser', { AccessToken: victim.accessToken })).statusCode).toBe(200);
  });

  it('refuses to change, reset or delete the shared guest account, whose password is published', async () => {
    const guest = await emulator.createUser({ username: 'guest', email: 'guest@kinora.local', password: 'kinora-guest' });
    const attempts = [
      ['ChangePassword', { AccessToken: guest.accessToken, PreviousPassword: 'kinora-guest', ProposedPassword: 'mine-now' }],
      ['DeleteUser', { AccessToken: guest.accessToken }],
      ['UpdateUserAttributes', { AccessToken: guest.accessToken, UserAttributes: [{ Name: 'email', Value: 'x@example.com' }] }],
      ['ForgotPassword', { ClientId: emulator.clientId, Username: 'Guest' }],
      ['ConfirmForgotPassword', { ClientId: emulator.clientId, Username: 'guest', ConfirmationCode: '123456', Password: 'mine-now' }],
    ] as const;
    for (const [action, body] of attempts) {
      const answer = await cognitoCall(action, body);
      expect(answer.statusCode, action).toBe(400);
      expect(answer.json(), action).toMatchObject({ __type: 'NotAuthorizedException' });
    }
    const signIn = await cognitoCall('InitiateAuth', {
      ClientId: emulator.clientId,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: 'guest', PASSWORD: 'kinora-guest' },
    });
    expect(signIn.statusCode).toBe(200);
  });

  it('forgets its cached view of a user whose attributes were just changed', async () => {
    const user = await emulator.createUser({ username: 'hana', email: 'hana@example.com', password: 'secret1' });
    await expect(emulator.identity.verifyAccessToken(user.accessToken)).resolves.toMatchObject({ preferredUsername: null });
    const update = await cognitoCall('UpdateUserAttributes', {
      AccessToken: user.accessToken,
      UserAttributes: [{ Name: 'preferred_username', Value: 'hana.films' }],
    });
    expect(update.statusCode).toBe(200);
    await expect(emulator.identity.verifyAccessToken(user.accessToken)).resolves.toMatchObject({
      preferredUsername: 'hana.films',
    });
  });
});

describe('the local mailbox', () => {
  it('lists the sign-up confirmation code, and that code confirms the account', async () => {
    const signUp = await cognitoCall('SignUp', {
      ClientId: emulator.clientId,
      Username: 'ivy@example.com',
      Password: 'secret1',
      UserAttributes: [{ Name: 'email', Value: 'ivy@example.com' }],
    });
    expect(signUp.statusCode).toBe(200);
    expect(signUp.json()).toMatchObject({ UserConfirmed: false, CodeDeliveryDetails: { DeliveryMedium: 'EMAIL' } });

    const page = await app.inject({ method: 'GET', url: '/local/mailbox' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).not.toContain('<script');
    const row = /<tr><td>ivy@example\.com<\/td><td>ivy@example\.com<\/td><td><strong>(\d+)<\/strong><\/td><td>Sign-up confirmation<\/td>/.exec(
      page.body,
    );
    expect(row).not.toBeNull();

    const confirm = await cognitoCall('ConfirmSignUp', { ClientId: emulator.clientId, Username: 'ivy@example.com', ConfirmationCode: row?.[1] });
    expect(confirm.statusCode).toBe(200);
  });

  it('lists an e-mail verification code and escapes what users typed', async () => {
    const user = await emulator.createUser({ username: '<i>jack</i>', email: 'jack@example.com', password: 'secret1' });
    const sent = await cognitoCall('GetUserAttributeVerificationCode', { AccessToken: user.accessToken, AttributeName: 'email' });
    expect(sent.statusCode).toBe(200);

    const page = await app.inject({ method: 'GET', url: '/local/mailbox' });
    expect(page.body).toContain('<tr><td>&lt;i&gt;jack&lt;/i&gt;</td><td>jack@example.com</td>');
    expect(page.body).toContain('E-mail verification');
    expect(page.body).not.toContain('<i>jack</i>');
  });

  it('is not served outside local mode', async () => {
    const identity = createCognitoIdentity({
      endpoint: emulator.endpoint,
      userPoolId: emulator.userPoolId,
      clientId: emulator.clientId,
      localMode: false,
      emulatorDir: emulator.dataDir,
    });
    const production = Fastify();
    if (identity.routes) await production.register(identity.routes);
    const page = await production.inject({ method: 'GET', url: '/local/mailbox' });
    await production.close();

    expect(page.statusCode).toBe(404);
  });
});
