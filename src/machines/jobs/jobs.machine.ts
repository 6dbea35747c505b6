import { assertEvent, enqueueActions, fromCallback, fromPromise, setup } from 'xstate';
import { GUEST_USERNAME, STORAGE_KEYS } from '@/config/limits';
import { newIdempotencyKey } from '@/lib/idempotency-key';
import { searchJobs } from '@/services/job-history';
import type { Media } from '@/services/schemas/media';
import type { StoredJob } from '@/services/schemas/stored-jobs';
import { watchStored } from '@/services/storage';
import { accountLink, watchPage } from '@/machines/account-link/account-link';
import { generationJobMachine } from '@/machines/generation-job/generation-job.machine';
import {
  entryFromStorage,
  forget,
  isLive,
  jobInput,
  newLocalId,
  newestFirst,
  persistJobs,
  replaceStored,
  storableFields,
  storedListOf,
  trimEntries,
  trimFinished,
} from '@/machines/jobs/jobs-storage';
import type { SpawnJob } from '@/machines/jobs/jobs-storage';
import {
  isRemote,
  remoteLocalId,
  serverJobsToAdd,
  SERVER_JOBS_SYNC,
  storedFromMedia,
  watchedMediaIds,
  watchesRemoteJob,
} from '@/machines/jobs/jobs-remote';
import type {
  JobEntry,
  JobsContext,
  JobsEmitted,
  JobsEvent,
  JobsInput,
  JobsLinkEvent,
  JobsStorageEvent,
} from '@/machines/jobs/jobs.types';

export type { StoredJob } from '@/services/schemas/stored-jobs';
export type {
  GenerationJobRef,
  JobEntry,
  JobRequest,
  JobsContext,
  JobsEmitted,
  JobsEvent,
  JobsInput,
  JobsStorageEvent,
  JobsUiEvent,
} from '@/machines/jobs/jobs.types';
export { storableFields };

const newestEntriesFirst = (jobs: JobEntry[]): JobEntry[] => [...jobs].sort((left, right) => right.stored.createdAt - left.stored.createdAt);

/** What the server listed: the person's live jobs, for the user they were asked for. */
interface ServerJobs {
  userId: string;
  items: Media[];
}

/**
 * THE jobs registry (ARCHITECTURE §3), one per app: it spawns one generationJob actor per job (id =
 * localId), keeps the signed-in user's live and recent jobs in local storage (`kinora_jobs`, per
 * user id), and after a reload resumes them: a job the server had answered is polled again by its
 * media id, a request still unanswered is sent again with its Idempotency-Key and fields (the server
 * replays the first answer), any other is marked failed. No media id is ever watched by two actors.
 * Every screen reads this one actor. It follows the session and the page through its own actors
 * (`account`, `watchPage`), so no React effect feeds it (issue 18).
 *
 * Jobs from any device (issue 21): off (nobody, or the shared guest) → syncing (the person's live
 * jobs, asked of the server on sign-in and whenever the page is shown again) → watching (another
 * device's job is listed: asked again every SERVER_JOBS_SYNC.intervalMs while the page is shown) |
 * idle. A job it does not list (by media id) gets an actor that polls it by media id, as after a
 * reload; a `jobs.track` (a re-run) adds one the same way.
 */
export const jobsMachine = setup({
  types: {
    context: {} as JobsContext,
    events: {} as JobsEvent,
    input: {} as JobsInput,
    emitted: {} as JobsEmitted,
  },
  actors: {
    generationJob: generationJobMachine,
    /** Another tab's writes to `kinora_jobs` (two tabs of one person share the list). */
    watchStorage: fromCallback<JobsStorageEvent>(({ sendBack }) =>
      watchStored(STORAGE_KEYS.jobs, () => sendBack({ type: 'jobs.storageChanged' })),
    ),
    /** Page visibility and coming back online, forwarded to the live jobs (polling pauses while hidden). */
    watchPage: fromCallback(({ sendBack }) =>
      watchPage(
        (hidden) => sendBack({ type: 'jobs.visibility', hidden } satisfies JobsLinkEvent),
        () => sendBack({ type: 'jobs.online' } satisfies JobsLinkEvent),
      ),
    ),
    /** The person's live jobs on the server, whichever device started them. */
    searchLiveJobs: fromPromise<ServerJobs, { userId: string }>(async ({ input, signal }) => ({
      userId: input.userId,
      items: (await searchJobs({ status: 'live', limit: SERVER_JOBS_SYNC.limit }, { signal })).items,
    })),
    /** Who is signed in and their balance, from the session; asks its credits actor for a refresh. */
    account: accountLink<JobsLinkEvent>((account, previous) => [
      ...(previous && account.user === previous.user
        ? []
        : [
            {
              type: 'jobs.userChanged' as const,
              userId: account.user?.userId ?? null,
              user: account.user,
              guest: account.user?.username === GUEST_USERNAME,
            },
          ]),
      ...(previous && account.credit === previous.credit ? [] : [{ type: 'jobs.creditChanged' as const, credit: account.credit }]),
    ]),
  },
  guards: {
    /** Another person signs in (or the first one): their server jobs are asked for. */
    syncsNewUser: ({ context, event }) =>
      event.type === 'jobs.userChanged' &&
      context.remoteSync &&
      event.userId !== null &&
      event.userId !== context.userId &&
      !event.guest,
    /**
     * Signed out, or the shared guest account: its jobs on the server are every guest's, and a
     * guest must not follow (nor cancel) another guest's.
     */
    stopsSync: ({ event }) => event.type === 'jobs.userChanged' && (event.userId === null || Boolean(event.guest)),
    becameVisible: ({ event }) => event.type === 'jobs.visibility' && !event.hidden,
    watchesRemoteJob: ({ context }) => watchesRemoteJob(context),
    isVisible: ({ context }) => !context.hidden,
  },
  delays: {
    serverSyncDelay: SERVER_JOBS_SYNC.intervalMs,
  },
  actions: {
    persist: ({ context }) => persistJobs(context),
    /**
     * The server's live jobs this registry does not list (by media id) are added, each with an
     * actor polling it by media id; an answer for a person no longer signed in is dropped.
     */
    addServerJobs: enqueueActions(({ context, enqueue }, params: { answer: ServerJobs }) => {
      if (context.userId === null || params.answer.userId !== context.userId) return;
      const toAdd = serverJobsToAdd(context.jobs, params.answer.items);
      if (toAdd.length === 0) return;
      enqueue.assign(({ context: current, spawn }) => {
        const spawnJob: SpawnJob = (id, input) => spawn('generationJob', { id, input });
        const added = toAdd.flatMap(
          (media) => entryFromStorage(storedFromMedia(media, remoteLocalId(media.id)), current, spawnJob, { resume: false }) ?? [],
        );
        return { jobs: newestEntriesFirst([...current.jobs, ...added]) };
      });
      enqueue(({ context: current }) => persistJobs(current));
    }),
    /** A job the server started for this page (a re-run): listed and polled; it was paid for. */
    trackJob: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'jobs.track');
      if (context.userId === null || watchedMediaIds(context.jobs).has(event.media.id)) return;
      const { media } = event;
      enqueue.assign(({ context: current, spawn }) => {
        const spawnJob: SpawnJob = (id, input) => spawn('generationJob', { id, input });
        const entry = entryFromStorage(storedFromMedia(media, newLocalId()), current, spawnJob, { resume: false });
        return entry ? { jobs: newestEntriesFirst([entry, ...current.jobs]) } : {};
      });
      enqueue.emit({ type: 'jobs.creditsChanged' });
      enqueue.sendTo('account', { type: 'credits.refresh' });
    }),
    changeUser: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'jobs.userChanged');
      if (event.userId === context.userId) {
        enqueue.assign({ user: event.user });
        return;
      }
      for (const entry of context.jobs) if (entry.ref) enqueue.stopChild(entry.ref);
      // The balance is not reset: it comes from the credits actor (`jobs.creditChanged`), which
      // sends nothing when the new user's balance happens to equal the old one's.
      if (event.userId === null) {
        enqueue.assign({ jobs: [], userId: null, user: null, forgotten: [] });
        return;
      }
      const userId = event.userId;
      const stored = storedListOf(userId);
      enqueue.assign(({ spawn }) => {
        const spawnJob: SpawnJob = (id, input) => spawn('generationJob', { id, input });
        const next: JobsContext = { ...context, jobs: [], userId, user: event.user, forgotten: [] };
        const seenLocal = new Set<string>();
        const seenMedia = new Set<string>();
        const jobs: JobEntry[] = [];
        for (const job of stored) {
          if (seenLocal.has(job.localId)) continue;
          seenLocal.add(job.localId);
          if (job.outcome === null && job.mediaId !== null) {
            // Never two actors for one media: a duplicate record is dropped.
            if (seenMedia.has(job.mediaId)) continue;
            seenMedia.add(job.mediaId);
          }
          const entry = entryFromStorage(job, next, spawnJob, { resume: true });
          if (entry) jobs.push(entry);
        }
        return { jobs: trimEntries(jobs), userId, user: event.user, forgotten: [] };
      });
    }),
    /**
     * Another tab changed the stored jobs: list the ones this tab does not know, by local id; a
     * live one the server named gets an actor here unless this tab already watches its media.
     */
    mergeStorage: enqueueActions(({ context, enqueue }) => {
      const userId = context.userId;
      if (userId === null) return;
      const knownLocal = new Set([...context.jobs.map((entry) => entry.localId), ...context.forgotten]);
      const watched = new Set(context.jobs.flatMap((entry) => (entry.stored.mediaId ? [entry.stored.mediaId] : [])));
      const toAdd = storedListOf(userId).filter((job) => {
        if (knownLocal.has(job.localId)) return false;
        if (job.outcome !== null) return true;
        // A request another tab is still sending is left to it; its media id comes in a later change.
        if (job.mediaId === null || watched.has(job.mediaId)) return false;
        watched.add(job.mediaId);
        return true;
      });
      if (toAdd.length === 0) return;
      const kept = new Set(trimFinished(newestFirst([...context.jobs.map((entry) => entry.stored), ...toAdd])).map((job) => job.localId));
      const dropped = context.jobs.filter((entry) => !kept.has(entry.localId));
      for (const entry of dropped) if (entry.ref) enqueue.stopChild(entry.ref);
      enqueue.assign(({ context: current, spawn }) => {
        const spawnJob: SpawnJob = (id, input) => spawn('generationJob', { id, input });
        const added = toAdd
          .filter((job) => kept.has(job.localId))
          .flatMap((job) => entryFromStorage(job, current, spawnJob, { resume: false }) ?? []);
        const jobs = [...current.jobs.filter((entry) => kept.has(entry.localId)), ...added].sort(
          (left, right) => right.stored.createdAt - left.stored.createdAt,
        );
        return { jobs, forgotten: forget(current, dropped) };
      });
    }),
    setCredit: enqueueActions(({ event, enqueue }) => {
      assertEvent(event, 'jobs.creditChanged');
      enqueue.assign({ credit: event.credit });
    }),
    submitJob: enqueueActions(({ event, enqueue }) => {
      assertEvent(event, 'jobs.submit');
      const { request } = event;
      const stored: StoredJob = {
        localId: newLocalId(),
        mediaId: null,
        tool: request.tool,
        toolTitle: request.toolTitle,
        option: request.option,
        optionLabel: request.optionLabel,
        endpoint: request.endpoint,
        cost: request.cost,
        idempotencyKey: newIdempotencyKey(),
        fields: storableFields(request.fields),
        assetId: request.assetId ?? null,
        createdAt: Date.now(),
        outcome: null,
        finishedAt: null,
        refunded: false,
        error: null,
      };
      enqueue.assign(({ context, spawn }) => {
        const ref = spawn('generationJob', {
          id: stored.localId,
          // The actor sends the request as given (files included); storage keeps only plain fields.
          input: jobInput(stored, context, { fields: request.fields }),
        });
        return { jobs: [{ localId: stored.localId, ref, stored }, ...context.jobs] };
      });
    }),
    cancelJob: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'jobs.cancel');
      const entry = context.jobs.find((job) => job.localId === event.localId);
      if (entry?.ref && isLive(entry)) enqueue.sendTo(entry.ref, { type: 'job.cancel' });
    }),
    dismissJob: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'jobs.dismiss');
      const entry = context.jobs.find((job) => job.localId === event.localId);
      if (!entry || isLive(entry)) return;
      if (entry.ref) enqueue.stopChild(entry.ref);
      enqueue.assign({
        jobs: context.jobs.filter((job) => job.localId !== event.localId),
        forgotten: forget(context, [entry]),
      });
    }),
    forwardVisibility: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'jobs.visibility');
      enqueue.assign({ hidden: event.hidden });
      for (const entry of context.jobs) {
        if (entry.ref && isLive(entry)) enqueue.sendTo(entry.ref, { type: 'job.visibility', hidden: event.hidden });
      }
    }),
    forwardOnline: enqueueActions(({ context, enqueue }) => {
      for (const entry of context.jobs) if (entry.ref && isLive(entry)) enqueue.sendTo(entry.ref, { type: 'job.online' });
    }),
    recordSubmitted: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'job.submitted');
      const entry = context.jobs.find((job) => job.localId === event.localId);
      if (!entry) return;
      const twin = context.jobs.find((job) => job.localId !== event.localId && job.stored.mediaId === event.mediaId);
      if (twin && isRemote(twin)) {
        // The server listed this page's own job before its answer came: the job this page sent
        // stays (its title, its result on its tool page), the copy found on the server goes.
        if (twin.ref) enqueue.stopChild(twin.ref);
        enqueue.assign({
          jobs: replaceStored(
            context.jobs.filter((job) => job !== twin),
            event.localId,
            { mediaId: event.mediaId, fields: null },
          ),
          forgotten: forget(context, [twin]),
        });
        enqueue.emit({ type: 'jobs.creditsChanged' });
        enqueue.sendTo('account', { type: 'credits.refresh' });
      } else if (twin) {
        // The same request answered twice (the server replayed it): the actor already watching
        // that media stays, this one goes.
        if (entry.ref) enqueue.stopChild(entry.ref);
        enqueue.assign({
          jobs: context.jobs.filter((job) => job.localId !== event.localId),
          forgotten: forget(context, [entry]),
        });
      } else {
        enqueue.assign({ jobs: replaceStored(context.jobs, event.localId, { mediaId: event.mediaId, fields: null }) });
        // The job was paid for: the balance in the header follows.
        enqueue.emit({ type: 'jobs.creditsChanged' });
        enqueue.sendTo('account', { type: 'credits.refresh' });
      }
    }),
    recordSettled: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'job.settled');
      const entry = context.jobs.find((job) => job.localId === event.localId);
      if (!entry) return;
      const finishedAt = Date.now();
      const mediaId = event.media?.id ?? entry.stored.mediaId;
      const updated = replaceStored(context.jobs, event.localId, {
        outcome: event.outcome,
        finishedAt,
        refunded: event.refunded,
        error: event.error,
        mediaId,
        fields: null,
      });
      const jobs = trimEntries(updated);
      // A finished actor is kept while its entry is listed (its view, its result), and stopped
      // with it: otherwise snapshot.children would grow with every job ever run.
      const trimmed = updated.filter((job) => !jobs.includes(job));
      for (const job of trimmed) if (job.ref) enqueue.stopChild(job.ref);
      enqueue.assign({ jobs, forgotten: forget(context, trimmed) });
      enqueue.emit({
        type: 'jobs.finished',
        localId: entry.localId,
        tool: entry.stored.tool,
        toolTitle: entry.stored.toolTitle,
        optionLabel: entry.stored.optionLabel,
        outcome: event.outcome,
        refunded: event.refunded,
        error: event.error,
        mediaId,
      });
      if (event.refunded) {
        enqueue.emit({ type: 'jobs.creditsChanged' });
        enqueue.sendTo('account', { type: 'credits.refresh' });
      }
    }),
  },
}).createMachine({
  id: 'jobs',
  context: ({ input }) => ({
    jobs: [],
    userId: null,
    user: null,
    credit: null,
    hidden: input?.hidden ?? false,
    forgotten: [],
    session: input?.session ?? null,
    remoteSync: input?.remoteSync ?? Boolean(input?.session),
  }),
  invoke: [
    { id: 'watchStorage', src: 'watchStorage' },
    { id: 'watchPage', src: 'watchPage' },
    { id: 'account', src: 'account', input: ({ context }) => ({ session: context.session }) },
  ],
  on: {
    // Not persisted: writing back what another tab just wrote would only echo it.
    'jobs.storageChanged': { actions: 'mergeStorage' },
    'jobs.userChanged': [
      { guard: 'syncsNewUser', target: '.syncing', actions: ['changeUser', 'persist'] },
      { guard: 'stopsSync', target: '.off', actions: ['changeUser', 'persist'] },
      { actions: ['changeUser', 'persist'] },
    ],
    'jobs.creditChanged': { actions: 'setCredit' },
    'jobs.submit': { actions: ['submitJob', 'persist'] },
    'jobs.track': { actions: ['trackJob', 'persist'] },
    'jobs.cancel': { actions: 'cancelJob' },
    'jobs.dismiss': { actions: ['dismissJob', 'persist'] },
    'jobs.visibility': { actions: 'forwardVisibility' },
    'jobs.online': { actions: 'forwardOnline' },
    'job.submitted': { actions: ['recordSubmitted', 'persist'] },
    'job.settled': { actions: ['recordSettled', 'persist'] },
  },
  initial: 'off',
  states: {
    /**
     * Only this browser's jobs: nobody is signed in, the shared guest is, or the registry does
     * not ask the server (see JobsInput.remoteSync).
     */
    off: {},
    /** Asking the server for the person's live jobs; a failure is silent (SPEC §8 "Other calls fail"). */
    syncing: {
      invoke: {
        id: 'serverJobs',
        src: 'searchLiveJobs',
        input: ({ context }) => ({ userId: context.userId ?? '' }),
        onDone: { target: 'synced', actions: { type: 'addServerJobs', params: ({ event }) => ({ answer: event.output }) } },
        onError: { target: 'synced' },
      },
    },
    synced: {
      always: [{ guard: 'watchesRemoteJob', target: 'watching' }, { target: 'idle' }],
    },
    /** Another device's job is listed: its device may start more, so the server is asked again. */
    watching: {
      after: { serverSyncDelay: [{ guard: 'isVisible', target: 'syncing' }, { target: 'idle' }] },
      // Shown again: asked at once (the jobs hear of it either way).
      on: {
        'jobs.visibility': [{ guard: 'becameVisible', target: 'syncing', actions: 'forwardVisibility' }, { actions: 'forwardVisibility' }],
      },
    },
    /** Nothing of another device is running: asked again when the page is shown again. */
    idle: {
      on: {
        'jobs.visibility': [{ guard: 'becameVisible', target: 'syncing', actions: 'forwardVisibility' }, { actions: 'forwardVisibility' }],
      },
    },
  },
});
