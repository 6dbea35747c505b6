import { apiGet, apiPostJson } from '@/services/http';
import type { QueryValue } from '@/services/http';
import { jobSearchPageSchema } from '@/services/schemas/job-history';
import type { JobSearchSort, JobSearchStatus } from '@/services/schemas/job-history';
import { classifyStatus } from '@/lib/job-status';
import { getMedia, getProcessingStatuses } from '@/services/media';
import { mediaSchema } from '@/services/schemas/media';
import type { Media, ProcessingStatus } from '@/services/schemas/media';

/**
 * The person's jobs as the server keeps them (issue 21 item 1, "Jobs from any device"; Kinora's
 * additions to SPEC §7, README "Jobs from any device"): the job history's search over `GET media`
 * and the re-run of an ended job. Any browser the person signs in to sees the same jobs.
 */

/** What the history searches by; every field is optional (none: the newest 20 jobs of every tool). */
export interface JobSearch {
  /** A tool slug (`text-to-image`, …). */
  tool?: string;
  /** The model (`option`, e.g. `Seedream`). */
  option?: string;
  status?: JobSearchStatus;
  /** A part of the prompt, any case, taken literally. */
  q?: string;
  /** The seed, exactly. */
  seed?: string;
  /** Credits, inclusive. */
  costMin?: number;
  costMax?: number;
  /** A day (`2026-11-27`, a UTC day) or an ISO instant with its offset; `to` as a day includes that whole day. */
  from?: string;
  to?: string;
  /** `newest` when not given. */
  sort?: JobSearchSort;
  /** The `nextStartKeys` of the previous page: the page after it. */
  nextStartKeys?: string;
  /** At most 50 (the server's cap); 20 when not given. */
  limit?: number;
}

/** One page of the history: its jobs and the key of the next page (null on the last page). */
export interface JobSearchResult {
  items: Media[];
  nextStartKeys: string | null;
}

export interface JobCallOptions {
  signal?: AbortSignal;
}

/** A text filter left blank is not sent (the server would take it as absent anyway). */
const text = (value: string | undefined): string | undefined => (value === undefined || value.trim() === '' ? undefined : value.trim());

/** GET media with the search's parameters, as the server names them. */
const searchQuery = (filters: JobSearch): Record<string, QueryValue> => ({
  tool: text(filters.tool),
  option: text(filters.option),
  status: filters.status,
  q: text(filters.q),
  seed: text(filters.seed),
  cost_min: filters.costMin,
  cost_max: filters.costMax,
  from: text(filters.from),
  to: text(filters.to),
  sort: filters.sort,
  next_start_keys: text(filters.nextStartKeys),
  limit: filters.limit,
});

/** GET media?…: one page of the signed-in person's jobs, filtered and sorted, with the next page's key. */
export async function searchJobs(filters: JobSearch, options: JobCallOptions = {}): Promise<JobSearchResult> {
  const page = await apiGet('media', jobSearchPageSchema, { query: searchQuery(filters), signal: options.signal });
  return { items: page.items, nextStartKeys: page.next_start_keys };
}

/**
 * POST media/{id}/rerun: the ended job made again as a new job with the same parameters, charged
 * as its tool's call is. `idempotencyKey`: one per intent, the same on every retry (the server
 * answers a retry with the first job instead of charging again). Answers the new job (queued).
 */
export const rerunJob = (mediaId: string, idempotencyKey: string, options: JobCallOptions & { seed?: number } = {}): Promise<Media> =>
  // With a seed, Vary (issue 21 item 7): the same job with another seed; without, the job's own.
  apiPostJson(`media/${encodeURIComponent(mediaId)}/rerun`, options.seed === undefined ? {} : { seed: options.seed }, mediaSchema, {
    idempotencyKey,
    signal: options.signal,
  });

/** One read of the History page's live rows: the jobs still running, and those that ended, whole. */
export interface LiveJobsRead {
  /** The ids asked for (a job missing from both lists was deleted meanwhile). */
  asked: string[];
  /** Jobs still waiting or running: status, progress, held and queue position. */
  statuses: ProcessingStatus[];
  /** Jobs that ended since: the full media (its result items, cost and refund). */
  ended: Media[];
}

/**
 * The History page's live rows read again: one batched processing-status request for all of them
 * (`getProcessingStatuses`), then GET media/{id} once for each job that has ended (its result's
 * signed links, its error and refund are not in the status).
 */
export async function readLiveJobs(ids: readonly string[], options: JobCallOptions = {}): Promise<LiveJobsRead> {
  const statuses = await getProcessingStatuses(ids, options);
  const running = statuses.filter((status) => classifyStatus(status.status) === 'processing');
  const endedIds = statuses.filter((status) => classifyStatus(status.status) !== 'processing').map((status) => status.id);
  const ended = await Promise.all(endedIds.map((id) => getMedia(id, undefined, options)));
  return { asked: [...ids], statuses: running, ended };
}
