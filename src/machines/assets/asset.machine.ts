import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { deleteAsset, getAsset, updateAsset } from '@/services/assets';
import { errorMessageOf, isApiError } from '@/services/api-error';
import type { Asset, AssetWrite } from '@/services/schemas/assets';
import type { Media } from '@/services/schemas/media';

export type { Asset } from '@/services/schemas/assets';
export type { Media } from '@/services/schemas/media';

export interface AssetInput {
  id: string;
}

/** The last change that failed, kept so "Try again" sends it once more. */
export type AssetFailure =
  | { action: 'load'; message: string; notFound: boolean }
  | { action: 'save'; message: string; body: AssetWrite }
  | { action: 'remove'; message: string; mediaId: string; body: AssetWrite }
  | { action: 'delete'; message: string };

export interface AssetContext {
  id: string;
  asset: Asset | null;
  /** The media attached, newest first (kept apart: a PUT answer may leave them out). */
  media: Media[];
  /** The write being sent now (save or remove). */
  pending: AssetWrite | null;
  /** The media being taken out now. */
  removing: string | null;
  failure: AssetFailure | null;
  /** Bumped on every saved name/description, so the form can show "Saved.". */
  savedCount: number;
}

export type AssetEvent =
  | { type: 'asset.save'; name: string; description: string }
  | { type: 'asset.removeMedia'; mediaId: string }
  | { type: 'asset.delete' }
  | { type: 'asset.retry' };

/** The whole object (SPEC §3: "the whole object is sent on update"). */
const wholeObject = (asset: Asset, change: Partial<AssetWrite>): AssetWrite => ({
  name: asset.name,
  description: asset.description,
  fields: asset.fields,
  ...change,
});

/**
 * One asset (GET asset/{id}): loading → ready | failed (retry); from ready: saving the name and
 * description (PUT the whole object), removing one media (PUT with the media_ids left), deleting
 * (DELETE) → deleted. A failed change goes back to ready with the failure kept; `asset.retry`
 * sends it again.
 */
export const assetMachine = setup({
  types: {
    context: {} as AssetContext,
    events: {} as AssetEvent,
    input: {} as AssetInput,
  },
  actors: {
    loadAsset: fromPromise<Asset, { id: string }>(({ input }) => getAsset(input.id)),
    updateAsset: fromPromise<Asset, { id: string; body: AssetWrite }>(({ input }) => updateAsset(input.id, input.body)),
    deleteAsset: fromPromise<{ id: string; deleted: true }, { id: string }>(({ input }) => deleteAsset(input.id)),
  },
  guards: {
    retrySave: ({ context }) => context.failure?.action === 'save',
    retryRemove: ({ context }) => context.failure?.action === 'remove',
    retryDelete: ({ context }) => context.failure?.action === 'delete',
    isAttached: ({ context, event }) =>
      event.type === 'asset.removeMedia' && context.media.some((media) => media.id === event.mediaId),
  },
  actions: {
    storeAsset: assign((_, params: { asset: Asset }) => ({
      asset: params.asset,
      media: params.asset.media ?? [],
      failure: null,
    })),
    loadFailed: assign((_, params: { error: unknown }) => ({
      failure: {
        action: 'load' as const,
        message: errorMessageOf(params.error),
        notFound: isApiError(params.error) && params.error.status === 404,
      },
    })),
    clearFailure: assign({ failure: null }),
    prepareSave: assign(({ context, event }) => {
      assertEvent(event, 'asset.save');
      if (!context.asset) return {};
      return { pending: wholeObject(context.asset, { name: event.name, description: event.description }), failure: null };
    }),
    prepareRemove: assign(({ context, event }) => {
      assertEvent(event, 'asset.removeMedia');
      if (!context.asset) return {};
      const left = context.media.filter((media) => media.id !== event.mediaId).map((media) => media.id);
      return { pending: wholeObject(context.asset, { media_ids: left }), removing: event.mediaId, failure: null };
    }),
    prepareRetry: assign(({ context }) => {
      const failure = context.failure;
      if (failure?.action === 'save') return { pending: failure.body, failure: null };
      if (failure?.action === 'remove') return { pending: failure.body, removing: failure.mediaId, failure: null };
      return { failure: null };
    }),
    storeSaved: assign(({ context }, params: { asset: Asset }) => ({
      // The answer's media when it has them; the list as it was otherwise.
      asset: { ...params.asset, media: undefined },
      media: params.asset.media ?? context.media,
      pending: null,
      savedCount: context.savedCount + 1,
    })),
    storeRemoved: assign(({ context }, params: { asset: Asset }) => ({
      asset: { ...params.asset, media: undefined },
      media: params.asset.media ?? context.media.filter((media) => media.id !== context.removing),
      pending: null,
      removing: null,
    })),
    saveFailed: assign(({ context }, params: { error: unknown }) => ({
      failure: { action: 'save' as const, message: errorMessageOf(params.error), body: context.pending ?? { name: '' } },
      pending: null,
    })),
    removeFailed: assign(({ context }, params: { error: unknown }) => ({
      failure: {
        action: 'remove' as const,
        message: errorMessageOf(params.error),
        mediaId: context.removing ?? '',
        body: context.pending ?? { name: '' },
      },
      pending: null,
      removing: null,
    })),
    deleteFailed: assign((_, params: { error: unknown }) => ({
      failure: { action: 'delete' as const, message: errorMessageOf(params.error) },
    })),
  },
}).createMachine({
  id: 'asset',
  context: ({ input }) => ({
    id: input.id,
    asset: null,
    media: [],
    pending: null,
    removing: null,
    failure: null,
    savedCount: 0,
  }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadAsset',
        input: ({ context }) => ({ id: context.id }),
        onDone: { target: 'ready', actions: { type: 'storeAsset', params: ({ event }) => ({ asset: event.output }) } },
        onError: { target: 'failed', actions: { type: 'loadFailed', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    failed: {
      on: { 'asset.retry': { target: 'loading', actions: 'clearFailure' } },
    },
    ready: {
      on: {
        'asset.save': { target: 'saving', actions: 'prepareSave' },
        'asset.removeMedia': { guard: 'isAttached', target: 'removing', actions: 'prepareRemove' },
        'asset.delete': { target: 'deleting', actions: 'clearFailure' },
        'asset.retry': [
          { guard: 'retrySave', target: 'saving', actions: 'prepareRetry' },
          { guard: 'retryRemove', target: 'removing', actions: 'prepareRetry' },
          { guard: 'retryDelete', target: 'deleting', actions: 'prepareRetry' },
        ],
      },
    },
    saving: {
      invoke: {
        src: 'updateAsset',
        input: ({ context }) => ({ id: context.id, body: context.pending ?? { name: '' } }),
        onDone: { target: 'ready', actions: { type: 'storeSaved', params: ({ event }) => ({ asset: event.output }) } },
        onError: { target: 'ready', actions: { type: 'saveFailed', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    removing: {
      invoke: {
        src: 'updateAsset',
        input: ({ context }) => ({ id: context.id, body: context.pending ?? { name: '' } }),
        onDone: { target: 'ready', actions: { type: 'storeRemoved', params: ({ event }) => ({ asset: event.output }) } },
        onError: { target: 'ready', actions: { type: 'removeFailed', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    deleting: {
      invoke: {
        src: 'deleteAsset',
        input: ({ context }) => ({ id: context.id }),
        onDone: { target: 'deleted' },
        onError: { target: 'ready', actions: { type: 'deleteFailed', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    deleted: { type: 'final' },
  },
});

export type AssetSnapshot = SnapshotFrom<typeof assetMachine>;
