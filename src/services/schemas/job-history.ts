import { z } from './zod-mini';
// Relative imports: the local server loads this file under tsx and imports it by path.
import { mediaSchema } from './media';

/**
 * The person's jobs read from the server (issue 21 item 1, "Jobs from any device"), Kinora's
 * additions to SPEC §7: `GET media` with search, filters, sorts and `next_start_keys` paging, and
 * `POST media/{id}/rerun`. Shared with the server (server/src/routes/media.ts validates the query
 * with these lists), which may import src/services/schemas.
 */

/**
 * `status` of GET media: `live` is every queued or processing status; `succeeded` every SPEC §4
 * success status (success_image, success_source, success_3d, success); the others are the row's
 * own ended status.
 */
export const JOB_SEARCH_STATUSES = ['live', 'succeeded', 'failed', 'nsfw', 'cancelled'] as const;
export type JobSearchStatus = (typeof JOB_SEARCH_STATUSES)[number];

/** How the UI names each status filter (the values above, in that order). */
export const JOB_SEARCH_STATUS_LABELS: Readonly<Record<JobSearchStatus, string>> = {
  live: 'Running',
  succeeded: 'Succeeded',
  failed: 'Failed',
  nsfw: 'Flagged as unsafe',
  cancelled: 'Cancelled',
};

/**
 * `sort` of GET media (default `newest`). Ties are broken by creation time and id in the same
 * direction: `cost_high` lists the newest first among equal costs, `cost_low` the oldest first.
 */
export const JOB_SEARCH_SORTS = ['newest', 'oldest', 'cost_high', 'cost_low'] as const;
export type JobSearchSort = (typeof JOB_SEARCH_SORTS)[number];

/** How the UI names each sort (the values above, in that order). */
export const JOB_SEARCH_SORT_LABELS: Readonly<Record<JobSearchSort, string>> = {
  newest: 'Newest first',
  oldest: 'Oldest first',
  cost_high: 'Cost: high to low',
  cost_low: 'Cost: low to high',
};

/** The default sort: GET media's order before issue 21. */
export const JOB_SEARCH_DEFAULT_SORT: JobSearchSort = 'newest';

/** Most jobs one page of GET media holds (20 when `limit` is not sent). */
export const JOB_SEARCH_LIMIT_MAX = 50;

/**
 * GET media with the search's parameters: the page's jobs and the cursor of the next page
 * (`next_start_keys`, opaque; null on the last page). Today's callers read `items` only.
 */
export const jobSearchPageSchema = z.object({
  items: z.array(mediaSchema),
  next_start_keys: z._default(z.nullable(z.string()), null),
});
export type JobSearchPage = z.infer<typeof jobSearchPageSchema>;
