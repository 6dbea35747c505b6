import type { Database, Queryable } from '../db/database.ts';
import { deleteExpiredJobLogs, trimProblemReports } from '../db/inspection.ts';
import { createScheduledTask, type ScheduledTask } from './scheduled-task.ts';

/**
 * The QA inspector's retention (issue 22): job logs older than JOB_LOG_RETENTION_DAYS are deleted
 * (reads already ignore them), and problem reports past the newest PROBLEM_REPORTS_KEPT (each new
 * report trims them too). A scheduled task of its own, in scheduled_tasks like the guest clean-up,
 * so one server of several sharing the database runs it and its time survives a restart.
 */
export const INSPECTION_RETENTION_TASK = 'inspection-retention';
/** Daily: a log is gone within a day of its week running out. */
export const DEFAULT_INSPECTION_RETENTION_INTERVAL_MS = 24 * 60 * 60 * 1000;

export interface InspectionRetentionResult extends Record<string, unknown> {
  jobLogs: number;
  problemReports: number;
}

export async function applyInspectionRetention(tx: Queryable): Promise<InspectionRetentionResult> {
  return { jobLogs: await deleteExpiredJobLogs(tx), problemReports: await trimProblemReports(tx) };
}

export interface InspectionRetentionOptions {
  db: Database;
  intervalMs?: number;
  checkEveryMs?: number;
  onError?(error: unknown): void;
}

export function createInspectionRetention(options: InspectionRetentionOptions): ScheduledTask {
  return createScheduledTask({
    db: options.db,
    name: INSPECTION_RETENTION_TASK,
    intervalMs: options.intervalMs ?? DEFAULT_INSPECTION_RETENTION_INTERVAL_MS,
    checkEveryMs: options.checkEveryMs,
    onError: options.onError,
    run: applyInspectionRetention,
  });
}
