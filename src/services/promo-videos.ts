import { promoVideoListSchema } from '@/services/schemas/promo-videos';
import type { PromoVideoList } from '@/services/schemas/promo-videos';
import { apiGet } from '@/services/http';

/** GET promo-videos: public (SPEC §6). */
export const getPromoVideos = (): Promise<PromoVideoList> =>
  apiGet('promo-videos', promoVideoListSchema, { auth: 'none' });
