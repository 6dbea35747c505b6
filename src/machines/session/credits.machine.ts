import { assign, fromPromise, sendParent, setup } from 'xstate';
import { CREDITS_FETCH_RETRIES, CREDITS_FETCH_RETRY_DELAY_MS } from '@/config/limits';
import { getCredits } from '@/services/credits';
import type { UserCredits } from '@/services/schemas/credits';

export interface CreditsContext {
  /** The last balance fetched; kept while a refresh runs, null before the first answer. */
  balance: number | null;
  /** Failed attempts of the current fetch. */
  failures: number;
}

export type CreditsEvent = { type: 'credits.refresh' };

/** What the credits actor tells the session (its parent), which shows the toast. */
export type CreditsParentEvent = { type: 'credits.fetchFailed' };

/**
 * The signed-in user's credits (SPEC §7 "GET credits/get, retried up to 2 extra times on
 * failure"; §8 "Error" / "Failed to fetch user credits" after the last attempt). Lives as the
 * session's `credits` child while someone is signed in.
 */
export const creditsMachine = setup({
  types: {
    context: {} as CreditsContext,
    events: {} as CreditsEvent,
  },
  actors: {
    fetchCredits: fromPromise<UserCredits>(() => getCredits()),
  },
  guards: {
    canRetry: ({ context }) => context.failures < CREDITS_FETCH_RETRIES,
  },
  actions: {
    storeBalance: assign((_, params: { credits: UserCredits }) => ({ balance: params.credits.credit, failures: 0 })),
    countFailure: assign(({ context }) => ({ failures: context.failures + 1 })),
    resetFailures: assign({ failures: 0 }),
    reportFailure: sendParent({ type: 'credits.fetchFailed' } satisfies CreditsParentEvent),
  },
  delays: {
    retryDelay: CREDITS_FETCH_RETRY_DELAY_MS,
  },
}).createMachine({
  id: 'credits',
  context: { balance: null, failures: 0 },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'fetchCredits',
        onDone: {
          target: 'loaded',
          actions: { type: 'storeBalance', params: ({ event }) => ({ credits: event.output }) },
        },
        onError: [
          { guard: 'canRetry', target: 'waitingToRetry', actions: 'countFailure' },
          { target: 'failed', actions: ['countFailure', 'reportFailure'] },
        ],
      },
      on: {
        // A newer request replaces the running one, so a stale answer never lands.
        'credits.refresh': { target: 'loading', reenter: true, actions: 'resetFailures' },
      },
    },
    waitingToRetry: {
      after: { retryDelay: 'loading' },
      on: { 'credits.refresh': { target: 'loading', actions: 'resetFailures' } },
    },
    loaded: {
      on: { 'credits.refresh': { target: 'loading', actions: 'resetFailures' } },
    },
    failed: {
      on: { 'credits.refresh': { target: 'loading', actions: 'resetFailures' } },
    },
  },
});
