import type { Migration } from './sql.ts';

/**
 * Migration 16: every generation job's seed (issue 21 item 7, server/src/lib/seed.ts), the number
 * its model was given, so the result can show it, be made again with it, or varied. Null for
 * rows made before and for what is not generated (uploads, records). Never edit it once it has
 * shipped; add a new migration.
 */
export const SEED_MIGRATION: Migration = {
  id: 16,
  name: 'media-seed',
  statements: [
    `ALTER TABLE media ADD COLUMN seed integer CHECK (seed IS NULL OR seed BETWEEN 0 AND 2147483646)`,
    // GET media?seed=: the person's jobs of one seed.
    `CREATE INDEX media_user_seed_idx ON media (user_sub, seed) WHERE seed IS NOT NULL`,
  ],
};
