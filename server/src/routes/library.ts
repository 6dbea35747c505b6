import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { MEDIA_KINDS } from '../../../src/config/enums.ts';
import { LIBRARY_FOLDERS_MAX, LIBRARY_PAGE_SIZE } from '../../../src/config/library.ts';
import { JOB_SEARCH_LIMIT_MAX } from '../../../src/services/schemas/job-history.ts';
import {
  libraryFolderWriteSchema,
  type LibraryFolder,
  type LibraryFolderList,
  type LibraryMembership,
  type LibraryPage,
} from '../../../src/services/schemas/library.ts';
import { isUniqueViolation } from '../db/database.ts';
import {
  addFolderItem,
  countOwnFolders,
  deleteFolder,
  findOwnFolder,
  folderIdsOf,
  insertFolder,
  listOwnFolders,
  removeFolderItem,
  renameFolder,
  type FolderRow,
} from '../db/library.ts';
import { findOwnMedia } from '../db/media.ts';
import { decodeSearchCursor, encodeSearchCursor, searchOwnMedia, SEARCH_STATUS_ROWS } from '../db/media-search.ts';
import { isGuestUsername } from '../db/users.ts';
import { HttpError, ok, parseInput } from './http.ts';
import { mediaAnswers } from './media-answer.ts';
import { requestOrigin, type MediaRouteDeps } from './media-deps.ts';
import { DETAILS } from './messages.ts';
import type { AuthUser } from './user-auth.ts';

/** What the Library's calls answer when they fail (SPEC §7: the app shows `detail`). */
export const LIBRARY_DETAILS = {
  folderNotFound: 'That folder was not found.',
  mediaNotFound: 'That result was not found.',
  folderNameTaken: 'You already have a folder with that name.',
  tooManyFolders: (max: number): string => `You can keep at most ${max} folders: delete one you no longer need first.`,
  notFinished: 'Only finished results can be put in a folder.',
  guestHasNoFolders: 'The shared guest account has no Library folders: sign in with your own account to make them.',
} as const;

/** A query value left blank (`?q=`) is the same as one not sent. */
const blankAsAbsent = (value: unknown): unknown => (value === '' ? undefined : value);

/** GET library's query: prompt text, kind, folder, and the job history's keyset paging. */
const libraryQuerySchema = z.object({
  q: z.preprocess(blankAsAbsent, z.string().trim().min(1).max(500).optional()),
  kind: z.preprocess(blankAsAbsent, z.enum(MEDIA_KINDS).optional()),
  folder: z.preprocess(blankAsAbsent, z.string().min(1).max(100).optional()),
  limit: z.coerce.number().int().min(1).max(JOB_SEARCH_LIMIT_MAX).default(LIBRARY_PAGE_SIZE),
  next_start_keys: z.preprocess(blankAsAbsent, z.string().max(1000).optional()),
});

/** The Library lists results newest first, always (its cursor is the history's `newest` cursor). */
const LIBRARY_SORT = 'newest';

const iso = (value: Date | string): string => (value instanceof Date ? value : new Date(value)).toISOString();

const toFolder = (row: FolderRow): LibraryFolder => ({
  id: row.id,
  name: row.name,
  item_count: row.item_count,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

const isFinished = (status: string): boolean => SEARCH_STATUS_ROWS.succeeded.includes(status);

/**
 * The Library (issue 21 item 7): the signed-in person's finished results across every tool, and
 * their folders. Everything is the caller's own: another person's folder or media is a 404. The
 * shared guest account sees its results but keeps no folders (one guest would rename or empty
 * another's, and the weekly clean-up wipes the results they would hold).
 */
export async function libraryRoutes(app: FastifyInstance, deps: MediaRouteDeps): Promise<void> {
  const { db, auth, signer } = deps;

  /** The caller, who must not be the shared guest account (folders are personal). */
  async function folderOwner(request: FastifyRequest): Promise<AuthUser> {
    const user = await auth.requireUser(request);
    if (isGuestUsername(user.row.username)) throw new HttpError(403, LIBRARY_DETAILS.guestHasNoFolders);
    return user;
  }

  async function ownFolder(id: string, user: AuthUser): Promise<FolderRow> {
    const folder = await findOwnFolder(db, id, user.sub);
    if (!folder) throw new HttpError(404, LIBRARY_DETAILS.folderNotFound);
    return folder;
  }

  /** GET library: a page of the caller's finished results (newest first), searched and filtered. */
  app.get<{ Querystring: Record<string, unknown> }>('/library', async (request): Promise<{ data: LibraryPage }> => {
    const user = await auth.requireUser(request);
    const query = parseInput(libraryQuerySchema, request.query, 'Query');
    if (query.folder !== undefined) {
      if (isGuestUsername(user.row.username)) throw new HttpError(403, LIBRARY_DETAILS.guestHasNoFolders);
      await ownFolder(query.folder, user);
    }
    const after = query.next_start_keys === undefined ? undefined : decodeSearchCursor(query.next_start_keys, LIBRARY_SORT);
    if (after === null) throw new HttpError(400, DETAILS.badContentCursor);
    const { rows, more } = await searchOwnMedia(db, user.sub, {
      status: 'succeeded',
      q: query.q,
      kind: query.kind,
      folderId: query.folder,
      sort: LIBRARY_SORT,
      after,
      limit: query.limit,
    });
    const media = await mediaAnswers(db, rows, { origin: requestOrigin(request), signer });
    const folders = await folderIdsOf(db, user.sub, rows.map((row) => row.id));
    const last = rows.at(-1);
    return ok({
      items: media.map((item) => ({ ...item, folder_ids: folders.get(item.id) ?? [] })),
      next_start_keys: more && last ? encodeSearchCursor(LIBRARY_SORT, last.search_key) : null,
    });
  });

  app.get('/library/folders', async (request): Promise<{ data: LibraryFolderList }> => {
    const user = await folderOwner(request);
    return ok({ items: (await listOwnFolders(db, user.sub)).map(toFolder) });
  });

  app.post('/library/folders', async (request, reply): Promise<{ data: LibraryFolder }> => {
    const user = await folderOwner(request);
    const { name } = parseInput(libraryFolderWriteSchema, request.body);
    const id = await db.transaction(async (tx) => {
      // Under the owner's row lock, so two creates at once cannot both pass the count.
      await tx.query('SELECT 1 FROM users WHERE sub = $1 FOR NO KEY UPDATE', [user.sub]);
      if ((await countOwnFolders(tx, user.sub)) >= LIBRARY_FOLDERS_MAX) throw new HttpError(409, LIBRARY_DETAILS.tooManyFolders(LIBRARY_FOLDERS_MAX));
      return insertFolder(tx, user.sub, name).catch((error: unknown) => {
        throw isUniqueViolation(error) ? new HttpError(409, LIBRARY_DETAILS.folderNameTaken) : error;
      });
    });
    reply.code(201);
    return ok(toFolder(await ownFolder(id, user)));
  });

  app.patch<{ Params: { id: string } }>('/library/folders/:id', async (request): Promise<{ data: LibraryFolder }> => {
    const user = await folderOwner(request);
    const { name } = parseInput(libraryFolderWriteSchema, request.body);
    const renamed = await renameFolder(db, request.params.id, user.sub, name).catch((error: unknown) => {
      throw isUniqueViolation(error) ? new HttpError(409, LIBRARY_DETAILS.folderNameTaken) : error;
    });
    if (!renamed) throw new HttpError(404, LIBRARY_DETAILS.folderNotFound);
    return ok(toFolder(await ownFolder(request.params.id, user)));
  });

  app.delete<{ Params: { id: string } }>('/library/folders/:id', async (request): Promise<{ data: { id: string; deleted: true } }> => {
    const user = await folderOwner(request);
    if (!(await deleteFolder(db, request.params.id, user.sub))) throw new HttpError(404, LIBRARY_DETAILS.folderNotFound);
    return ok({ id: request.params.id, deleted: true as const });
  });

  /** The folder and the result, both the caller's; the result finished when it is to be added. */
  async function membershipParts(request: FastifyRequest<{ Params: { id: string; mediaId: string } }>, adding: boolean): Promise<AuthUser> {
    const user = await folderOwner(request);
    await ownFolder(request.params.id, user);
    const media = await findOwnMedia(db, request.params.mediaId, user.sub);
    if (!media) throw new HttpError(404, LIBRARY_DETAILS.mediaNotFound);
    if (adding && !isFinished(media.status)) throw new HttpError(409, LIBRARY_DETAILS.notFinished);
    return user;
  }

  const membership = async (user: AuthUser, folderId: string, mediaId: string): Promise<LibraryMembership> => ({
    media_id: mediaId,
    folder_ids: (await folderIdsOf(db, user.sub, [mediaId])).get(mediaId) ?? [],
    folder: toFolder(await ownFolder(folderId, user)),
  });

  app.put<{ Params: { id: string; mediaId: string } }>(
    '/library/folders/:id/items/:mediaId',
    async (request): Promise<{ data: LibraryMembership }> => {
      const user = await membershipParts(request, true);
      await addFolderItem(db, request.params.id, request.params.mediaId);
      return ok(await membership(user, request.params.id, request.params.mediaId));
    },
  );

  app.delete<{ Params: { id: string; mediaId: string } }>(
    '/library/folders/:id/items/:mediaId',
    async (request): Promise<{ data: LibraryMembership }> => {
      const user = await membershipParts(request, false);
      await removeFolderItem(db, request.params.id, request.params.mediaId);
      return ok(await membership(user, request.params.id, request.params.mediaId));
    },
  );
}
