import { assign, enqueueActions, fromPromise, sendParent, setup } from 'xstate';
import { GUEST_USERNAME } from '@/config/limits';
import { MESSAGES } from '@/config/messages';
import { buildRedirectUrl, isAllowedRedirect } from '@/lib/redirect-target';
import { getAccessToken } from '@/services/auth';
import type { CurrentUser } from '@/services/auth';
import { redeemCoupon } from '@/services/coupon';
import { takeCouponCode, takeRedirectRequest } from '@/machines/session/handoff';
import type { RedirectRequest } from '@/machines/session/handoff';
import { overlaysSeen, rememberOverlaySeen } from '@/machines/session/overlays-seen';

/** A modal the post-load steps raise (the session shows them in order). */
export type SessionModal =
  | { kind: 'guestWelcome' }
  | { kind: 'coupon'; credits: number }
  | { kind: 'redirectRefused'; redirectUri: string };

export interface PostLoadInput {
  user: CurrentUser;
  /** The address's query string: the redirect and coupon it hands over. */
  search: string;
  redirectAllowlist: readonly string[];
}

export interface PostLoadContext extends PostLoadInput {
  /** An allowlisted redirect waiting for its access token. */
  pendingRedirect: RedirectRequest | null;
}

export type PostLoadEvent = { type: 'modal.confirm' } | { type: 'location.changed'; pathname: string; search: string };

/** What it asks of the session, which owns the modals, the credits and what the browser does. */
export type PostLoadParentEvent =
  | { type: 'postLoad.showModal'; modal: SessionModal }
  | { type: 'postLoad.redirect'; url: string }
  | { type: 'postLoad.couponRedeemed'; credits: number };

/** How the steps ended: redirected away, the user to be reloaded (a coupon changed it), or done. */
export interface PostLoadOutput {
  next: 'redirected' | 'reloadUser' | 'finish';
}

/**
 * SPEC §4 "After a user is loaded", in its order: the session's `postLoad` child. An allowlisted
 * redirect leaves with the access token; a refused one is reported and the person carries on; the
 * guest is welcomed (once per sign-in); a coupon of the address is redeemed (a failure is ignored
 * silently). Each actor wraps one call.
 */
export const postLoadMachine = setup({
  types: {
    context: {} as PostLoadContext,
    events: {} as PostLoadEvent,
    input: {} as PostLoadInput,
    output: {} as PostLoadOutput,
  },
  actors: {
    takeRedirectRequest: fromPromise<RedirectRequest | null, { search: string }>(async ({ input }) => takeRedirectRequest(input.search)),
    buildRedirect: fromPromise<string, { uri: string; state: string }>(async ({ input }) => {
      const token = await getAccessToken();
      if (!token) throw new Error(MESSAGES.notAuthenticated);
      return buildRedirectUrl(input.uri, token, input.state);
    }),
    redeemPendingCoupon: fromPromise<{ credits: number } | null, { search: string }>(async ({ input }) => {
      const code = takeCouponCode(input.search);
      if (!code) return null;
      const { credits } = await redeemCoupon(code);
      return { credits };
    }),
  },
  guards: {
    redirectAllowed: ({ context }, params: { request: RedirectRequest | null }) =>
      params.request !== null && isAllowedRedirect(params.request.uri, context.redirectAllowlist),
    /** The guest welcome comes once per sign-in (issue 17), not on every reload or deep link. */
    welcomesGuest: ({ context }) => context.user.username === GUEST_USERNAME && !overlaysSeen(context.user.userId).guestWelcome,
    couponRedeemed: (_, params: { result: { credits: number } | null }) => params.result !== null,
  },
  actions: {
    setSearch: assign(({ event }) => (event.type === 'location.changed' ? { search: event.search } : {})),
    setPendingRedirect: assign((_, params: { request: RedirectRequest | null }) => ({ pendingRedirect: params.request })),
    showModal: sendParent((_, params: { modal: SessionModal }) => ({ type: 'postLoad.showModal' as const, modal: params.modal })),
    noteRefusedRedirect: enqueueActions(({ enqueue }, params: { request: RedirectRequest | null }) => {
      if (params.request) {
        enqueue.sendParent({ type: 'postLoad.showModal', modal: { kind: 'redirectRefused', redirectUri: params.request.uri } } satisfies PostLoadParentEvent);
      }
    }),
    rememberGuestWelcomed: ({ context }) => rememberOverlaySeen(context.user.userId, 'guestWelcome'),
  },
}).createMachine({
  id: 'postLoad',
  context: ({ input }) => ({ ...input, pendingRedirect: null }),
  initial: 'checkingRedirect',
  output: ({ event }) => event.output as PostLoadOutput,
  on: { 'location.changed': { actions: 'setSearch' } },
  states: {
    checkingRedirect: {
      invoke: {
        src: 'takeRedirectRequest',
        input: ({ context }) => ({ search: context.search }),
        onDone: [
          {
            guard: { type: 'redirectAllowed', params: ({ event }) => ({ request: event.output }) },
            target: 'redirecting',
            actions: { type: 'setPendingRedirect', params: ({ event }) => ({ request: event.output }) },
          },
          // A refused redirect is reported, and the person carries on signed in.
          {
            guard: 'welcomesGuest',
            target: 'guestWelcome',
            actions: [
              { type: 'noteRefusedRedirect', params: ({ event }) => ({ request: event.output }) },
              { type: 'showModal', params: { modal: { kind: 'guestWelcome' } } },
            ],
          },
          { target: 'redeemingCoupon', actions: { type: 'noteRefusedRedirect', params: ({ event }) => ({ request: event.output }) } },
        ],
        onError: [
          { guard: 'welcomesGuest', target: 'guestWelcome', actions: { type: 'showModal', params: { modal: { kind: 'guestWelcome' } } } },
          { target: 'redeemingCoupon' },
        ],
      },
    },
    redirecting: {
      invoke: {
        src: 'buildRedirect',
        input: ({ context }) => ({ uri: context.pendingRedirect?.uri ?? '', state: context.pendingRedirect?.state ?? '' }),
        onDone: {
          target: 'redirected',
          actions: [
            sendParent(({ event }) => ({ type: 'postLoad.redirect' as const, url: event.output })),
            { type: 'setPendingRedirect', params: { request: null } },
          ],
        },
        onError: { target: 'finished', actions: { type: 'setPendingRedirect', params: { request: null } } },
      },
    },
    /** The session takes the modal down on Confirm; the steps carry on. */
    guestWelcome: {
      on: { 'modal.confirm': { target: 'redeemingCoupon', actions: 'rememberGuestWelcomed' } },
    },
    redeemingCoupon: {
      invoke: {
        src: 'redeemPendingCoupon',
        input: ({ context }) => ({ search: context.search }),
        onDone: [
          {
            guard: { type: 'couponRedeemed', params: ({ event }) => ({ result: event.output }) },
            target: 'couponRedeemed',
            actions: sendParent(({ event }) => ({ type: 'postLoad.couponRedeemed' as const, credits: event.output?.credits ?? 0 })),
          },
          { target: 'finished' },
        ],
        // SPEC §4/§8: a failed redemption is ignored silently.
        onError: { target: 'finished' },
      },
    },
    redirected: { type: 'final', output: { next: 'redirected' } satisfies PostLoadOutput },
    /** The coupon's credits change the user: the session reloads it before finishing. */
    couponRedeemed: { type: 'final', output: { next: 'reloadUser' } satisfies PostLoadOutput },
    finished: { type: 'final', output: { next: 'finish' } satisfies PostLoadOutput },
  },
});
