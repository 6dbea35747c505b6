import { z } from './zod-mini';

/** GET promo-videos (public). SPEC §3 does not show the shape; these are Kinora's fields. */
export const promoVideoSchema = z.object({
  id: z.string(),
  title: z.string(),
  video_url: z.string(),
  thumbnail_url: z.string(),
});
export type PromoVideo = z.infer<typeof promoVideoSchema>;

export const promoVideoListSchema = z.array(promoVideoSchema);
export type PromoVideoList = z.infer<typeof promoVideoListSchema>;
