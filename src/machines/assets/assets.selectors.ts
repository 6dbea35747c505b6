import type { Asset, AssetsSnapshot } from '@/machines/assets/assets.machine';

export type AssetsStatus = 'loading' | 'ready' | 'failed';

/** The assets, last changed first; a new one first. */
export const selectAssets = (snapshot: AssetsSnapshot): Asset[] => snapshot.context.assets;

/** 'loading' only for a first load (a refresh keeps showing the list it has). */
export function selectAssetsStatus(snapshot: AssetsSnapshot): AssetsStatus {
  if (snapshot.matches({ list: 'failed' })) return 'failed';
  if (snapshot.matches({ list: 'loading' }) && snapshot.context.assets.length === 0) return 'loading';
  return 'ready';
}

export const selectAssetsLoadError = (snapshot: AssetsSnapshot): string | null => snapshot.context.loadError;
export const selectCreatingAsset = (snapshot: AssetsSnapshot): boolean => snapshot.matches({ create: 'creating' });
export const selectCreateAssetError = (snapshot: AssetsSnapshot): string | null => snapshot.context.createError;
export const selectDeleteAssetError = (snapshot: AssetsSnapshot): string | null => snapshot.context.deleteError;
export const selectDeletingAsset = (snapshot: AssetsSnapshot, id: string): boolean => snapshot.context.deleting.includes(id);
