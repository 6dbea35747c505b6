import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobSearchPageSchema } from '../../../src/services/schemas/job-history.ts';
import { SEED_MAX } from '../../../server/src/lib/seed.ts';
import { falSeed } from '../../../server/src/render/fal/provider.ts';
import { renderSeed } from '../../../server/src/jobs/pipelines.ts';
import { asMedia, fetchFile, hasEnded, pollStatus, postForm } from '../helpers/media.ts';
import { callApi, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * Issue 21 item 7: every generation job records the seed its model is given, shows it with the
 * item, makes the same picture again with it (Re-run) and another with a new one (Vary).
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ jobs: { durationMs: 30, pollIntervalMs: 100 } });
});
afterAll(async () => {
  await server?.close();
});

type User = Awaited<ReturnType<typeof signUpUser>>;

const generate = (user: User, fields: Record<string, string>) =>
  postForm(server, 'image/text-2-image', { option: 'Seedream', aspect_ratio: '1:1', ...fields }, { token: user.accessToken });

async function finished(id: string, user: User) {
  expect(await pollStatus(server, id, hasEnded)).toBe('success_image');
  const media = asMedia(await callApi(server, `media/${id}`, { token: user.accessToken }));
  const file = await fetchFile(media.items[0]?.url ?? '');
  return { media, bytes: Buffer.from(file.bytes) };
}

const rerun = (user: User, id: string, key: string, json: object = {}) =>
  callApi(server, `media/${id}/rerun`, { method: 'POST', token: user.accessToken, json, headers: { 'Idempotency-Key': key } });

describe('a generation job’s seed', () => {
  it('is the request’s own when none was chosen: the same request, the same seed and the same picture', async () => {
    const user = await signUpUser(server, 'seed-default');
    const first = asMedia(await generate(user, { prompt: 'a blue kite over dunes' }));
    const second = asMedia(await generate(user, { prompt: 'a blue kite over dunes' }));
    const other = asMedia(await generate(user, { prompt: 'a red kite over dunes' }));
    expect(first.seed).toEqual(expect.any(Number));
    expect(second.seed).toBe(first.seed);
    expect(other.seed).not.toBe(first.seed);
    const [a, b] = [await finished(first.id, user), await finished(second.id, user)];
    expect(a.bytes.equals(b.bytes)).toBe(true);
    // What a model at fal is given is the seed shown.
    const row = (await server.db.query<{ tool: string; option: string; args: Record<string, unknown>; inputs: []; seed: number }>(
      'SELECT tool, option, args, inputs, seed FROM media WHERE id = $1',
      [first.id],
    )).rows[0]!;
    expect(falSeed(renderSeed(row))).toBe(first.seed);
  });

  it('is the one the person chose, which changes the picture; a bad one is refused', async () => {
    const user = await signUpUser(server, 'seed-chosen');
    const seven = asMedia(await generate(user, { prompt: 'a lighthouse', seed: '7' }));
    const eight = asMedia(await generate(user, { prompt: 'a lighthouse', seed: '8' }));
    expect([seven.seed, eight.seed]).toEqual([7, 8]);
    expect((await finished(seven.id, user)).bytes.equals((await finished(eight.id, user)).bytes)).toBe(false);
    for (const bad of ['-1', '1.5', 'abc', String(SEED_MAX + 1)]) {
      const answer = await generate(user, { prompt: 'a lighthouse', seed: bad });
      expect(answer.status).toBe(400);
      expect(JSON.stringify(answer.body)).toContain(`seed must be a whole number from 0 to ${SEED_MAX}.`);
    }
  });

  it('stays on Re-run (the same picture) and changes on Vary (a new seed, another picture)', async () => {
    const user = await signUpUser(server, 'seed-vary');
    const original = asMedia(await generate(user, { prompt: 'a fox in the snow', seed: '1234' }));
    const made = await finished(original.id, user);
    const again = asMedia(await rerun(user, original.id, 'seed-rerun-1'));
    expect(again.seed).toBe(1234);
    expect((await finished(again.id, user)).bytes.equals(made.bytes)).toBe(true);
    const varied = asMedia(await rerun(user, original.id, 'seed-vary-1', { seed: 99 }));
    expect(varied.seed).toBe(99);
    expect((await finished(varied.id, user)).bytes.equals(made.bytes)).toBe(false);
    // A key used for one seed is not another seed's.
    expect((await rerun(user, original.id, 'seed-vary-1', { seed: 100 })).status).toBe(422);
    expect((await rerun(user, original.id, 'seed-vary-2', { seed: -3 })).status).toBe(400);

    const found = jobSearchPageSchema.parse((await callApi<{ data: unknown }>(server, 'media?seed=99', { token: user.accessToken })).body?.data);
    expect(found.items.map((item) => item.id)).toEqual([varied.id]);
  });
});
