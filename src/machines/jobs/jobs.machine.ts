import { assertEvent, enqueueActions, fromCallback, setup } from 'xstate';
import type { ActorRefFrom } from 'xstate';
import { JOB_TEXTS } from '@/config/job-texts';
import { RECENT_JOBS_LIMIT, RESUBMIT_WINDOW_MS, STORAGE_KEYS } from '@/config/limits';
import type { CreditCheckUser } from '@/lib/credit-check';
import { newIdempotencyKey } from '@/lib/idempotency-key';
import type { MultipartFields } from '@/services/http';
import type { StoredJob } from '@/services/schemas/stored-jobs';
import { readStored, watchStored, writeStored } from '@/services/storage';
import { generationJobMachine } from '@/machines/generation-job/generation-job.machine';
import type {
  GenerationJobInput,
  GenerationJobParentEvent,
  JobOutcome,
} from '@/machines/generation-job/generation-job.machine';

export type { StoredJob } from '@/services/schemas/stored-jobs';

export type GenerationJobRef = ActorRefFrom<typeof generationJobMachine>;

/** What a tool page asks the registry to run. */
export interface JobRequest {
  tool: string;
  toolTitle: string;
  option: string;
  optionLabel: string;
  endpoint: string;
  cost: number;
  fields: MultipartFields;
  assetId?: string | null;
}

/**
 * One job of the list. `ref` is its actor while this page runs it; null for a job restored
 * finished from storage (or marked failed at restore). `stored` is what local storage keeps.
 */
export interface JobEntry {
  localId: string;
  ref: GenerationJobRef | null;
  stored: StoredJob;
}

export interface JobsContext {
  /** Newest first. */
  jobs: JobEntry[];
  userId: string | null;
  user: CreditCheckUser | null;
  credit: number | null;
  hidden: boolean;
  /**
   * Jobs this tab removed (dismissed, trimmed, a replayed twin): writing the list merges in what
   * other tabs stored, except these. Bounded (FORGOTTEN_LIMIT).
   */
  forgotten: string[];
}

export interface JobsInput {
  /** The page is hidden at start (document.visibilityState). */
  hidden?: boolean;
}

export type JobsUiEvent =
  | { type: 'jobs.userChanged'; userId: string | null; user: CreditCheckUser | null }
  | { type: 'jobs.creditChanged'; credit: number | null }
  | { type: 'jobs.submit'; request: JobRequest }
  | { type: 'jobs.cancel'; localId: string }
  | { type: 'jobs.dismiss'; localId: string }
  | { type: 'jobs.visibility'; hidden: boolean }
  | { type: 'jobs.online' };

/** Another tab changed `kinora_jobs` (the storage watcher). */
export type JobsStorageEvent = { type: 'jobs.storageChanged' };

export type JobsEvent = JobsUiEvent | JobsStorageEvent | GenerationJobParentEvent;

/** What the app's bridge listens for (`actor.on`): toasts, notifications, a credits refresh. */
export type JobsEmitted =
  | {
      type: 'jobs.finished';
      localId: string;
      tool: string;
      toolTitle: string;
      optionLabel: string;
      outcome: JobOutcome;
      refunded: boolean;
      error: string | null;
      mediaId: string | null;
    }
  | { type: 'jobs.creditsChanged' };

type StoredFields = NonNullable<StoredJob['fields']>;
type StoredFieldValue = StoredFields[string];

const isStoredValue = (value: unknown): value is StoredFieldValue =>
  typeof value === 'string' ||
  typeof value === 'number' ||
  typeof value === 'boolean' ||
  (Array.isArray(value) && value.every((item) => typeof item === 'string'));

/**
 * The request's fields when every one can be written to local storage (text, numbers, lists of
 * text); null when one is a file or an object, which a reload could not send again.
 */
export function storableFields(fields: MultipartFields): StoredFields | null {
  const kept: StoredFields = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value === null || value === undefined) continue;
    if (!isStoredValue(value)) return null;
    kept[key] = Array.isArray(value) ? [...(value as readonly string[])] : value;
  }
  return kept;
}

const newLocalId = (): string => `job-${crypto.randomUUID()}`;

const isLive = (entry: JobEntry): boolean => entry.stored.outcome === null;

/** Every live job, and the newest RECENT_JOBS_LIMIT finished ones. */
const trimFinished = <T extends { outcome: StoredJob['outcome'] }>(jobs: T[]): T[] => {
  let finished = 0;
  return jobs.filter((job) => job.outcome === null || ++finished <= RECENT_JOBS_LIMIT);
};

const trimEntries = (jobs: JobEntry[]): JobEntry[] => {
  const kept = new Set(trimFinished(jobs.map((entry) => entry.stored)).map((job) => job.localId));
  return jobs.filter((entry) => kept.has(entry.localId));
};

/** Newest first by when the person asked (a stable sort keeps the order of equal times). */
const newestFirst = <T extends { createdAt: number }>(jobs: T[]): T[] => [...jobs].sort((a, b) => b.createdAt - a.createdAt);

/** How many removed local ids a tab remembers so a merge does not bring them back. */
const FORGOTTEN_LIMIT = 200;

const forget = (context: JobsContext, removed: readonly JobEntry[]): string[] =>
  removed.length === 0 ? context.forgotten : [...context.forgotten, ...removed.map((entry) => entry.localId)].slice(-FORGOTTEN_LIMIT);

/** The user's stored list; bad entries are skipped by the schema, never the whole list. */
const storedListOf = (userId: string): StoredJob[] => readStored(STORAGE_KEYS.jobs)?.[userId] ?? [];

/** A stored live job still worth sending again after a reload (RESUBMIT_WINDOW_MS). */
const canResubmit = (job: StoredJob, now: number): boolean =>
  job.fields !== null && now - job.createdAt <= RESUBMIT_WINDOW_MS;

const jobInput = (stored: StoredJob, context: JobsContext, extra: Partial<GenerationJobInput>): GenerationJobInput => ({
  localId: stored.localId,
  tool: stored.tool,
  toolTitle: stored.toolTitle,
  option: stored.option,
  optionLabel: stored.optionLabel,
  endpoint: stored.endpoint,
  cost: stored.cost,
  fields: stored.fields,
  assetId: stored.assetId,
  idempotencyKey: stored.idempotencyKey,
  createdAt: stored.createdAt,
  user: context.user,
  credit: context.credit,
  hidden: context.hidden,
  ...extra,
});

type SpawnJob = (id: string, input: GenerationJobInput) => GenerationJobRef;

/**
 * An entry for a job found in storage: finished ones are listed as they are; a live one the server
 * named is polled again; an unanswered one made within RESUBMIT_WINDOW_MS is sent again with its
 * key; any other is marked interrupted. `resume: false` (another tab's job) lists only what it can
 * poll: a request another tab is still sending is left to that tab.
 */
const entryFromStorage = (
  job: StoredJob,
  context: JobsContext,
  spawnJob: SpawnJob,
  options: { resume: boolean },
): JobEntry | null => {
  if (job.outcome !== null) return { localId: job.localId, ref: null, stored: job };
  if (job.mediaId !== null) {
    const ref = spawnJob(job.localId, jobInput(job, context, { fields: null, mediaId: job.mediaId }));
    return { localId: job.localId, ref, stored: job };
  }
  if (!options.resume) return null;
  const now = Date.now();
  if (canResubmit(job, now)) {
    const ref = spawnJob(job.localId, jobInput(job, context, { resubmit: true }));
    return { localId: job.localId, ref, stored: job };
  }
  return {
    localId: job.localId,
    ref: null,
    stored: { ...job, outcome: 'failed', finishedAt: now, error: JOB_TEXTS.interrupted, fields: null },
  };
};

const replaceStored = (jobs: JobEntry[], localId: string, change: Partial<StoredJob>): JobEntry[] =>
  jobs.map((entry) => (entry.localId === localId ? { ...entry, stored: { ...entry.stored, ...change } } : entry));

/**
 * THE jobs registry (ARCHITECTURE §3), one per app: it spawns one generationJob actor per job (id =
 * localId), keeps the signed-in user's live and recent jobs in local storage (`kinora_jobs`, per
 * user id), and after a reload resumes them: a job the server had answered is polled again by its
 * media id, a request still unanswered is sent again with its Idempotency-Key and fields (the server
 * replays the first answer), any other is marked failed. No media id is ever watched by two actors.
 * Every screen reads this one actor.
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
  },
  actions: {
    /**
     * Writes the current user's list, leaving other users' lists as they are, and merging in the
     * jobs another tab stored that this one does not list (unless this tab removed them).
     */
    persist: ({ context }) => {
      if (context.userId === null) return;
      const all = readStored(STORAGE_KEYS.jobs) ?? {};
      const ours = context.jobs.map((entry) => entry.stored);
      const skip = new Set([...ours.map((job) => job.localId), ...context.forgotten]);
      const theirs = (all[context.userId] ?? []).filter((job) => !skip.has(job.localId));
      const merged = theirs.length === 0 ? ours : trimFinished(newestFirst([...ours, ...theirs]));
      writeStored(STORAGE_KEYS.jobs, { ...all, [context.userId]: merged });
    },
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
      if (twin) {
        // The same request answered twice (the server replayed it): the actor already watching
        // that media stays, this one goes.
        if (entry.ref) enqueue.stopChild(entry.ref);
        enqueue.assign({
          jobs: context.jobs.filter((job) => job.localId !== event.localId),
          forgotten: forget(context, [entry]),
        });
      } else {
        enqueue.assign({ jobs: replaceStored(context.jobs, event.localId, { mediaId: event.mediaId, fields: null }) });
        enqueue.emit({ type: 'jobs.creditsChanged' });
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
      if (event.refunded) enqueue.emit({ type: 'jobs.creditsChanged' });
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
  }),
  invoke: { id: 'watchStorage', src: 'watchStorage' },
  on: {
    // Not persisted: writing back what another tab just wrote would only echo it.
    'jobs.storageChanged': { actions: 'mergeStorage' },
    'jobs.userChanged': { actions: ['changeUser', 'persist'] },
    'jobs.creditChanged': { actions: 'setCredit' },
    'jobs.submit': { actions: ['submitJob', 'persist'] },
    'jobs.cancel': { actions: 'cancelJob' },
    'jobs.dismiss': { actions: ['dismissJob', 'persist'] },
    'jobs.visibility': { actions: 'forwardVisibility' },
    'jobs.online': { actions: 'forwardOnline' },
    'job.submitted': { actions: ['recordSubmitted', 'persist'] },
    'job.settled': { actions: ['recordSettled', 'persist'] },
  },
});
