import { assertEvent, enqueueActions, fromCallback, fromPromise, setup } from 'xstate';
import { GUEST_USERNAME, STORAGE_KEYS } from '@/config/limits';
import { searchJobs } from '@/services/job-history';
import { watchStored } from '@/services/storage';
import { accountLink, watchPage } from '@/machines/account-link/account-link';
import { generationJobMachine } from '@/machines/generation-job/generation-job.machine';
import {
  entryFromStorage,
  forget,
  isLive,
  jobInput,
  newestEntriesFirst,
  newestFirst,
  newLocalId,
  newStoredJob,
  persistJobs,
  replaceStored,
  restoredEntries,
  storedListOf,
  storedToMerge,
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
import type { ServerJobs } from '@/machines/jobs/jobs-remote';
import type { JobsContext, JobsEmitted, JobsEvent, JobsInput, JobsLinkEvent, JobsStorageEvent } from '@/machines/jobs/jobs.types';

/**
 * The jobs registry's named implementations (its watchers, the server's live jobs, the account
 * link; its guards, delays and actions), apart from its states in jobs.machine.ts. What the list
 * keeps and how it is merged is in jobs-storage.ts, the jobs found on the server in jobs-remote.ts.
 */
export const jobsSetup = setup({
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
        return { jobs: trimEntries(restoredEntries(stored, next, spawnJob)), userId, user: event.user, forgotten: [] };
      });
    }),
    /**
     * Another tab changed the stored jobs: list the ones this tab does not know, by local id; a
     * live one the server named gets an actor here unless this tab already watches its media.
     */
    mergeStorage: enqueueActions(({ context, enqueue }) => {
      const userId = context.userId;
      if (userId === null) return;
      const toAdd = storedToMerge(context, storedListOf(userId));
      if (toAdd.length === 0) return;
      const kept = new Set(trimFinished(newestFirst([...context.jobs.map((entry) => entry.stored), ...toAdd])).map((job) => job.localId));
      const dropped = context.jobs.filter((entry) => !kept.has(entry.localId));
      for (const entry of dropped) if (entry.ref) enqueue.stopChild(entry.ref);
      enqueue.assign(({ context: current, spawn }) => {
        const spawnJob: SpawnJob = (id, input) => spawn('generationJob', { id, input });
        const added = toAdd
          .filter((job) => kept.has(job.localId))
          .flatMap((job) => entryFromStorage(job, current, spawnJob, { resume: false }) ?? []);
        const jobs = newestEntriesFirst([...current.jobs.filter((entry) => kept.has(entry.localId)), ...added]);
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
      const stored = newStoredJob(request);
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
});
