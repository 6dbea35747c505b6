import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import type { MediaKind } from '@/config/enums';
import { getAsset, listAssets } from '@/services/assets';
import { errorMessageOf } from '@/services/api-error';
import type { Asset } from '@/services/schemas/assets';

export type { Asset } from '@/services/schemas/assets';

export interface AssetPickerInput {
  /** Only results of this kind can be chosen. */
  kind: MediaKind;
}

export interface AssetPickerContext {
  kind: MediaKind;
  assets: Asset[];
  /** The asset whose results are shown (with its media once loaded). */
  chosenId: string | null;
  asset: Asset | null;
  /** Which load failed, so "Try again" repeats it. */
  failed: 'list' | 'asset' | null;
  error: string | null;
}

export type AssetPickerEvent = { type: 'picker.chooseAsset'; id: string } | { type: 'picker.retry' };

/**
 * "Choose from assets": the person's assets (GET asset) → the first one holding anything opens
 * (GET asset/{id}); another can be chosen. loadingList → empty | loadingAsset → ready; either load
 * can fail (failed, `picker.retry` repeats it). The results of the kind come from the selectors.
 */
export const assetPickerMachine = setup({
  types: {
    context: {} as AssetPickerContext,
    events: {} as AssetPickerEvent,
    input: {} as AssetPickerInput,
  },
  actors: {
    loadAssets: fromPromise<Asset[]>(async () => (await listAssets()).items),
    loadAsset: fromPromise<Asset, { id: string }>(({ input }) => getAsset(input.id)),
  },
  guards: {
    hasAssets: ({ context }) => context.assets.length > 0,
    failedList: ({ context }) => context.failed === 'list',
    failedAsset: ({ context }) => context.failed === 'asset',
  },
  actions: {
    storeAssets: assign((_, params: { assets: Asset[] }) => {
      const first = params.assets.find((asset) => asset.media_count > 0) ?? params.assets[0];
      return { assets: params.assets, chosenId: first?.id ?? null, failed: null, error: null };
    }),
    chooseAsset: assign(({ event }) => {
      assertEvent(event, 'picker.chooseAsset');
      return { chosenId: event.id, asset: null, failed: null, error: null };
    }),
    storeAsset: assign((_, params: { asset: Asset }) => ({ asset: params.asset, failed: null, error: null })),
    setFailure: assign((_, params: { failed: 'list' | 'asset'; error: unknown }) => ({
      failed: params.failed,
      error: errorMessageOf(params.error),
    })),
  },
}).createMachine({
  id: 'assetPicker',
  context: ({ input }) => ({ kind: input.kind, assets: [], chosenId: null, asset: null, failed: null, error: null }),
  initial: 'loadingList',
  states: {
    loadingList: {
      invoke: {
        src: 'loadAssets',
        onDone: { target: 'listed', actions: { type: 'storeAssets', params: ({ event }) => ({ assets: event.output }) } },
        onError: { target: 'failed', actions: { type: 'setFailure', params: ({ event }) => ({ failed: 'list' as const, error: event.error }) } },
      },
    },
    listed: {
      always: [{ guard: 'hasAssets', target: 'loadingAsset' }, { target: 'empty' }],
    },
    empty: {},
    loadingAsset: {
      invoke: {
        src: 'loadAsset',
        input: ({ context }) => ({ id: context.chosenId ?? '' }),
        onDone: { target: 'ready', actions: { type: 'storeAsset', params: ({ event }) => ({ asset: event.output }) } },
        onError: { target: 'failed', actions: { type: 'setFailure', params: ({ event }) => ({ failed: 'asset' as const, error: event.error }) } },
      },
      on: { 'picker.chooseAsset': { target: 'loadingAsset', reenter: true, actions: 'chooseAsset' } },
    },
    ready: {
      on: { 'picker.chooseAsset': { target: 'loadingAsset', actions: 'chooseAsset' } },
    },
    failed: {
      on: {
        'picker.retry': [
          { guard: 'failedList', target: 'loadingList' },
          { guard: 'failedAsset', target: 'loadingAsset' },
        ],
        'picker.chooseAsset': { guard: 'failedAsset', target: 'loadingAsset', actions: 'chooseAsset' },
      },
    },
  },
});

export type AssetPickerSnapshot = SnapshotFrom<typeof assetPickerMachine>;
