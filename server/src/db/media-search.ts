import { GENERATION_STATUSES, type MediaKind } from '../../../src/config/enums.ts';
import type { JobSearchSort, JobSearchStatus } from '../../../src/services/schemas/job-history.ts';
import type { Queryable } from './database.ts';
import { LIVE_STATUSES, mediaColumns, type MediaRow } from './media.ts';

/**
 * GET media's search (issue 21 item 1): the owner's jobs filtered, sorted and paged by key (no
 * OFFSET: a page costs the same however deep it is, and a job created meanwhile neither repeats
 * nor skips a row). Every sort ends in `id`, so rows created in the same microsecond keep one
 * order. Migration 15 (migrations-job-search.ts) indexes the sorts.
 */

/** The row statuses each `status` filter stands for. */
export const SEARCH_STATUS_ROWS: Readonly<Record<JobSearchStatus, readonly string[]>> = {
  live: LIVE_STATUSES,
  succeeded: GENERATION_STATUSES.success,
  failed: ['failed'],
  nsfw: ['nsfw'],
  cancelled: ['cancelled'],
};

/** Where the previous page ended: the last row's sort key (created_at to the microsecond, in UTC). */
export interface SearchKey {
  createdAt: string;
  cost: number;
  id: string;
}

export interface MediaSearch {
  tool?: string;
  /** The media kind (`image`, `video`, `audio`): the Library's filter. */
  kind?: MediaKind;
  /** Only the media in this Library folder (the caller checks the folder is the owner's). */
  folderId?: string;
  option?: string;
  status?: JobSearchStatus;
  /** A case-insensitive part of the prompt (`args->>'prompt'`), matched literally (% and _ too). */
  q?: string;
  /** The job's seed (the `seed` column; a record's `args.seed` as text, for items that keep one there). */
  seed?: string;
  costMin?: number;
  costMax?: number;
  /** created_at at or after this instant. */
  from?: Date;
  /** created_at at or before this instant. */
  toInclusive?: Date;
  /** created_at before this instant (a date alone: the next day's start). */
  toExclusive?: Date;
  sort: JobSearchSort;
  after?: SearchKey;
  limit: number;
}

/** A row of the search with its key, written exactly so the next page starts after it. */
export interface SearchRow extends MediaRow {
  search_key: SearchKey;
}

/** Placeholders of the previous page's key; `cost` is asked for only by the sorts that compare it. */
interface KeyParams {
  at: () => string;
  id: () => string;
  cost: () => string;
}

/** `ORDER BY` of each sort, and the row comparison that keeps what comes after a key. */
const ORDERS: Readonly<Record<JobSearchSort, { order: string; after: (key: KeyParams) => string }>> = {
  newest: { order: 'created_at DESC, id DESC', after: (key) => `(created_at, id) < (${key.at()}::timestamptz, ${key.id()})` },
  oldest: { order: 'created_at ASC, id ASC', after: (key) => `(created_at, id) > (${key.at()}::timestamptz, ${key.id()})` },
  cost_high: {
    order: 'cost DESC, created_at DESC, id DESC',
    after: (key) => `(cost, created_at, id) < (${key.cost()}::integer, ${key.at()}::timestamptz, ${key.id()})`,
  },
  cost_low: {
    order: 'cost ASC, created_at ASC, id ASC',
    after: (key) => `(cost, created_at, id) > (${key.cost()}::integer, ${key.at()}::timestamptz, ${key.id()})`,
  },
};

/** `\`, `%` and `_` taken literally by LIKE … ESCAPE '\'. */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/** created_at as text to the microsecond (a JS Date keeps milliseconds only: a key must not lose the rest). */
const KEY_AT = `to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * One page of `userSub`'s media: at most `limit` rows, and whether more follow (one row more is
 * read to know). Only the caller's own rows are ever read.
 */
export async function searchOwnMedia(db: Queryable, userSub: string, search: MediaSearch): Promise<{ rows: SearchRow[]; more: boolean }> {
  const params: unknown[] = [userSub];
  const named = new Map<string, string>();
  /** A parameter's placeholder ($n), added once however often it is named. */
  const param = (name: string, value: unknown): string => {
    const known = named.get(name);
    if (known) return known;
    params.push(value);
    const placeholder = `$${params.length}`;
    named.set(name, placeholder);
    return placeholder;
  };
  const where = ['user_sub = $1'];
  if (search.tool !== undefined) where.push(`tool = ${param('tool', search.tool)}`);
  if (search.kind !== undefined) where.push(`kind = ${param('kind', search.kind)}`);
  if (search.folderId !== undefined) {
    where.push(`id IN (SELECT media_id FROM library_folder_items WHERE folder_id = ${param('folder', search.folderId)})`);
  }
  if (search.option !== undefined) where.push(`option = ${param('option', search.option)}`);
  if (search.status !== undefined) where.push(`status = ANY(${param('status', SEARCH_STATUS_ROWS[search.status])}::text[])`);
  if (search.q !== undefined) {
    where.push(`args->>'prompt' ILIKE ${param('q', `%${escapeLike(search.q)}%`)} ESCAPE '\\'`);
  }
  if (search.seed !== undefined) {
    const seed = param('seed', search.seed);
    where.push(`(seed::text = ${seed} OR args->>'seed' = ${seed})`);
  }
  if (search.costMin !== undefined) where.push(`cost >= ${param('costMin', search.costMin)}::integer`);
  if (search.costMax !== undefined) where.push(`cost <= ${param('costMax', search.costMax)}::integer`);
  if (search.from !== undefined) where.push(`created_at >= ${param('from', search.from.toISOString())}::timestamptz`);
  if (search.toInclusive !== undefined) where.push(`created_at <= ${param('to', search.toInclusive.toISOString())}::timestamptz`);
  if (search.toExclusive !== undefined) where.push(`created_at < ${param('toBefore', search.toExclusive.toISOString())}::timestamptz`);
  const { order, after } = ORDERS[search.sort];
  if (search.after) {
    const key = search.after;
    where.push(
      after({
        at: () => param('keyAt', key.createdAt),
        id: () => `${param('keyId', key.id)}::text`,
        cost: () => param('keyCost', key.cost),
      }),
    );
  }
  const limit = param('limit', search.limit + 1);
  const { rows } = await db.query<MediaRow & { key_at: string }>(
    `SELECT ${mediaColumns}, ${KEY_AT} AS key_at FROM media WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ${limit}::integer`,
    params,
  );
  const page = rows.slice(0, search.limit).map(({ key_at, ...row }): SearchRow => ({
    ...row,
    search_key: { createdAt: key_at, cost: row.cost, id: row.id },
  }));
  return { rows: page, more: rows.length > search.limit };
}

// ---- next_start_keys -----------------------------------------------------------------------------

/** A created_at key as KEY_AT writes it. */
const KEY_AT_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** The cursor a page answers (`next_start_keys`): base64url JSON of its sort and its last row's key. */
export function encodeSearchCursor(sort: JobSearchSort, key: SearchKey): string {
  return Buffer.from(JSON.stringify({ s: sort, t: key.createdAt, c: key.cost, i: key.id })).toString('base64url');
}

/** A real instant written as KEY_AT writes it (no 30 February, no hour 25). */
function isKeyInstant(value: string): boolean {
  if (!KEY_AT_PATTERN.test(value)) return false;
  const millis = `${value.slice(0, 23)}Z`;
  const parsed = new Date(millis);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString() === millis;
}

/**
 * The key a cursor of this sort carries, or null when it is not one this listing gave out (not
 * base64url JSON of that shape, or made for another sort): the route answers 400.
 */
export function decodeSearchCursor(cursor: string, sort: JobSearchSort): SearchKey | null {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { s, t, c, i } = value as Record<string, unknown>;
  if (s !== sort || typeof t !== 'string' || !isKeyInstant(t)) return null;
  if (typeof c !== 'number' || !Number.isSafeInteger(c) || c < 0) return null;
  if (typeof i !== 'string' || i.length === 0 || i.length > 200) return null;
  return { createdAt: t, cost: c, id: i };
}
