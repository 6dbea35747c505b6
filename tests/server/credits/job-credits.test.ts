import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asMedia, balanceOf, fetchFile, hasEnded, ledgerRows, pollStatus, postForm } from '../helpers/media.ts';
import { signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ jobs: { durationMs: 150, pollIntervalMs: 100, concurrency: 4 } });
});
afterAll(async () => {
  await server?.close();
});

async function jobsOf(sub: string): Promise<string[]> {
  const { rows } = await server.db.query<{ id: string }>('SELECT id FROM media WHERE user_sub = $1 ORDER BY created_at', [sub]);
  return rows.map((row) => row.id);
}

const ultra = { prompt: 'a glass city at dusk', option: 'Flux1.1ProUltra' };

describe('the debit and the job are one transaction', () => {
  it('answers 402 with the cost and balance when the credits do not cover it, and creates nothing', async () => {
    const user = await signUpUser(server, 'poor');
    expect((await postForm(server, 'image/text-2-image', { prompt: 'warm-up' }, { token: user.accessToken })).status).toBe(200);
    await server.db.query("INSERT INTO credit_ledger (user_sub, amount, kind, reason) VALUES ($1, -93, 'debit', 'spent')", [user.sub]);
    expect(await balanceOf(server, user.sub)).toBe(3);
    const answer = await postForm(server, 'image/text-2-image', { prompt: 'too dear' }, { token: user.accessToken });
    expect(answer.status).toBe(402);
    expect(answer.body).toEqual({ detail: 'Not enough credits: this costs 4 credits and you have 3.' });
    expect(await jobsOf(user.sub)).toHaveLength(1);
    expect(await balanceOf(server, user.sub)).toBe(3);
  });

  it('never lets the balance go negative under 50 concurrent submits: 100 credits at 8 → exactly 12 jobs', async () => {
    const user = await signUpUser(server, 'rush');
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        postForm(server, 'image/text-2-image', { ...ultra, prompt: `rush ${index}` }, { token: user.accessToken }),
      ),
    );
    const accepted = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 402);
    expect(accepted).toHaveLength(12);
    expect(refused).toHaveLength(38);
    for (const answer of refused) expect(answer.body?.detail).toMatch(/^Not enough credits: this costs 8 credits and you have [0-7]\.$/);
    expect(await jobsOf(user.sub)).toHaveLength(12);
    const rows = await ledgerRows(server, user.sub);
    expect(rows.filter((row) => row.kind === 'debit')).toHaveLength(12);
    // Every prefix of the ledger is non-negative, and so the balance is.
    let running = 0;
    for (const row of rows) {
      running += row.amount;
      expect(running).toBeGreaterThanOrEqual(0);
    }
    expect(running).toBe(4);
    expect(new Set(accepted.map((answer) => asMedia(answer).id)).size).toBe(12);
  });
});

describe('Idempotency-Key', () => {
  it('a double click (the same key twice) makes one job and one debit, and replays the first answer', async () => {
    const user = await signUpUser(server, 'double');
    const headers = { 'Idempotency-Key': 'click-1' };
    const first = await postForm(server, 'image/text-2-image', ultra, { token: user.accessToken, headers });
    const second = await postForm(server, 'image/text-2-image', ultra, { token: user.accessToken, headers });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    // The replay is the same job as it is now (it may have started meanwhile).
    expect(asMedia(second).id).toBe(asMedia(first).id);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await jobsOf(user.sub)).toEqual([asMedia(first).id]);
    expect((await ledgerRows(server, user.sub)).filter((row) => row.kind === 'debit')).toHaveLength(1);
  });

  it('10 parallel submits with one key make exactly one job and one debit', async () => {
    const user = await signUpUser(server, 'parallel');
    const headers = { 'Idempotency-Key': 'parallel-key' };
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => postForm(server, 'image/text-2-image', ultra, { token: user.accessToken, headers })),
    );
    const jobs = await jobsOf(user.sub);
    expect(jobs).toHaveLength(1);
    for (const answer of answers) {
      expect([200, 409]).toContain(answer.status);
      if (answer.status === 200) expect(asMedia(answer).id).toBe(jobs[0]);
      else expect(answer.body).toEqual({ detail: 'A request with this Idempotency-Key is still being processed.' });
    }
    expect(answers.some((answer) => answer.status === 200)).toBe(true);
    expect((await ledgerRows(server, user.sub)).filter((row) => row.kind === 'debit')).toHaveLength(1);
    // Once the first has answered, the same key replays it.
    const later = await postForm(server, 'image/text-2-image', ultra, { token: user.accessToken, headers });
    expect(later.status).toBe(200);
    expect(asMedia(later).id).toBe(jobs[0]);
  });

  it('a retry after the answer was lost (request aborted) gets the first job, with one debit', async () => {
    const user = await signUpUser(server, 'aborted');
    const headers = { 'Idempotency-Key': 'lost-answer' };
    const controller = new AbortController();
    // async_mode=false keeps the answer back until the job ends: the abort lands while it is running.
    const fields = { ...ultra, async_mode: 'false' };
    const first = postForm(server, 'image/text-2-image', fields, { token: user.accessToken, headers, signal: controller.signal });
    const deadline = Date.now() + 10_000;
    while ((await jobsOf(user.sub)).length === 0 && Date.now() < deadline) await sleep(5);
    controller.abort();
    await expect(first).rejects.toThrow();
    const [jobId] = await jobsOf(user.sub);
    expect(jobId).toBeDefined();

    let retry = await postForm(server, 'image/text-2-image', fields, { token: user.accessToken, headers });
    while (retry.status === 409 && Date.now() < deadline) {
      await sleep(50);
      retry = await postForm(server, 'image/text-2-image', fields, { token: user.accessToken, headers });
    }
    expect(retry.status).toBe(200);
    expect(asMedia(retry).id).toBe(jobId);
    expect(await jobsOf(user.sub)).toEqual([jobId]);
    expect((await ledgerRows(server, user.sub)).filter((row) => row.kind === 'debit')).toHaveLength(1);
  });

  it('the same key with a different body is refused with 422', async () => {
    const user = await signUpUser(server, 'mismatch');
    const headers = { 'Idempotency-Key': 'reused' };
    expect((await postForm(server, 'image/text-2-image', ultra, { token: user.accessToken, headers })).status).toBe(200);
    const other = await postForm(server, 'image/text-2-image', { ...ultra, prompt: 'something else' }, { token: user.accessToken, headers });
    expect(other.status).toBe(422);
    expect(other.body).toEqual({ detail: 'This Idempotency-Key was used with a different request.' });
    const otherTool = await postForm(server, 'audio/text-2-speech', { prompt: ultra.prompt }, { token: user.accessToken, headers });
    expect(otherTool.status).toBe(422);
    expect(await jobsOf(user.sub)).toHaveLength(1);
  });

  it('a failed request frees its key, so a corrected retry succeeds', async () => {
    const user = await signUpUser(server, 'freed');
    const headers = { 'Idempotency-Key': 'fix-and-retry' };
    const wrong = await postForm(server, 'image/text-2-image', { ...ultra, aspect_ratio: '2:1' }, { token: user.accessToken, headers });
    expect(wrong.status).toBe(400);
    const fixed = await postForm(server, 'image/text-2-image', ultra, { token: user.accessToken, headers });
    expect(fixed.status).toBe(200);
    expect(await jobsOf(user.sub)).toHaveLength(1);
  });

  it('a replay rebuilds the media as it is now, with fresh links, keeping the first status code', async () => {
    const user = await signUpUser(server, 'replay');
    const headers = { 'Idempotency-Key': 'replay-later' };
    const first = asMedia(await postForm(server, 'image/text-2-image', ultra, { token: user.accessToken, headers }));
    expect(first.status).toBe('queue_source');
    await pollStatus(server, first.id, hasEnded);
    const replay = await postForm(server, 'image/text-2-image', ultra, { token: user.accessToken, headers });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const media = asMedia(replay);
    expect(media).toMatchObject({ id: first.id, status: 'success_image' });
    expect((await fetchFile(media.items[0]?.url ?? '')).status).toBe(200);
    // Only the media id is kept for it, never links that would outlive their hour.
    const { rows } = await server.db.query<{ response_body: unknown; media_id: string }>(
      'SELECT response_body, media_id FROM idempotency_keys WHERE user_sub = $1',
      [user.sub],
    );
    expect(rows).toEqual([{ response_body: null, media_id: first.id }]);
  });

  it('a retry after the server died between the debit and the key being completed replays that job, never a second debit', async () => {
    const user = await signUpUser(server, 'crashed');
    const headers = { 'Idempotency-Key': 'crash-window' };
    const first = asMedia(await postForm(server, 'image/text-2-image', ultra, { token: user.accessToken, headers }));
    // What a crash right after the job's commit leaves: the key still pending (with the media id
    // written in that commit), old enough to count as abandoned.
    await server.db.query(
      `UPDATE idempotency_keys SET state = 'pending', response_status = NULL, response_body = NULL,
         created_at = clock_timestamp() - interval '10 minutes' WHERE user_sub = $1`,
      [user.sub],
    );
    const retry = await postForm(server, 'image/text-2-image', ultra, { token: user.accessToken, headers });
    expect(retry.status).toBe(200);
    expect(asMedia(retry).id).toBe(first.id);
    expect(await jobsOf(user.sub)).toEqual([first.id]);
    expect((await ledgerRows(server, user.sub)).filter((row) => row.kind === 'debit')).toHaveLength(1);
    const { rows } = await server.db.query<{ state: string }>('SELECT state FROM idempotency_keys WHERE user_sub = $1', [user.sub]);
    expect(rows).toEqual([{ state: 'done' }]);
  });

  it('keys are per user: two users may use the same key', async () => {
    const first = await signUpUser(server, 'key-a');
    const second = await signUpUser(server, 'key-b');
    const headers = { 'Idempotency-Key': 'shared-key' };
    const a = await postForm(server, 'image/text-2-image', ultra, { token: first.accessToken, headers });
    const b = await postForm(server, 'image/text-2-image', ultra, { token: second.accessToken, headers });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(asMedia(a).id).not.toBe(asMedia(b).id);
  });
});
