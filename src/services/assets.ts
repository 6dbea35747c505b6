import { assetDeletedSchema, assetListSchema, assetSchema } from '@/services/schemas/assets';
import type { Asset, AssetList, AssetWrite } from '@/services/schemas/assets';
import { apiDelete, apiGet, apiPostJson, apiPutJson } from '@/services/http';

const assetPath = (id: string): string => `asset/${encodeURIComponent(id)}`;

/** GET asset (Kinora's): the signed-in person's assets, last changed first. */
export const listAssets = (): Promise<AssetList> => apiGet('asset', assetListSchema);

/** POST asset (Kinora's): a new, empty asset. */
export const createAsset = (body: AssetWrite): Promise<Asset> => apiPostJson('asset', body, assetSchema);

/** GET asset/{id}?fields=: the asset with its media unless `fields` leaves `media` out. */
export const getAsset = (id: string, fields?: readonly string[]): Promise<Asset> =>
  apiGet(assetPath(id), assetSchema, { query: { fields: fields && fields.length > 0 ? fields.join(',') : undefined } });

/** PUT asset/{id}: the whole object (SPEC §3); `media_ids` sets which media are attached. */
export const updateAsset = (id: string, body: AssetWrite): Promise<Asset> => apiPutJson(assetPath(id), body, assetSchema);

/** DELETE asset/{id}: the media stay, no longer attached. */
export const deleteAsset = (id: string): Promise<{ id: string; deleted: true }> =>
  apiDelete(assetPath(id), assetDeletedSchema);
