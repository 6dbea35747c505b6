import { assertEvent, assign, setup } from 'xstate';

/** SPEC §2.9 item 5: the global top banner is either a success or an error notice. */
export type BannerKind = 'success' | 'error';

export interface BannerContext {
  kind: BannerKind;
  message: string;
}

export type BannerEvent =
  | { type: 'banner.show'; kind: BannerKind; message: string }
  | { type: 'banner.dismiss' };

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
  },
}).createMachine({
  id: 'banner',
  context: { kind: 'success', message: '' },
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
});
