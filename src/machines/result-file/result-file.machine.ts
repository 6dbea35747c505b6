import { assign, fromPromise, setup } from 'xstate';
import { getMedia } from '@/services/media';

/** How many fresh links a result file gets before it is shown as not loading. */
export const RESULT_FILE_REFRESHES = 2;

export interface ResultFileInput {
  mediaId: string;
  /** The result's place in the media's items; null (a history-only result) → no fresh link to ask for. */
  itemIndex: number | null;
  url: string;
  thumbnailUrl: string | null;
}

export interface ResultFileContext extends ResultFileInput {
  refreshes: number;
}

export type ResultFileEvent = { type: 'file.failed' } | { type: 'file.loaded' };

interface FreshLinks {
  url: string;
  thumbnailUrl: string | null;
}

/**
 * One result picture, video or sound on a page (issue 17): its signed link lasts an hour, so a page
 * left open, or a link the browser could not fetch, fails to load. The element's `error` event
 * asks the server for the item again (fresh signed links) and shows it from them, at most
 * RESULT_FILE_REFRESHES times; after that the page says the file could not be loaded.
 * showing → (file.failed) → refreshing → showing | broken.
 */
export const resultFileMachine = setup({
  types: {
    context: {} as ResultFileContext,
    events: {} as ResultFileEvent,
    input: {} as ResultFileInput,
  },
  actors: {
    freshLinks: fromPromise<FreshLinks, { mediaId: string; itemIndex: number }>(async ({ input }) => {
      const media = await getMedia(input.mediaId);
      const item = media.items[input.itemIndex];
      if (!item?.url) throw new Error('the result has no file any more');
      return { url: item.url, thumbnailUrl: item.thumbnail_url ?? null };
    }),
  },
  guards: {
    canRefresh: ({ context }) => context.itemIndex !== null && context.refreshes < RESULT_FILE_REFRESHES,
  },
  actions: {
    storeLinks: assign((_, params: FreshLinks) => params),
    countRefresh: assign(({ context }) => ({ refreshes: context.refreshes + 1 })),
  },
}).createMachine({
  id: 'resultFile',
  context: ({ input }) => ({ ...input, refreshes: 0 }),
  initial: 'showing',
  states: {
    showing: {
      on: {
        'file.failed': [{ guard: 'canRefresh', target: 'refreshing', actions: 'countRefresh' }, { target: 'broken' }],
      },
    },
    refreshing: {
      invoke: {
        src: 'freshLinks',
        input: ({ context }) => ({ mediaId: context.mediaId, itemIndex: context.itemIndex ?? 0 }),
        onDone: { target: 'showing', actions: { type: 'storeLinks', params: ({ event }) => event.output } },
        onError: { target: 'broken' },
      },
    },
    broken: {},
  },
});
