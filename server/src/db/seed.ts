import type { Database } from './sql.ts';

export interface SeedCoupon {
  code: string;
  credits: number;
  maxRedemptions: number | null;
}

/** Coupons every fresh database knows; each account may redeem each code once. */
export const SEED_COUPONS: readonly SeedCoupon[] = [
  { code: 'WELCOME50', credits: 50, maxRedemptions: null },
  { code: 'KINORA100', credits: 100, maxRedemptions: 1000 },
];

export interface SeedPromoVideo {
  id: string;
  title: string;
  position: number;
}

/**
 * The promo reel shown on the home page. Files are served by the API server itself
 * (`/api/promo-videos/{id}/thumbnail.svg` today; the video file is rendered by the media engine).
 */
export const SEED_PROMO_VIDEOS: readonly SeedPromoVideo[] = [
  { id: 'text-to-video', title: 'Text to Video', position: 1 },
  { id: 'image-to-video', title: 'Image to Video', position: 2 },
  { id: 'ai-avatar', title: 'AI Avatar', position: 3 },
];

export const promoThumbnailUrl = (id: string): string => `/api/promo-videos/${id}/thumbnail.svg`;
export const promoVideoUrl = (id: string): string => `/api/promo-videos/${id}/video.mp4`;

/**
 * Inserts the seed rows that are missing and leaves existing ones alone, so running it at every
 * start is safe and an operator's edits (a deactivated coupon, a retitled video) survive.
 */
export async function seedDatabase(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    for (const coupon of SEED_COUPONS) {
      await tx.query(
        `INSERT INTO coupons (code, credits, max_redemptions) VALUES ($1, $2, $3)
         ON CONFLICT (code) DO NOTHING`,
        [coupon.code, coupon.credits, coupon.maxRedemptions],
      );
    }
    for (const video of SEED_PROMO_VIDEOS) {
      await tx.query(
        `INSERT INTO promo_videos (id, title, video_url, thumbnail_url, position) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (id) DO NOTHING`,
        [video.id, video.title, promoVideoUrl(video.id), promoThumbnailUrl(video.id), video.position],
      );
    }
  });
}
