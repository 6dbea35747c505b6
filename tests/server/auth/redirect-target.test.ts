import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCognitoIdentity } from '../../../server/src/auth/identity.ts';
import { setHandle, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const base64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

async function open(query: string) {
  const response = await fetch(`${server.url}/local/redirect-target${query}`);
  return { status: response.status, headers: response.headers, html: await response.text() };
}

describe('/local/redirect-target, the stand-in partner app', () => {
  it('shows the state and the user a valid code (base64 of an access token) belongs to, never the token', async () => {
    const user = await signUpUser(server, 'partner');
    await setHandle(server, user.accessToken, 'partner.fan');
    const code = base64(user.accessToken);

    const page = await open(`?code=${encodeURIComponent(code)}&state=xyz`);

    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.html).toContain('<h1>Signed in to the partner app</h1>');
    expect(page.html).toContain('<output id="state">xyz</output>');
    expect(page.html).toContain(`The code is a valid access token for user <strong>${user.username}</strong>`);
    expect(page.html).toContain('@partner.fan');
    expect(page.html).not.toContain('<script');
    for (const secret of [user.accessToken, code, ...user.accessToken.split('.')]) expect(page.html).not.toContain(secret);
  });

  it('reads a code whose "+" arrived as a space (not percent-encoded) and a base64url code', async () => {
    const user = await signUpUser(server, 'plus');
    const code = base64(user.accessToken);
    const raw = await open(`?code=${code}&state=s1`);
    expect(raw.html).toContain('is a valid access token');
    const url = await open(`?code=${Buffer.from(user.accessToken).toString('base64url')}&state=s2`);
    expect(url.html).toContain('is a valid access token');
  });

  it('says so when the code is not a valid access token: garbage, an ID token, a tampered token, none', async () => {
    const user = await signUpUser(server, 'bad');
    const [header, payload, signature] = user.accessToken.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<string, unknown>;
    const tampered = [header, Buffer.from(JSON.stringify({ ...claims, username: 'guest' })).toString('base64url'), signature].join('.');
    for (const code of [base64('not a token'), base64(user.idToken), base64(tampered), user.accessToken]) {
      const page = await open(`?code=${encodeURIComponent(code)}&state=abc`);
      expect(page.status).toBe(200);
      expect(page.html).toContain('is <strong>not</strong> a valid access token');
      expect(page.html).not.toContain('for user');
    }
    const none = await open('');
    expect(none.html).toContain('No <code>code</code> was received.');
    expect(none.html).toContain('No <code>state</code> was received.');
  });

  it('escapes the state', async () => {
    const page = await open(`?state=${encodeURIComponent('<img src=x onerror=alert(1)>')}`);
    expect(page.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page.html).not.toContain('<img');
  });

  it('is not served outside local mode', async () => {
    const identity = createCognitoIdentity({
      endpoint: server.emulator.endpoint,
      userPoolId: server.emulator.userPoolId,
      clientId: server.emulator.clientId,
      localMode: false,
    });
    const production = Fastify();
    if (identity.routes) await production.register(identity.routes);
    const page = await production.inject({ method: 'GET', url: '/local/redirect-target?code=x&state=y' });
    await production.close();
    expect(page.statusCode).toBe(404);
  });
});
