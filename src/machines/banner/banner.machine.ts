import { assertEvent, assign, raise, setup } from 'xstate';
import { BANNER_TEXTS } from '@/config/banner-texts';
import { OFFLINE_BANNER_AFTER_MS } from '@/config/limits';

/**
 * SPEC §2.9 item 5: the global top banner is either a success or an error notice. It is raised
 * for account-level events (README "Top banner"): by the flows that send `banner.show`, and by
 * the connection region below for a long drop-out.
 */
export type BannerKind = 'success' | 'error';

export interface BannerContext {
  kind: BannerKind;
  message: string;
}

export type BannerEvent =
  | { type: 'banner.show'; kind: BannerKind; message: string }
  | { type: 'banner.dismiss' }
  /** The browser lost or regained its connection (the window's offline / online events). */
  | { type: 'connection.offline' }
  | { type: 'connection.online' };

export const bannerMachine = setup({
  types: {
    context: {} as BannerContext,
    events: {} as BannerEvent,
  },
  actions: {
    storeNotice: assign(({ event }) => {
      assertEvent(event, 'banner.show');
      return { kind: event.kind, message: event.message };
    }),
    clearNotice: assign({ message: '' }),
    // SPEC §2.9: showing the banner scrolls the page to the top, so the notice is never off-screen.
    scrollToTop: () => {
      window.scrollTo({ top: 0, behavior: 'smooth' });
    },
    raiseOffline: raise({ type: 'banner.show', kind: 'error', message: BANNER_TEXTS.offline }),
    raiseBackOnline: raise({ type: 'banner.show', kind: 'success', message: BANNER_TEXTS.backOnline }),
  },
  delays: {
    offlineNotice: OFFLINE_BANNER_AFTER_MS,
  },
}).createMachine({
  id: 'banner',
  context: { kind: 'success', message: '' },
  type: 'parallel',
  states: {
    notice: {
      initial: 'hidden',
      states: {
        hidden: {
          on: {
            'banner.show': { target: 'visible', actions: ['storeNotice', 'scrollToTop'] },
          },
        },
        visible: {
          on: {
            // A newer notice replaces the one on screen and scrolls up again.
            'banner.show': { target: 'visible', reenter: true, actions: ['storeNotice', 'scrollToTop'] },
            'banner.dismiss': { target: 'hidden', actions: 'clearNotice' },
          },
        },
      },
    },
    /**
     * Offline for over OFFLINE_BANNER_AFTER_MS raises an error notice, and coming back after that a
     * success one (issue 17); a shorter drop-out raises nothing.
     */
    connection: {
      initial: 'online',
      states: {
        online: {
          on: { 'connection.offline': 'offlineBriefly' },
        },
        offlineBriefly: {
          after: { offlineNotice: 'offlineLong' },
          on: { 'connection.online': 'online' },
        },
        offlineLong: {
          entry: 'raiseOffline',
          on: { 'connection.online': { target: 'online', actions: 'raiseBackOnline' } },
        },
      },
    },
  },
});
