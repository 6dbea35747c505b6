import type { InspectionHub, InspectionRecord } from '@/lib/inspection/hub';

/**
 * Keeps each generation job's path through its machine after the page is gone (issue 22 item 1):
 * the job actor's snapshot records, already redacted by the hub (json-safe.ts), written to local
 * storage with the job for a week, so the inspector can draw a finished job's path after a reload.
 * A job resumed after a reload is a new actor with the same id: its records are appended to the
 * ones an earlier page kept, so the path spans the reload.
 *
 * In the first bundle (the hub feeds it on every page): no zod here; the inspector checks what it
 * reads back (saved-job-logs.ts).
 */
export const JOB_MACHINE_ID = 'generationJob';
export const JOB_LOG_KEEP_MS = 7 * 24 * 60 * 60 * 1000;
export const JOB_LOG_LIMITS = {
  /** Jobs kept; the oldest go first. */
  jobs: 40,
  /** Records kept per job: its first `head` and its newest. A long poll adds two per poll. */
  records: 400,
  head: 80,
} as const;
/** How long after a record the job's log is written, unless the job ended (written at once). */
export const JOB_LOG_WRITE_DELAY_MS = 1000;

export interface SavedJobLog {
  actorId: string;
  machineId: string;
  /** The server's media id, once the job has one (from the job's context). */
  mediaId: string | null;
  /** ms since the epoch: the first record, and the last write. */
  firstAt: number;
  savedAt: number;
  /** The page that wrote it (a later page appends to it instead of replacing it). */
  pageId: string;
  records: InspectionRecord[];
}

export type SavedJobLogs = Record<string, SavedJobLog>;

export interface JobLogStore {
  read: () => unknown;
  /** False when the browser refused (quota, no storage). */
  write: (logs: SavedJobLogs) => boolean;
}

/** Every saved path's records are one actor's, whatever page recorded them. */
export const savedSessionId = (actorId: string): string => `saved:${actorId}`;

const isSavedLog = (value: unknown): value is SavedJobLog => {
  const log = value as Partial<SavedJobLog> | null;
  return typeof log === 'object' && log !== null && typeof log.actorId === 'string' && typeof log.savedAt === 'number' && Array.isArray(log.records);
};

/** The kept logs still within the week, newest JOB_LOG_LIMITS.jobs of them. */
export function keptLogs(value: unknown, now: number): SavedJobLogs {
  if (typeof value !== 'object' || value === null) return {};
  const fresh = Object.values(value as Record<string, unknown>)
    .filter(isSavedLog)
    .filter((log) => now - log.savedAt <= JOB_LOG_KEEP_MS)
    .sort((a, b) => b.savedAt - a.savedAt)
    .slice(0, JOB_LOG_LIMITS.jobs);
  return Object.fromEntries(fresh.map((log) => [log.actorId, log]));
}

/** The first `head` records and the newest, so both how it started and how it ended stay. */
export function trimRecords(records: readonly InspectionRecord[]): InspectionRecord[] {
  if (records.length <= JOB_LOG_LIMITS.records) return [...records];
  const tail = JOB_LOG_LIMITS.records - JOB_LOG_LIMITS.head;
  return [...records.slice(0, JOB_LOG_LIMITS.head), ...records.slice(records.length - tail)];
}

const mediaIdOf = (record: InspectionRecord): string | null => {
  const context = record.context as { mediaId?: unknown } | null | undefined;
  return context && typeof context === 'object' && typeof context.mediaId === 'string' ? context.mediaId : null;
};

interface Tracked {
  actorId: string;
  /** Records an earlier page kept for this job. */
  earlier: InspectionRecord[];
  records: InspectionRecord[];
  mediaId: string | null;
  ended: boolean;
}

export interface JobLogKeeperOptions {
  store: JobLogStore;
  now?: () => number;
  /** Called once per job that reached a final state, with what was kept (to send it to the server). */
  onJobEnded?: (log: SavedJobLog) => void;
  pageId?: string;
}

/** This page's id: one per page load, however often a keeper starts (React's strict mode starts it twice). */
const PAGE_ID = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

/** Starts keeping jobs' logs; returns the function that stops it (and writes what is pending). */
export function startJobLogKeeper(hub: InspectionHub, options: JobLogKeeperOptions): () => void {
  const now = options.now ?? Date.now;
  const pageId = options.pageId ?? PAGE_ID;
  const tracked = new Map<string, Tracked>();
  const dirty = new Set<string>();
  let lastSeq = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const flush = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (dirty.size === 0) return;
    const at = now();
    const logs = keptLogs(options.store.read(), at);
    const ended: SavedJobLog[] = [];
    for (const sessionId of dirty) {
      const job = tracked.get(sessionId);
      if (!job) continue;
      const stored = logs[job.actorId];
      const all = [...job.earlier, ...job.records];
      const log: SavedJobLog = {
        actorId: job.actorId,
        machineId: JOB_MACHINE_ID,
        mediaId: job.mediaId ?? stored?.mediaId ?? null,
        firstAt: all[0]?.time ?? at,
        savedAt: at,
        pageId,
        records: trimRecords(all),
      };
      logs[job.actorId] = log;
      if (job.ended) ended.push(log);
    }
    dirty.clear();
    let kept = keptLogs(logs, at);
    // Full storage: the older half of the kept logs makes room, once.
    if (!options.store.write(kept)) {
      const newest = Object.values(kept).slice(0, Math.ceil(Object.keys(kept).length / 2));
      kept = Object.fromEntries(newest.map((log) => [log.actorId, log]));
      options.store.write(kept);
    }
    for (const log of ended) options.onJobEnded?.(log);
  };

  const take = (record: InspectionRecord) => {
    let job = tracked.get(record.sessionId);
    if (!job) {
      // A job an earlier page kept (a reload resumed it): this page's records follow its own.
      const stored = keptLogs(options.store.read(), now())[record.actorId];
      const earlier = stored && stored.pageId !== pageId ? stored.records : [];
      job = { actorId: record.actorId, earlier, records: [], mediaId: stored?.mediaId ?? null, ended: false };
      tracked.set(record.sessionId, job);
    }
    const previous = job.records[job.records.length - 1];
    // The context is kept on the newest record only: it is what the inspector shows for the end state.
    if (previous) job.records[job.records.length - 1] = { ...previous, context: undefined };
    job.records.push({ ...record, sessionId: savedSessionId(record.actorId) });
    job.mediaId = mediaIdOf(record) ?? job.mediaId;
    // Stopped (the page or the registry let it go) is not an end: a later page may resume it.
    if (record.status === 'done' || record.status === 'error') job.ended = true;
    dirty.add(record.sessionId);
    return job.ended;
  };

  const unsubscribe = hub.subscribe(() => {
    const records = hub.records();
    let start = records.length;
    while (start > 0 && records[start - 1]!.seq > lastSeq) start -= 1;
    let endedNow = false;
    for (let index = start; index < records.length; index += 1) {
      const record = records[index]!;
      if (record.machineId === JOB_MACHINE_ID && record.type === 'snapshot') endedNow = take(record) || endedNow;
    }
    if (records.length > 0) lastSeq = records[records.length - 1]!.seq;
    if (endedNow) flush();
    else if (dirty.size > 0 && timer === null) timer = setTimeout(flush, JOB_LOG_WRITE_DELAY_MS);
  });

  const onHide = () => flush();
  if (typeof window !== 'undefined') window.addEventListener('pagehide', onHide);
  return () => {
    unsubscribe();
    if (typeof window !== 'undefined') window.removeEventListener('pagehide', onHide);
    flush();
  };
}
