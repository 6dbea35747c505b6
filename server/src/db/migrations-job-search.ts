import type { Migration } from './sql.ts';

/**
 * Migration 15: indexes for the person's job history read from the server (issue 21 item 1,
 * server/src/db/media-search.ts). Every sort of GET media ends in `id`, so its index does too:
 * a page is a range scan of the owner's rows from the previous page's key, in either direction.
 * Never edit it once it has shipped; add a new migration.
 */
export const JOB_SEARCH_MIGRATION: Migration = {
  id: 15,
  name: 'job-search-indexes',
  statements: [
    // newest / oldest (forward or backward): replaces migration 5's (user_sub, created_at DESC).
    `CREATE INDEX media_user_created_id_idx ON media (user_sub, created_at DESC, id DESC)`,
    `DROP INDEX media_user_created_idx`,
    // ?tool= with either date sort (the results under each tool): replaces (user_sub, tool, created_at DESC).
    `CREATE INDEX media_user_tool_created_id_idx ON media (user_sub, tool, created_at DESC, id DESC)`,
    `DROP INDEX media_user_listing_idx`,
    // cost_high / cost_low.
    `CREATE INDEX media_user_cost_idx ON media (user_sub, cost DESC, created_at DESC, id DESC)`,
  ],
};
