import { assign, emit, fromPromise, setup } from 'xstate';
import type { BatchType } from '@/config/batch';
import { errorMessageOf } from '@/services/api-error';
import { createBatch, listBatches } from '@/services/batch';
import type { CreateBatchFields } from '@/services/batch';
import type { Batch } from '@/services/schemas/batch';

export type { Batch } from '@/services/schemas/batch';

export interface AlbumsContext {
  /** The person's albums, newest first; empty until loaded (and after a failed load). */
  albums: Batch[];
  /** Why the last "Create album" failed; null otherwise. */
  createError: string | null;
}

export type AlbumsEvent =
  | { type: 'albums.refresh' }
  | { type: 'albums.create'; title: string; batchType: BatchType; imageUrls: readonly string[] };

/** What the list page is told (`actor.on`): the new album to open. */
export type AlbumsEmitted = { type: 'albums.created'; id: string };

/**
 * The person's albums page (issue 5): the list (GET batch: loading → ready | failed, silent as
 * SPEC §8 "Other calls fail" asks: an empty list) and, beside it, the "New album" form's call
 * (POST batch: idle → creating → idle, announcing the new album so the page opens it).
 */
export const albumsMachine = setup({
  types: {
    context: {} as AlbumsContext,
    events: {} as AlbumsEvent,
    emitted: {} as AlbumsEmitted,
  },
  actors: {
    loadAlbums: fromPromise<Batch[]>(({ signal }) => listBatches({ signal })),
    createAlbum: fromPromise<Batch, CreateBatchFields>(({ input, signal }) => createBatch(input, { signal })),
  },
  actions: {
    storeAlbums: assign((_, params: { albums: Batch[] }) => ({ albums: params.albums })),
    addAlbum: assign(({ context }, params: { album: Batch }) => ({
      albums: [params.album, ...context.albums.filter((album) => album.id !== params.album.id)],
      createError: null,
    })),
    setCreateError: assign((_, params: { message: string }) => ({ createError: params.message })),
    clearCreateError: assign({ createError: null }),
    reportCreated: emit((_, params: { id: string }) => ({ type: 'albums.created' as const, id: params.id })),
  },
}).createMachine({
  id: 'albums',
  context: { albums: [], createError: null },
  type: 'parallel',
  states: {
    list: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            src: 'loadAlbums',
            onDone: { target: 'ready', actions: { type: 'storeAlbums', params: ({ event }) => ({ albums: event.output }) } },
            onError: { target: 'failed' },
          },
          // A newer request replaces the running one, so an older answer never lands.
          on: { 'albums.refresh': { target: 'loading', reenter: true } },
        },
        ready: { on: { 'albums.refresh': 'loading' } },
        failed: { on: { 'albums.refresh': 'loading' } },
      },
    },
    form: {
      initial: 'idle',
      states: {
        idle: {
          on: { 'albums.create': { target: 'creating', actions: 'clearCreateError' } },
        },
        creating: {
          invoke: {
            src: 'createAlbum',
            input: ({ event }) =>
              event.type === 'albums.create'
                ? { title: event.title, batch_type: event.batchType, image_urls: event.imageUrls }
                : { title: '', batch_type: 'ai' as const, image_urls: [] },
            onDone: {
              target: 'idle',
              actions: [
                { type: 'addAlbum', params: ({ event }) => ({ album: event.output }) },
                { type: 'reportCreated', params: ({ event }) => ({ id: event.output.id }) },
              ],
            },
            onError: {
              target: 'idle',
              actions: { type: 'setCreateError', params: ({ event }) => ({ message: errorMessageOf(event.error) }) },
            },
          },
        },
      },
    },
  },
});
