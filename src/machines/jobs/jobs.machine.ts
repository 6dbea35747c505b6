import { jobsSetup } from '@/machines/jobs/jobs.setup';

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
export { storableFields } from '@/machines/jobs/jobs-storage';

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
 *
 * Its implementations are in jobs.setup.ts, its types in jobs.types.ts, its stored list in
 * jobs-storage.ts and the jobs found on the server in jobs-remote.ts.
 */
export const jobsMachine = jobsSetup.createMachine({
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
