import { assign, fromPromise, setup } from 'xstate';
import { isApiError } from '@/services/api-error';
import { viewMedia } from '@/services/media';
import type { Media } from '@/services/schemas/media';

export type { Media } from '@/services/schemas/media';

export interface SharedItemInput {
  id: string;
}

export interface SharedItemContext {
  id: string;
  media: Media | null;
}

export type SharedItemEvent = { type: 'shared.retry' };

/**
 * One shared result (GET media/{id}/view, signed out too): loading → ready | notFound | failed.
 * A 404 (unknown, private again) is "not found"; any other failure offers a retry.
 */
export const sharedItemMachine = setup({
  types: {
    context: {} as SharedItemContext,
    events: {} as SharedItemEvent,
    input: {} as SharedItemInput,
  },
  actors: {
    loadSharedItem: fromPromise<Media, { id: string }>(({ input }) => viewMedia(input.id)),
  },
  guards: {
    isNotFound: (_, params: { error: unknown }) => isApiError(params.error) && params.error.status === 404,
  },
  actions: {
    storeMedia: assign((_, params: { media: Media }) => ({ media: params.media })),
  },
}).createMachine({
  id: 'sharedItem',
  context: ({ input }) => ({ id: input.id, media: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadSharedItem',
        input: ({ context }) => ({ id: context.id }),
        onDone: { target: 'ready', actions: { type: 'storeMedia', params: ({ event }) => ({ media: event.output }) } },
        onError: [
          { guard: { type: 'isNotFound', params: ({ event }) => ({ error: event.error }) }, target: 'notFound' },
          { target: 'failed' },
        ],
      },
    },
    ready: {},
    notFound: {},
    failed: { on: { 'shared.retry': 'loading' } },
  },
});
