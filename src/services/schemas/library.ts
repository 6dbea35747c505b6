import { z } from 'zod';
// Relative imports: the local server loads this file under tsx and imports it by path.
import { LIBRARY_FOLDER_NAME_MAX } from '../../config/library';
import { mediaSchema } from './media';

/**
 * The Library (issue 21 item 7; Kinora's additions to SPEC §7, README "Library"): the person's
 * finished results across every tool, searched and paged like the job history (`GET library`), and
 * their folders. Shared with the server (server/src/routes/library.ts validates with these).
 */

/** One result of the Library: the media item and the ids of the folders it is in. */
export const libraryItemSchema = z.object({
  ...mediaSchema.shape,
  folder_ids: z.array(z.string()).default([]),
});
export type LibraryItem = z.infer<typeof libraryItemSchema>;

/** GET library: a page of results, newest first, and the cursor of the next page (null on the last). */
export const libraryPageSchema = z.object({
  items: z.array(libraryItemSchema),
  next_start_keys: z.string().nullable().default(null),
});
export type LibraryPage = z.infer<typeof libraryPageSchema>;

export const libraryFolderSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** How many results are in it. */
  item_count: z.number().default(0),
  created_at: z.string(),
  updated_at: z.string(),
});
export type LibraryFolder = z.infer<typeof libraryFolderSchema>;

/** GET library/folders: the person's folders by name. */
export const libraryFolderListSchema = z.object({ items: z.array(libraryFolderSchema) });
export type LibraryFolderList = z.infer<typeof libraryFolderListSchema>;

/** POST library/folders and PATCH library/folders/{id}. */
export const libraryFolderWriteSchema = z.object({
  name: z.string().trim().min(1, 'Give the folder a name.').max(LIBRARY_FOLDER_NAME_MAX, `At most ${LIBRARY_FOLDER_NAME_MAX} characters.`),
});

/** DELETE library/folders/{id}: the folder is gone; its results stay in the Library. */
export const libraryFolderDeletedSchema = z.object({ id: z.string(), deleted: z.literal(true) });

/** PUT / DELETE library/folders/{id}/items/{mediaId}: the item's folders afterwards, and the folder as it is now (its count). */
export const libraryMembershipSchema = z.object({ media_id: z.string(), folder_ids: z.array(z.string()), folder: libraryFolderSchema });
export type LibraryMembership = z.infer<typeof libraryMembershipSchema>;
