import { JOB_TEXTS } from '@/config/job-texts';
import { RECENT_JOBS_LIMIT, RESUBMIT_WINDOW_MS, STORAGE_KEYS } from '@/config/limits';
import { newIdempotencyKey } from '@/lib/idempotency-key';
import type { MultipartFields } from '@/services/http';
import type { StoredJob } from '@/services/schemas/stored-jobs';
import { readStored, writeStored } from '@/services/storage';
import type { GenerationJobInput } from '@/machines/generation-job/generation-job.types';
import type { GenerationJobRef, JobEntry, JobRequest, JobsContext } from '@/machines/jobs/jobs.types';

// The registry's list as local storage keeps it (`kinora_jobs`, per user id): what is stored, how
// it is trimmed and merged with other tabs', and how a stored job becomes an entry again.

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

export const newLocalId = (): string => `job-${crypto.randomUUID()}`;

/** What the registry keeps of a job a tool page submits: a new local id and key, the fields storage can hold. */
export const newStoredJob = (request: JobRequest): StoredJob => ({
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
});

export const isLive = (entry: JobEntry): boolean => entry.stored.outcome === null;

/** Every live job, and the newest RECENT_JOBS_LIMIT finished ones. */
export const trimFinished = <T extends { outcome: StoredJob['outcome'] }>(jobs: T[]): T[] => {
  let finished = 0;
  return jobs.filter((job) => job.outcome === null || ++finished <= RECENT_JOBS_LIMIT);
};

export const trimEntries = (jobs: JobEntry[]): JobEntry[] => {
  const kept = new Set(trimFinished(jobs.map((entry) => entry.stored)).map((job) => job.localId));
  return jobs.filter((entry) => kept.has(entry.localId));
};

/** Newest first by when the person asked (a stable sort keeps the order of equal times). */
export const newestFirst = <T extends { createdAt: number }>(jobs: T[]): T[] => [...jobs].sort((a, b) => b.createdAt - a.createdAt);

export const newestEntriesFirst = (jobs: JobEntry[]): JobEntry[] => [...jobs].sort((left, right) => right.stored.createdAt - left.stored.createdAt);

/** How many removed local ids a tab remembers so a merge does not bring them back. */
const FORGOTTEN_LIMIT = 200;

export const forget = (context: JobsContext, removed: readonly JobEntry[]): string[] =>
  removed.length === 0 ? context.forgotten : [...context.forgotten, ...removed.map((entry) => entry.localId)].slice(-FORGOTTEN_LIMIT);

/** The user's stored list; bad entries are skipped by the schema, never the whole list. */
export const storedListOf = (userId: string): StoredJob[] => readStored(STORAGE_KEYS.jobs)?.[userId] ?? [];

/** A stored live job still worth sending again after a reload (RESUBMIT_WINDOW_MS). */
const canResubmit = (job: StoredJob, now: number): boolean =>
  job.fields !== null && now - job.createdAt <= RESUBMIT_WINDOW_MS;

export const jobInput = (stored: StoredJob, context: JobsContext, extra: Partial<GenerationJobInput>): GenerationJobInput => ({
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

export type SpawnJob = (id: string, input: GenerationJobInput) => GenerationJobRef;

/**
 * An entry for a job found in storage: finished ones are listed as they are; a live one the server
 * named is polled again; an unanswered one made within RESUBMIT_WINDOW_MS is sent again with its
 * key; any other is marked interrupted. `resume: false` (another tab's job) lists only what it can
 * poll: a request another tab is still sending is left to that tab.
 */
export const entryFromStorage = (
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

/**
 * A user's stored list as entries again (on sign-in, after a reload), each resumed as
 * entryFromStorage says; a local id stored twice is read once.
 */
export function restoredEntries(stored: readonly StoredJob[], context: JobsContext, spawnJob: SpawnJob): JobEntry[] {
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
    const entry = entryFromStorage(job, context, spawnJob, { resume: true });
    if (entry) jobs.push(entry);
  }
  return jobs;
}

/**
 * The stored jobs another tab added that this tab does not list (by local id, nor removed here):
 * finished ones, and live ones the server named whose media this tab does not watch yet, once each.
 */
export function storedToMerge(context: JobsContext, stored: readonly StoredJob[]): StoredJob[] {
  const knownLocal = new Set([...context.jobs.map((entry) => entry.localId), ...context.forgotten]);
  const watched = new Set(context.jobs.flatMap((entry) => (entry.stored.mediaId ? [entry.stored.mediaId] : [])));
  return stored.filter((job) => {
    if (knownLocal.has(job.localId)) return false;
    if (job.outcome !== null) return true;
    // A request another tab is still sending is left to it; its media id comes in a later change.
    if (job.mediaId === null || watched.has(job.mediaId)) return false;
    watched.add(job.mediaId);
    return true;
  });
}

export const replaceStored = (jobs: JobEntry[], localId: string, change: Partial<StoredJob>): JobEntry[] =>
  jobs.map((entry) => (entry.localId === localId ? { ...entry, stored: { ...entry.stored, ...change } } : entry));


/**
 * Writes the current user's list, leaving other users' lists as they are, and merging in the jobs
 * another tab stored that this one does not list (unless this tab removed them).
 */
export function persistJobs(context: JobsContext): void {
  if (context.userId === null) return;
  const all = readStored(STORAGE_KEYS.jobs) ?? {};
  const ours = context.jobs.map((entry) => entry.stored);
  const skip = new Set([...ours.map((job) => job.localId), ...context.forgotten]);
  const theirs = (all[context.userId] ?? []).filter((job) => !skip.has(job.localId));
  const merged = theirs.length === 0 ? ours : trimFinished(newestFirst([...ours, ...theirs]));
  writeStored(STORAGE_KEYS.jobs, { ...all, [context.userId]: merged });
}
