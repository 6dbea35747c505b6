import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { RECENT_JOBS_LIMIT, RESUBMIT_WINDOW_MS, STORAGE_KEYS } from '@/config/limits';
import { MESSAGES } from '@/config/messages';
import { readStored, writeStored } from '@/services/storage';
import type { StoredJob } from '@/services/schemas/stored-jobs';
import { selectJobView } from '@/machines/generation-job/generation-job.selectors';
import { JOB_TEXTS } from '@/config/job-texts';
import { jobsMachine, storableFields } from '@/machines/jobs/jobs.machine';
import type { JobRequest, JobsEmitted } from '@/machines/jobs/jobs.machine';
import { selectJobEntries, selectLiveCount } from '@/machines/jobs/jobs.selectors';
import {
  CREATOR,
  buildJobInput,
  setUpJobServer,
  buildMedia,
  buildStatus,
  flush,
  jobMachineFor,
  networkError,
} from '../generation-job/generation-job.fixtures';

const server = setUpJobServer();

// The request of the job fixture, as a tool page sends it to the registry.
const { tool, toolTitle, option, optionLabel, endpoint, cost, fields } = buildJobInput();
const REQUEST: JobRequest = { tool, toolTitle, option, optionLabel, endpoint, cost, fields: fields ?? {} };

function storedJob(overrides: Partial<StoredJob> = {}): StoredJob {
  return {
    localId: 'job-stored',
    mediaId: null,
    tool: 'text-to-image',
    toolTitle: 'Text to Image',
    option: 'Seedream',
    optionLabel: 'Seedream',
    endpoint: 'image/text-2-image',
    cost: 4,
    idempotencyKey: 'stored-key',
    fields: null,
    assetId: null,
    createdAt: Date.now(),
    outcome: null,
    finishedAt: null,
    refunded: false,
    error: null,
    ...overrides,
  };
}

/** A registry as the app runs it, its jobs' calls answered by `server`; emitted events collected. */
function startRegistry(options: { hidden?: boolean } = {}) {
  const actor = createActor(jobsMachine.provide({ actors: { generationJob: jobMachineFor(server) } }), {
    input: { hidden: options.hidden },
  });
  const emitted: JobsEmitted[] = [];
  actor.on('*', (event) => emitted.push(event));
  actor.start();
  return { actor, emitted };
}

const signIn = (actor: ReturnType<typeof startRegistry>['actor'], userId = 'user-1') => {
  actor.send({ type: 'jobs.userChanged', userId, user: CREATOR });
  actor.send({ type: 'jobs.creditChanged', credit: 100 });
};

/** The job actors the registry runs (its storage watcher left out). */
/** The registry's own actors (storage, page and account watchers); every other child is a job. */
const REGISTRY_ACTORS = ['watchStorage', 'watchPage', 'account'];

const jobChildren = (actor: { getSnapshot: () => { children: object } }): string[] =>
  Object.keys(actor.getSnapshot().children).filter((id) => !REGISTRY_ACTORS.includes(id));

const storedFor = (userId = 'user-1') => readStored(STORAGE_KEYS.jobs)?.[userId] ?? [];

describe('submitting a job', () => {
  it('spawns one job actor, keeps its key and fields until the server answers, then the media id', async () => {
    server.poll.mockResolvedValue(buildStatus({ status: 'success_image' }));
    const { actor, emitted } = startRegistry();
    signIn(actor);
    actor.send({ type: 'jobs.submit', request: { ...REQUEST, assetId: 'asset-1' } });

    const [entry] = selectJobEntries(actor.getSnapshot());
    expect(entry?.ref?.id).toBe(entry?.localId);
    expect(entry?.stored).toMatchObject({ mediaId: null, fields: REQUEST.fields, assetId: 'asset-1', outcome: null });
    expect(entry?.stored.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(storedFor()).toEqual([entry?.stored]);
    expect(selectLiveCount(actor.getSnapshot())).toBe(1);

    await flush();
    expect(server.submit).toHaveBeenCalledWith(expect.objectContaining({ idempotencyKey: entry?.stored.idempotencyKey, assetId: 'asset-1' }));
    expect(storedFor()[0]).toMatchObject({ mediaId: 'media-1', fields: null });
    expect(emitted).toEqual([{ type: 'jobs.creditsChanged' }]);

    await vi.advanceTimersByTimeAsync(1000);
    expect(selectLiveCount(actor.getSnapshot())).toBe(0);
    expect(storedFor()[0]).toMatchObject({ outcome: 'succeeded', finishedAt: Date.now(), mediaId: 'media-1' });
    expect(emitted.at(-1)).toEqual({
      type: 'jobs.finished',
      localId: entry?.localId,
      tool: 'text-to-image',
      toolTitle: 'Text to Image',
      optionLabel: 'Seedream',
      outcome: 'succeeded',
      refunded: false,
      error: null,
      mediaId: 'media-1',
    });
    // The finished job's actor stays readable for its result.
    expect(selectJobView(entry!.ref!.getSnapshot()).media?.status).toBe('success_image');
  });

  it('asks for a credits refresh after a refund', async () => {
    server.poll.mockResolvedValue(buildStatus({ status: 'nsfw' }));
    server.fetch.mockResolvedValue(buildMedia({ status: 'nsfw', refunded: true }));
    const { actor, emitted } = startRegistry();
    signIn(actor);
    actor.send({ type: 'jobs.submit', request: REQUEST });
    await flush();
    await vi.advanceTimersByTimeAsync(1000);
    expect(emitted.map((event) => event.type)).toEqual(['jobs.creditsChanged', 'jobs.finished', 'jobs.creditsChanged']);
    expect(emitted[1]).toMatchObject({ outcome: 'nsfw', refunded: true, error: JOB_TEXTS.nsfw });
  });

  it('a denied job is reported finished and never sent', async () => {
    const { actor, emitted } = startRegistry();
    actor.send({ type: 'jobs.userChanged', userId: 'user-1', user: CREATOR });
    actor.send({ type: 'jobs.creditChanged', credit: 1 });
    actor.send({ type: 'jobs.submit', request: REQUEST });
    await flush();
    expect(server.submit).not.toHaveBeenCalled();
    expect(emitted).toEqual([expect.objectContaining({ type: 'jobs.finished', outcome: 'denied', error: JOB_TEXTS.notEnoughCredits(4, 1) })]);
  });

  it('does not store fields that hold a file', () => {
    const file = new File(['x'], 'a.png', { type: 'image/png' });
    expect(storableFields({ prompt: 'a', image_file: file })).toBeNull();
    expect(storableFields({ storyboard: { a: 1 } })).toBeNull();
    expect(storableFields({ prompt: 'a', n: 2, flag: false, image_urls: ['u1', 'u2'], none: null, gone: undefined })).toEqual({
      prompt: 'a',
      n: 2,
      flag: false,
      image_urls: ['u1', 'u2'],
    });
  });

  it('keeps jobs per user and other users’ lists untouched', () => {
    writeStored(STORAGE_KEYS.jobs, { 'user-2': [storedJob({ outcome: 'succeeded', finishedAt: 5, mediaId: 'm-2' })] });
    const { actor } = startRegistry();
    signIn(actor);
    actor.send({ type: 'jobs.submit', request: REQUEST });
    expect(readStored(STORAGE_KEYS.jobs)?.['user-2']).toHaveLength(1);
    expect(storedFor()).toHaveLength(1);
  });
});

describe('resume after a reload', () => {
  it('a new registry resumes polling the stored live job, with one actor per media', async () => {
    server.poll.mockResolvedValue(buildStatus({ status: 'processing_source', progress: 30 }));
    const first = startRegistry();
    signIn(first.actor);
    first.actor.send({ type: 'jobs.submit', request: REQUEST });
    await flush();
    const localId = selectJobEntries(first.actor.getSnapshot())[0]!.localId;
    // The page goes away mid-job.
    first.actor.stop();
    server.poll.mockClear();
    server.submit.mockClear();

    const second = startRegistry();
    signIn(second.actor);
    const entries = selectJobEntries(second.actor.getSnapshot());
    expect(entries.map((entry) => entry.localId)).toEqual([localId]);
    expect(jobChildren(second.actor)).toEqual([localId]);
    await flush();
    expect(server.submit).not.toHaveBeenCalled();
    expect(server.poll).toHaveBeenCalledWith('media-1');
    expect(selectJobView(entries[0]!.ref!.getSnapshot())).toMatchObject({ phase: 'processing', progress: 30 });

    // The same user again (a token refresh, a second tab's message): nothing is spawned twice.
    second.actor.send({ type: 'jobs.userChanged', userId: 'user-1', user: CREATOR });
    expect(jobChildren(second.actor)).toEqual([localId]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.poll).toHaveBeenCalledTimes(2);
  });

  it('never spawns two actors for one media id found twice in storage', async () => {
    writeStored(STORAGE_KEYS.jobs, {
      'user-1': [storedJob({ localId: 'a', mediaId: 'media-1' }), storedJob({ localId: 'b', mediaId: 'media-1' })],
    });
    const { actor } = startRegistry();
    signIn(actor);
    expect(selectJobEntries(actor.getSnapshot()).map((entry) => entry.localId)).toEqual(['a']);
    expect(jobChildren(actor)).toEqual(['a']);
    await flush();
    expect(server.poll).toHaveBeenCalledTimes(1);
  });

  it('re-sends a request that was never answered with the same key and fields', async () => {
    const fields = { prompt: 'a red fox', option: 'Seedream' };
    writeStored(STORAGE_KEYS.jobs, {
      'user-1': [storedJob({ fields, idempotencyKey: 'kept-key', createdAt: Date.now() - RESUBMIT_WINDOW_MS })],
    });
    const { actor } = startRegistry();
    // Credits are not known yet after a reload: the re-send does not wait for them.
    actor.send({ type: 'jobs.userChanged', userId: 'user-1', user: CREATOR });
    await flush();
    expect(server.submit).toHaveBeenCalledWith({ endpoint: 'image/text-2-image', fields, idempotencyKey: 'kept-key', assetId: null });
    expect(storedFor()[0]).toMatchObject({ mediaId: 'media-1', fields: null });
  });

  it('does not re-send a request older than RESUBMIT_WINDOW_MS: it is marked interrupted', async () => {
    const fields = { prompt: 'a red fox', option: 'Seedream' };
    writeStored(STORAGE_KEYS.jobs, {
      'user-1': [storedJob({ fields, idempotencyKey: 'old-key', createdAt: Date.now() - RESUBMIT_WINDOW_MS - 1 })],
    });
    const { actor } = startRegistry();
    signIn(actor);
    await flush();
    expect(server.submit).not.toHaveBeenCalled();
    const [entry] = selectJobEntries(actor.getSnapshot());
    expect(entry?.ref).toBeNull();
    expect(entry?.stored).toMatchObject({ outcome: 'failed', error: JOB_TEXTS.interrupted, fields: null });
    expect(jobChildren(actor)).toEqual([]);
  });

  it('marks a live job with neither media id nor fields as interrupted', () => {
    writeStored(STORAGE_KEYS.jobs, { 'user-1': [storedJob()] });
    const { actor } = startRegistry();
    signIn(actor);
    const [entry] = selectJobEntries(actor.getSnapshot());
    expect(entry?.ref).toBeNull();
    expect(entry?.stored).toMatchObject({ outcome: 'failed', error: JOB_TEXTS.interrupted, finishedAt: Date.now() });
    expect(storedFor()[0]?.outcome).toBe('failed');
    expect(selectLiveCount(actor.getSnapshot())).toBe(0);
  });

  it('lists finished jobs without actors, keeping the newest RECENT_JOBS_LIMIT', () => {
    const finished = Array.from({ length: RECENT_JOBS_LIMIT + 5 }, (_, index) =>
      storedJob({ localId: `done-${index}`, mediaId: `m-${index}`, outcome: 'succeeded', finishedAt: 100 - index }),
    );
    writeStored(STORAGE_KEYS.jobs, { 'user-1': [storedJob({ localId: 'live', mediaId: 'm-live' }), ...finished] });
    const { actor } = startRegistry();
    signIn(actor);
    const entries = selectJobEntries(actor.getSnapshot());
    expect(entries).toHaveLength(RECENT_JOBS_LIMIT + 1);
    expect(entries[0]?.localId).toBe('live');
    expect(entries.at(-1)?.localId).toBe(`done-${RECENT_JOBS_LIMIT - 1}`);
    expect(entries.filter((entry) => entry.ref !== null).map((entry) => entry.localId)).toEqual(['live']);
    expect(storedFor()).toHaveLength(RECENT_JOBS_LIMIT + 1);
  });

  it('trims finished jobs beyond the limit as new ones finish', async () => {
    const finished = Array.from({ length: RECENT_JOBS_LIMIT }, (_, index) =>
      storedJob({ localId: `done-${index}`, mediaId: `m-${index}`, outcome: 'succeeded', finishedAt: 100 - index }),
    );
    writeStored(STORAGE_KEYS.jobs, { 'user-1': finished });
    server.submit.mockResolvedValue(buildMedia({ status: 'success_image', id: 'new' }));
    const { actor } = startRegistry();
    signIn(actor);
    actor.send({ type: 'jobs.submit', request: REQUEST });
    await flush();
    const entries = selectJobEntries(actor.getSnapshot());
    expect(entries).toHaveLength(RECENT_JOBS_LIMIT);
    expect(entries[0]?.stored.mediaId).toBe('new');
    expect(entries.map((entry) => entry.localId)).not.toContain(`done-${RECENT_JOBS_LIMIT - 1}`);
  });
});

describe('one actor per media id', () => {
  it('stops the second of two jobs the server answers with the same media', async () => {
    const fields = { prompt: 'twice' };
    writeStored(STORAGE_KEYS.jobs, {
      'user-1': [storedJob({ localId: 'a', fields, idempotencyKey: 'same' }), storedJob({ localId: 'b', fields, idempotencyKey: 'same' })],
    });
    const { actor } = startRegistry();
    signIn(actor);
    expect(jobChildren(actor).sort()).toEqual(['a', 'b']);
    await flush();
    expect(selectJobEntries(actor.getSnapshot()).map((entry) => entry.localId)).toEqual(['a']);
    expect(jobChildren(actor)).toEqual(['a']);
    expect(storedFor().map((job) => job.localId)).toEqual(['a']);
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.poll).toHaveBeenCalledTimes(1);
  });
});

describe('bounded memory', () => {
  it('stops the actor of every finished job trimmed away or dismissed', async () => {
    let created = 0;
    server.submit.mockImplementation(async () => buildMedia({ id: `media-${(created += 1)}`, status: 'success_image' }));
    const { actor } = startRegistry();
    signIn(actor);
    for (let index = 0; index < RECENT_JOBS_LIMIT + 5; index += 1) {
      actor.send({ type: 'jobs.submit', request: REQUEST });
      await flush();
    }
    expect(selectJobEntries(actor.getSnapshot())).toHaveLength(RECENT_JOBS_LIMIT);
    expect(jobChildren(actor)).toHaveLength(RECENT_JOBS_LIMIT);

    const [newest] = selectJobEntries(actor.getSnapshot());
    actor.send({ type: 'jobs.dismiss', localId: newest!.localId });
    expect(jobChildren(actor)).not.toContain(newest!.localId);
    expect(jobChildren(actor)).toHaveLength(RECENT_JOBS_LIMIT - 1);
  });
});

describe('storage robustness', () => {
  it('skips a bad stored entry without losing the good ones or other users’ lists', () => {
    window.localStorage.setItem(
      STORAGE_KEYS.jobs,
      JSON.stringify({
        'user-1': [storedJob({ localId: 'good', mediaId: 'm-1', outcome: 'succeeded', finishedAt: 5 }), { localId: 'bad', cost: 'lots' }],
        'user-2': [storedJob({ localId: 'theirs', mediaId: 'm-2', outcome: 'failed', finishedAt: 2 })],
        'user-3': 'not a list',
      }),
    );
    const { actor } = startRegistry();
    signIn(actor);
    expect(selectJobEntries(actor.getSnapshot()).map((entry) => entry.localId)).toEqual(['good']);
    expect(readStored(STORAGE_KEYS.jobs)?.['user-2']?.map((job) => job.localId)).toEqual(['theirs']);
  });
});

describe('two tabs', () => {
  const otherTabWrites = (jobs: StoredJob[], userId = 'user-1') => {
    const all = readStored(STORAGE_KEYS.jobs) ?? {};
    writeStored(STORAGE_KEYS.jobs, { ...all, [userId]: jobs });
    window.dispatchEvent(new StorageEvent('storage', { key: STORAGE_KEYS.jobs }));
  };

  it('lists another tab’s jobs, polls its live one once, and never drops them when writing', async () => {
    server.poll.mockResolvedValue(buildStatus({ status: 'processing_source', progress: 10 }));
    const { actor } = startRegistry();
    signIn(actor);
    actor.send({ type: 'jobs.submit', request: REQUEST });
    await flush();
    const ownId = selectJobEntries(actor.getSnapshot())[0]!.localId;

    const theirs = [
      storedJob({ localId: 'their-live', mediaId: 'm-other', createdAt: Date.now() + 1 }),
      storedJob({ localId: 'their-sending', fields: { prompt: 'x' }, createdAt: Date.now() + 2 }),
      storedJob({ localId: 'their-done', mediaId: 'm-done', outcome: 'succeeded', finishedAt: 9 }),
      // The same media this tab already watches: no second actor.
      storedJob({ localId: 'their-twin', mediaId: 'media-1' }),
    ];
    otherTabWrites([...theirs, ...storedFor()]);
    const ids = selectJobEntries(actor.getSnapshot()).map((entry) => entry.localId);
    expect(ids).toEqual(expect.arrayContaining([ownId, 'their-live', 'their-done']));
    expect(ids).not.toContain('their-sending');
    expect(ids).not.toContain('their-twin');
    expect(jobChildren(actor).sort()).toEqual([ownId, 'their-live'].sort());
    await flush();
    expect(server.submit).toHaveBeenCalledTimes(1);
    expect(server.poll).toHaveBeenCalledWith('m-other');

    // The same change told twice spawns nothing more.
    window.dispatchEvent(new StorageEvent('storage', { key: STORAGE_KEYS.jobs }));
    expect(jobChildren(actor)).toHaveLength(2);

    // This tab writes (a new job): what the other tab stored stays, even the one it is sending.
    actor.send({ type: 'jobs.submit', request: REQUEST });
    expect(storedFor().map((job) => job.localId)).toEqual(
      expect.arrayContaining([ownId, 'their-live', 'their-sending', 'their-done', 'their-twin']),
    );
  });

  it('ignores other keys and a signed-out tab', () => {
    const { actor } = startRegistry();
    writeStored(STORAGE_KEYS.jobs, { 'user-1': [storedJob({ localId: 'x', mediaId: 'm', outcome: 'succeeded', finishedAt: 1 })] });
    window.dispatchEvent(new StorageEvent('storage', { key: STORAGE_KEYS.jobs }));
    expect(selectJobEntries(actor.getSnapshot())).toEqual([]);
    signIn(actor);
    expect(selectJobEntries(actor.getSnapshot())).toHaveLength(1);
    otherTabWrites([]);
    window.dispatchEvent(new StorageEvent('storage', { key: 'something_else' }));
    // Another tab's dismissal does not remove it here.
    expect(selectJobEntries(actor.getSnapshot())).toHaveLength(1);
  });
});

describe('users', () => {
  it('keeps the balance across a user switch (the credits actor may not send it again)', async () => {
    const { actor } = startRegistry();
    signIn(actor);
    actor.send({ type: 'jobs.userChanged', userId: 'user-2', user: CREATOR });
    actor.send({ type: 'jobs.submit', request: REQUEST });
    await flush();
    expect(server.submit).toHaveBeenCalledTimes(1);
  });

  it('a signed-out denial says so, not "not enough credits"', async () => {
    const { actor, emitted } = startRegistry();
    actor.send({ type: 'jobs.userChanged', userId: 'user-1', user: null });
    actor.send({ type: 'jobs.creditChanged', credit: 100 });
    actor.send({ type: 'jobs.submit', request: REQUEST });
    await flush();
    expect(emitted).toEqual([expect.objectContaining({ type: 'jobs.finished', outcome: 'denied', error: MESSAGES.notAuthenticated })]);
  });

  it('signing out stops every job and clears the list; signing back in resumes', async () => {
    const { actor } = startRegistry();
    signIn(actor);
    actor.send({ type: 'jobs.submit', request: REQUEST });
    await flush();
    actor.send({ type: 'jobs.userChanged', userId: null, user: null });
    expect(selectJobEntries(actor.getSnapshot())).toEqual([]);
    expect(jobChildren(actor)).toEqual([]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.poll).not.toHaveBeenCalled();
    expect(storedFor()).toHaveLength(1);

    signIn(actor);
    await flush();
    expect(server.poll).toHaveBeenCalledTimes(1);
  });

  it('another user gets their own list', () => {
    writeStored(STORAGE_KEYS.jobs, { 'user-2': [storedJob({ localId: 'theirs', mediaId: 'm-2', outcome: 'failed', finishedAt: 2 })] });
    const { actor } = startRegistry();
    signIn(actor);
    actor.send({ type: 'jobs.submit', request: REQUEST });
    signIn(actor, 'user-2');
    expect(selectJobEntries(actor.getSnapshot()).map((entry) => entry.localId)).toEqual(['theirs']);
    expect(jobChildren(actor)).toEqual([]);
  });
});

describe('forwarding to the jobs', () => {
  it('pauses every live job while hidden and polls at once when shown', async () => {
    let created = 0;
    server.submit.mockImplementation(async () => buildMedia({ id: `media-${(created += 1)}` }));
    const { actor } = startRegistry();
    signIn(actor);
    actor.send({ type: 'jobs.submit', request: REQUEST });
    actor.send({ type: 'jobs.submit', request: { ...REQUEST, tool: 'text-to-speech' } });
    await flush();
    actor.send({ type: 'jobs.visibility', hidden: true });
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(server.poll).not.toHaveBeenCalled();
    // A job submitted while hidden starts paused too.
    actor.send({ type: 'jobs.submit', request: REQUEST });
    await flush();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.poll).not.toHaveBeenCalled();

    actor.send({ type: 'jobs.visibility', hidden: false });
    await flush();
    expect(server.poll.mock.calls.map(([mediaId]) => mediaId).sort()).toEqual(['media-1', 'media-2', 'media-3']);
  });

  it('sends online to reconnecting jobs, which retry at once', async () => {
    server.submit.mockRejectedValueOnce(networkError());
    const { actor } = startRegistry();
    signIn(actor);
    actor.send({ type: 'jobs.submit', request: REQUEST });
    await flush();
    expect(server.submit).toHaveBeenCalledTimes(1);
    actor.send({ type: 'jobs.online' });
    await flush();
    expect(server.submit).toHaveBeenCalledTimes(2);
  });

  it('cancels a job by its local id', async () => {
    const { actor, emitted } = startRegistry();
    signIn(actor);
    actor.send({ type: 'jobs.submit', request: REQUEST });
    await flush();
    const localId = selectJobEntries(actor.getSnapshot())[0]!.localId;
    actor.send({ type: 'jobs.cancel', localId });
    await flush();
    expect(server.cancel).toHaveBeenCalledWith('media-1');
    expect(emitted.at(-2)).toMatchObject({ type: 'jobs.finished', outcome: 'cancelled', refunded: true });
    expect(emitted.at(-1)).toEqual({ type: 'jobs.creditsChanged' });
    // Cancelling an ended or unknown job does nothing.
    actor.send({ type: 'jobs.cancel', localId });
    actor.send({ type: 'jobs.cancel', localId: 'nope' });
    await flush();
    expect(server.cancel).toHaveBeenCalledTimes(1);
  });

  it('dismisses finished jobs only', async () => {
    const { actor } = startRegistry();
    signIn(actor);
    actor.send({ type: 'jobs.submit', request: REQUEST });
    await flush();
    const localId = selectJobEntries(actor.getSnapshot())[0]!.localId;
    actor.send({ type: 'jobs.dismiss', localId });
    expect(selectJobEntries(actor.getSnapshot())).toHaveLength(1);
    actor.send({ type: 'jobs.cancel', localId });
    await flush();
    actor.send({ type: 'jobs.dismiss', localId });
    expect(selectJobEntries(actor.getSnapshot())).toEqual([]);
    expect(storedFor()).toEqual([]);
  });
});

describe('selectors', () => {
  it('selectJobEntries is stable and selectLiveCount counts the live jobs', () => {
    const { actor } = startRegistry();
    signIn(actor);
    actor.send({ type: 'jobs.submit', request: REQUEST });
    actor.send({ type: 'jobs.submit', request: { ...REQUEST, tool: 'text-to-speech' } });
    const snapshot = actor.getSnapshot();
    expect(selectJobEntries(snapshot)).toBe(selectJobEntries(snapshot));
    expect(selectLiveCount(snapshot)).toBe(2);
  });
});
