import { apiDelete, apiGet, apiPatchJson, apiPostJson, apiPutJson } from '@/services/http';
import {
  libraryFolderDeletedSchema,
  libraryFolderListSchema,
  libraryFolderSchema,
  libraryMembershipSchema,
  libraryPageSchema,
} from '@/services/schemas/library';
import type { LibraryFolder, LibraryItem, LibraryMembership } from '@/services/schemas/library';
import type { MediaKind } from '@/config/enums';

/**
 * The Library (issue 21 item 7; Kinora's additions to SPEC §7, README "Library"): the person's
 * finished results across every tool, and their folders.
 */

export interface LibrarySearch {
  /** A part of the prompt, any case, taken literally. */
  q?: string;
  kind?: MediaKind;
  /** Only the results in this folder. */
  folderId?: string;
  /** The `nextStartKeys` of the previous page: the page after it. */
  nextStartKeys?: string;
  /** At most 50; 24 when not given. */
  limit?: number;
}

/** One page of the Library: its results and the key of the next page (null on the last page). */
export interface LibrarySearchResult {
  items: LibraryItem[];
  nextStartKeys: string | null;
}

interface CallOptions {
  signal?: AbortSignal;
}

const folderPath = (id: string): string => `library/folders/${encodeURIComponent(id)}`;

/** GET library?…: one page of the signed-in person's finished results, newest first. */
export async function searchLibrary(search: LibrarySearch, options: CallOptions = {}): Promise<LibrarySearchResult> {
  const q = search.q?.trim();
  const page = await apiGet('library', libraryPageSchema, {
    query: {
      q: q ? q : undefined,
      kind: search.kind,
      folder: search.folderId,
      next_start_keys: search.nextStartKeys,
      limit: search.limit,
    },
    signal: options.signal,
  });
  return { items: page.items, nextStartKeys: page.next_start_keys };
}

/** GET library/folders: the person's folders by name, each with how many results it holds. */
export const listFolders = async (options: CallOptions = {}): Promise<LibraryFolder[]> =>
  (await apiGet('library/folders', libraryFolderListSchema, { signal: options.signal })).items;

/** POST library/folders. */
export const createFolder = (name: string, options: CallOptions = {}): Promise<LibraryFolder> =>
  apiPostJson('library/folders', { name }, libraryFolderSchema, { signal: options.signal });

/** PATCH library/folders/{id}. */
export const renameFolder = (id: string, name: string, options: CallOptions = {}): Promise<LibraryFolder> =>
  apiPatchJson(folderPath(id), { name }, libraryFolderSchema, { signal: options.signal });

/** DELETE library/folders/{id}: the folder goes; its results stay in the Library. */
export const deleteFolder = async (id: string, options: CallOptions = {}): Promise<void> => {
  await apiDelete(folderPath(id), libraryFolderDeletedSchema, { signal: options.signal });
};

/** PUT library/folders/{id}/items/{mediaId}: the result put in the folder; answers its folders now. */
export const addToFolder = (folderId: string, mediaId: string, options: CallOptions = {}): Promise<LibraryMembership> =>
  apiPutJson(`${folderPath(folderId)}/items/${encodeURIComponent(mediaId)}`, {}, libraryMembershipSchema, { signal: options.signal });

/** DELETE library/folders/{id}/items/{mediaId}: the result taken out of the folder (it stays in the Library). */
export const removeFromFolder = (folderId: string, mediaId: string, options: CallOptions = {}): Promise<LibraryMembership> =>
  apiDelete(`${folderPath(folderId)}/items/${encodeURIComponent(mediaId)}`, libraryMembershipSchema, { signal: options.signal });
