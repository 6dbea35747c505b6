import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultAppConfiguration } from '../../../src/config/app-config.ts';
import { promoVideoListSchema } from '../../../src/services/schemas/promo-videos.ts';
import { publicUserSchema } from '../../../src/services/schemas/users.ts';
import { callApi, setHandle, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('public calls (SPEC §6: no Authorization)', () => {
  it('GET health answers ok', async () => {
    const answer = await callApi(server, 'health');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ data: { ok: true } });
  });

  it('GET frontend-configurations answers the default app configuration', async () => {
    const answer = await callApi(server, 'frontend-configurations');
    expect(answer.status).toBe(200);
    expect(answer.body?.data).toEqual(JSON.parse(JSON.stringify(defaultAppConfiguration)));
    expect(Object.keys(answer.body?.data ?? {})).toEqual(
      expect.arrayContaining(['tier_information', 'asset_tools', 'media_tools', 'camera_movements']),
    );
  });

  it('GET promo-videos lists the seeded reel in order, each with a thumbnail that is served', async () => {
    const answer = await callApi(server, 'promo-videos');
    expect(answer.status).toBe(200);
    const videos = promoVideoListSchema.parse(answer.body?.data);
    expect(videos.map((video) => video.id)).toEqual(['text-to-video', 'image-to-video', 'ai-avatar']);

    const first = videos[0];
    if (!first) throw new Error('no promo video');
    const thumbnail = await fetch(`${server.url}${first.thumbnail_url}`);
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(await thumbnail.text()).toContain('Text to Video');
  });

  it('GET users/{id} finds a user by sub or by handle, honours ?type= and 404s otherwise', async () => {
    const user = await signUpUser(server, 'profile');
    // The first authenticated call creates the user's row.
    expect((await callApi(server, 'credits/get', { token: user.accessToken })).status).toBe(200);
    await setHandle(server, user.accessToken, 'Ana.Lee');
    // The next signed-in call brings the handle from the pool into the server's user row.
    expect((await callApi(server, 'credits/get', { token: user.accessToken })).status).toBe(200);

    const bySub = await callApi(server, `users/${user.sub}`);
    expect(bySub.status).toBe(200);
    expect(publicUserSchema.parse(bySub.body?.data)).toEqual({ id: user.sub, preferred_username: 'Ana.Lee' });

    const byHandle = await callApi(server, 'users/ana.lee');
    expect(byHandle.body?.data).toEqual({ id: user.sub, preferred_username: 'Ana.Lee' });
    expect((await callApi(server, 'users/@Ana.Lee?type=preferred_username')).body?.data).toEqual({
      id: user.sub,
      preferred_username: 'Ana.Lee',
    });
    expect((await callApi(server, `users/${user.sub}?type=id`)).status).toBe(200);
    // With type=id a handle is not looked up.
    expect((await callApi(server, 'users/ana.lee?type=id')).status).toBe(404);

    const missing = await callApi(server, 'users/nobody-here');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: 'User not found.' });
  });

  it('POST users/contact-us stores a message from a signed-out visitor', async () => {
    const answer = await callApi<{ id: string }>(server, 'users/contact-us', {
      method: 'POST',
      json: { name: 'Visitor', email: 'visitor@example.test', message: 'Hello Kinora' },
    });
    expect(answer.status).toBe(201);
    const id = answer.body?.data?.id;
    const { rows } = await server.db.query<{ name: string; email: string; message: string; user_sub: string | null }>(
      'SELECT name, email, message, user_sub FROM contact_messages WHERE id = $1',
      [id],
    );
    expect(rows).toEqual([{ name: 'Visitor', email: 'visitor@example.test', message: 'Hello Kinora', user_sub: null }]);
  });

  it('POST users/contact-us answers 400 with a readable detail for an invalid body', async () => {
    const answer = await callApi(server, 'users/contact-us', {
      method: 'POST',
      json: { name: '', email: 'not-an-email', message: 'Hello there, Kinora.' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body?.detail).toMatch(/^Request body is invalid: /);
    expect(answer.body?.detail).toContain('name:');
    expect(answer.body?.detail).toContain('email:');
    expect(answer.body?.detail).not.toContain('message:');
  });

  it('answers malformed JSON with 400 { detail }', async () => {
    const response = await fetch(`${server.url}/api/users/contact-us`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"name":',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ detail: expect.any(String) });
  });

  it('answers an unknown /api path with 404 { detail }', async () => {
    const answer = await callApi(server, 'no-such-call');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ detail: 'Not found.' });
    const nested = await callApi(server, 'media/123/not-a-call', { method: 'POST', json: {} });
    expect(nested.status).toBe(404);
    expect(nested.body).toEqual({ detail: 'Not found.' });
  });
});
