import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_IMAGES_PER_RUN } from '../../../src/config/image-model-capabilities.ts';
import type { Media } from '../../../src/services/schemas/media.ts';
import { asMedia, balanceOf, fetchFile, hasEnded, ledgerRows, pollStatus, postForm } from '../helpers/media.ts';
import { callApi, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * Issue 21 item 7: several pictures per run and a negative prompt, on a real server and database.
 * A run of N pictures is one media item with N result items, priced N × the model's credits in one
 * debit (the 402 names that total), each picture made with its own seed (seed, seed + 1, …) and
 * shown with it; the negative prompt is kept with the job's args, and both are refused for models
 * that cannot take them.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ jobs: { durationMs: 30, pollIntervalMs: 100 } });
});
afterAll(async () => {
  await server?.close();
});

type User = Awaited<ReturnType<typeof signUpUser>>;

const textToImage = (user: User, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  postForm(server, 'image/text-2-image', { aspect_ratio: '1:1', ...fields }, { token: user.accessToken, headers });

async function finished(user: User, id: string): Promise<{ media: Media; files: Buffer[] }> {
  expect(await pollStatus(server, id, hasEnded)).toBe('success_image');
  const media = asMedia(await callApi(server, `media/${id}`, { token: user.accessToken }));
  const files = [];
  for (const item of media.items) files.push(Buffer.from((await fetchFile(item.url ?? '')).bytes));
  return { media, files };
}

describe('a run of several pictures', () => {
  it('costs the model’s price for each picture, keeps the count and the negative prompt, and makes that many different pictures, each with its seed', async () => {
    const user = await signUpUser(server, 'runs');
    const answer = await textToImage(user, {
      option: 'StableDiffusion3.5',
      prompt: 'a lighthouse on a cliff at night',
      negative_prompt: '  night, fog ',
      num_images: '3',
      seed: '500',
    });
    expect(answer.status).toBe(200);
    const job = asMedia(answer);
    expect(job.cost).toBe(12);
    expect(job.args).toMatchObject({ num_images: 3, negative_prompt: 'night, fog' });
    expect(job.items).toHaveLength(3);
    expect(await balanceOf(server, user.sub)).toBe(100 - 12);
    // One debit for the run, naming its job.
    const debits = (await ledgerRows(server, user.sub)).filter((row) => row.kind === 'debit');
    expect(debits).toEqual([{ kind: 'debit', amount: -12, job_id: job.id }]);

    const { media, files } = await finished(user, job.id);
    expect(media.items.map((item) => item.seed)).toEqual([500, 501, 502]);
    expect(new Set(files.map((file) => file.toString('base64'))).size).toBe(3);

    // Each picture is the one a run of one makes with its seed: any of them can be made again alone.
    const again = asMedia(
      await textToImage(user, { option: 'StableDiffusion3.5', prompt: 'a lighthouse on a cliff at night', negative_prompt: 'night, fog', seed: '501' }),
    );
    expect(again.cost).toBe(4);
    const single = await finished(user, again.id);
    expect(single.media.items.map((item) => item.seed)).toEqual([501]);
    expect(single.files[0]?.equals(files[1] ?? Buffer.alloc(0))).toBe(true);
  });

  it('is refused with the run’s total when the balance does not cover it, and nothing is written', async () => {
    const user = await signUpUser(server, 'runs-short');
    expect((await textToImage(user, { option: 'Flux1.1ProUltra', prompt: 'warm-up' })).status).toBe(200);
    await server.db.query("INSERT INTO credit_ledger (user_sub, amount, kind, reason) VALUES ($1, -82, 'debit', 'spent')", [user.sub]);
    const answer = await textToImage(user, { option: 'Flux1.1ProUltra', prompt: 'a glass city', num_images: '2' });
    expect(answer.status).toBe(402);
    expect(answer.body).toEqual({ detail: 'Not enough credits: this costs 16 credits and you have 10.' });
    expect(await balanceOf(server, user.sub)).toBe(10);
    expect((await server.db.query('SELECT id FROM media WHERE user_sub = $1', [user.sub])).rows).toHaveLength(1);
    // One picture of the same model fits.
    expect((await textToImage(user, { option: 'Flux1.1ProUltra', prompt: 'a glass city', num_images: '1' })).status).toBe(200);
    expect(await balanceOf(server, user.sub)).toBe(2);
  });

  it('is refused for a count out of range, several pictures of a model that makes one, and a negative prompt a model does not take', async () => {
    const user = await signUpUser(server, 'runs-bad');
    const refusals: [Record<string, string>, string][] = [
      [{ option: 'Seedream', num_images: String(MAX_IMAGES_PER_RUN + 1) }, `num_images must be a whole number from 1 to ${MAX_IMAGES_PER_RUN}.`],
      [{ option: 'Seedream', num_images: '0' }, `num_images must be a whole number from 1 to ${MAX_IMAGES_PER_RUN}.`],
      [{ option: 'Seedream', num_images: '2.5' }, `num_images must be a whole number from 1 to ${MAX_IMAGES_PER_RUN}.`],
      [{ option: 'LeonardoImage', num_images: '2' }, 'Leonardo Image makes one picture per run: send num_images 1 or leave it out.'],
      [{ option: 'Flux1.1Pro', negative_prompt: 'blur' }, 'Flux 1.1 Pro takes no negative prompt (negative_prompt).'],
      [{ option: 'RealisticVision', negative_prompt: 'x'.repeat(1001) }, 'The negative prompt can be at most 1000 characters.'],
    ];
    for (const [fields, detail] of refusals) {
      const answer = await textToImage(user, { prompt: 'a kite', ...fields });
      expect([fields, answer.status, answer.body]).toEqual([fields, 400, { detail }]);
    }
    expect(await balanceOf(server, user.sub)).toBe(100);
    // An empty negative prompt is none at all; one picture is stored without a count.
    const plain = asMedia(await textToImage(user, { option: 'Flux1.1Pro', prompt: 'a kite', negative_prompt: '  ', num_images: '1' }));
    expect(plain.args).not.toHaveProperty('num_images');
    expect(plain.args).not.toHaveProperty('negative_prompt');
    expect(plain.items).toHaveLength(1);
  });

  it('is run again whole by Re-run (the same pictures, charged again) and refunded whole when it fails', async () => {
    const user = await signUpUser(server, 'runs-again');
    const first = asMedia(await textToImage(user, { option: 'Seedream', prompt: 'two moons over a lake', num_images: '2', seed: '42' }));
    const made = await finished(user, first.id);
    const rerun = await callApi(server, `media/${first.id}/rerun`, {
      method: 'POST',
      token: user.accessToken,
      json: {},
      headers: { 'Idempotency-Key': 'runs-rerun-1' },
    });
    const again = asMedia(rerun);
    expect(again.cost).toBe(8);
    const remade = await finished(user, again.id);
    expect(remade.media.items.map((item) => item.seed)).toEqual([42, 43]);
    expect(remade.files.map((file) => file.toString('base64'))).toEqual(made.files.map((file) => file.toString('base64')));
    expect(await balanceOf(server, user.sub)).toBe(100 - 16);

    const failing = asMedia(await textToImage(user, { option: 'Seedream', prompt: 'a storm [fail]', num_images: '4' }));
    expect(failing.cost).toBe(16);
    expect(await pollStatus(server, failing.id, hasEnded)).toBe('failed');
    const ended = asMedia(await callApi(server, `media/${failing.id}`, { token: user.accessToken }));
    expect(ended.refunded).toBe(true);
    expect(await balanceOf(server, user.sub)).toBe(100 - 16);
  });
});
