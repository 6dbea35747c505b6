import type { SnapshotFrom } from 'xstate';
import type { PromoVideoList, promoVideosMachine } from '@/machines/content/promo-videos.machine';

export type PromoVideosSnapshot = SnapshotFrom<typeof promoVideosMachine>;

export const selectPromoStatus = (snapshot: PromoVideosSnapshot): 'loading' | 'ready' | 'failed' =>
  snapshot.matches('loading') ? 'loading' : snapshot.matches('failed') ? 'failed' : 'ready';

export const selectPromoVideos = (snapshot: PromoVideosSnapshot): PromoVideoList => snapshot.context.videos;
