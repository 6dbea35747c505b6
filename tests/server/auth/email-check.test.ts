import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authCheckResponseSchema } from '../../../src/services/schemas/auth-check.ts';
import { callApi, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('POST auth/check (X-Api-Key, no user auth)', () => {
  it('tells whether an account uses the e-mail', async () => {
    const user = await signUpUser(server, 'checked');
    const known = await callApi(server, 'auth/check', { method: 'POST', json: { email: user.email } });
    expect(known.status).toBe(200);
    expect(authCheckResponseSchema.parse(known.body?.data)).toEqual({ email: user.email, exists: true });

    const unknown = await callApi(server, 'auth/check', { method: 'POST', json: { email: 'nobody@example.test' } });
    expect(unknown.body).toEqual({ data: { email: 'nobody@example.test', exists: false } });
  });

  it('answers 403 for a wrong or missing key', async () => {
    const wrong = await callApi(server, 'auth/check', {
      method: 'POST',
      json: { email: 'someone@example.test' },
      headers: { 'X-Api-Key': 'not-the-key' },
    });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual({ detail: 'The X-Api-Key header is missing or wrong.' });

    const missing = await fetch(`${server.url}/api/auth/check`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'someone@example.test' }),
    });
    expect(missing.status).toBe(403);
  });

  it('answers 400 for a body without a valid e-mail', async () => {
    const answer = await callApi(server, 'auth/check', { method: 'POST', json: { email: 'nope' } });
    expect(answer.status).toBe(400);
    expect(answer.body?.detail).toMatch(/^Request body is invalid: email: /);
  });
});
