import { assertEvent, assign, emit, fromPromise, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { createAsset, deleteAsset, listAssets } from '@/services/assets';
import { errorMessageOf } from '@/services/api-error';
import type { Asset, AssetWrite } from '@/services/schemas/assets';

export type { Asset, AssetWrite } from '@/services/schemas/assets';

export interface AssetsContext {
  /** The person's assets, last changed first; empty until loaded. */
  assets: Asset[];
  /** Why the list could not be loaded; null otherwise. */
  loadError: string | null;
  /** Why the last create failed; null otherwise. */
  createError: string | null;
  /** Assets being deleted now. */
  deleting: string[];
  /** Why the last delete failed; null otherwise. */
  deleteError: string | null;
}

export type AssetsEvent =
  | { type: 'assets.refresh' }
  | { type: 'assets.create'; name: string; description?: string }
  | { type: 'assets.delete'; id: string }
  | { type: `xstate.done.actor.delete:${string}`; output: { id: string; deleted: true }; actorId: string }
  | { type: `xstate.error.actor.delete:${string}`; error: unknown; actorId: string };

export type AssetsEmitted = { type: 'assets.created'; asset: Asset };

const DELETE_PREFIX = 'delete:';
const deletedIdOf = (event: { actorId?: string }): string => (event.actorId ?? '').slice(DELETE_PREFIX.length);

/**
 * The person's assets (GET asset): loading → ready | failed (retry with `assets.refresh`); beside
 * it, creating one (POST asset: idle → creating → idle, the new one first in the list and
 * reported with `assets.created`) and deletes (DELETE asset/{id}), each its own spawned call.
 */
export const assetsMachine = setup({
  types: {
    context: {} as AssetsContext,
    events: {} as AssetsEvent,
    emitted: {} as AssetsEmitted,
  },
  actors: {
    loadAssets: fromPromise<Asset[]>(async () => (await listAssets()).items),
    createAsset: fromPromise<Asset, AssetWrite>(({ input }) => createAsset(input)),
    deleteAsset: fromPromise<{ id: string; deleted: true }, { id: string }>(({ input }) => deleteAsset(input.id)),
  },
  guards: {
    notDeleting: ({ context, event }) => event.type === 'assets.delete' && !context.deleting.includes(event.id),
    isDeleteAnswer: ({ event }) => event.type.startsWith(`xstate.done.actor.${DELETE_PREFIX}`),
    isDeleteFailure: ({ event }) => event.type.startsWith(`xstate.error.actor.${DELETE_PREFIX}`),
  },
  actions: {
    storeAssets: assign((_, params: { assets: Asset[] }) => ({ assets: params.assets, loadError: null })),
    setLoadError: assign((_, params: { message: string }) => ({ loadError: params.message })),
    clearCreateError: assign({ createError: null }),
    addAsset: assign(({ context }, params: { asset: Asset }) => ({
      assets: [params.asset, ...context.assets.filter((asset) => asset.id !== params.asset.id)],
      createError: null,
    })),
    reportCreated: emit((_, params: { asset: Asset }) => ({ type: 'assets.created' as const, asset: params.asset })),
    setCreateError: assign((_, params: { message: string }) => ({ createError: params.message })),
    startDelete: assign(({ context, event, spawn }) => {
      assertEvent(event, 'assets.delete');
      spawn('deleteAsset', { id: `${DELETE_PREFIX}${event.id}`, input: { id: event.id } });
      return { deleting: [...context.deleting, event.id], deleteError: null };
    }),
    removeAsset: assign(({ context }, params: { id: string }) => ({
      assets: context.assets.filter((asset) => asset.id !== params.id),
      deleting: context.deleting.filter((id) => id !== params.id),
    })),
    deleteFailed: assign(({ context }, params: { id: string; message: string }) => ({
      deleting: context.deleting.filter((id) => id !== params.id),
      deleteError: params.message,
    })),
  },
}).createMachine({
  id: 'assets',
  context: { assets: [], loadError: null, createError: null, deleting: [], deleteError: null },
  type: 'parallel',
  on: {
    'assets.delete': { guard: 'notDeleting', actions: 'startDelete' },
    'xstate.done.actor.*': {
      guard: 'isDeleteAnswer',
      actions: { type: 'removeAsset', params: ({ event }) => ({ id: deletedIdOf(event as { actorId?: string }) }) },
    },
    'xstate.error.actor.*': {
      guard: 'isDeleteFailure',
      actions: {
        type: 'deleteFailed',
        params: ({ event }) => ({
          id: deletedIdOf(event as { actorId?: string }),
          message: errorMessageOf((event as { error?: unknown }).error),
        }),
      },
    },
  },
  states: {
    list: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            src: 'loadAssets',
            onDone: { target: 'ready', actions: { type: 'storeAssets', params: ({ event }) => ({ assets: event.output }) } },
            onError: {
              target: 'failed',
              actions: { type: 'setLoadError', params: ({ event }) => ({ message: errorMessageOf(event.error) }) },
            },
          },
          on: { 'assets.refresh': { target: 'loading', reenter: true } },
        },
        ready: { on: { 'assets.refresh': 'loading' } },
        failed: { on: { 'assets.refresh': 'loading' } },
      },
    },
    create: {
      initial: 'idle',
      states: {
        idle: {
          on: { 'assets.create': { target: 'creating', actions: 'clearCreateError' } },
        },
        creating: {
          invoke: {
            src: 'createAsset',
            input: ({ event }) => {
              assertEvent(event, 'assets.create');
              return { name: event.name, description: event.description ?? '', fields: {} };
            },
            onDone: {
              target: 'idle',
              actions: [
                { type: 'addAsset', params: ({ event }) => ({ asset: event.output }) },
                { type: 'reportCreated', params: ({ event }) => ({ asset: event.output }) },
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

export type AssetsSnapshot = SnapshotFrom<typeof assetsMachine>;
