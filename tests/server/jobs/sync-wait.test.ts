import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asMedia, balanceOf, postForm } from '../helpers/media.ts';
import { callApi, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * async_mode=false with small injected intervals: the key is touched every 100 ms, so a job of
 * ~900 ms spans several touches; a request that stopped after the first touch would answer a job
 * still queued or processing.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    jobs: { durationMs: 900, pollIntervalMs: 50, concurrency: 4, waitRecheckMs: 50 },
    syncWait: { keyTouchMs: 100, limitMs: 20_000, perUser: 2 },
  });
});
afterAll(async () => {
  await server?.close();
});

async function mediaIdsOf(sub: string): Promise<string[]> {
  const { rows } = await server.db.query<{ id: string }>('SELECT id FROM media WHERE user_sub = $1 ORDER BY created_at', [sub]);
  return rows.map((row) => row.id);
}

async function keyRow(sub: string, key: string) {
  const { rows } = await server.db.query<{ state: string; media_id: string | null }>(
    'SELECT state, media_id FROM idempotency_keys WHERE user_sub = $1 AND key = $2',
    [sub, key],
  );
  return rows[0];
}

describe('async_mode=false', () => {
  it('waits across several key touches until the job has ended', async () => {
    const user = await signUpUser(server, 'longwait');
    const started = Date.now();
    const answer = await postForm(
      server,
      'image/text-2-image',
      { prompt: 'a slow tide', async_mode: 'false' },
      { token: user.accessToken, headers: { 'Idempotency-Key': 'long-wait-1' } },
    );
    expect(answer.status).toBe(200);
    expect(asMedia(answer).status).toBe('success_image');
    expect(Date.now() - started).toBeGreaterThanOrEqual(800);
    expect(await keyRow(user.sub, 'long-wait-1')).toMatchObject({ state: 'done', media_id: asMedia(answer).id });
  });

  it('stops waiting when the caller leaves: the key is completed long before the job ends', async () => {
    const user = await signUpUser(server, 'leaver');
    const controller = new AbortController();
    const request = postForm(
      server,
      'image/text-2-image',
      { prompt: 'nobody waits for me', async_mode: 'false' },
      { token: user.accessToken, headers: { 'Idempotency-Key': 'leaver-1' }, signal: controller.signal },
    ).catch(() => null);
    await expect.poll(() => mediaIdsOf(user.sub), { timeout: 3000 }).toHaveLength(1);
    controller.abort();
    await request;
    // Within a touch interval or two of leaving, far less than the 900 ms job.
    await expect.poll(() => keyRow(user.sub, 'leaver-1'), { timeout: 400, interval: 20 }).toMatchObject({ state: 'done' });
    const [id] = await mediaIdsOf(user.sub);
    const status = await callApi<{ status: string }>(server, `media/${id}/processing-status`);
    expect(['queue_source', 'processing_source']).toContain(status.body?.data?.status);
  });

  it('answers 404 when the job is deleted while the request waits', async () => {
    const user = await signUpUser(server, 'deleted');
    const waiting = postForm(server, 'image/text-2-image', { prompt: 'soon gone', async_mode: 'false' }, { token: user.accessToken });
    await expect.poll(() => mediaIdsOf(user.sub), { timeout: 3000 }).toHaveLength(1);
    const [id] = await mediaIdsOf(user.sub);
    expect((await callApi(server, `media/${id}`, { method: 'DELETE', token: user.accessToken })).status).toBe(200);
    const answer = await waiting;
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ detail: 'Not found.' });
  });

  it('lets one user keep only a few requests waiting (429 beyond, nothing charged)', async () => {
    const user = await signUpUser(server, 'crowd');
    const first = [1, 2].map((n) =>
      postForm(server, 'audio/text-2-sound-effect', { prompt: `wait ${n}`, duration: '1', async_mode: 'false' }, { token: user.accessToken }),
    );
    await expect.poll(() => mediaIdsOf(user.sub), { timeout: 3000 }).toHaveLength(2);
    const third = await postForm(server, 'audio/text-2-sound-effect', { prompt: 'one too many', duration: '1', async_mode: 'false' }, { token: user.accessToken });
    expect(third.status).toBe(429);
    expect(third.body).toEqual({ detail: 'Too many requests are waiting for their result.' });
    expect(await mediaIdsOf(user.sub)).toHaveLength(2);
    // Asynchronous calls are not limited, and another user has their own slots.
    expect((await postForm(server, 'audio/text-2-sound-effect', { prompt: 'async', duration: '1' }, { token: user.accessToken })).status).toBe(200);
    const other = await signUpUser(server, 'crowd-other');
    const otherWait = postForm(server, 'audio/text-2-sound-effect', { prompt: 'mine', duration: '1', async_mode: 'false' }, { token: other.accessToken });
    for (const answer of await Promise.all(first)) expect(asMedia(answer).status).toBe('success');
    expect((await otherWait).status).toBe(200);
    // The slots are free again once the waits are over.
    const again = await postForm(server, 'audio/text-2-sound-effect', { prompt: 'again', duration: '1', async_mode: 'false' }, { token: user.accessToken });
    expect(asMedia(again).status).toBe('success');
    expect(await balanceOf(server, user.sub)).toBe(100 - 4 * asMedia(again).cost);
  });
});

// Several waiters share the engine's one poller and its end events.
describe('many waiters', () => {
  it('each gets its own job back', async () => {
    const users = await Promise.all([1, 2, 3].map((n) => signUpUser(server, `many${n}`)));
    const answers = await Promise.all(
      users.map((user, index) =>
        postForm(server, 'image/text-2-image', { prompt: `picture ${index}`, async_mode: 'false' }, { token: user.accessToken }),
      ),
    );
    answers.forEach((answer, index) => {
      expect(asMedia(answer)).toMatchObject({ status: 'success_image', args: { prompt: `picture ${index}` } });
    });
  });
});
