import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CONTENT_PAGE_SIZE } from '../../../src/config/sharing.ts';
import { GUEST_USERNAME } from '../../../src/config/limits.ts';
import {
  contentQuerySchema,
  shareRequestSchema,
  type ContentPage,
  type PublicContent,
} from '../../../src/services/schemas/content.ts';
import type { Media } from '../../../src/services/schemas/media.ts';
import { listLatestContents, listUserContents, shareMedia, type ContentCursor, type ContentRow } from '../db/content.ts';
import { filesOfMedia, type MediaFileRow } from '../db/files.ts';
import { findOwnMedia, type MediaRow } from '../db/media.ts';
import { isGuestUsername } from '../db/users.ts';
import { HttpError, ok, parseInput } from './http.ts';
import { mediaAnswer, type LinkMaker } from './media-answer.ts';
import { requestOrigin, type MediaRouteDeps } from './media-deps.ts';
import { DETAILS } from './messages.ts';
import { promoVideoRoutes } from './public.ts';
import { findPublicUser } from './users.ts';
import type { AuthUser } from './user-auth.ts';

/** A cursor's shared_at: ISO 8601 in UTC as the listing writes it (microseconds kept). */
const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;
const CURSOR_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** next_start_keys: opaque base64url of the last item's (shared_at, id). */
export const encodeContentCursor = (cursor: ContentCursor): string =>
  Buffer.from(JSON.stringify([cursor.sharedAt, cursor.id]), 'utf8').toString('base64url');

/** The cursor a listing gave out, or a 400 for anything else. */
export function decodeContentCursor(value: string | null): ContentCursor | null {
  if (value === null || value === '') return null;
  const bad = new HttpError(400, DETAILS.badContentCursor);
  if (!/^[A-Za-z0-9_-]+$/.test(value)) throw bad;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    throw bad;
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw bad;
  const [sharedAt, id] = parsed as unknown[];
  if (typeof sharedAt !== 'string' || !CURSOR_TIME.test(sharedAt) || Number.isNaN(Date.parse(sharedAt))) throw bad;
  // Date.parse rolls an impossible day (02-30) over; PostgreSQL refuses it, so only real dates pass.
  if (new Date(sharedAt).toISOString().slice(0, 19) !== sharedAt.slice(0, 19)) throw bad;
  if (typeof id !== 'string' || !CURSOR_ID.test(id)) throw bad;
  return { sharedAt, id };
}

/** A result can be shared once its job succeeded and one of its items has a file. */
const hasFinishedResult = (row: MediaRow): boolean =>
  row.status.startsWith('success') && row.items.some((item) => item.status === 'success' && Boolean(item.file_id));

/** PublicContent of a row: its first finished item's signed links and sizes. */
function toPublicContent(row: ContentRow, files: ReadonlyMap<string, MediaFileRow>, links: LinkMaker): PublicContent {
  const item = row.items.find((candidate) => candidate.status === 'success' && candidate.file_id && files.has(candidate.file_id));
  const file = item?.file_id ? files.get(item.file_id) : undefined;
  const sign = (fileId: string | null | undefined): string | null =>
    fileId && files.has(fileId) ? links.signer.sign(links.origin, fileId).url : null;
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    kind: row.kind,
    tool: row.tool,
    visibility: row.visibility,
    creation_type: row.creation_type,
    url: sign(file?.id),
    thumbnail_url: sign(item?.thumbnail_file_id),
    width: file?.width ?? null,
    height: file?.height ?? null,
    duration_seconds: file?.duration_seconds ?? null,
    owner: { id: row.user_sub, preferred_username: row.owner_handle },
    shared_at: row.shared_key,
  };
}

/**
 * Sharing and the public content listings (SPEC §7 users/{id}/contents, users/latest-contents;
 * Kinora's PUT media/{id}/share). The listings take an optional sign-in: the person themself also
 * sees their unlisted items, and only the guest account sees the guest's items in Latest.
 */
export async function contentRoutes(app: FastifyInstance, deps: MediaRouteDeps): Promise<void> {
  const { db, auth, signer } = deps;
  const linksFor = (request: FastifyRequest): LinkMaker => ({ origin: requestOrigin(request), signer });

  /** `found` holds up to one row more than a page: whether it does says if there is a next page. */
  async function contentPage(request: FastifyRequest, found: readonly ContentRow[]): Promise<ContentPage> {
    const rows = found.slice(0, CONTENT_PAGE_SIZE);
    const files = await filesOfMedia(
      db,
      rows.map((row) => row.id),
    );
    const byId = new Map(files.map((file) => [file.id, file]));
    const links = linksFor(request);
    const last = found.length > CONTENT_PAGE_SIZE ? rows.at(-1) : undefined;
    return {
      items: rows.map((row) => toPublicContent(row, byId, links)),
      next_start_keys: last ? encodeContentCursor({ sharedAt: last.shared_key, id: last.id }) : null,
    };
  }

  app.put<{ Params: { id: string } }>('/media/:id/share', async (request): Promise<{ data: Media }> => {
    const user = await auth.requireUser(request);
    const share = parseInput(shareRequestSchema, request.body);
    const row = await findOwnMedia(db, request.params.id, user.sub);
    if (!row) throw new HttpError(404, DETAILS.notFound);
    if (share.visibility !== 'private' && !hasFinishedResult(row)) throw new HttpError(400, DETAILS.shareNeedsResult);
    if (!(await shareMedia(db, row.id, user.sub, share))) throw new HttpError(404, DETAILS.notFound);
    const shared = await findOwnMedia(db, row.id, user.sub);
    if (!shared) throw new HttpError(404, DETAILS.notFound);
    return ok(await mediaAnswer(db, shared, linksFor(request)));
  });

  app.post<{ Params: { id: string }; Querystring: { type?: string } }>(
    '/users/:id/contents',
    async (request): Promise<{ data: ContentPage }> => {
      const query = parseInput(contentQuerySchema, request.body ?? {});
      const after = decodeContentCursor(query.next_start_keys);
      const person = await findPublicUser(deps, request.params.id, request.query.type);
      if (!person || person.deleted_at) throw new HttpError(404, DETAILS.userNotFound);
      const caller: AuthUser | null = await auth.optionalUser(request);
      // Guests share one account: its unlisted items stay with the guest who has the link.
      const isSelf = caller?.sub === person.sub && !isGuestUsername(person.username);
      // The shared guest account's items are for guests only (as in Latest).
      if (isGuestUsername(person.username) && !(caller && isGuestUsername(caller.row.username))) {
        return ok({ items: [], next_start_keys: null });
      }
      const rows = await listUserContents(db, person.sub, isSelf, { keyword: query.keyword, after, limit: CONTENT_PAGE_SIZE + 1 });
      return ok(await contentPage(request, rows));
    },
  );

  app.post('/users/latest-contents', async (request): Promise<{ data: ContentPage }> => {
    const query = parseInput(contentQuerySchema, request.body ?? {});
    const after = decodeContentCursor(query.next_start_keys);
    const caller = await auth.optionalUser(request);
    const includeGuests = caller !== null && isGuestUsername(caller.row.username);
    const rows = await listLatestContents(db, GUEST_USERNAME, includeGuests, {
      keyword: query.keyword,
      after,
      limit: CONTENT_PAGE_SIZE + 1,
    });
    return ok(await contentPage(request, rows));
  });

  // GET promo-videos/{id}/video.mp4 needs the render engine and the media folder, which these routes are given.
  await promoVideoRoutes(app, deps);
}
