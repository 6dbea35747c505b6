import { assign, fromPromise, setup } from 'xstate';
import { getPromoVideos } from '@/services/promo-videos';
import type { PromoVideoList } from '@/services/schemas/promo-videos';

export type { PromoVideo, PromoVideoList } from '@/services/schemas/promo-videos';

export interface PromoVideosContext {
  videos: PromoVideoList;
}

export type PromoVideosEvent = { type: 'promo.retry' };

/** The home page's promo reel (GET promo-videos, public): loading → ready | failed, with a retry. */
export const promoVideosMachine = setup({
  types: {
    context: {} as PromoVideosContext,
    events: {} as PromoVideosEvent,
  },
  actors: {
    loadPromoVideos: fromPromise<PromoVideoList>(() => getPromoVideos()),
  },
  actions: {
    storeVideos: assign((_, params: { videos: PromoVideoList }) => ({ videos: params.videos })),
  },
}).createMachine({
  id: 'promoVideos',
  context: { videos: [] },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadPromoVideos',
        onDone: { target: 'ready', actions: { type: 'storeVideos', params: ({ event }) => ({ videos: event.output }) } },
        onError: { target: 'failed' },
      },
    },
    ready: {},
    failed: { on: { 'promo.retry': 'loading' } },
  },
});
