import type { Migration } from './sql.ts';

/**
 * Migration 14: what the QA inspector keeps on the server (issue 22 items 1 and 5). Never edit it
 * once it has shipped; add a new migration.
 */
export const INSPECTION_MIGRATION: Migration = {
  id: 14,
  name: 'job-logs-and-problem-reports',
  statements: [
    // A finished job's inspector log (its actors' records, redacted by the server before they are
    // written), one per job, gone with the job and after a week (scheduler/inspection-retention.ts).
    `CREATE TABLE job_logs (
      media_id text PRIMARY KEY REFERENCES media (id) ON DELETE CASCADE,
      user_sub text NOT NULL REFERENCES users (sub),
      log jsonb NOT NULL,
      bytes integer NOT NULL CHECK (bytes >= 0),
      saved_at timestamptz NOT NULL DEFAULT clock_timestamp()
    )`,
    // The retention sweep deletes by age.
    `CREATE INDEX job_logs_saved_idx ON job_logs (saved_at)`,
    `CREATE INDEX job_logs_user_idx ON job_logs (user_sub)`,
    // "Report a problem" bundles sent in local mode (redacted); the newest 200 are kept.
    `CREATE TABLE problem_reports (
      id text PRIMARY KEY,
      user_sub text REFERENCES users (sub) ON DELETE SET NULL,
      title text NOT NULL,
      bundle jsonb NOT NULL,
      bytes integer NOT NULL CHECK (bytes >= 0),
      created_at timestamptz NOT NULL DEFAULT clock_timestamp()
    )`,
    `CREATE INDEX problem_reports_created_idx ON problem_reports (created_at DESC, id DESC)`,
    `CREATE INDEX problem_reports_user_idx ON problem_reports (user_sub, created_at DESC, id DESC)`,
  ],
};
