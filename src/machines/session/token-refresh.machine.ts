import { assign, fromPromise, setup } from 'xstate';
import { IDENTITY_CREDENTIALS_REFRESH_MS } from '@/config/limits';
import { isNetworkError, refreshSession } from '@/services/auth';
import { networkRetryDelay } from '@/machines/session/network-backoff';

export interface TokenRefreshContext {
  /** Attempts at refreshing since the network was last seen failing (this machine's own back-off). */
  retries: number;
}

/** What the session forwards to it: the browser's network status and Amplify's token events. */
export type TokenRefreshEvent =
  | { type: 'network.online' }
  | { type: 'network.offline' }
  | { type: 'auth.tokenRefreshed' }
  | { type: 'auth.tokenRefreshFailed'; networkError: boolean };

/**
 * SPEC §4 "Session tokens", the session's `tokenRefresh` child while someone is signed in
 * (ARCHITECTURE §3). Amplify refreshes expired tokens inside each session fetch; this fetches the
 * session every 50 minutes and survives a lost network. It ends (`expired`) when the tokens are
 * gone, and the session then signs out.
 */
export const tokenRefreshMachine = setup({
  types: {
    context: {} as TokenRefreshContext,
    events: {} as TokenRefreshEvent,
    tags: {} as 'offline',
  },
  actors: {
    refreshSession: fromPromise<boolean>(() => refreshSession()),
  },
  guards: {
    isTrue: (_, params: { value: boolean }) => params.value,
    isNetworkError: (_, params: { error: unknown }) => isNetworkError(params.error),
    failureIsNetwork: ({ event }) => event.type === 'auth.tokenRefreshFailed' && event.networkError,
  },
  actions: {
    countRetry: assign(({ context }) => ({ retries: context.retries + 1 })),
    resetRetries: assign({ retries: 0 }),
  },
  delays: {
    sessionRefresh: IDENTITY_CREDENTIALS_REFRESH_MS,
    networkRetry: ({ context }) => networkRetryDelay(context.retries),
  },
}).createMachine({
  id: 'tokenRefresh',
  context: { retries: 0 },
  initial: 'fresh',
  on: {
    'auth.tokenRefreshFailed': [
      { guard: 'failureIsNetwork', target: '.offline' },
      // Anything but a network error means the tokens are gone (or must be): sign out.
      { target: '.expired' },
    ],
  },
  states: {
    fresh: {
      entry: 'resetRetries',
      after: { sessionRefresh: 'refreshing' },
      on: { 'network.offline': 'offline' },
    },
    refreshing: {
      invoke: {
        src: 'refreshSession',
        onDone: [{ guard: { type: 'isTrue', params: ({ event }) => ({ value: event.output }) }, target: 'fresh' }, { target: 'expired' }],
        onError: [
          { guard: { type: 'isNetworkError', params: ({ event }) => ({ error: event.error }) }, target: 'offline' },
          { target: 'expired' },
        ],
      },
    },
    /**
     * The user stays signed in; the session is fetched again when the network is back, or after
     * a growing wait, since the browser may be online while the sign-in server is not.
     */
    offline: {
      tags: 'offline',
      after: { networkRetry: { target: 'refreshing', actions: 'countRetry' } },
      on: {
        'network.online': 'refreshing',
        'auth.tokenRefreshed': 'fresh',
      },
    },
    expired: { type: 'final' },
  },
});
