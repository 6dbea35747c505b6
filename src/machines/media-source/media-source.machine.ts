import { assign, fromPromise, setup } from 'xstate';
import { errorMessageOf } from '@/services/api-error';
import { getMedia } from '@/services/media';
import type { Media } from '@/services/schemas/media';

export type { Media } from '@/services/schemas/media';

export interface MediaSourceInput {
  /** The media whose result is used as a source (Extend Video's `?extend=`). */
  mediaId: string;
  /** Which of its result items (0-based, `?item=`). */
  itemIndex: number;
}

export interface MediaSourceContext {
  mediaId: string;
  itemIndex: number;
  media: Media | null;
  /** Why the last load failed. */
  error: string | null;
}

export type MediaSourceEvent = { type: 'source.retry' };

/**
 * One media item loaded by id to be used as the input of a new job (Extend Video continues one of
 * the person's videos): loading → ready | failed; `source.retry` loads it again after a failure.
 * `GET media/{id}` is the owner's call, so the page starts this actor only for a signed-in person.
 */
export const mediaSourceMachine = setup({
  types: {
    context: {} as MediaSourceContext,
    events: {} as MediaSourceEvent,
    input: {} as MediaSourceInput,
  },
  actors: {
    loadMedia: fromPromise<Media, { mediaId: string }>(({ input, signal }) => getMedia(input.mediaId, undefined, { signal })),
  },
  actions: {
    storeMedia: assign((_, params: { media: Media }) => ({ media: params.media, error: null })),
    storeError: assign((_, params: { error: unknown }) => ({ error: errorMessageOf(params.error) })),
  },
}).createMachine({
  id: 'mediaSource',
  context: ({ input }) => ({
    mediaId: input.mediaId,
    itemIndex: Math.max(0, Math.floor(input.itemIndex)),
    media: null,
    error: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadMedia',
        input: ({ context }) => ({ mediaId: context.mediaId }),
        onDone: { target: 'ready', actions: { type: 'storeMedia', params: ({ event }) => ({ media: event.output }) } },
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    ready: {},
    failed: { on: { 'source.retry': 'loading' } },
  },
});
