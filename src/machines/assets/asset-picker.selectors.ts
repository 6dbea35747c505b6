import { createSelector } from 'reselect';
import { classifyStatus } from '@/lib/job-status';
import { stringArg } from '@/lib/records';
import type { Asset, AssetPickerSnapshot } from '@/machines/assets/asset-picker.machine';
import type { Media } from '@/services/schemas/media';

export type AssetPickerStatus = 'loading' | 'empty' | 'failed' | 'loadingAsset' | 'ready';

export function selectPickerStatus(snapshot: AssetPickerSnapshot): AssetPickerStatus {
  if (snapshot.matches('loadingList')) return 'loading';
  if (snapshot.matches('empty')) return 'empty';
  if (snapshot.matches('failed')) return 'failed';
  if (snapshot.matches('loadingAsset')) return 'loadingAsset';
  return 'ready';
}

export const selectPickerAssets = (snapshot: AssetPickerSnapshot): Asset[] => snapshot.context.assets;
export const selectPickerChosenId = (snapshot: AssetPickerSnapshot): string | null => snapshot.context.chosenId;
export const selectPickerError = (snapshot: AssetPickerSnapshot): string | null => snapshot.context.error;

/** One result that can be chosen: a finished file of the kind asked for. */
export interface PickableResult {
  key: string;
  media: Media;
  itemIndex: number;
  url: string;
  thumbnailUrl: string | null;
  label: string;
}

const NO_RESULTS: PickableResult[] = [];

/** The chosen asset's finished results of the picker's kind (the same array for the same asset and kind). */
export const selectPickableResults: (snapshot: AssetPickerSnapshot) => PickableResult[] = createSelector(
  [(snapshot: AssetPickerSnapshot) => snapshot.context.asset, (snapshot: AssetPickerSnapshot) => snapshot.context.kind],
  (asset, kind) => (asset ? pickableResults(asset, kind) : NO_RESULTS),
);

function pickableResults(asset: Asset, kind: AssetPickerSnapshot['context']['kind']): PickableResult[] {
  return (asset.media ?? [])
    .filter((media) => classifyStatus(media.status) === 'success')
    .flatMap((media) => {
      const name = media.title || stringArg(media.args, 'prompt') || stringArg(media.args, 'filename') || media.tool;
      const withFile = media.items
        .map((item, itemIndex) => ({ item, itemIndex }))
        .filter(({ item }) => item.type === kind && Boolean(item.url));
      return withFile.map(({ item, itemIndex }) => ({
        key: `${media.id}:${itemIndex}`,
        media,
        itemIndex,
        url: item.url ?? '',
        thumbnailUrl: item.thumbnail_url,
        label: withFile.length > 1 ? `${name} (${itemIndex + 1})` : name,
      }));
    });
}
