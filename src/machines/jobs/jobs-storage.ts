import { JOB_TEXTS } from '@/config/job-texts';
import { RECENT_JOBS_LIMIT, RESUBMIT_WINDOW_MS, STORAGE_KEYS } from '@/config/limits';
import type { MultipartFields } from '@/services/http';
import type { StoredJob } from '@/services/schemas/stored-jobs';
import { readStored, writeStored } from '@/services/storage';
import type { GenerationJobInput } from '@/machines/generation-job/generation-job.types';
import type { GenerationJobRef, JobEntry, JobsContext } from '@/machines/jobs/jobs.types';

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
