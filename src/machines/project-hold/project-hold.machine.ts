import { assign, enqueueActions, fromPromise, setup } from 'xstate';
import { PROJECT_HOLD_TEXTS, PROJECT_HOLD_WORDS } from '@/config/project-hold-texts';
import { newIdempotencyKey } from '@/lib/idempotency-key';
import { errorMessageOf } from '@/services/api-error';
import { holdProjectCredits, quoteProject, releaseProjectCredits, type HoldProjectRef } from '@/services/project-hold';
import type { ProjectQuoteAnswer } from '@/services/schemas/project-hold';

export type { ProjectQuoteAnswer } from '@/services/schemas/project-hold';
export type { HoldProjectRef } from '@/services/project-hold';

export interface ProjectHoldInput {
  project: HoldProjectRef;
  /** Invoked by a project's own machine (the album's): tell it every quote (`hold.quoted`). */
  tellParent?: boolean;
}

export interface ProjectHoldContext {
  project: HoldProjectRef;
  tellParent: boolean;
  /** The last answer: what is left to make, the project's hold, the free balance. */
  quote: ProjectQuoteAnswer | null;
  /** One per click on Hold: a retry of the same click is the same hold. */
  idempotencyKey: string | null;
  error: string | null;
  notice: string | null;
}

export type ProjectHoldEvent = { type: 'hold.refresh' } | { type: 'hold.place' } | { type: 'hold.release' } | { type: 'hold.dismiss' };

/** What the page is told: the balance changed (credits set aside or given back). */
export type ProjectHoldEmitted = { type: 'hold.changed' };

/** What a parent machine is sent on every quote: what the open hold keeps, and whether the balance changed. */
export interface HoldQuotedEvent {
  type: 'hold.quoted';
  held: number;
  balanceChanged: boolean;
}

/** What the project's open hold still keeps for it (0 without one). */
export const heldOf = (quote: ProjectQuoteAnswer | null): number => (quote?.hold?.status === 'open' ? quote.hold.remaining : 0);

/**
 * One quote for a whole project (issue 21 item 6), a film or an album: the price of everything
 * still to make, held from the balance in one call and released in one. loading → ready (quote
 * shown) ⇄ placing (POST …/hold) / releasing (DELETE …/hold); a refused hold (402: SPEC's words)
 * stays ready with the message. `hold.refresh` prices again (sent when the project spent or got
 * back credits). Holding is offered, never required: a part still pays for itself without it.
 */
export const projectHoldMachine = setup({
  types: {
    context: {} as ProjectHoldContext,
    events: {} as ProjectHoldEvent,
    emitted: {} as ProjectHoldEmitted,
    input: {} as ProjectHoldInput,
  },
  actors: {
    quote: fromPromise<ProjectQuoteAnswer, { project: HoldProjectRef }>(({ input, signal }) => quoteProject(input.project, { signal })),
    hold: fromPromise<ProjectQuoteAnswer, { project: HoldProjectRef; idempotencyKey: string }>(({ input, signal }) =>
      holdProjectCredits(input.project, { idempotencyKey: input.idempotencyKey, signal }),
    ),
    release: fromPromise<ProjectQuoteAnswer, { project: HoldProjectRef }>(({ input, signal }) => releaseProjectCredits(input.project, { signal })),
  },
  guards: {
    /** Something is left to make and the project's open hold (if any) keeps less than it costs. */
    canPlace: ({ context }) => {
      const quote = context.quote;
      if (!quote || quote.total === 0) return false;
      return quote.hold?.status !== 'open' || quote.hold.remaining < quote.cost;
    },
    canRelease: ({ context }) => context.quote?.hold?.status === 'open',
  },
  actions: {
    storeQuote: assign((_, params: { quote: ProjectQuoteAnswer }) => ({ quote: params.quote, error: null })),
    newKey: assign({ idempotencyKey: () => newIdempotencyKey(), error: null, notice: null }),
    clearKey: assign({ idempotencyKey: null }),
    setError: assign((_, params: { message: string }) => ({ error: params.message, notice: null })),
    setNotice: assign((_, params: { notice: string }) => ({ notice: params.notice })),
    dismiss: assign({ error: null, notice: null }),
    /** Credits were set aside or given back: the page (or the parent) refreshes the balance. */
    reportQuote: enqueueActions(({ context, enqueue }, params: { balanceChanged: boolean }) => {
      if (params.balanceChanged) enqueue.emit({ type: 'hold.changed' } as const);
      if (context.tellParent) {
        enqueue.sendParent({ type: 'hold.quoted', held: heldOf(context.quote), balanceChanged: params.balanceChanged } satisfies HoldQuotedEvent);
      }
    }),
  },
}).createMachine({
  id: 'projectHold',
  context: ({ input }) => ({ project: input.project, tellParent: input.tellParent ?? false, quote: null, idempotencyKey: null, error: null, notice: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'quote',
        input: ({ context }) => ({ project: context.project }),
        onDone: {
          target: 'ready',
          actions: [{ type: 'storeQuote', params: ({ event }) => ({ quote: event.output }) }, { type: 'reportQuote', params: { balanceChanged: false } }],
        },
        onError: {
          target: 'failed',
          actions: { type: 'setError', params: ({ context, event }) => ({ message: errorMessageOf(event.error, PROJECT_HOLD_WORDS[context.project.kind].loadFailed) }) },
        },
      },
    },
    failed: {
      on: { 'hold.refresh': 'loading' },
    },
    ready: {
      on: {
        'hold.refresh': 'loading',
        'hold.place': { guard: 'canPlace', target: 'placing', actions: 'newKey' },
        'hold.release': { guard: 'canRelease', target: 'releasing', actions: 'dismiss' },
        'hold.dismiss': { actions: 'dismiss' },
      },
    },
    placing: {
      invoke: {
        src: 'hold',
        input: ({ context }) => ({ project: context.project, idempotencyKey: context.idempotencyKey ?? '' }),
        onDone: {
          target: 'ready',
          actions: [{ type: 'storeQuote', params: ({ event }) => ({ quote: event.output }) }, 'clearKey', { type: 'reportQuote', params: { balanceChanged: true } }],
        },
        onError: {
          target: 'ready',
          actions: ['clearKey', { type: 'setError', params: ({ event }) => ({ message: PROJECT_HOLD_TEXTS.holdFailed(errorMessageOf(event.error)) }) }],
        },
      },
    },
    releasing: {
      invoke: {
        src: 'release',
        input: ({ context }) => ({ project: context.project }),
        onDone: {
          target: 'ready',
          actions: [
            { type: 'storeQuote', params: ({ event }) => ({ quote: { ...event.output, hold: null } }) },
            { type: 'setNotice', params: { notice: PROJECT_HOLD_TEXTS.released } },
            { type: 'reportQuote', params: { balanceChanged: true } },
          ],
        },
        onError: {
          target: 'ready',
          actions: { type: 'setError', params: ({ event }) => ({ message: PROJECT_HOLD_TEXTS.releaseFailed(errorMessageOf(event.error)) }) },
        },
      },
    },
  },
});
