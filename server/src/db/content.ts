import type { MediaKind } from '../../../src/config/enums.ts';
import type { Visibility } from '../../../src/config/sharing.ts';
import type { Queryable } from './database.ts';
import type { StoredItem } from './media.ts';

/**
 * Sharing (SPEC §2.8) and the public content listings (SPEC §7 users/{id}/contents,
 * users/latest-contents): media rows with their owner, newest shared first, paged by a keyset
 * cursor on (shared_at, id) so a page never repeats or skips an item shared meanwhile.
 */

/** What a listing needs of a shared media row (its files are loaded separately). */
export interface ContentRow {
  id: string;
  user_sub: string;
  kind: MediaKind;
  tool: string;
  visibility: Visibility;
  title: string;
  description: string;
  items: StoredItem[];
  creation_type: string | null;
  /** shared_at as ISO 8601 with microseconds (a JS Date would drop them and break the cursor). */
  shared_key: string;
  owner_handle: string | null;
}

/** Where the next page starts: the last item of this page. */
export interface ContentCursor {
  sharedAt: string;
  id: string;
}

export interface ContentFilter {
  keyword: string;
  after: ContentCursor | null;
  limit: number;
}

const contentColumns = `m.id, m.user_sub, m.kind, m.tool, m.visibility, m.title, m.description, m.items,
  m.args->>'creation_type' AS creation_type,
  to_char(m.shared_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS shared_key,
  u.preferred_username AS owner_handle`;

/** `%keyword%` for ILIKE, the keyword's own % _ and \ taken literally. */
const likePattern = (keyword: string): string => `%${keyword.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/**
 * The shared conditions of both listings, numbered from $1: keyword ($1, '' for none), cursor
 * ($2 shared_at, $3 id; null for the first page) and limit ($4).
 */
function pageClauses(filter: ContentFilter): { where: string; params: unknown[] } {
  const keyword = filter.keyword.trim();
  return {
    where: `m.shared_at IS NOT NULL AND u.deleted_at IS NULL
      AND ($1::text = '' OR m.title ILIKE $1 OR m.description ILIKE $1 OR m.args->>'prompt' ILIKE $1)
      AND ($2::timestamptz IS NULL OR (m.shared_at, m.id) < ($2::timestamptz, $3::text))`,
    params: [keyword === '' ? '' : likePattern(keyword), filter.after?.sharedAt ?? null, filter.after?.id ?? null, filter.limit],
  };
}

/**
 * One person's shared media: `public` ones, and `unlisted` ones too when `withUnlisted` (the
 * caller is that person).
 */
export async function listUserContents(
  db: Queryable,
  userSub: string,
  withUnlisted: boolean,
  filter: ContentFilter,
): Promise<ContentRow[]> {
  const { where, params } = pageClauses(filter);
  const { rows } = await db.query<ContentRow>(
    `SELECT ${contentColumns} FROM media m JOIN users u ON u.sub = m.user_sub
     WHERE ${where} AND m.user_sub = $5
       AND (m.visibility = 'public' OR ($6::boolean AND m.visibility = 'unlisted'))
     ORDER BY m.shared_at DESC, m.id DESC LIMIT $4`,
    [...params, userSub, withUnlisted],
  );
  return rows;
}

/**
 * Everyone's `public` media. The shared guest account's (SPEC §6) are left out unless
 * `includeGuests` (the caller is the guest account).
 */
export async function listLatestContents(
  db: Queryable,
  guestUsername: string,
  includeGuests: boolean,
  filter: ContentFilter,
): Promise<ContentRow[]> {
  const { where, params } = pageClauses(filter);
  const { rows } = await db.query<ContentRow>(
    `SELECT ${contentColumns} FROM media m JOIN users u ON u.sub = m.user_sub
     WHERE ${where} AND m.visibility = 'public' AND ($6::boolean OR lower(u.username) <> $5)
     ORDER BY m.shared_at DESC, m.id DESC LIMIT $4`,
    [...params, guestUsername, includeGuests],
  );
  return rows;
}

/**
 * PUT media/{id}/share: the title, description and visibility. shared_at is set the first time
 * it becomes public or unlisted and kept afterwards (also when made private again). Answers
 * whether the caller's row was there.
 */
export async function shareMedia(
  db: Queryable,
  id: string,
  userSub: string,
  share: { title: string; description: string; visibility: Visibility },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE media SET title = $3, description = $4, visibility = $5,
       shared_at = CASE WHEN $5 <> 'private' THEN COALESCE(shared_at, clock_timestamp()) ELSE shared_at END,
       updated_at = clock_timestamp()
     WHERE id = $1 AND user_sub = $2`,
    [id, userSub, share.title, share.description, share.visibility],
  );
  return rowCount > 0;
}
