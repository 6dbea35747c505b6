import { assign, fromPromise, setup } from 'xstate';
import { backoffCeiling } from '@/lib/backoff';
import { isApiError } from '@/services/api-error';
import { listMedia } from '@/services/media';
import type { Media } from '@/services/schemas/media';

export type { Media, MediaResultItem } from '@/services/schemas/media';

/** How many of a tool's past results a page lists. */
export const TOOL_HISTORY_LIMIT = 20;

/**
 * A list that could not be fetched for want of an answer (no network, a lost answer, the server's
 * own failure) is asked for again, 1 s, 2 s, 4 s, 8 s later: otherwise a finished job's result
 * would never show on its page after one lost call.
 */
export const TOOL_HISTORY_RETRY = { attempts: 4, baseMs: 1000, capMs: 8000 } as const;

export interface ToolHistoryInput {
  /** Tool slug, e.g. `text-to-image`. */
  tool: string;
}

export interface ToolHistoryContext {
  tool: string;
  /** Newest first. */
  items: Media[];
  /** Failed attempts in a row at the current load (the exponent of the retry back-off). */
  retries: number;
}

export type ToolHistoryEvent = { type: 'history.refresh' };

/**
 * A tool page's past results (`GET media?tool=&limit=20`): loading (⇄ retrying) → ready | failed.
 * A refresh keeps the list shown until the new one arrives. A failure is silent (SPEC §8 "Other
 * calls fail"): the list stays as it was, empty on the first load; a network or server failure is
 * first retried a few times (retrying, TOOL_HISTORY_RETRY).
 */
export const toolHistoryMachine = setup({
  types: {
    context: {} as ToolHistoryContext,
    events: {} as ToolHistoryEvent,
    input: {} as ToolHistoryInput,
  },
  actors: {
    loadHistory: fromPromise<Media[], { tool: string }>(({ input, signal }) =>
      listMedia({ tool: input.tool, limit: TOOL_HISTORY_LIMIT }, { signal }),
    ),
  },
  guards: {
    /** No answer, or the server's own failure (5xx), and attempts are left: worth asking again. */
    isRetryable: ({ context }, params: { error: unknown }) =>
      context.retries < TOOL_HISTORY_RETRY.attempts &&
      isApiError(params.error) &&
      (params.error.kind === 'network' || (params.error.status ?? 0) >= 500),
  },
  actions: {
    storeItems: assign((_, params: { items: Media[] }) => ({ items: params.items, retries: 0 })),
    countRetry: assign(({ context }) => ({ retries: context.retries + 1 })),
    resetRetries: assign({ retries: 0 }),
  },
  delays: {
    retryDelay: ({ context }) => backoffCeiling(context.retries - 1, TOOL_HISTORY_RETRY),
  },
}).createMachine({
  id: 'toolHistory',
  context: ({ input }) => ({ tool: input.tool, items: [], retries: 0 }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadHistory',
        input: ({ context }) => ({ tool: context.tool }),
        onDone: { target: 'ready', actions: { type: 'storeItems', params: ({ event }) => ({ items: event.output }) } },
        onError: [
          {
            guard: { type: 'isRetryable', params: ({ event }) => ({ error: event.error }) },
            target: 'retrying',
            actions: 'countRetry',
          },
          { target: 'failed', actions: 'resetRetries' },
        ],
      },
      // A newer request replaces the running one, so an older answer never lands.
      on: { 'history.refresh': { target: 'loading', reenter: true, actions: 'resetRetries' } },
    },
    /** Silent (the list stays as it was) until the next attempt. */
    retrying: {
      after: { retryDelay: 'loading' },
      on: { 'history.refresh': { target: 'loading', actions: 'resetRetries' } },
    },
    ready: { on: { 'history.refresh': 'loading' } },
    failed: { on: { 'history.refresh': 'loading' } },
  },
});
