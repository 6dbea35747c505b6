import { jobToolOf, modelLabelOf } from '@/config/job-tools';
import { classifyStatus } from '@/lib/job-status';
import type { Media } from '@/services/schemas/media';
import type { StoredJob } from '@/services/schemas/stored-jobs';
import { isLive } from '@/machines/jobs/jobs-storage';
import type { JobEntry, JobsContext } from '@/machines/jobs/jobs.types';

// The registry's jobs that this page did not submit: the person's live jobs the server lists
// (another device's, another browser's) and a job started from elsewhere on this page (a re-run,
// `jobs.track`). Each becomes an entry whose job actor polls it by media id, as a stored job with a
// media id does after a reload.

/** What the server listed: the person's live jobs, for the user they were asked for. */
export interface ServerJobs {
  userId: string;
  items: Media[];
}

/** How often the server is asked again while another device's job is listed, and for how many. */
export const SERVER_JOBS_SYNC = { intervalMs: 30_000, limit: 50 } as const;

const REMOTE_PREFIX = 'job-remote-';

/**
 * The local id of another device's job: the same in every tab of this browser, so two tabs that
 * both find it store it once (persistJobs merges by local id).
 */
export const remoteLocalId = (mediaId: string): string => `${REMOTE_PREFIX}${mediaId}`;

/** The entry was found on the server, not submitted from this browser. */
export const isRemote = (entry: JobEntry): boolean => entry.localId.startsWith(REMOTE_PREFIX);

/** A live job of another device is listed: the server is asked again now and then. */
export const watchesRemoteJob = (context: JobsContext): boolean => context.jobs.some((entry) => isRemote(entry) && isLive(entry));

const timeOf = (iso: string): number => {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? Date.now() : time;
};

/**
 * What the registry keeps of a job it found on the server: named as its tool page names a job it
 * submits (the tool's title, the model's label); nothing to send again (no fields, no key).
 */
export function storedFromMedia(media: Media, localId: string): StoredJob {
  const tool = jobToolOf(media.tool);
  const option = media.option ?? (typeof media.args.option === 'string' ? media.args.option : '');
  return {
    localId,
    mediaId: media.id,
    tool: media.tool,
    toolTitle: tool.title,
    option,
    optionLabel: modelLabelOf(option),
    endpoint: tool.endpoint,
    cost: media.cost,
    idempotencyKey: '',
    fields: null,
    assetId: media.asset_id,
    createdAt: timeOf(media.created_at),
    outcome: null,
    finishedAt: null,
    refunded: false,
    error: null,
  };
}

/** The media ids the registry's job actors watch. */
export const watchedMediaIds = (jobs: readonly JobEntry[]): Set<string> =>
  new Set(jobs.flatMap((entry) => (entry.stored.mediaId ? [entry.stored.mediaId] : [])));

/**
 * The server's live jobs the registry does not list yet (by media id), once each. A job the server
 * says has ended is left out: only running jobs come over (the History page lists the rest).
 */
export function serverJobsToAdd(jobs: readonly JobEntry[], items: readonly Media[]): Media[] {
  const watched = watchedMediaIds(jobs);
  return items.filter((media) => {
    if (classifyStatus(media.status) !== 'processing' || watched.has(media.id)) return false;
    watched.add(media.id);
    return true;
  });
}
