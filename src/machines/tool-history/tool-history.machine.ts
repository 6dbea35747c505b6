import { assign, fromPromise, setup } from 'xstate';
import { listMedia } from '@/services/media';
import type { Media } from '@/services/schemas/media';

export type { Media, MediaResultItem } from '@/services/schemas/media';

/** How many of a tool's past results a page lists. */
export const TOOL_HISTORY_LIMIT = 20;

export interface ToolHistoryInput {
  /** Tool slug, e.g. `text-to-image`. */
  tool: string;
}

export interface ToolHistoryContext {
  tool: string;
  /** Newest first. */
  items: Media[];
}

export type ToolHistoryEvent = { type: 'history.refresh' };

/**
 * A tool page's past results (`GET media?tool=&limit=20`): loading → ready | failed. A refresh keeps
 * the list shown until the new one arrives. A failure is silent (SPEC §8 "Other calls fail"): the
 * list stays as it was, empty on the first load.
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
  actions: {
    storeItems: assign((_, params: { items: Media[] }) => ({ items: params.items })),
  },
}).createMachine({
  id: 'toolHistory',
  context: ({ input }) => ({ tool: input.tool, items: [] }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadHistory',
        input: ({ context }) => ({ tool: context.tool }),
        onDone: { target: 'ready', actions: { type: 'storeItems', params: ({ event }) => ({ items: event.output }) } },
        onError: { target: 'failed' },
      },
      // A newer request replaces the running one, so an older answer never lands.
      on: { 'history.refresh': { target: 'loading', reenter: true } },
    },
    ready: { on: { 'history.refresh': 'loading' } },
    failed: { on: { 'history.refresh': 'loading' } },
  },
});
