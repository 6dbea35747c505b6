import { JOB_LOG_RETENTION_DAYS, PROBLEM_REPORTS_KEPT } from '../../../src/services/schemas/inspection.ts';
import type { Queryable } from './database.ts';
import { newPublicId } from './media.ts';

/**
 * The QA inspector's rows (migration 14): job_logs, one redacted inspector log per finished job,
 * answered for JOB_LOG_RETENTION_DAYS after it was saved; problem_reports, the bundles sent in
 * local mode, the newest PROBLEM_REPORTS_KEPT kept. Callers redact before they write.
 */

/** `saved_at` is recent enough to be answered (and to survive the retention sweep). */
const FRESH_LOG = `saved_at > clock_timestamp() - make_interval(days => ${JOB_LOG_RETENTION_DAYS})`;

export interface JobLogRow {
  media_id: string;
  log: { records: unknown[]; messages?: unknown[] };
  bytes: number;
  saved_at: Date;
}

/** Stores (or replaces) a job's log; the caller has checked the job is `userSub`'s. */
export async function saveJobLog(
  db: Queryable,
  entry: { mediaId: string; userSub: string; log: unknown; bytes: number },
): Promise<{ saved_at: Date }> {
  const { rows } = await db.query<{ saved_at: Date }>(
    `INSERT INTO job_logs (media_id, user_sub, log, bytes) VALUES ($1, $2, $3::jsonb, $4)
     ON CONFLICT (media_id) DO UPDATE SET user_sub = EXCLUDED.user_sub, log = EXCLUDED.log, bytes = EXCLUDED.bytes,
       saved_at = clock_timestamp()
     RETURNING saved_at`,
    [entry.mediaId, entry.userSub, JSON.stringify(entry.log), entry.bytes],
  );
  const row = rows[0];
  if (!row) throw new Error('INSERT INTO job_logs returned no row');
  return row;
}

/** The job's log when one was saved within the retention time, else null. */
export async function findJobLog(db: Queryable, mediaId: string, userSub: string): Promise<JobLogRow | null> {
  const { rows } = await db.query<JobLogRow>(
    `SELECT media_id, log, bytes, saved_at FROM job_logs WHERE media_id = $1 AND user_sub = $2 AND ${FRESH_LOG}`,
    [mediaId, userSub],
  );
  return rows[0] ?? null;
}

/** When the job's (fresh) log was saved and its size, for the job's history. */
export async function jobLogSaved(db: Queryable, mediaId: string): Promise<{ saved_at: Date; bytes: number } | null> {
  const { rows } = await db.query<{ saved_at: Date; bytes: number }>(
    `SELECT saved_at, bytes FROM job_logs WHERE media_id = $1 AND ${FRESH_LOG}`,
    [mediaId],
  );
  return rows[0] ?? null;
}

/** Removes the logs older than the retention time; answers how many. */
export async function deleteExpiredJobLogs(tx: Queryable): Promise<number> {
  const { rowCount } = await tx.query(`DELETE FROM job_logs WHERE NOT (${FRESH_LOG})`);
  return rowCount;
}

export interface JobLedgerRow {
  amount: number;
  kind: string;
  reason: string;
  created_at: Date;
}

/** The credit ledger's rows of one job (its debit, its refund), oldest first. */
export async function jobLedgerRows(db: Queryable, mediaId: string, userSub: string): Promise<JobLedgerRow[]> {
  const { rows } = await db.query<JobLedgerRow>(
    'SELECT amount, kind, reason, created_at FROM credit_ledger WHERE job_id = $1 AND user_sub = $2 ORDER BY created_at, id',
    [mediaId, userSub],
  );
  return rows;
}

export interface ProblemReportSummary {
  id: string;
  title: string;
  created_at: Date;
  bytes: number;
}

/**
 * Stores a (redacted) problem report and drops the ones past the newest PROBLEM_REPORTS_KEPT, in
 * one transaction's worth of statements (`tx`).
 */
export async function insertProblemReport(
  tx: Queryable,
  report: { userSub: string; title: string; bundle: unknown; bytes: number },
): Promise<ProblemReportSummary> {
  const { rows } = await tx.query<ProblemReportSummary>(
    `INSERT INTO problem_reports (id, user_sub, title, bundle, bytes) VALUES ($1, $2, $3, $4::jsonb, $5)
     RETURNING id, title, created_at, bytes`,
    [newPublicId(), report.userSub, report.title, JSON.stringify(report.bundle), report.bytes],
  );
  const row = rows[0];
  if (!row) throw new Error('INSERT INTO problem_reports returned no row');
  await trimProblemReports(tx);
  return row;
}

/** Deletes every report but the newest `keep`; answers how many went. */
export async function trimProblemReports(tx: Queryable, keep = PROBLEM_REPORTS_KEPT): Promise<number> {
  const { rowCount } = await tx.query(
    `DELETE FROM problem_reports WHERE id NOT IN (SELECT id FROM problem_reports ORDER BY created_at DESC, id DESC LIMIT $1)`,
    [keep],
  );
  return rowCount;
}

/** The newest reports, of one person (`userSub`) or of everyone (null). */
export async function listProblemReports(db: Queryable, userSub: string | null, limit: number): Promise<ProblemReportSummary[]> {
  const { rows } = await db.query<ProblemReportSummary>(
    `SELECT id, title, created_at, bytes FROM problem_reports WHERE ($1::text IS NULL OR user_sub = $1)
     ORDER BY created_at DESC, id DESC LIMIT $2`,
    [userSub, limit],
  );
  return rows;
}

/** One report's bundle, of one person (`userSub`) or of anyone (null). */
export async function findProblemReport(db: Queryable, id: string, userSub: string | null): Promise<unknown> {
  const { rows } = await db.query<{ bundle: unknown }>(
    'SELECT bundle FROM problem_reports WHERE id = $1 AND ($2::text IS NULL OR user_sub = $2)',
    [id, userSub],
  );
  return rows[0]?.bundle ?? null;
}
