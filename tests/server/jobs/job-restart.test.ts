import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asMedia, fetchFile, hasEnded, ledgerRows, PNG_MAGIC, pollStatus, postForm } from '../helpers/media.ts';
import { callApi, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  // Slow jobs, so a restart lands in the middle of one. The lease is long enough that a CI machine
  // busy with the browser tests does not let a job's heartbeat miss it (a missed lease is a second
  // attempt, which the first test counts); the second test runs its lease out by hand.
  server = await startTestServer({ jobs: { durationMs: 1500, pollIntervalMs: 100, leaseMs: 3000, concurrency: 2 } });
});
afterAll(async () => {
  await server?.close();
});

async function jobRow(id: string) {
  const { rows } = await server.db.query<{ status: string; lease_owner: string | null; attempts: number }>(
    'SELECT status, lease_owner, attempts FROM media WHERE id = $1',
    [id],
  );
  return rows[0];
}

describe('jobs survive a server restart', () => {
  it('a stopping server hands its job back and the next one finishes it, charged once', async () => {
    const user = await signUpUser(server, 'restart');
    const media = asMedia(await postForm(server, 'image/text-2-image', { prompt: 'a long exposure' }, { token: user.accessToken }));
    await pollStatus(server, media.id, (status) => status === 'processing_source');
    let handedBack: Awaited<ReturnType<typeof jobRow>>;
    await server.restart({
      jobs: { durationMs: 200 },
      beforeStart: async () => {
        handedBack = await jobRow(media.id);
      },
    });
    // The interrupted claim is given back with the job: graceful restarts never count towards MAX_JOB_ATTEMPTS.
    expect(handedBack).toMatchObject({ status: 'queue_source', lease_owner: null, attempts: 0 });
    expect(await pollStatus(server, media.id, hasEnded)).toBe('success_image');
    expect((await jobRow(media.id))?.attempts).toBe(1);
    const done = asMedia(await callApi(server, `media/${media.id}`, { token: user.accessToken }));
    expect((await fetchFile(done.items[0]?.url ?? '')).bytes.subarray(0, 8)).toEqual(PNG_MAGIC);
    expect((await ledgerRows(server, user.sub)).filter((row) => row.job_id === media.id).map((row) => row.kind)).toEqual(['debit']);
  });

  it("a job whose server died is reclaimed once its lease expires, and not before", async () => {
    const user = await signUpUser(server, 'crash');
    const media = asMedia(await postForm(server, 'image/text-2-image', { prompt: 'after the crash' }, { token: user.accessToken }));
    await pollStatus(server, media.id, (status) => status === 'processing_source');
    await server.restart({
      jobs: { durationMs: 200 },
      // What a killed server leaves: the job processing under its lease, far from running out.
      beforeStart: async () => {
        await server.db.query(
          `UPDATE media SET status = 'processing_source', lease_owner = 'killed-server',
             lease_expires_at = clock_timestamp() + interval '1 hour' WHERE id = $1`,
          [media.id],
        );
      },
    });
    // Several poll intervals (100 ms) pass: nobody takes a job whose lease still runs.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await jobRow(media.id)).toMatchObject({ status: 'processing_source', lease_owner: 'killed-server' });
    // The lease runs out: the next poll reclaims the job and finishes it.
    await server.db.query(`UPDATE media SET lease_expires_at = clock_timestamp() - interval '1 second' WHERE id = $1`, [media.id]);
    expect(await pollStatus(server, media.id, hasEnded)).toBe('success_image');
    expect((await jobRow(media.id))?.lease_owner).toBeNull();
    expect((await ledgerRows(server, user.sub)).filter((row) => row.job_id === media.id).map((row) => row.kind)).toEqual(['debit']);
  });

  it('jobs queued or running at a restart all finish afterwards', async () => {
    const user = await signUpUser(server, 'queued');
    const answers = await Promise.all(
      ['one', 'two', 'three'].map((prompt) => postForm(server, 'audio/text-2-sound-effect', { prompt, duration: '1' }, { token: user.accessToken })),
    );
    const ids = answers.map((answer) => asMedia(answer).id);
    await server.restart({ jobs: { durationMs: 100 } });
    for (const id of ids) expect(await pollStatus(server, id, hasEnded)).toBe('success');
  });

  it('the failure rate decides by the job id: at rate 1 every job fails and is refunded', async () => {
    await server.restart({ jobs: { durationMs: 50, failureRate: 1 } });
    const user = await signUpUser(server, 'rate');
    const media = asMedia(await postForm(server, 'image/text-2-image', { prompt: 'unlucky' }, { token: user.accessToken }));
    expect(await pollStatus(server, media.id, hasEnded)).toBe('failed');
    expect((await ledgerRows(server, user.sub)).filter((row) => row.job_id === media.id).map((row) => row.kind)).toEqual([
      'debit',
      'refund',
    ]);
    await server.restart({ jobs: { durationMs: 50, nsfwRate: 1 } });
    const flagged = asMedia(await postForm(server, 'image/text-2-image', { prompt: 'flagged' }, { token: user.accessToken }));
    expect(await pollStatus(server, flagged.id, hasEnded)).toBe('nsfw');
  });
});
