import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processingStatusSchema } from '../../../src/services/schemas/media.ts';
import { createFileSigner } from '../../../server/src/jobs/file-signing.ts';
import { readWavInfo } from '../../../server/src/render/wav-writer.ts';
import {
  asMedia,
  fetchFile,
  hasEnded,
  ledgerRows,
  PNG_MAGIC,
  pollStatus,
  postForm,
} from '../helpers/media.ts';
import { callApi, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ jobs: { durationMs: 300, pollIntervalMs: 100, concurrency: 4 } });
});
afterAll(async () => {
  await server?.close();
});

async function submit(token: string, endpoint: string, fields: Record<string, string | string[]>) {
  return postForm(server, endpoint, fields, { token });
}

async function mediaRowCount(sub: string): Promise<number> {
  const { rows } = await server.db.query<{ n: number }>('SELECT count(*)::integer AS n FROM media WHERE user_sub = $1', [sub]);
  return rows[0]?.n ?? 0;
}

describe('a text-to-image job', () => {
  it('goes queue_source → processing_source → success_image, debits once and serves a real PNG through a signed link', async () => {
    const user = await signUpUser(server, 'jobs');
    const answer = await submit(user.accessToken, 'image/text-2-image', { prompt: 'a red fox in snow', aspect_ratio: '16:9' });
    expect(answer.status).toBe(200);
    const queued = asMedia(answer);
    expect(queued).toMatchObject({
      status: 'queue_source',
      kind: 'image',
      tool: 'text-to-image',
      option: 'Seedream',
      cost: 4,
      refunded: false,
      progress: 0,
      items: [{ status: 'new', url: null }],
    });
    expect(queued.args).toMatchObject({ prompt: 'a red fox in snow', aspect_ratio: '16:9', option: 'Seedream' });
    expect(await ledgerRows(server, user.sub)).toEqual([
      { kind: 'grant', amount: 100, job_id: null },
      { kind: 'debit', amount: -4, job_id: queued.id },
    ]);

    await pollStatus(server, queued.id, (status) => status === 'processing_source');
    const midway = processingStatusSchema.parse((await callApi(server, `media/${queued.id}/processing-status`)).body?.data);
    expect(midway.items).toEqual([{ status: 'processing' }]);
    expect(await pollStatus(server, queued.id, hasEnded)).toBe('success_image');

    const done = asMedia(await callApi(server, `media/${queued.id}`, { token: user.accessToken }));
    expect(done).toMatchObject({ status: 'success_image', progress: 100, refunded: false, cost: 4 });
    expect(done.finished_at).not.toBeNull();
    const [item] = done.items;
    expect(item).toMatchObject({ type: 'image', status: 'success', width: 1024, height: 576 });
    expect(done.results).toEqual([item?.url]);
    expect(done.files.map((file) => file.role).sort()).toEqual(['result', 'thumbnail']);

    const image = await fetchFile(item?.url ?? '');
    expect(image.status).toBe(200);
    expect(image.bytes.subarray(0, 8)).toEqual(PNG_MAGIC);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(image.headers.get('content-security-policy')).toBe('sandbox');
    expect(image.headers.get('content-disposition')).toMatch(/^inline; filename="[A-Za-z0-9_.]+"$/);
    expect(image.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    const thumbnail = await fetchFile(item?.thumbnail_url ?? '');
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));

    // Still exactly one debit, and no refund.
    expect((await ledgerRows(server, user.sub)).filter((row) => row.job_id === queued.id)).toEqual([
      { kind: 'debit', amount: -4, job_id: queued.id },
    ]);
  });

  it('refuses forged, tampered and expired file links with 403', async () => {
    const user = await signUpUser(server, 'links');
    const media = asMedia(await submit(user.accessToken, 'image/text-2-image', { prompt: 'a lighthouse', async_mode: 'false' }));
    const url = new URL(media.items[0]?.url ?? '');
    const fileId = media.items[0]?.file_id ?? '';
    const invalid = { detail: 'This file link is invalid or has expired.' };

    const tampered = new URL(url);
    tampered.searchParams.set('signature', '0'.repeat(64));
    const forged = await callApi(server, `files/${fileId}${tampered.search}`);
    expect(forged.status).toBe(403);
    expect(forged.body).toEqual(invalid);

    const later = new URL(url);
    later.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    expect((await callApi(server, `files/${fileId}${later.search}`)).status).toBe(403);
    expect((await callApi(server, `files/${fileId}`)).status).toBe(403);

    // A genuine signature whose hour has passed.
    const { rows } = await server.db.query<{ value: string }>("SELECT value FROM server_secrets WHERE name = 'file-signing'");
    const signer = createFileSigner(rows[0]?.value ?? '');
    const expired = signer.sign(server.url, fileId, Date.now() - 2 * 3600 * 1000);
    const answer = await fetchFile(expired.url);
    expect(answer.status).toBe(403);
    const fresh = signer.sign(server.url, fileId);
    expect((await fetchFile(fresh.url)).status).toBe(200);

    // GET media/{id}/file/{fileId}/get-url gives a working one-hour link.
    const link = await callApi<{ url: string; expires_at: string }>(server, `media/${media.id}/file/${fileId}/get-url`, {
      token: user.accessToken,
    });
    expect(link.status).toBe(200);
    const expiresIn = Date.parse(link.body?.data?.expires_at ?? '') - Date.now();
    expect(expiresIn).toBeGreaterThan(59 * 60 * 1000);
    expect(expiresIn).toBeLessThanOrEqual(61 * 60 * 1000);
    expect((await fetchFile(link.body?.data?.url ?? '')).bytes.subarray(0, 8)).toEqual(PNG_MAGIC);
    expect((await callApi(server, `media/${media.id}/file/nosuchfile123/get-url`, { token: user.accessToken })).status).toBe(404);
  });

  it('answers a byte range of a file (players seek with it)', async () => {
    const user = await signUpUser(server, 'range');
    const media = asMedia(await submit(user.accessToken, 'audio/text-2-sound-effect', { prompt: 'rain', duration: '2', async_mode: 'false' }));
    const url = media.items[0]?.url ?? '';
    const part = await fetchFile(url, { Range: 'bytes=0-11' });
    expect(part.status).toBe(206);
    expect(part.bytes.toString('latin1')).toBe(`RIFF${part.bytes.toString('latin1', 4, 8)}WAVE`);
    expect(part.headers.get('content-range')).toMatch(/^bytes 0-11\/\d+$/);
  });
});

describe('audio jobs', () => {
  it('text-to-speech ends in success with a real WAV in the chosen voice', async () => {
    const user = await signUpUser(server, 'speech');
    const answer = await submit(user.accessToken, 'audio/text-2-speech', { prompt: 'Hello from Kinora.', voice: 'Roger' });
    const media = asMedia(answer);
    expect(media).toMatchObject({ kind: 'audio', status: 'queue_source', cost: 8, option: 'Text2Speech' });
    expect(media.args.voice).toBe('Roger');
    expect(await pollStatus(server, media.id, hasEnded)).toBe('success');
    const done = asMedia(await callApi(server, `media/${media.id}`, { token: user.accessToken }));
    const audio = await fetchFile(done.items[0]?.url ?? '');
    expect(audio.status).toBe(200);
    expect(audio.headers.get('content-type')).toBe('audio/wav');
    expect(readWavInfo(audio.bytes)?.durationSeconds).toBeGreaterThan(0.3);
    expect(done.items[0]?.duration_seconds).toBeGreaterThan(0.3);
    expect(done.items[0]?.thumbnail_url).toBeNull();
  });

  it('sound effects last the duration asked for (default 5 s)', async () => {
    const user = await signUpUser(server, 'effect');
    const three = asMedia(await submit(user.accessToken, 'audio/text-2-sound-effect', { prompt: 'thunder', duration: '3', async_mode: 'false' }));
    expect(three.status).toBe('success');
    expect(readWavInfo((await fetchFile(three.items[0]?.url ?? '')).bytes)?.durationSeconds).toBeCloseTo(3, 1);
    const standard = asMedia(await submit(user.accessToken, 'audio/text-2-sound-effect', { prompt: 'thunder', async_mode: 'false' }));
    expect(standard.args.duration).toBe(5);
    expect(readWavInfo((await fetchFile(standard.items[0]?.url ?? '')).bytes)?.durationSeconds).toBeCloseTo(5, 1);
  });
});

describe('async_mode=false', () => {
  it('answers only when the job has ended, with its result', async () => {
    const user = await signUpUser(server, 'sync');
    const started = Date.now();
    const answer = await submit(user.accessToken, 'image/text-2-image', { prompt: 'a quiet harbour', async_mode: 'false' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    const media = asMedia(answer);
    expect(media.status).toBe('success_image');
    expect(media.items[0]?.url).toMatch(/\/api\/files\/[A-Za-z0-9_-]+\?expires=\d+&signature=[0-9a-f]{64}$/);
  });

  it('answers the failed job when it fails', async () => {
    const user = await signUpUser(server, 'sync-fail');
    const media = asMedia(await submit(user.accessToken, 'image/text-2-image', { prompt: 'a broken [fail] render', async_mode: 'false' }));
    expect(media).toMatchObject({ status: 'failed', refunded: true });
  });
});

describe('failed, nsfw and cancelled jobs are refunded exactly once', () => {
  it.each([
    ['[fail]', 'failed', 'failed'],
    ['[nsfw]', 'nsfw', 'nsfw'],
  ])('a prompt with %s ends as %s with one refund', async (marker, status, itemStatus) => {
    const user = await signUpUser(server, `refund-${status}`);
    const media = asMedia(await submit(user.accessToken, 'image/text-2-image', { prompt: `a cat ${marker}` }));
    expect(await pollStatus(server, media.id, hasEnded)).toBe(status);
    const ended = asMedia(await callApi(server, `media/${media.id}`, { token: user.accessToken }));
    expect(ended).toMatchObject({ status, refunded: true, items: [{ status: itemStatus, url: null }] });
    expect(ended.error).toMatch(/refunded/);
    expect(await ledgerRows(server, user.sub)).toEqual([
      { kind: 'grant', amount: 100, job_id: null },
      { kind: 'debit', amount: -4, job_id: media.id },
      { kind: 'refund', amount: 4, job_id: media.id },
    ]);
    // A cancel after the end changes nothing.
    const late = await callApi(server, `media/${media.id}/cancel`, { method: 'PUT', token: user.accessToken, json: {} });
    expect(late.status).toBe(409);
    expect(late.body).toEqual({ detail: 'This job has already ended.' });
    expect(await ledgerRows(server, user.sub)).toHaveLength(3);
  });

  it('cancel stops a processing job, refunds it once, and the worker never overwrites it', async () => {
    const user = await signUpUser(server, 'cancel');
    const media = asMedia(await submit(user.accessToken, 'image/text-2-image', { prompt: 'a slow sunrise' }));
    await pollStatus(server, media.id, (status) => status === 'processing_source');
    const cancelled = await callApi(server, `media/${media.id}/cancel`, { method: 'PUT', token: user.accessToken, json: {} });
    expect(cancelled.status).toBe(200);
    expect(asMedia(cancelled)).toMatchObject({ status: 'cancelled', refunded: true });
    const again = await callApi(server, `media/${media.id}/cancel`, { method: 'PUT', token: user.accessToken, json: {} });
    expect(again.status).toBe(409);

    // Longer than the job would have taken: it stays cancelled, with no result files.
    await new Promise((resolve) => setTimeout(resolve, 600));
    const after = asMedia(await callApi(server, `media/${media.id}`, { token: user.accessToken }));
    expect(after).toMatchObject({ status: 'cancelled', files: [], items: [{ status: 'failed', url: null }] });
    expect((await ledgerRows(server, user.sub)).filter((row) => row.job_id === media.id)).toEqual([
      { kind: 'debit', amount: -4, job_id: media.id },
      { kind: 'refund', amount: 4, job_id: media.id },
    ]);
  });

  it('cancels a queued job and a finished job answers 409', async () => {
    const user = await signUpUser(server, 'cancel-queued');
    const media = asMedia(await submit(user.accessToken, 'image/text-2-image', { prompt: 'a field' }));
    // Cancelled at once: it may still be queued or already processing; either way it is live.
    const cancelled = await callApi(server, `media/${media.id}/cancel`, { method: 'PUT', token: user.accessToken, json: {} });
    expect(asMedia(cancelled).status).toBe('cancelled');
    const done = asMedia(await submit(user.accessToken, 'image/text-2-image', { prompt: 'a field', async_mode: 'false' }));
    expect((await callApi(server, `media/${done.id}/cancel`, { method: 'PUT', token: user.accessToken, json: {} })).status).toBe(409);
    const rows = await ledgerRows(server, user.sub);
    expect(rows.filter((row) => row.kind === 'refund')).toEqual([{ kind: 'refund', amount: 4, job_id: media.id }]);
    expect(rows.reduce((sum, row) => sum + row.amount, 0)).toBe(96);
  });

  it('DELETE cancels and refunds a live job, and removes a finished job with its files', async () => {
    const user = await signUpUser(server, 'delete');
    const live = asMedia(await submit(user.accessToken, 'image/text-2-image', { prompt: 'a moon' }));
    const deleted = await callApi(server, `media/${live.id}`, { method: 'DELETE', token: user.accessToken });
    expect(deleted.status).toBe(200);
    expect(deleted.body?.data).toEqual({ id: live.id, deleted: true });
    expect((await callApi(server, `media/${live.id}`, { token: user.accessToken })).status).toBe(404);
    expect((await callApi(server, `media/${live.id}/processing-status`)).status).toBe(404);
    expect((await ledgerRows(server, user.sub)).filter((row) => row.job_id === live.id).map((row) => row.kind)).toEqual([
      'debit',
      'refund',
    ]);

    const finished = asMedia(await submit(user.accessToken, 'image/text-2-image', { prompt: 'a sun', async_mode: 'false' }));
    const folder = path.join(server.mediaDir, finished.id);
    expect(existsSync(folder)).toBe(true);
    const url = finished.items[0]?.url ?? '';
    expect((await callApi(server, `media/${finished.id}`, { method: 'DELETE', token: user.accessToken })).status).toBe(200);
    expect(existsSync(folder)).toBe(false);
    expect((await fetchFile(url)).status).toBe(404);
    // A finished job is not refunded by its deletion.
    expect((await ledgerRows(server, user.sub)).filter((row) => row.job_id === finished.id).map((row) => row.kind)).toEqual(['debit']);
    expect(await mediaRowCount(user.sub)).toBe(0);
  });
});

describe('processing-status', () => {
  it('needs no auth and answers 404 for an unknown id', async () => {
    const user = await signUpUser(server, 'status');
    const media = asMedia(await submit(user.accessToken, 'image/text-2-image', { prompt: 'a bridge' }));
    const answer = await callApi(server, `media/${media.id}/processing-status`);
    expect(answer.status).toBe(200);
    const status = processingStatusSchema.parse(answer.body?.data);
    // Nothing but the job's progress (and, issue 21 item 2, whether it is held and its place in its owner's queue).
    expect(Object.keys(answer.body?.data as object).sort()).toEqual(['held', 'id', 'items', 'progress', 'queue_position', 'status', 'updated_at']);
    expect(status.id).toBe(media.id);
    const unknown = await callApi(server, 'media/doesNotExist123/processing-status');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'Not found.' });
    await pollStatus(server, media.id, hasEnded);
  });

  it('answers several jobs in one request (Kinora\'s ?ids=), without auth, leaving out an unknown id', async () => {
    const user = await signUpUser(server, 'status-batch');
    const first = asMedia(await submit(user.accessToken, 'image/text-2-image', { prompt: 'a kite' }));
    const second = asMedia(await submit(user.accessToken, 'image/text-2-image', { prompt: 'a boat' }));
    const answer = await callApi<{ items: unknown[] }>(server, `media/processing-status?ids=${second.id},unknown123,${first.id},${second.id}`);
    expect(answer.status).toBe(200);
    const items = (answer.body?.data?.items ?? []).map((item) => processingStatusSchema.parse(item));
    expect(items.map((item) => item.id)).toEqual([second.id, first.id]);
    for (const item of items) expect(Object.keys(item).sort()).toEqual(['held', 'id', 'items', 'progress', 'queue_position', 'status', 'updated_at']);
    const single = processingStatusSchema.parse((await callApi(server, `media/${first.id}/processing-status`)).body?.data);
    expect(single.id).toBe(first.id);

    const tooMany = await callApi(server, `media/processing-status?ids=${Array.from({ length: 51 }, (_, index) => `m${index}`).join(',')}`);
    expect(tooMany.status).toBe(400);
    for (const bad of ['', 'a,,b', ',a']) expect((await callApi(server, `media/processing-status?ids=${bad}`)).status, bad).toBe(400);
    expect((await callApi(server, 'media/processing-status')).status).toBe(400);
    await pollStatus(server, first.id, hasEnded);
    await pollStatus(server, second.id, hasEnded);
  });

  it('reports progress that only grows', async () => {
    const user = await signUpUser(server, 'progress');
    const media = asMedia(await submit(user.accessToken, 'image/text-2-image', { prompt: 'a river' }));
    const seen: number[] = [];
    for (;;) {
      const status = processingStatusSchema.parse((await callApi(server, `media/${media.id}/processing-status`)).body?.data);
      seen.push(status.progress);
      if (hasEnded(status.status)) break;
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.at(-1)).toBe(100);
    expect(new Set(seen).size).toBeGreaterThan(2);
  });
});

describe('who may see and change a job', () => {
  it('answers 401 without a token and 404 to another user', async () => {
    const owner = await signUpUser(server, 'owner');
    const other = await signUpUser(server, 'other');
    const media = asMedia(await submit(owner.accessToken, 'image/text-2-image', { prompt: 'a secret garden', async_mode: 'false' }));
    const fileId = media.items[0]?.file_id ?? '';
    expect((await postForm(server, 'image/text-2-image', { prompt: 'x' })).status).toBe(401);
    expect((await callApi(server, `media/${media.id}`)).status).toBe(401);
    for (const [method, suffix] of [
      ['GET', ''],
      ['PUT', '/cancel'],
      ['DELETE', ''],
      ['GET', `/file/${fileId}/get-url`],
    ] as const) {
      const answer = await callApi(server, `media/${media.id}${suffix}`, { method, token: other.accessToken, json: method === 'PUT' ? {} : undefined });
      expect(answer.status, `${method} media/{id}${suffix}`).toBe(404);
    }
    expect((await callApi(server, `media/${media.id}`, { token: owner.accessToken })).status).toBe(200);
  });
});

describe('the Developer group and the guest', () => {
  it('a Developer is not charged (cost 0, no debit) even with no credits left', async () => {
    const username = `dev${Date.now().toString(36)}`;
    const developer = await server.emulator.createUser({ username, email: `${username}@example.test`, password: 'secret-password-1', groups: ['Developer'] });
    // The first call creates the row with the starting grant; then the balance is spent.
    expect((await callApi(server, 'credits/get', { token: developer.accessToken })).status).toBe(200);
    await server.db.query("INSERT INTO credit_ledger (user_sub, amount, kind, reason) VALUES ($1, -100, 'debit', 'spent')", [developer.sub]);
    const answer = await submit(developer.accessToken, 'image/text-2-image', { prompt: 'a dev test', option: 'Flux1.1ProUltra' });
    expect(answer.status).toBe(200);
    const media = asMedia(answer);
    expect(media.cost).toBe(0);
    expect(await pollStatus(server, media.id, hasEnded)).toBe('success_image');
    expect((await ledgerRows(server, developer.sub)).filter((row) => row.job_id === media.id)).toEqual([]);
  });

  it("the guest's jobs carry the logo variant and render with the logo", async () => {
    const guest = await server.emulator.createUser({ username: 'guest', email: 'guest@kinora.local', password: 'guest-password-1' });
    const member = await signUpUser(server, 'member');
    const fields = { prompt: 'the same picture', aspect_ratio: '1:1', async_mode: 'false' };
    const guestMedia = asMedia(await submit(guest.accessToken, 'image/text-2-image', fields));
    const memberMedia = asMedia(await submit(member.accessToken, 'image/text-2-image', fields));
    expect(guestMedia).toMatchObject({ status: 'success_image', logo_variant: true });
    expect(memberMedia).toMatchObject({ status: 'success_image', logo_variant: false });
    const guestImage = await fetchFile(guestMedia.items[0]?.url ?? '');
    const memberImage = await fetchFile(memberMedia.items[0]?.url ?? '');
    expect(guestImage.bytes.subarray(0, 8)).toEqual(PNG_MAGIC);
    expect(guestImage.bytes.equals(memberImage.bytes)).toBe(false);
    // The same request without the logo renders the same bytes (the engine is deterministic).
    const again = asMedia(await submit(member.accessToken, 'image/text-2-image', fields));
    expect((await fetchFile(again.items[0]?.url ?? '')).bytes.equals(memberImage.bytes)).toBe(true);
  });
});
