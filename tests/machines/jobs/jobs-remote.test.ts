import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { STORAGE_KEYS } from '@/config/limits';
import { readStored, writeStored } from '@/services/storage';
import type { Media } from '@/services/schemas/media';
import { selectJobView } from '@/machines/generation-job/generation-job.selectors';
import { jobsMachine } from '@/machines/jobs/jobs.machine';
import type { JobRequest, JobsEmitted } from '@/machines/jobs/jobs.machine';
import { remoteLocalId, SERVER_JOBS_SYNC } from '@/machines/jobs/jobs-remote';
import { selectJobEntries, selectLiveCount } from '@/machines/jobs/jobs.selectors';
import { CREATOR, buildJobInput, buildMedia, buildStatus, flush, jobMachineFor, setUpJobServer } from '../generation-job/generation-job.fixtures';

const server = setUpJobServer();

/** Another device's job as GET media?status=live lists it: Flux 1.1 Pro on Text to Image, running. */
const otherDevicesJob = (overrides: Partial<Media> = {}): Media =>
  buildMedia({
    id: 'media-remote',
    option: 'Flux1.1Pro',
    cost: 4,
    status: 'processing_source',
    progress: 30,
    created_at: '2025-01-01T09:59:00.000Z',
    args: { prompt: 'a fox on another laptop', option: 'Flux1.1Pro' },
    ...overrides,
  });

/**
 * A registry that asks the server (`searchLiveJobs` answered by `liveJobs`, each call recorded
 * with the user it was asked for), its jobs' calls answered by `server`.
 */
function startRegistry(liveJobs: () => Media[] | Promise<Media[]>, options: { remoteSync?: boolean } = {}) {
  const searches: string[] = [];
  const machine = jobsMachine.provide({
    actors: {
      generationJob: jobMachineFor(server),
      searchLiveJobs: fromPromise<{ userId: string; items: Media[] }, { userId: string }>(async ({ input }) => {
        searches.push(input.userId);
        return { userId: input.userId, items: await liveJobs() };
      }),
    },
  });
  const actor = createActor(machine, { input: { remoteSync: options.remoteSync ?? true } });
  const emitted: JobsEmitted[] = [];
  actor.on('*', (event) => emitted.push(event));
  actor.start();
  return { actor, searches, emitted };
}

type Registry = ReturnType<typeof startRegistry>['actor'];

const signIn = (actor: Registry, userId = 'user-1') => {
  actor.send({ type: 'jobs.userChanged', userId, user: CREATOR });
  actor.send({ type: 'jobs.creditChanged', credit: 100 });
};

const entries = (actor: Registry) => selectJobEntries(actor.getSnapshot());
const storedFor = (userId = 'user-1') => readStored(STORAGE_KEYS.jobs)?.[userId] ?? [];

describe("the jobs registry and the person's jobs on other devices", () => {
  it('adds a running job of another device once, resumed by its media id, named as its tool page names it', async () => {
    server.poll.mockResolvedValue(buildStatus({ id: 'media-remote', status: 'processing_source', progress: 55 }));
    const { actor, searches } = startRegistry(() => [otherDevicesJob()]);
    signIn(actor);
    await flush();

    expect(searches).toEqual(['user-1']);
    const [entry] = entries(actor);
    expect(entries(actor)).toHaveLength(1);
    expect(entry?.localId).toBe(remoteLocalId('media-remote'));
    expect(entry?.stored).toMatchObject({
      mediaId: 'media-remote',
      tool: 'text-to-image',
      toolTitle: 'Text to Image',
      option: 'Flux1.1Pro',
      optionLabel: 'Flux 1.1 Pro',
      fields: null,
      outcome: null,
    });
    // Its actor polls it (live progress), never submits it again.
    expect(server.submit).not.toHaveBeenCalled();
    expect(server.poll).toHaveBeenCalledWith('media-remote');
    expect(selectJobView(entry!.ref!.getSnapshot()).progress).toBe(55);
    expect(selectLiveCount(actor.getSnapshot())).toBe(1);
    // Kept like any job, so a reload resumes it too.
    expect(storedFor()).toEqual([entry?.stored]);

    // Shown again: the server lists it again, and it is not doubled.
    actor.send({ type: 'jobs.visibility', hidden: true });
    actor.send({ type: 'jobs.visibility', hidden: false });
    await flush();
    expect(searches).toEqual(['user-1', 'user-1']);
    expect(entries(actor).map((job) => job.localId)).toEqual([remoteLocalId('media-remote')]);
  });

  it('can cancel a job of another device like its own', async () => {
    const { actor } = startRegistry(() => [otherDevicesJob()]);
    signIn(actor);
    await flush();
    actor.send({ type: 'jobs.cancel', localId: remoteLocalId('media-remote') });
    await flush();
    expect(server.cancel).toHaveBeenCalledWith('media-remote');
    expect(entries(actor)[0]?.stored).toMatchObject({ outcome: 'cancelled', refunded: true });
  });

  it('does not double a job it lists already (stored by this browser), nor add an ended one', async () => {
    writeStored(STORAGE_KEYS.jobs, {
      'user-1': [
        {
          localId: 'job-mine',
          mediaId: 'media-mine',
          tool: 'text-to-image',
          toolTitle: 'Text to Image',
          option: 'Seedream',
          optionLabel: 'Seedream',
          endpoint: 'image/text-2-image',
          cost: 4,
          idempotencyKey: 'key-mine',
          fields: null,
          assetId: null,
          createdAt: Date.now(),
          outcome: null,
          finishedAt: null,
          refunded: false,
          error: null,
        },
      ],
    });
    const { actor } = startRegistry(() => [
      otherDevicesJob({ id: 'media-mine' }),
      otherDevicesJob({ id: 'media-ended', status: 'success_image', progress: 100 }),
    ]);
    signIn(actor);
    await flush();
    expect(entries(actor).map((job) => job.localId)).toEqual(['job-mine']);
  });

  it('keeps the job this page sent when the server listed it before the submit was answered', async () => {
    let answer: (media: Media) => void = () => undefined;
    server.submit.mockImplementation(() => new Promise<Media>((resolve) => (answer = resolve)));
    const { actor } = startRegistry(() => [otherDevicesJob({ id: 'media-1' })]);
    signIn(actor);
    const { tool, toolTitle, option, optionLabel, endpoint, cost, fields } = buildJobInput();
    const request: JobRequest = { tool, toolTitle, option, optionLabel, endpoint, cost, fields: fields ?? {} };
    actor.send({ type: 'jobs.submit', request });
    await flush();
    expect(entries(actor)).toHaveLength(2);

    answer(buildMedia({ id: 'media-1' }));
    await flush();
    const [kept] = entries(actor);
    expect(entries(actor)).toHaveLength(1);
    expect(kept?.localId).toMatch(/^job-(?!remote)/);
    expect(kept?.stored.mediaId).toBe('media-1');
  });

  it('asks again every SERVER_JOBS_SYNC.intervalMs while a job of another device is listed, and not once none is', async () => {
    let live = [otherDevicesJob()];
    const { actor, searches } = startRegistry(() => live);
    signIn(actor);
    await flush();
    expect(searches).toHaveLength(1);

    // A second job started on the other device meanwhile.
    live = [otherDevicesJob(), otherDevicesJob({ id: 'media-remote-2', created_at: '2025-01-01T09:59:30.000Z' })];
    await vi.advanceTimersByTimeAsync(SERVER_JOBS_SYNC.intervalMs);
    expect(searches).toHaveLength(2);
    expect(entries(actor).map((job) => job.stored.mediaId)).toEqual(['media-remote-2', 'media-remote']);

    // Both end (their actors find out by polling); the next ask finds none running: no more asking.
    server.poll.mockResolvedValue(buildStatus({ status: 'success_image', progress: 100 }));
    live = [];
    await vi.advanceTimersByTimeAsync(SERVER_JOBS_SYNC.intervalMs);
    expect(selectLiveCount(actor.getSnapshot())).toBe(0);
    const asked = searches.length;
    await vi.advanceTimersByTimeAsync(SERVER_JOBS_SYNC.intervalMs * 3);
    expect(searches).toHaveLength(asked);
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('does not ask while the page is hidden; asks when it is shown again', async () => {
    const { actor, searches } = startRegistry(() => [otherDevicesJob()]);
    signIn(actor);
    await flush();
    actor.send({ type: 'jobs.visibility', hidden: true });
    await vi.advanceTimersByTimeAsync(SERVER_JOBS_SYNC.intervalMs * 2);
    expect(searches).toHaveLength(1);
    actor.send({ type: 'jobs.visibility', hidden: false });
    await flush();
    expect(searches).toHaveLength(2);
  });

  it('signed out: asks nothing and lists none; signing out drops the previous person’s jobs and a late answer', async () => {
    let release: (jobs: Media[]) => void = () => undefined;
    const { actor, searches } = startRegistry(() => new Promise<Media[]>((resolve) => (release = resolve)));
    actor.send({ type: 'jobs.visibility', hidden: false });
    await flush();
    expect(searches).toEqual([]);

    signIn(actor);
    await flush();
    expect(searches).toEqual(['user-1']);
    actor.send({ type: 'jobs.userChanged', userId: null, user: null });
    release([otherDevicesJob()]);
    await flush();
    expect(entries(actor)).toEqual([]);
    expect(actor.getSnapshot().value).toBe('off');
    expect(Object.keys(actor.getSnapshot().children).filter((id) => id.startsWith('job-'))).toEqual([]);
  });

  it('the shared guest account asks nothing: its jobs on the server are every guest’s', async () => {
    const { actor, searches } = startRegistry(() => [otherDevicesJob()]);
    actor.send({ type: 'jobs.userChanged', userId: 'guest-id', user: CREATOR, guest: true });
    actor.send({ type: 'jobs.visibility', hidden: false });
    await flush();
    expect(searches).toEqual([]);
    expect(entries(actor)).toEqual([]);
  });

  it('a registry linked to no session asks nothing unless told', async () => {
    const { actor, searches } = startRegistry(() => [otherDevicesJob()], { remoteSync: false });
    signIn(actor);
    await flush();
    expect(searches).toEqual([]);
    expect(entries(actor)).toEqual([]);
  });

  it('a failed ask is silent: nothing listed, asked again when the page is shown again', async () => {
    let fail = true;
    const { actor, searches } = startRegistry(() => {
      if (fail) throw new Error('Network error');
      return [otherDevicesJob()];
    });
    signIn(actor);
    await flush();
    expect(entries(actor)).toEqual([]);
    fail = false;
    actor.send({ type: 'jobs.visibility', hidden: false });
    await flush();
    expect(searches).toHaveLength(2);
    expect(entries(actor)).toHaveLength(1);
  });

  it('jobs.track adds a job the server started for this page (a re-run) and refreshes the balance', async () => {
    const { actor, emitted } = startRegistry(() => []);
    signIn(actor);
    await flush();
    const rerun = buildMedia({ id: 'media-rerun', status: 'queue_source', option: 'Seedream' });
    actor.send({ type: 'jobs.track', media: rerun });
    actor.send({ type: 'jobs.track', media: rerun });
    const tracked = entries(actor);
    expect(tracked).toHaveLength(1);
    expect(tracked[0]?.localId).toMatch(/^job-(?!remote)/);
    expect(tracked[0]?.stored).toMatchObject({ mediaId: 'media-rerun', toolTitle: 'Text to Image', optionLabel: 'Seedream' });
    expect(emitted.filter((event) => event.type === 'jobs.creditsChanged')).toHaveLength(1);
    await flush();
    expect(server.poll).toHaveBeenCalledWith('media-rerun');
  });
});
