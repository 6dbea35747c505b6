import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { QUEUE_TEXTS } from '../../../src/config/queue-texts.ts';
import { processingStatusSchema, type ProcessingStatus } from '../../../src/services/schemas/media.ts';
import { DETAILS } from '../../../server/src/routes/messages.ts';
import { asMedia, balanceOf, ledgerRows, pollStatus, postForm } from '../helpers/media.ts';
import { callApi, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * Issue 21 item 2, "A queue you control": a person's jobs that have not started may be held,
 * resumed, run next and edited (re-quoted, the difference debited or refunded with the change),
 * and one person has at most `maxRunningPerUser` jobs running; the rest wait with their place.
 * Real jobs on a real server: a job here takes 20 s, so the running ones stay running until the
 * test cancels them, and every "did not start" is shown by what the workers took instead (a
 * worker takes the first waiting job it may: a job passed by was not allowed).
 */

type User = Awaited<ReturnType<typeof signUpUser>>;

const LIMIT = 2;
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ jobs: { durationMs: 20_000, pollIntervalMs: 50, concurrency: 6, maxRunningPerUser: LIMIT } });
});
afterAll(async () => {
  await server?.close();
});

async function newUser(prefix: string): Promise<User> {
  const user = await signUpUser(server, prefix);
  expect((await callApi(server, 'media', { token: user.accessToken })).status).toBe(200);
  return user;
}

/** A Seedream text-to-image job (4 credits), answered at once (queued). */
async function submit(user: User, prompt: string, option = 'Seedream'): Promise<string> {
  const answer = await postForm(server, 'image/text-2-image', { prompt, option }, { token: user.accessToken });
  expect(answer.status).toBe(200);
  return asMedia(answer).id;
}

async function statusOf(id: string): Promise<ProcessingStatus> {
  const answer = await callApi(server, `media/${id}/processing-status`);
  return processingStatusSchema.parse(answer.body?.data);
}

const isProcessing = (status: string): boolean => status.startsWith('processing_');

/**
 * The job's status once it says `expected`: a place that moved because a worker took another job
 * is read afresh within the status reader's 50 ms (STATUS_FRESH_MS), not at once.
 */
const eventually = (id: string | undefined, expected: Partial<ProcessingStatus>) =>
  vi.waitFor(async () => expect(await statusOf(id ?? '')).toMatchObject(expected), { timeout: 2000, interval: 20 });
const control = (user: User, id: string, action: 'hold' | 'resume' | 'run-next') =>
  callApi(server, `media/${id}/${action}`, { method: 'POST', token: user.accessToken });
const cancel = (user: User, id: string) => callApi(server, `media/${id}/cancel`, { method: 'PUT', token: user.accessToken });
const edit = (user: User, id: string, json: Record<string, unknown>, key?: string) =>
  callApi(server, `media/${id}`, { method: 'PATCH', token: user.accessToken, json, headers: key ? { 'Idempotency-Key': key } : {} });

/** Submits `count` jobs one after another and waits until the first LIMIT of them run. */
async function fillUp(user: User, label: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) ids.push(await submit(user, `${label} ${index + 1}: a lighthouse in fog`));
  for (const id of ids.slice(0, LIMIT)) await pollStatus(server, id, isProcessing);
  return ids;
}

describe('the per-person limit', () => {
  it('starts at most LIMIT of one person’s jobs; the rest wait with their place while others’ jobs run', async () => {
    const busy = await newUser('busy');
    const other = await newUser('other');
    const [first, second, third, fourth] = await fillUp(busy, 'limit', 4);
    // Another person's job, queued after all of these, is taken while the busy person's wait: the
    // workers passed the older waiting jobs by because of the limit, not for want of a worker.
    const theirs = await submit(other, 'a single job of someone else');
    await pollStatus(server, theirs, isProcessing);
    for (const id of [first, second]) expect(isProcessing((await statusOf(id ?? '')).status)).toBe(true);
    expect(await statusOf(third ?? '')).toMatchObject({ status: 'queue_source', held: false, queue_position: 1 });
    expect(await statusOf(fourth ?? '')).toMatchObject({ status: 'queue_source', held: false, queue_position: 2 });
    // GET media (the History page) says the same places.
    const listed = await callApi<{ items: Array<{ id: string; queue_position?: number | null; held: boolean }> }>(server, 'media', { token: busy.accessToken });
    const places = new Map(listed.body?.data?.items.map((item) => [item.id, item.queue_position ?? null]));
    expect([places.get(first ?? ''), places.get(third ?? ''), places.get(fourth ?? '')]).toEqual([null, 1, 2]);

    // A running job that ends makes room: the next waiting job starts.
    expect((await cancel(busy, first ?? '')).status).toBe(200);
    await pollStatus(server, third ?? '', isProcessing);
    await eventually(fourth, { status: 'queue_source', queue_position: 1 });
    for (const id of [second, third, fourth, theirs]) await cancel(id === theirs ? other : busy, id ?? '');
  });
});

describe('hold, resume and run next', () => {
  it('a held job never starts, a job run next starts before older ones, and a resumed job starts in its turn', async () => {
    const user = await newUser('queuer');
    const [runA, runB, held, middle, moved] = await fillUp(user, 'order', 5);

    const holding = await control(user, held ?? '', 'hold');
    expect(holding.status).toBe(200);
    expect(asMedia(holding)).toMatchObject({ id: held, held: true, queue_position: null, status: 'queue_source' });
    expect(await statusOf(held ?? '')).toMatchObject({ held: true, queue_position: null });
    expect(await statusOf(middle ?? '')).toMatchObject({ queue_position: 1 });

    const next = await control(user, moved ?? '', 'run-next');
    expect(next.status).toBe(200);
    expect(asMedia(next)).toMatchObject({ id: moved, queue_position: 1 });
    expect(await statusOf(middle ?? '')).toMatchObject({ queue_position: 2 });

    // A place frees: the job run next starts, not the held one nor the older one.
    await cancel(user, runA ?? '');
    await pollStatus(server, moved ?? '', isProcessing);
    await eventually(middle, { status: 'queue_source', queue_position: 1 });
    // Another: the held job, older than both, is still passed by.
    await cancel(user, runB ?? '');
    await pollStatus(server, middle ?? '', isProcessing);
    expect(await statusOf(held ?? '')).toMatchObject({ status: 'queue_source', held: true });

    // Resumed while LIMIT jobs run: it waits, first in the queue, and starts when a place frees.
    const resumed = await control(user, held ?? '', 'resume');
    expect(asMedia(resumed)).toMatchObject({ held: false, queue_position: 1 });
    await cancel(user, moved ?? '');
    await pollStatus(server, held ?? '', isProcessing);
    for (const id of [held, middle]) await cancel(user, id ?? '');
  });

  it('answers 409 for a job that has started or ended and 404 for someone else’s; cancelling a held job refunds it', async () => {
    const user = await newUser('refused');
    const stranger = await newUser('stranger');
    const before = await balanceOf(server, user.sub);
    const [running, other, waiting] = await fillUp(user, 'refusals', 3);

    for (const action of ['hold', 'resume', 'run-next'] as const) {
      const started = await control(user, running ?? '', action);
      expect(started.status).toBe(409);
      expect(started.body?.detail).toBe(QUEUE_TEXTS.details.alreadyStarted);
      expect((await control(stranger, waiting ?? '', action)).status).toBe(404);
    }
    expect((await edit(user, running ?? '', { prompt: 'too late' })).body?.detail).toBe(QUEUE_TEXTS.details.alreadyStarted);
    expect((await edit(stranger, waiting ?? '', { prompt: 'not mine' })).status).toBe(404);

    expect((await control(user, waiting ?? '', 'hold')).status).toBe(200);
    const cancelled = asMedia(await cancel(user, waiting ?? ''));
    expect(cancelled).toMatchObject({ status: 'cancelled', refunded: true });
    const ended = await control(user, waiting ?? '', 'resume');
    expect(ended.status).toBe(409);
    expect(ended.body?.detail).toBe(DETAILS.jobAlreadyEnded);
    // Cancel still touches only one's own jobs.
    expect((await cancel(stranger, other ?? '')).status).toBe(404);
    for (const id of [running, other]) await cancel(user, id ?? '');
    expect(await balanceOf(server, user.sub)).toBe(before);
  });
});

describe('PATCH media/{id}: edit before it runs', () => {
  it('re-quotes the job and debits or refunds the difference with the change, once per Idempotency-Key', async () => {
    const user = await newUser('editor');
    const start = await balanceOf(server, user.sub);
    const [runA, runB, waiting] = await fillUp(user, 'edit', 3);
    const id = waiting ?? '';
    expect(await balanceOf(server, user.sub)).toBe(start - 12);

    // Seedream (4) → Flux 1.1 Pro Ultra (8), a new prompt and aspect ratio: 4 more debited.
    const dearer = await edit(user, id, { option: 'Flux1.1ProUltra', prompt: 'a lighthouse at dawn', aspect_ratio: '16:9' }, 'edit-1');
    expect(dearer.status).toBe(200);
    expect(asMedia(dearer)).toMatchObject({
      id,
      option: 'Flux1.1ProUltra',
      cost: 8,
      status: 'queue_source',
      queue_position: 1,
      args: { option: 'Flux1.1ProUltra', prompt: 'a lighthouse at dawn', aspect_ratio: '16:9' },
    });
    expect(await balanceOf(server, user.sub)).toBe(start - 16);
    // The same key again (a lost answer): the same job, nothing more debited.
    const replayed = await edit(user, id, { option: 'Flux1.1ProUltra', prompt: 'a lighthouse at dawn', aspect_ratio: '16:9' }, 'edit-1');
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(await balanceOf(server, user.sub)).toBe(start - 16);

    // Back to a 4-credit model: 4 refunded, the prompt kept.
    const cheaper = asMedia(await edit(user, id, { option: 'Flux1.1Pro' }, 'edit-2'));
    expect(cheaper).toMatchObject({ cost: 4, args: { prompt: 'a lighthouse at dawn', option: 'Flux1.1Pro' } });
    expect(await balanceOf(server, user.sub)).toBe(start - 12);
    const rows = await ledgerRows(server, user.sub);
    expect(rows.filter((row) => row.job_id === id)).toEqual([
      { kind: 'debit', amount: -4, job_id: id },
      { kind: 'debit', amount: -4, job_id: id },
    ]);
    // The saving is a refund row of its own, naming the job in its reason (its one job_id refund is its cancel's).
    expect(rows.at(-1)).toEqual({ kind: 'refund', amount: 4, job_id: null });

    // Refused as a new request would be, changing nothing.
    const unknown = await edit(user, id, { option: 'NoSuchModel' });
    expect(unknown.status).toBe(400);
    expect(unknown.body?.detail).toBe(DETAILS.unknownModel('NoSuchModel', 'Text to Image'));
    expect((await edit(user, id, { prompt: '' })).status).toBe(400);
    expect((await edit(user, id, { seed: 3 })).status).toBe(400);
    expect(await balanceOf(server, user.sub)).toBe(start - 12);

    // Cancelled after the edits: what it costs now comes back, and the ledger nets to nothing.
    for (const job of [runA, runB, id]) expect((await cancel(user, job ?? '')).status).toBe(200);
    expect(await balanceOf(server, user.sub)).toBe(start);
  });

  it('changes a waiting speech job’s voice and a sound’s duration, refused where a new request would be', async () => {
    const user = await newUser('voices');
    const [runA, runB] = await fillUp(user, 'voices', 2);
    const queue = async (endpoint: string, fields: Record<string, string>): Promise<string> => {
      const answer = await postForm(server, endpoint, fields, { token: user.accessToken });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return asMedia(answer).id;
    };
    const speech = await queue('audio/text-2-speech', { prompt: 'Hello from the harbour', option: 'Text2Speech', voice: 'Roger' });
    const sound = await queue('audio/text-2-sound-effect', { prompt: 'rain on a tin roof', option: 'Text2Audio', duration: '5' });
    await eventually(sound, { status: 'queue_source', queue_position: 2 });

    expect(asMedia(await edit(user, speech, { voice: 'Matilda' }))).toMatchObject({ args: { voice: 'Matilda', prompt: 'Hello from the harbour' } });
    expect(asMedia(await edit(user, sound, { duration: 12 }))).toMatchObject({ args: { prompt: 'rain on a tin roof' } });
    expect(Number(asMedia(await callApi(server, `media/${sound}`, { token: user.accessToken })).args.duration)).toBe(12);
    expect((await edit(user, speech, { voice: 'Nobody' })).status).toBe(400);
    expect((await edit(user, sound, { duration: 45 })).status).toBe(400);
    expect(Number(asMedia(await callApi(server, `media/${sound}`, { token: user.accessToken })).args.duration)).toBe(12);
    for (const job of [runA, runB, speech, sound]) expect((await cancel(user, job ?? '')).status).toBe(200);
  });

  it('answers 402 when the difference is more than the balance, and changes nothing', async () => {
    const user = await newUser('short');
    const [runA, runB, waiting] = await fillUp(user, 'short', 3);
    // Spend all but 2 credits of the grant (100 − 12 for the three jobs).
    await server.db.query(`INSERT INTO credit_ledger (user_sub, amount, kind, reason) VALUES ($1, -86, 'debit', 'test spend')`, [user.sub]);
    const refused = await edit(user, waiting ?? '', { option: 'Flux1.1ProUltra' });
    expect(refused.status).toBe(402);
    expect(refused.body?.detail).toBe(DETAILS.notEnoughCredits(4, 2));
    const row = asMedia(await callApi(server, `media/${waiting}`, { token: user.accessToken }));
    expect(row).toMatchObject({ option: 'Seedream', cost: 4 });
    for (const job of [runA, runB, waiting]) await cancel(user, job ?? '');
  });
});
