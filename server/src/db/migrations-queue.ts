import type { Migration } from './sql.ts';

/**
 * Migration 17: a queue the person controls (issue 21 item 2, server/src/db/queue.ts). `held_at`:
 * the job waits until its owner resumes it (the claim passes it by). `queue_at`: where the job
 * stands in the queue — its creation time, until its owner asks for it to run next, which moves it
 * just before their own first waiting job (never ahead of anyone else's older jobs). The claim
 * takes waiting jobs by `queue_at`; the per-person limit counts the owner's started jobs. Never
 * edit it once it has shipped; add a new migration.
 */
export const QUEUE_MIGRATION: Migration = {
  id: 17,
  name: 'media-queue-control',
  statements: [
    `ALTER TABLE media ADD COLUMN held_at timestamptz`,
    `ALTER TABLE media ADD COLUMN queue_at timestamptz`,
    `UPDATE media SET queue_at = created_at`,
    `ALTER TABLE media ALTER COLUMN queue_at SET DEFAULT clock_timestamp()`,
    `ALTER TABLE media ALTER COLUMN queue_at SET NOT NULL`,
    // The claim: waiting rows (not held) by their place in the queue (replaces migration 6's by created_at).
    `DROP INDEX media_queue_idx`,
    `CREATE INDEX media_queue_idx ON media (queue_at, id)
      WHERE status IN ('queue_source', 'queue_3d', 'queue_bullet') AND held_at IS NULL`,
    // A person's live jobs: the per-person limit counts their started ones, positions their waiting ones.
    `CREATE INDEX media_user_live_idx ON media (user_sub, status, queue_at, id)
      WHERE status IN ('queue_source', 'queue_3d', 'queue_bullet', 'processing_source', 'processing_3d', 'processing_bullet')`,
  ],
};
