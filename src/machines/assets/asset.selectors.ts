import type { Asset, AssetFailure, AssetSnapshot, Media } from '@/machines/assets/asset.machine';

export type AssetStatus = 'loading' | 'failed' | 'notFound' | 'ready' | 'deleted';

export function selectAssetStatus(snapshot: AssetSnapshot): AssetStatus {
  if (snapshot.matches('loading')) return 'loading';
  if (snapshot.matches('failed')) return snapshot.context.failure?.action === 'load' && snapshot.context.failure.notFound ? 'notFound' : 'failed';
  if (snapshot.matches('deleted')) return 'deleted';
  return 'ready';
}

export const selectAsset = (snapshot: AssetSnapshot): Asset | null => snapshot.context.asset;
export const selectAssetMedia = (snapshot: AssetSnapshot): Media[] => snapshot.context.media;
export const selectAssetFailure = (snapshot: AssetSnapshot): AssetFailure | null => snapshot.context.failure;
export const selectAssetSaving = (snapshot: AssetSnapshot): boolean => snapshot.matches('saving');
export const selectAssetDeleting = (snapshot: AssetSnapshot): boolean => snapshot.matches('deleting');
/** The media being taken out now, or null. */
export const selectRemovingMedia = (snapshot: AssetSnapshot): string | null => (snapshot.matches('removing') ? snapshot.context.removing : null);
/** Some change is on its way: the other buttons wait. */
export const selectAssetBusy = (snapshot: AssetSnapshot): boolean => !snapshot.matches('ready');
export const selectSavedCount = (snapshot: AssetSnapshot): number => snapshot.context.savedCount;
