import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { DEFAULT_JOB_DURATION_MS } from '../config.ts';
import type { Database } from '../db/database.ts';
import { pruneIdempotencyKeys } from '../db/idempotency.ts';
import type { MediaFileRow } from '../db/files.ts';
import {
  advanceJob,
  claimNextJob,
  completeJob,
  endJobWithRefund,
  isLive,
  releaseJob,
  rememberProviderRequest,
  renewJob,
  stageOf,
  statusesOf,
  type JobStage,
  type MediaRow,
  type StoredItem,
} from '../db/media.ts';
import type { RemoteRequest, RenderContext, RenderProvider } from '../render/provider.ts';
import { RenderRejectedError } from '../render/render-errors.ts';
import type { ObjectStore } from '../storage/object-store.ts';
import { createMediaStore, type FileToStore, type MediaStore } from './media-store.ts';
import { createStatusReader, type StatusReader } from './status-reader.ts';
import { SIMULATED_ERRORS, simulatedDuration, simulatedOutcome } from './outcome.ts';
import { jobStages, MissingInputError, resolveInputs, runPipeline, StoppedError, successStatusOf, type PipelineResult } from './pipelines.ts';

/**
 * The job engine (ARCHITECTURE.md §4): jobs are rows of `media`; in-process workers claim them with
 * FOR UPDATE SKIP LOCKED, move them through SPEC §4's statuses while renewing a lease, render
 * through the RenderProvider and store the files. A job outlives its server: a stopping server
 * hands its jobs back to the queue, and a job whose server died is reclaimed when its lease expires.
 *
 * A video creation job runs in three stages, each claimed on its own (queue_{stage} →
 * processing_{stage}): `source` (the model's time; the [fail]/[nsfw] simulation), `3d` (the videos
 * are rendered and their files committed) and `bullet` (the results are published). Every other job
 * is the one `source` stage that renders and completes. What a stage made is committed when it
 * hands over, so a restart resumes at the stage the job had reached.
 */

export interface EngineOptions {
  /** How long a job spends processing before it is rendered (milliseconds in tests, seconds in demos). */
  durationMs: number;
  /**
   * The local stand-in's failure simulation (README "Failures on purpose"): `[fail]` / `[nsfw]` in
   * a prompt and the two rates below. Only for the local render engine: a real provider's jobs
   * fail when the provider says so, whatever their prompt.
   */
  simulateFailures: boolean;
  /** Share of jobs that fail (0–1), drawn from the job id (with simulateFailures). */
  failureRate: number;
  /** Share of jobs flagged nsfw (0–1), drawn from the job id (with simulateFailures). */
  nsfwRate: number;
  /** How often an idle worker looks for work (a job queued by this server wakes it at once). */
  pollIntervalMs: number;
  /** How long a claim lasts without a heartbeat before another worker may take the job over. */
  leaseMs: number;
  /** How often async_mode=false waiters look at their jobs' rows (for jobs another server ends). */
  waitRecheckMs: number;
  /** Jobs processed at once by this server. */
  concurrency: number;
  /**
   * Issue 21 item 2: one person's started jobs at most, across every worker of every process
   * (KINORA_MAX_RUNNING_PER_USER); their other jobs wait in the queue. 0: no limit.
   */
  maxRunningPerUser: number;
  /**
   * Whether this process renders (KINORA_ROLE `worker` or `all`). An `api` process only queues jobs
   * and waits for them: its engine starts no workers and no maintenance.
   */
  workers: boolean;
  /** Where the files live (`${dataDir}/media`) when no object store is given (CreateJobEngineOptions.objects). */
  mediaDir: string;
}

export const DEFAULT_ENGINE_OPTIONS: EngineOptions = {
  durationMs: DEFAULT_JOB_DURATION_MS,
  simulateFailures: false,
  failureRate: 0,
  nsfwRate: 0,
  pollIntervalMs: 1000,
  leaseMs: 30_000,
  waitRecheckMs: 1000,
  concurrency: 4,
  maxRunningPerUser: 4,
  workers: true,
  mediaDir: path.join('.local', 'media'),
};

/** A job taken over this many times (its server kept dying on it) fails instead of looping forever. */
export const MAX_JOB_ATTEMPTS = 5;
const INTERRUPTED_ERROR = 'The job was interrupted too many times. Your credits were refunded.';
const REFUNDED = 'Your credits were refunded.';
const RENDER_ERROR = `The result could not be made. ${REFUNDED}`;
/**
 * The share of the progress bar each stage fills (SPEC §4: progress rises across the stages), and
 * of durationMs each simulated wait takes: a creation job's time is split between its source and
 * bullet stages, its 3D stage takes as long as the videos take to render.
 */
const SINGLE_STAGE = { source: { from: 5, to: 90, time: 1 } } as const;
const VIDEO_STAGES = {
  source: { from: 5, to: 30, time: 0.5 },
  '3d': { from: 30, to: 85, time: 0 },
  bullet: { from: 85, to: 99, time: 0.5 },
} as const;
/** Orphan folders and old idempotency keys are swept this often. */
const MAINTENANCE_MS = 10 * 60 * 1000;
/**
 * The PostgreSQL channel that carries the queue's news between processes (KINORA_ROLE): `queued`
 * (an API process queued a job, or a stage handed over: an idle worker anywhere claims it now, not
 * at its next poll) and `ended:{id}` (a job ended or was cancelled: its waiters anywhere answer,
 * and a worker rendering a cancelled job stops now, not at its next heartbeat). Polling stays
 * underneath, so a lost notification only costs time.
 */
const QUEUE_CHANNEL = 'kinora_jobs';
const QUEUED = 'queued';
const ENDED = 'ended:';

export interface EngineLogger {
  error(details: Record<string, unknown>, message: string): void;
}

export interface JobEngine {
  readonly options: EngineOptions;
  readonly store: MediaStore;
  /** Between start() and stop(). */
  readonly running: boolean;
  start(): Promise<void>;
  /** Stops claiming; jobs in their processing steps go back to the queue; waits for the workers. */
  stop(): Promise<void>;
  /** A job was queued: wake an idle worker now. */
  notify(): void;
  /** A job ended outside the workers (cancel, delete): wake its waiters, and read its status afresh. */
  announceEnd(id: string): void;
  /** processing-status reads: batched, briefly remembered, fresh after an end announced here. */
  readonly statuses: StatusReader;
  /**
   * Resolves true once the job has ended (or is gone), false after `timeoutMs`, on stop or when
   * `signal` aborts. Every waiter shares one poller and the workers' end events.
   */
  waitForEnd(id: string, timeoutMs: number, signal?: AbortSignal): Promise<boolean>;
}

export interface CreateJobEngineOptions {
  db: Database;
  provider: RenderProvider;
  options?: Partial<EngineOptions>;
  /** Where the files are stored (an S3 bucket, server/src/storage/); omitted → the local folder options.mediaDir. */
  objects?: ObjectStore;
  logger?: EngineLogger;
  /**
   * Called after each run of a job by a worker, once its transaction has committed (the job may
   * have ended, handed a stage over, or been let go): the Done alerts (server/src/push/alerts.ts)
   * look at the row then, in the background. Must not throw or wait: the worker goes on at once.
   */
  onJobSettled?: (jobId: string) => void;
}

function validate(options: EngineOptions): EngineOptions {
  const rate = (name: 'failureRate' | 'nsfwRate'): void => {
    if (!(options[name] >= 0 && options[name] <= 1)) throw new Error(`${name} must be between 0 and 1 (got ${options[name]})`);
  };
  rate('failureRate');
  rate('nsfwRate');
  for (const name of ['durationMs', 'pollIntervalMs', 'leaseMs', 'waitRecheckMs', 'concurrency', 'maxRunningPerUser'] as const) {
    if (!(Number.isFinite(options[name]) && options[name] >= 0)) throw new Error(`${name} must be a number ≥ 0 (got ${options[name]})`);
  }
  if (options.concurrency < 1) throw new Error('concurrency must be at least 1');
  return options;
}

export function createJobEngine({ db, provider, options: overrides = {}, objects, logger, onJobSettled }: CreateJobEngineOptions): JobEngine {
  const options = validate({ ...DEFAULT_ENGINE_OPTIONS, ...stripUndefined(overrides) });
  const store = createMediaStore(objects ?? options.mediaDir);
  const engineId = `engine-${randomBytes(6).toString('hex')}`;
  // Every claim gets its own lease token: two claims of one job (the first worker's lease ran out
  // while it rendered) can never both renew or complete it, even within one engine.
  const newClaimToken = (): string => `${engineId}:${randomBytes(6).toString('hex')}`;
  let stopping = new AbortController();
  let workers: Promise<void>[] = [];
  let wakers: Array<() => void> = [];
  let maintenance: NodeJS.Timeout | undefined;
  let running = false;
  let unlisten: (() => Promise<void>) | undefined;

  const logError = (error: unknown, message: string, jobId?: string): void =>
    logger?.error({ err: error, jobId }, message);

  // async_mode=false waiters, by job id, all served by one poller (not one timer and query each).
  const waiters = new Map<string, Set<(ended: boolean) => void>>();
  let poller: NodeJS.Timeout | undefined;

  const settleWaiters = (id: string, value: boolean): void => {
    const set = waiters.get(id);
    if (!set) return;
    waiters.delete(id);
    for (const settle of set) settle(value);
    if (waiters.size === 0) {
      clearInterval(poller);
      poller = undefined;
    }
  };

  /** Settles the waiters of every job among `ids` that has ended or is gone. */
  async function recheckWaiters(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    try {
      const statuses = await statusesOf(db, ids);
      for (const id of ids) {
        const status = statuses.get(id);
        if (status === undefined || !isLive(status)) settleWaiters(id, true);
      }
    } catch (error) {
      logError(error, 'checking waited-for jobs failed; checked again shortly');
    }
  }

  /** Jobs this server is rendering now, with what checks whether each was cancelled. */
  const inFlight = new Map<string, () => void>();

  const statuses = createStatusReader(db);

  /** Tells the other processes sharing the database (nobody with PGlite, which is one process). */
  const broadcast = (payload: string): void => {
    if (!db.listen) return;
    db.query('SELECT pg_notify($1, $2)', [QUEUE_CHANNEL, payload]).catch((error: unknown) =>
      logError(error, 'telling the other processes failed; they see it at their next poll'),
    );
  };

  /** A job ended or was cancelled: its status is read afresh, its render stops, its waiters answer. */
  const endedHere = (id: string): void => {
    statuses.forget(id);
    inFlight.get(id)?.();
    if (waiters.has(id)) void recheckWaiters([id]);
  };

  const announceEnd = (id: string): void => {
    endedHere(id);
    broadcast(`${ENDED}${id}`);
  };

  /** Sleeps `ms`, cut short by notify() (when `wakeable`) or by stop(); answers false when stopping. */
  const pause = (ms: number, wakeable: boolean): Promise<boolean> =>
    new Promise((resolve) => {
      const signal = stopping.signal;
      if (signal.aborted) {
        resolve(false);
        return;
      }
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        wakers = wakers.filter((waker) => waker !== done);
        resolve(!signal.aborted);
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done);
      if (wakeable) wakers.push(done);
    });

  /** Wakes an idle worker of this process. */
  const wake = (): void => {
    const waker = wakers.shift();
    waker?.();
  };

  /** A job was queued, or a stage handed over to the next: an idle worker here or elsewhere takes it. */
  const queued = (): void => {
    wake();
    broadcast(QUEUED);
  };

  const onNotification = (payload: string): void => {
    if (payload === QUEUED) wake();
    else if (payload.startsWith(ENDED)) endedHere(payload.slice(ENDED.length));
  };

  /** The claim's token: whoever holds the job's lease now. */
  const tokenOf = (job: MediaRow): string => {
    if (!job.lease_owner) throw new Error(`job ${job.id} was claimed without a lease`);
    return job.lease_owner;
  };

  async function endJob(job: MediaRow, status: 'failed' | 'nsfw', error: string): Promise<void> {
    await db.transaction((tx) => endJobWithRefund(tx, job.id, status, error, { leaseOwner: tokenOf(job) }));
  }

  /**
   * Renews the claim's lease on a timer while the job renders and its files are written (which
   * may take longer than a lease), so another worker does not take over a job that is progressing.
   */
  function heartbeat(job: MediaRow, progress: () => number, onLost?: () => void): () => void {
    const timer = setInterval(
      () => {
        renewJob(db, job.id, tokenOf(job), progress(), options.leaseMs)
          .then((renewed) => {
            // Cancelled, deleted or taken over: the work in progress is for nobody now.
            if (!renewed) onLost?.();
          })
          .catch((error: unknown) => logError(error, 'renewing a lease failed', job.id));
      },
      Math.max(10, options.leaseMs / 3),
    );
    return () => clearInterval(timer);
  }

  /**
   * The model's time (durationMs × share) in steps, progress rising from `from` to `to`. Null when
   * this worker let go: the server is stopping (the job went back to its queue) or the job was
   * cancelled, deleted or taken over.
   */
  async function simulateWork(job: MediaRow, ms: number, from: number, to: number): Promise<number | null> {
    const steps = Math.min(20, Math.max(2, Math.ceil(ms / 400)));
    let progress = from;
    for (let step = 1; step <= steps; step += 1) {
      if (!(await pause(ms / steps, false))) {
        await releaseJob(db, job.id, tokenOf(job));
        return null;
      }
      progress = Math.round(from + ((to - from) * step) / steps);
      if (!(await renewJob(db, job.id, tokenOf(job), progress, options.leaseMs))) return null;
    }
    return progress;
  }

  const promptOf = (job: MediaRow): string => (typeof job.args.prompt === 'string' ? job.args.prompt : '');

  /** The model's time for `share` of a job (the local stand-in's [slow] takes longer). */
  const modelTime = (job: MediaRow, share: number): number => {
    const ms = options.durationMs * share;
    return options.simulateFailures ? simulatedDuration(promptOf(job), ms) : ms;
  };

  /** The local stand-in's [fail]/[nsfw] and rates; true when the job was ended by it. */
  async function endedBySimulation(job: MediaRow): Promise<boolean> {
    const prompt = promptOf(job);
    const outcome = options.simulateFailures ? simulatedOutcome(job.id, prompt, options) : 'success';
    if (outcome === 'success') return false;
    await endJob(job, outcome, SIMULATED_ERRORS[outcome]);
    return true;
  }

  /** Ends the job for a render that threw: the provider's own message when it has one for the user. */
  async function endForRenderError(job: MediaRow, error: unknown): Promise<void> {
    if (error instanceof RenderRejectedError) {
      await endJob(job, error.outcome, `${error.message} ${REFUNDED}`);
      return;
    }
    if (error instanceof MissingInputError) {
      await endJob(job, 'failed', `${error.message} ${REFUNDED}`);
      return;
    }
    logError(error, 'rendering a job failed', job.id);
    await endJob(job, 'failed', RENDER_ERROR);
  }

  /**
   * Renders the job and writes its files (rows not yet committed), keeping the lease alive and the
   * progress rising from `from` to `to` as the pipeline reports. Null when the job was ended instead.
   */
  async function renderFiles(
    job: MediaRow,
    from: number,
    to: number,
  ): Promise<{ result: PipelineResult; items: StoredItem[]; files: MediaFileRow[] } | null> {
    let progress = from;
    // Stops the pipeline between videos when the server stops or the job stops being this claim's
    // (a cancelled job does not keep a video worker busy with up to eight renders).
    const lost = new AbortController();
    // Only when the job itself ended (cancelled, deleted): a remote provider then cancels its work
    // too. A job taken over by another worker is merely lost: its remote work goes on for the taker.
    const cancelled = new AbortController();
    const onLost = (): void => {
      if (lost.signal.aborted) return;
      statusesOf(db, [job.id])
        .then((statuses) => {
          const status = statuses.get(job.id);
          if (status === undefined || !isLive(status)) cancelled.abort();
          lost.abort();
        })
        .catch((error: unknown) => {
          logError(error, 'checking a lost job failed', job.id);
          lost.abort();
        });
    };
    const stopHeartbeat = heartbeat(job, () => progress, onLost);
    // A cancel or delete through this server's API is seen at once, not at the next heartbeat.
    inFlight.set(job.id, onLost);
    const remembered: Record<string, RemoteRequest> = { ...job.provider_requests };
    const context: RenderContext = {
      jobId: job.id,
      recall: (key) => remembered[key],
      async remember(key, request) {
        remembered[key] = request;
        await rememberProviderRequest(db, job.id, tokenOf(job), key, request);
      },
      signal: stopping.signal,
      cancelled: cancelled.signal,
    };
    try {
      const result = await runPipeline(db, store, provider, job, {
        onProgress: (fraction) => {
          progress = Math.round(from + (to - from) * Math.min(1, Math.max(0, fraction)));
        },
        signal: AbortSignal.any([stopping.signal, lost.signal]),
        context,
      });
      const { items, files } = await writeItems(job, result);
      return { result, items, files };
    } catch (error) {
      if (error instanceof StoppedError) await releaseJob(db, job.id, tokenOf(job));
      else await endForRenderError(job, error);
      return null;
    } finally {
      stopHeartbeat();
      inFlight.delete(job.id);
    }
  }

  /** Stores every item's files; answers the items as the row keeps them and the file rows to commit. */
  async function writeItems(job: MediaRow, result: PipelineResult): Promise<{ items: StoredItem[]; files: MediaFileRow[] }> {
    const toStore: FileToStore[] = [];
    const slots = result.items.map((item) => {
      const at = (file: FileToStore | null | undefined): number | null => {
        if (!file) return null;
        toStore.push(file);
        return toStore.length - 1;
      };
      return { item, result: at(item.result), thumbnail: at(item.thumbnail), gif: at(item.gif) };
    });
    const files = await store.write(job.id, job.user_sub, toStore);
    const idAt = (index: number | null): string | null => (index === null ? null : (files[index]?.id ?? null));
    const items = slots.map(({ item, result: resultAt, thumbnail, gif }): StoredItem => {
      const stored: StoredItem = { status: 'success', file_id: idAt(resultAt), thumbnail_file_id: idAt(thumbnail) };
      if (gif !== null) stored.gif_file_id = idAt(gif);
      if (item.folderPath) stored.folder_path = item.folderPath;
      if (item.label) stored.label = item.label;
      if (typeof item.seed === 'number') stored.seed = item.seed;
      return stored;
    });
    return { items, files };
  }

  /** A single-stage job: the model's time, then the render, stored with the job's success. */
  async function runSingleStage(job: MediaRow): Promise<void> {
    const stage = SINGLE_STAGE.source;
    const progress = await simulateWork(job, modelTime(job, stage.time), stage.from, stage.to);
    if (progress === null || (await endedBySimulation(job))) return;
    const rendered = await renderFiles(job, progress, progress);
    if (!rendered) return;
    const { result, items, files } = rendered;
    const completed = await db.transaction(async (tx) => {
      const row = await completeJob(tx, job.id, tokenOf(job), successStatusOf(job), items, { version: result.version });
      if (row) {
        await store.insertRows(tx, files);
        await result.onComplete?.(tx);
      }
      return row;
    });
    // Cancelled, deleted or taken over while rendering: the files have no rows and go.
    if (!completed) await store.removeFiles(files);
  }

  /** Hands a finished stage over to the next one's queue and wakes a worker for it. */
  async function handOver(job: MediaRow, next: JobStage, progress: number): Promise<void> {
    await db.transaction((tx) => advanceJob(tx, job.id, tokenOf(job), next, { progress }));
    queued();
  }

  /** One stage of a video creation job (see the engine's comment at the top). */
  async function runVideoStage(job: MediaRow, stage: JobStage): Promise<void> {
    const share = VIDEO_STAGES[stage];
    switch (stage) {
      case 'source': {
        const progress = await simulateWork(job, modelTime(job, share.time), share.from, share.to);
        if (progress === null || (await endedBySimulation(job))) return;
        // An input deleted while the job waited fails it now, before the render stage is queued.
        try {
          await resolveInputs(db, store, job);
        } catch (error) {
          await endForRenderError(job, error);
          return;
        }
        await handOver(job, '3d', progress);
        return;
      }
      case '3d': {
        const rendered = await renderFiles(job, share.from, share.to);
        if (!rendered) return;
        const { items, files } = rendered;
        let advanced;
        try {
          advanced = await db.transaction(async (tx) => {
            const row = await advanceJob(tx, job.id, tokenOf(job), 'bullet', { progress: share.to, items });
            if (row) await store.insertRows(tx, files);
            return row;
          });
        } catch (error) {
          // The files are stored but have no rows: remove them before the error ends this claim.
          await store.removeFiles(files);
          throw error;
        }
        if (!advanced) {
          await store.removeFiles(files);
          return;
        }
        queued();
        return;
      }
      case 'bullet': {
        const progress = await simulateWork(job, modelTime(job, share.time), share.from, share.to);
        if (progress === null) return;
        const items = job.items.map((item): StoredItem => ({ ...item, status: 'success' }));
        await db.transaction((tx) => completeJob(tx, job.id, tokenOf(job), successStatusOf(job), items, { version: '3' }));
        return;
      }
    }
  }

  async function runJob(job: MediaRow): Promise<void> {
    if (job.attempts > MAX_JOB_ATTEMPTS) {
      await endJob(job, 'failed', INTERRUPTED_ERROR);
      return;
    }
    const stages = jobStages(job);
    const stage = stageOf(job.status);
    if (!stage || !stages.includes(stage)) {
      logError(new Error(`status ${job.status} is not a stage of a ${job.kind} ${job.tool} job`), 'a job cannot run', job.id);
      await endJob(job, 'failed', RENDER_ERROR);
      return;
    }
    if (stages.length === 1) await runSingleStage(job);
    else await runVideoStage(job, stage);
  }

  async function workerLoop(): Promise<void> {
    while (!stopping.signal.aborted) {
      let job: MediaRow | null = null;
      try {
        job = await db.transaction((tx) => claimNextJob(tx, newClaimToken(), options.leaseMs, options.maxRunningPerUser || null));
      } catch (error) {
        logError(error, 'claiming a job failed');
      }
      if (!job) {
        await pause(options.pollIntervalMs, true);
        continue;
      }
      try {
        await runJob(job);
      } catch (error) {
        logError(error, 'a job failed unexpectedly; its lease will expire and it is retried', job.id);
      } finally {
        announceEnd(job.id);
        onJobSettled?.(job.id);
        // Stopping: the job went back to its queue; a worker of another process resumes it now.
        if (stopping.signal.aborted) broadcast(QUEUED);
      }
    }
  }

  async function maintain(): Promise<void> {
    try {
      await store.sweepOrphans(db);
      await pruneIdempotencyKeys(db);
    } catch (error) {
      logError(error, 'media maintenance failed');
    }
  }

  return {
    options,
    store,
    get running() {
      return running;
    },
    async start() {
      if (running) return;
      running = true;
      stopping = new AbortController();
      try {
        unlisten = await db.listen?.(QUEUE_CHANNEL, onNotification);
      } catch (error) {
        // Without the channel every process still polls: slower to react, never wrong.
        logError(error, 'listening for the other processes failed; polling only');
      }
      if (!options.workers) return;
      workers = Array.from({ length: options.concurrency }, () => workerLoop());
      void maintain();
      maintenance = setInterval(() => void maintain(), MAINTENANCE_MS);
      maintenance.unref();
    },
    async stop() {
      if (!running) return;
      running = false;
      clearInterval(maintenance);
      stopping.abort();
      await Promise.all(workers);
      workers = [];
      await unlisten?.();
      unlisten = undefined;
      for (const id of [...waiters.keys()]) settleWaiters(id, false);
    },
    notify: queued,
    announceEnd,
    statuses,
    waitForEnd(id, timeoutMs, signal) {
      return new Promise((resolve) => {
        if (!running || signal?.aborted) {
          resolve(false);
          return;
        }
        let settled = false;
        const settle = (value: boolean): void => {
          if (settled) return;
          settled = true;
          clearTimeout(timeout);
          signal?.removeEventListener('abort', onAbort);
          const set = waiters.get(id);
          set?.delete(settle);
          if (set?.size === 0) settleWaiters(id, false);
          resolve(value);
        };
        const onAbort = (): void => settle(false);
        const timeout = setTimeout(() => settle(false), timeoutMs);
        signal?.addEventListener('abort', onAbort);
        let set = waiters.get(id);
        if (!set) {
          set = new Set();
          waiters.set(id, set);
        }
        set.add(settle);
        poller ??= setInterval(() => void recheckWaiters([...waiters.keys()]), options.waitRecheckMs);
        void recheckWaiters([id]);
      });
    },
  };
}

function stripUndefined<T extends object>(value: Partial<T>): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as Partial<T>;
}
