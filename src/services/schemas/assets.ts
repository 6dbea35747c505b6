import { z } from 'zod';
import { ASSET_DESCRIPTION_MAX, ASSET_NAME_MAX } from '../../config/assets';
import { mediaSchema } from './media';

/**
 * SPEC §3 Asset: "id plus other fields; the whole object is sent on update". Kinora's asset is a
 * named collection: tool results made with `?asset_id=` and media added to it, reused across tools.
 */
export const assetSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().default(''),
  /** Free-form fields the person or a tool keeps on the asset. */
  fields: z.record(z.string(), z.unknown()).default({}),
  media_count: z.number().default(0),
  /** A picture to show for it (the newest image or video thumbnail), signed. */
  cover_url: z.string().nullable().default(null),
  created_at: z.string(),
  updated_at: z.string(),
  /** GET asset/{id}: the media attached (newest first); absent in lists and when `fields` leaves it out. */
  media: z.array(mediaSchema).optional(),
});
export type Asset = z.infer<typeof assetSchema>;

export const assetListSchema = z.object({ items: z.array(assetSchema) });
export type AssetList = z.infer<typeof assetListSchema>;

/** POST asset (Kinora's) and PUT asset/{id} (the whole object). `media_ids` sets which media are attached. */
export const assetWriteSchema = z.object({
  name: z.string().trim().min(1, 'Give the asset a name.').max(ASSET_NAME_MAX),
  description: z.string().trim().max(ASSET_DESCRIPTION_MAX).default(''),
  fields: z.record(z.string(), z.unknown()).default({}),
  /** PUT only: when present, exactly these of the caller's media are attached afterwards. */
  media_ids: z.array(z.string().min(1)).max(500).optional(),
});
export type AssetWrite = z.input<typeof assetWriteSchema>;

export const assetDeletedSchema = z.object({ id: z.string(), deleted: z.literal(true) });
