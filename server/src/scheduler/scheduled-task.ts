import type { Database, Queryable } from '../db/database.ts';

export interface ScheduledTaskOptions {
  db: Database;
  /** The task's row in scheduled_tasks. */
  name: string;
  /** Time between runs. */
  intervalMs: number;
  /**
   * The work, inside the transaction that holds the task's row lock: it commits together with the
   * new next_run_at, or not at all (a failed run is retried at the next check). The answer is kept
   * in last_result.
   */
  run(tx: Queryable): Promise<Record<string, unknown>>;
  /** How often to look whether the task is due; min(intervalMs, 1 minute) by default. */
  checkEveryMs?: number;
  /** A run that threw (the next check retries it). */
  onError?(error: unknown): void;
}

export type RunOutcome = 'ran' | 'not-due' | 'busy';

export interface ScheduledTask {
  /** Runs the task if it is due and no one else is running it. */
  runIfDue(): Promise<RunOutcome>;
  /** Records the task (first run one interval from now) and starts checking. */
  start(): Promise<void>;
  /** Stops checking and waits for a run in progress. */
  stop(): Promise<void>;
}

const MAX_CHECK_MS = 60_000;

/**
 * A recurring task whose schedule lives in the database: `next_run_at` survives a restart (a
 * server restarted mid-week does not start the week again), and a row lock taken with SKIP LOCKED
 * makes every other server sharing the database skip the run while one performs it.
 */
export function createScheduledTask(options: ScheduledTaskOptions): ScheduledTask {
  const { db, name, intervalMs } = options;
  if (!Number.isFinite(intervalMs) || intervalMs <= 0) throw new Error(`${name}: the interval must be a positive number of milliseconds`);
  const checkEveryMs = options.checkEveryMs ?? Math.min(intervalMs, MAX_CHECK_MS);
  const interval = 'make_interval(secs => $2::double precision / 1000)';
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = false;

  const runIfDue = (): Promise<RunOutcome> =>
    db.transaction(async (tx) => {
      const { rows } = await tx.query<{ due: boolean }>(
        'SELECT next_run_at <= now() AS due FROM scheduled_tasks WHERE name = $1 FOR UPDATE SKIP LOCKED',
        [name],
      );
      const row = rows[0];
      if (!row) return 'busy';
      if (!row.due) return 'not-due';
      const result = await options.run(tx);
      // Keep the weekly rhythm; after a long downtime, one run and then a full interval.
      await tx.query(
        `UPDATE scheduled_tasks SET last_run_at = now(), last_result = $3::jsonb,
           next_run_at = CASE WHEN next_run_at + ${interval} > now() THEN next_run_at + ${interval} ELSE now() + ${interval} END
         WHERE name = $1`,
        [name, intervalMs, JSON.stringify(result)],
      );
      return 'ran';
    });

  const tick = async (): Promise<void> => {
    if (stopped || running) return;
    running = runIfDue().catch((error: unknown) => options.onError?.(error));
    await running;
    running = undefined;
    if (!stopped) {
      timer = setTimeout(() => void tick(), checkEveryMs);
      timer.unref();
    }
  };

  return {
    runIfDue,
    async start() {
      // A shorter interval than the stored schedule assumed (configuration changed) takes effect now.
      await db.query(
        `INSERT INTO scheduled_tasks (name, next_run_at) VALUES ($1, now() + ${interval})
         ON CONFLICT (name) DO UPDATE SET next_run_at = LEAST(scheduled_tasks.next_run_at, EXCLUDED.next_run_at)`,
        [name, intervalMs],
      );
      stopped = false;
      timer = setTimeout(() => void tick(), Math.min(checkEveryMs, intervalMs));
      timer.unref();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
