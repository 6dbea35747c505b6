import { assign, emit, fromPromise, setup } from 'xstate';
import { STORY_HOLD_TEXTS } from '@/config/story-hold-texts';
import { newIdempotencyKey } from '@/lib/idempotency-key';
import { errorMessageOf } from '@/services/api-error';
import type { StoryQuoteAnswer } from '@/services/schemas/story-hold';
import { holdStoryCredits, quoteStory, releaseStoryCredits } from '@/services/story';

export type { StoryQuoteAnswer } from '@/services/schemas/story-hold';

export interface StoryHoldContext {
  storyId: string;
  /** The last answer: what is left to make, the story's hold, the free balance. */
  quote: StoryQuoteAnswer | null;
  /** One per click on Hold: a retry of the same click is the same hold. */
  idempotencyKey: string | null;
  error: string | null;
  notice: string | null;
}

export type StoryHoldEvent =
  | { type: 'storyHold.refresh' }
  | { type: 'storyHold.place' }
  | { type: 'storyHold.release' }
  | { type: 'storyHold.dismiss' };

/** What the page is told: the balance changed (credits set aside or given back). */
export type StoryHoldEmitted = { type: 'storyHold.changed' };

/**
 * One quote for the whole film (issue 21 item 6): the story's price of everything still to make,
 * held from the balance in one call and released in one. loading → ready (quote shown) ⇄ placing
 * (POST story/{id}/hold) / releasing (DELETE story/{id}/hold); a refused hold (402: SPEC's words)
 * stays ready with the message. `storyHold.refresh` prices again (the page sends it when the story
 * spent credits). Holding is offered, never required: a step still pays for itself without it.
 */
export const storyHoldMachine = setup({
  types: {
    context: {} as StoryHoldContext,
    events: {} as StoryHoldEvent,
    emitted: {} as StoryHoldEmitted,
    input: {} as { storyId: string },
  },
  actors: {
    quote: fromPromise<StoryQuoteAnswer, { storyId: string }>(({ input, signal }) => quoteStory(input.storyId, { signal })),
    hold: fromPromise<StoryQuoteAnswer, { storyId: string; idempotencyKey: string }>(({ input, signal }) =>
      holdStoryCredits(input.storyId, { idempotencyKey: input.idempotencyKey, signal }),
    ),
    release: fromPromise<StoryQuoteAnswer, { storyId: string }>(({ input, signal }) => releaseStoryCredits(input.storyId, { signal })),
  },
  guards: {
    /** Something is left to make and the story's open hold (if any) keeps less than it costs. */
    canPlace: ({ context }) => {
      const quote = context.quote;
      if (!quote || quote.total === 0) return false;
      return quote.hold?.status !== 'open' || quote.hold.remaining < quote.cost;
    },
    canRelease: ({ context }) => context.quote?.hold?.status === 'open',
  },
  actions: {
    storeQuote: assign((_, params: { quote: StoryQuoteAnswer }) => ({ quote: params.quote, error: null })),
    newKey: assign({ idempotencyKey: () => newIdempotencyKey(), error: null, notice: null }),
    clearKey: assign({ idempotencyKey: null }),
    setError: assign((_, params: { message: string }) => ({ error: params.message, notice: null })),
    setNotice: assign((_, params: { notice: string }) => ({ notice: params.notice })),
    dismiss: assign({ error: null, notice: null }),
    reportChanged: emit({ type: 'storyHold.changed' } as const),
  },
}).createMachine({
  id: 'storyHold',
  context: ({ input }) => ({ storyId: input.storyId, quote: null, idempotencyKey: null, error: null, notice: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'quote',
        input: ({ context }) => ({ storyId: context.storyId }),
        onDone: { target: 'ready', actions: { type: 'storeQuote', params: ({ event }) => ({ quote: event.output }) } },
        onError: { target: 'failed', actions: { type: 'setError', params: ({ event }) => ({ message: errorMessageOf(event.error, STORY_HOLD_TEXTS.loadFailed) }) } },
      },
    },
    failed: {
      on: { 'storyHold.refresh': 'loading' },
    },
    ready: {
      on: {
        'storyHold.refresh': 'loading',
        'storyHold.place': { guard: 'canPlace', target: 'placing', actions: 'newKey' },
        'storyHold.release': { guard: 'canRelease', target: 'releasing', actions: 'dismiss' },
        'storyHold.dismiss': { actions: 'dismiss' },
      },
    },
    placing: {
      invoke: {
        src: 'hold',
        input: ({ context }) => ({ storyId: context.storyId, idempotencyKey: context.idempotencyKey ?? '' }),
        onDone: { target: 'ready', actions: [{ type: 'storeQuote', params: ({ event }) => ({ quote: event.output }) }, 'clearKey', 'reportChanged'] },
        onError: {
          target: 'ready',
          actions: ['clearKey', { type: 'setError', params: ({ event }) => ({ message: STORY_HOLD_TEXTS.holdFailed(errorMessageOf(event.error)) }) }],
        },
      },
    },
    releasing: {
      invoke: {
        src: 'release',
        input: ({ context }) => ({ storyId: context.storyId }),
        onDone: {
          target: 'ready',
          actions: [
            { type: 'storeQuote', params: ({ event }) => ({ quote: { ...event.output, hold: null } }) },
            { type: 'setNotice', params: { notice: STORY_HOLD_TEXTS.released } },
            'reportChanged',
          ],
        },
        onError: { target: 'ready', actions: { type: 'setError', params: ({ event }) => ({ message: STORY_HOLD_TEXTS.releaseFailed(errorMessageOf(event.error)) }) } },
      },
    },
  },
});
