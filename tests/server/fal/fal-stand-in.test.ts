import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, createFalClient, ValidationError, type FalClient } from '@fal-ai/client';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FalOutputKind } from '../../../server/src/render/fal/types.ts';
import { readWavInfo } from '../../../server/src/render/wav-writer.ts';
import { startFalStandIn, type FalStandIn } from '../../fal/queue-stand-in.ts';

/**
 * The fal queue stand-in (tests/fal/queue-stand-in.ts) driven by fal's real client, rewritten to
 * it the way Kinora's provider does: if these pass, the provider's tests talk to something that
 * answers as fal's docs say.
 */

const FAL_QUEUE = 'https://queue.fal.run';
const IMAGE = 'fal-ai/flux-pro/v1.1';
/** Typed as a plain string so the test may send fields fal's typings of this endpoint leave out. */
const VIDEO: string = 'fal-ai/kling-video/v2.1/standard/image-to-video';
const SPEECH = 'fal-ai/elevenlabs/tts/multilingual-v2';
const MUSIC = 'fal-ai/stable-audio';
const TRAINER = 'fal-ai/flux-lora-fast-training';
/** From Kinora's own model map (FAL_TEXT_CALL), not from the test's list. */
const TEXT = 'openrouter/router';

const TEST_ENDPOINTS: Readonly<Record<string, FalOutputKind>> = { [IMAGE]: 'image', [VIDEO]: 'video', [SPEECH]: 'audio', [MUSIC]: 'audio', [TRAINER]: 'lora' };
const POLL = { pollInterval: 5 } as const;

let standIn: FalStandIn;
let fal: FalClient;
/** A file host for input links: `/picture.png` answers a PNG, anything else 404. */
let host: http.Server;
let hostUrl = '';
let picture: Buffer;

const clientFor = (credentials: string): FalClient =>
  createFalClient({
    credentials,
    requestMiddleware: async (request) => ({ ...request, url: request.url.replace(FAL_QUEUE, standIn.url) }),
  });

async function download(url: string): Promise<{ type: string | null; data: Buffer }> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return { type: response.headers.get('content-type'), data: Buffer.from(await response.arrayBuffer()) };
}

/** Submits and waits for COMPLETED through the client's own polling; answers the result. */
async function run(endpoint: string, input: Record<string, unknown>, client = fal) {
  const { request_id: requestId } = await client.queue.submit(endpoint, { input });
  await client.queue.subscribeToStatus(endpoint, { requestId, logs: true, ...POLL });
  return { requestId, result: await client.queue.result(endpoint, { requestId }) };
}

async function rejection(promise: Promise<unknown>): Promise<ApiError<{ detail?: unknown; status?: string; error_type?: string }>> {
  const error: unknown = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError<{ detail?: unknown; status?: string; error_type?: string }>;
}

beforeAll(async () => {
  standIn = await startFalStandIn({ outputKindOf: (id) => TEST_ENDPOINTS[id] });
  fal = clientFor('test-key');
  picture = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#3366cc' } }).png().toBuffer();
  host = http.createServer((request, response) => {
    if (request.url === '/picture.png') response.writeHead(200, { 'Content-Type': 'image/png' }).end(picture);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await standIn?.stop();
  await new Promise((resolve) => host?.close(resolve));
});

beforeEach(() => {
  standIn.release('all');
  standIn.stepsToComplete = 2;
});

describe('fal queue stand-in', () => {
  it('takes a submission, moves it IN_QUEUE → IN_PROGRESS → COMPLETED, and answers a downloadable PNG in the asked shape', async () => {
    const submitted = await fal.queue.submit(IMAGE, { input: { prompt: 'a lighthouse at dusk', image_size: 'landscape_16_9', seed: 7 } });
    const { request_id: requestId } = submitted;
    // Status, result and cancel live under owner/app only, as fal's docs and client build them.
    expect(submitted.status_url).toBe(`${standIn.url}/fal-ai/flux-pro/requests/${requestId}/status`);
    expect(submitted.response_url).toBe(`${standIn.url}/fal-ai/flux-pro/requests/${requestId}`);
    expect(submitted.cancel_url).toBe(`${standIn.url}/fal-ai/flux-pro/requests/${requestId}/cancel`);
    expect(submitted.queue_position).toBe(0);
    expect(standIn.submissions.at(-1)).toMatchObject({ requestId, endpointId: IMAGE, authorization: 'Key test-key', input: { prompt: 'a lighthouse at dusk' } });

    const first = await fal.queue.status(IMAGE, { requestId, logs: true });
    expect(first).toMatchObject({ status: 'IN_QUEUE', queue_position: 0 });
    const second = await fal.queue.status(IMAGE, { requestId, logs: true });
    expect(second.status).toBe('IN_PROGRESS');
    expect(second.status === 'IN_PROGRESS' && second.logs[0]).toMatchObject({ level: 'INFO', source: 'USER' });
    const third = await fal.queue.status(IMAGE, { requestId, logs: false });
    expect(third).toMatchObject({ status: 'COMPLETED', logs: null, response_url: submitted.response_url });
    // fal answers 202 while a request waits or runs and 200 once it is complete.
    expect(standIn.statusCalls.filter((call) => call.requestId === requestId).map((call) => call.status)).toEqual([202, 202, 200]);

    const { data, requestId: answeredId } = await fal.queue.result(IMAGE, { requestId });
    expect(answeredId).toBe(requestId);
    expect(data).toMatchObject({ seed: 7, has_nsfw_concepts: [false], prompt: 'a lighthouse at dusk', images: [{ width: 256, height: 144, content_type: 'image/png' }] });
    const file = await download((data as { images: { url: string }[] }).images[0]!.url);
    expect(file.type).toBe('image/png');
    expect(await sharp(file.data).metadata()).toMatchObject({ format: 'png', width: 256, height: 144 });
  });

  it('answers video, speech, music, LoRA and text endpoints in their fal shapes, with real files', async () => {
    const video = (await run(VIDEO, { prompt: 'waves', image_url: `${hostUrl}/picture.png` })).result.data as { video: { url: string; content_type: string; file_size: number } };
    expect(video.video.content_type).toBe('video/mp4');
    const mp4 = await download(video.video.url);
    expect(mp4.data.length).toBe(video.video.file_size);
    expect(mp4.data.subarray(4, 8).toString('ascii')).toBe('ftyp');

    const speech = (await run(SPEECH, { text: 'Hello there', prompt: 'Hello there' })).result.data as { audio: { url: string } };
    const wav = await download(speech.audio.url);
    expect(wav.type).toBe('audio/wav');
    expect(readWavInfo(wav.data)?.durationSeconds).toBeCloseTo(1, 1);

    const music = (await run(MUSIC, { prompt: 'drum loop', seconds_total: 3 })).result.data as { audio_file: { url: string } };
    expect(readWavInfo((await download(music.audio_file.url)).data)?.durationSeconds).toBeCloseTo(3, 1);

    const lora = (await run(TRAINER, { images_data_url: 'data:application/zip;base64,UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA==', trigger_word: 'kinora' })).result
      .data as { diffusers_lora_file: { url: string; file_size: number }; config_file: { url: string } };
    const weights = await download(lora.diffusers_lora_file.url);
    expect(weights.data.length).toBe(lora.diffusers_lora_file.file_size);
    const headerLength = Number(weights.data.readBigUInt64LE(0));
    expect(JSON.parse(weights.data.subarray(8, 8 + headerLength).toString('utf8'))).toHaveProperty(['lora_unet.weight', 'dtype'], 'F32');
    expect(JSON.parse((await download(lora.config_file.url)).data.toString('utf8'))).toHaveProperty('trigger_word');

    const text = (await run(TEXT, { model: 'google/gemini-2.5-flash', prompt: 'a fox in the snow' })).result.data as { output: string };
    expect(text.output).toContain('a fox in the snow');
  });

  it('lets a new client resume status and result from a stored request id while the request is held', async () => {
    const { request_id: requestId } = await fal.queue.submit(IMAGE, { input: { prompt: 'resume me' } });
    standIn.hold(requestId);
    for (let poll = 0; poll < 5; poll += 1) await fal.queue.status(IMAGE, { requestId });
    expect(standIn.stageOf(requestId)).toBe('IN_PROGRESS');

    // What a restarted Kinora does: a fresh client, only the stored endpoint and id.
    const restarted = clientFor('test-key');
    expect((await restarted.queue.status(IMAGE, { requestId, logs: true })).status).toBe('IN_PROGRESS');
    standIn.release(requestId);
    const done = await restarted.queue.subscribeToStatus(IMAGE, { requestId, ...POLL });
    expect(done.status).toBe('COMPLETED');
    expect((await restarted.queue.result(IMAGE, { requestId })).data).toHaveProperty('images');
  });

  it('holds every request IN_QUEUE until released, and counts its place in the queue', async () => {
    standIn.hold('all', 'IN_QUEUE');
    const first = await fal.queue.submit(IMAGE, { input: { prompt: 'first' } });
    const second = await fal.queue.submit(IMAGE, { input: { prompt: 'second' } });
    expect(second.queue_position).toBe(1);
    for (let poll = 0; poll < 4; poll += 1) expect((await fal.queue.status(IMAGE, { requestId: second.request_id })).status).toBe('IN_QUEUE');
    standIn.release('all');
    await fal.queue.subscribeToStatus(IMAGE, { requestId: first.request_id, ...POLL });
    await fal.queue.subscribeToStatus(IMAGE, { requestId: second.request_id, ...POLL });
    expect(standIn.stageOf(second.request_id)).toBe('COMPLETED');
  });

  it('cancels a waiting request (its result is then an error) and refuses to cancel a finished one', async () => {
    standIn.hold('all');
    const { request_id: requestId } = await fal.queue.submit(IMAGE, { input: { prompt: 'never mind' } });
    await fal.queue.cancel(IMAGE, { requestId });
    expect(standIn.cancellations.at(-1)).toMatchObject({ requestId, status: 202, answer: 'CANCELLATION_REQUESTED' });
    expect((await fal.queue.status(IMAGE, { requestId })).status).toBe('COMPLETED');
    const cancelled = await rejection(fal.queue.result(IMAGE, { requestId }));
    expect(cancelled.status).toBe(499);
    expect(cancelled.body).toMatchObject({ error_type: 'client_cancelled' });

    const again = await rejection(fal.queue.cancel(IMAGE, { requestId }));
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ status: 'ALREADY_COMPLETED' });

    standIn.release('all');
    const finished = await run(IMAGE, { prompt: 'done already' });
    const late = await rejection(fal.queue.cancel(IMAGE, { requestId: finished.requestId }));
    expect(late.body).toEqual({ status: 'ALREADY_COMPLETED' });
  });

  it('answers 429 with Retry-After when told to, and the client retries the submission by itself', async () => {
    standIn.failNext(1, 429);
    const raw = await fetch(`${standIn.url}/${IMAGE}`, { method: 'POST', headers: { Authorization: 'Key x' }, body: '{}' });
    expect(raw.status).toBe(429);
    expect(raw.headers.get('retry-after')).toBe('1');

    const before = standIn.submissions.length;
    standIn.failNext(1, 429);
    const { request_id: requestId } = await fal.queue.submit(IMAGE, { input: { prompt: 'patience' } });
    expect(standIn.rejections.filter((rejected) => rejected.status === 429)).toHaveLength(2);
    expect(standIn.submissions.slice(before).map((submission) => submission.requestId)).toEqual([requestId]);

    // 503 on a status poll: retried too.
    standIn.failNext(1, 503);
    expect((await fal.queue.status(IMAGE, { requestId })).status).toBe('IN_QUEUE');
    expect(standIn.rejections.at(-1)).toMatchObject({ status: 503, path: `/fal-ai/flux-pro/requests/${requestId}/status` });
  });

  it('refuses calls without a key (401), unknown endpoints and unknown request ids (404)', async () => {
    const noKey = await rejection(clientFor('').queue.submit(IMAGE, { input: { prompt: 'who am I' } }));
    expect(noKey.status).toBe(401);
    expect((await fetch(`${standIn.url}/${IMAGE}`, { method: 'POST', headers: { Authorization: 'Bearer x' }, body: '{}' })).status).toBe(401);

    expect((await rejection(fal.queue.submit('fal-ai/no-such-model', { input: { prompt: 'x' } }))).status).toBe(404);
    expect((await rejection(fal.queue.status(IMAGE, { requestId: 'no-such-request' }))).status).toBe(404);
    const { request_id: requestId } = await fal.queue.submit(IMAGE, { input: { prompt: 'mine' } });
    // The right id under another app is not found either.
    expect((await rejection(fal.queue.status('fal-ai/other-app', { requestId }))).status).toBe(404);
  });

  it('follows the prompt markers: [fal-nsfw] flags the image, [fal-fail] is a 422 validation error, [fal-error] a 500', async () => {
    const nsfw = (await run(IMAGE, { prompt: 'a statue [fal-nsfw]', num_images: 2 })).result.data as { has_nsfw_concepts: boolean[]; images: unknown[] };
    expect(nsfw.has_nsfw_concepts).toEqual([true, true]);
    expect(nsfw.images).toHaveLength(2);

    const { request_id: failing } = await fal.queue.submit(IMAGE, { input: { prompt: 'nope [fal-fail]' } });
    await fal.queue.subscribeToStatus(IMAGE, { requestId: failing, ...POLL });
    const invalid = await rejection(fal.queue.result(IMAGE, { requestId: failing }));
    expect(invalid).toBeInstanceOf(ValidationError);
    expect(invalid.status).toBe(422);
    expect((invalid as ValidationError).fieldErrors[0]).toMatchObject({ loc: ['body', 'prompt'], type: 'value_error' });

    const { request_id: broken } = await fal.queue.submit(IMAGE, { input: { prompt: 'boom [fal-error]' } });
    await fal.queue.subscribeToStatus(IMAGE, { requestId: broken, ...POLL });
    const internal = await rejection(fal.queue.result(IMAGE, { requestId: broken }));
    expect(internal.status).toBe(500);
    expect(internal.body).toEqual({ detail: 'Internal error' });
  });

  it('fetches every link of the input before completing, and records a disk path as a violation (the request then fails as on fal)', async () => {
    const good = await run(VIDEO, {
      prompt: 'from pictures',
      image_url: `${hostUrl}/picture.png`,
      reference_image_urls: [`${hostUrl}/picture.png`, 'data:image/png;base64,iVBORw0KGgo='],
    });
    const fetched = standIn.inputFetches.filter((item) => item.requestId === good.requestId);
    expect(fetched).toEqual([
      expect.objectContaining({ field: 'image_url', kind: 'http', status: 200, bytes: picture.length, contentType: 'image/png' }),
      expect.objectContaining({ field: 'reference_image_urls[0]', kind: 'http', status: 200, bytes: picture.length }),
      expect.objectContaining({ field: 'reference_image_urls[1]', kind: 'data', bytes: 8, contentType: 'image/png' }),
    ]);

    const { request_id: requestId } = await fal.queue.submit(VIDEO, {
      input: { prompt: 'from my disk', image_url: '/work/main/.local/uploads/picture.png', end_image_url: `${hostUrl}/gone.png` },
    });
    await fal.queue.subscribeToStatus(VIDEO, { requestId, ...POLL });
    expect(standIn.inputFetches.filter((item) => item.requestId === requestId)).toEqual([
      expect.objectContaining({ field: 'image_url', kind: 'violation', url: '/work/main/.local/uploads/picture.png' }),
      expect.objectContaining({ field: 'end_image_url', kind: 'http', status: 404 }),
    ]);
    const failed = await rejection(fal.queue.result(VIDEO, { requestId }));
    expect(failed.status).toBe(422);
    expect((failed as ValidationError).fieldErrors.map((error) => error.loc)).toEqual([
      ['body', 'image_url'],
      ['body', 'end_image_url'],
    ]);
  });

  it('completes on the first poll with stepsToComplete 0, and waits on until() without sleeping', async () => {
    standIn.stepsToComplete = 0;
    const { request_id: requestId } = await fal.queue.submit(IMAGE, { input: { prompt: 'quick' } });
    const watched = standIn.until(() => standIn.stageOf(requestId) === 'COMPLETED');
    expect((await fal.queue.status(IMAGE, { requestId })).status).toBe('COMPLETED');
    await watched;
  });
});
