import { z } from 'zod';
import { MEDIA_KINDS } from '../../config/enums';
import { CONTENT_KEYWORD_MAX, SHARE_DESCRIPTION_MAX, SHARE_TITLE_MAX, VISIBILITIES } from '../../config/sharing';

/** One shared result in a public listing (SPEC §3 "a per-user content list"). */
export const publicContentSchema = z.object({
  /** The media id (GET media/{id}/view shows it in full). */
  id: z.string(),
  title: z.string(),
  description: z.string(),
  kind: z.enum(MEDIA_KINDS),
  tool: z.string(),
  visibility: z.enum(VISIBILITIES),
  /** The SPEC §2.4 creation type of a video, if any (its ribbon). */
  creation_type: z.string().nullable().default(null),
  /** The first result's signed links. */
  url: z.string().nullable(),
  thumbnail_url: z.string().nullable(),
  width: z.number().nullable().default(null),
  height: z.number().nullable().default(null),
  duration_seconds: z.number().nullable().default(null),
  owner: z.object({ id: z.string(), preferred_username: z.string().nullable() }),
  shared_at: z.string(),
});
export type PublicContent = z.infer<typeof publicContentSchema>;

/** POST users/{id}/contents and users/latest-contents body (SPEC §7). */
export const contentQuerySchema = z.object({
  keyword: z.string().max(CONTENT_KEYWORD_MAX).default(''),
  next_start_keys: z.string().max(500).nullable().default(null),
});
export type ContentQuery = z.input<typeof contentQuerySchema>;

export const contentPageSchema = z.object({
  items: z.array(publicContentSchema),
  /** Pass back to get the next page; null on the last page. */
  next_start_keys: z.string().nullable().default(null),
});
export type ContentPage = z.infer<typeof contentPageSchema>;

/** PUT media/{id}/share (Kinora's; SPEC §2.8 sharing form). */
export const shareRequestSchema = z.object({
  title: z.string().trim().min(1, 'Give it a title.').max(SHARE_TITLE_MAX),
  description: z.string().trim().max(SHARE_DESCRIPTION_MAX).default(''),
  visibility: z.enum(VISIBILITIES),
});
export type ShareRequest = z.input<typeof shareRequestSchema>;
