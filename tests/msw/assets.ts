import { http } from 'msw';
import { answer, API, assetRecord, callOf, detail, isSignedIn, tick as tickOf, type FakeAssetRecord, type FakeMediaRecord } from './data';
import { fakeMedia } from './media';

/**
 * A small stand-in for the assets calls (issue 7 contract: GET/POST asset, GET/PUT/DELETE
 * asset/{id}), answering in the `{data}` envelope. Assets live in `fakeAssets.assets`; the media
 * of an asset are the fake media store's records (tests/msw/media.ts) whose `asset_id` is its id,
 * so a job made with `?asset_id=` shows up in it. `fakeAssets.failNext` makes the next call of
 * a kind ("PUT asset/a1") answer an error once. Part of the default handlers (empty store); reset
 * after every test by `resetFakeApi()`.
 */

export type { FakeAssetRecord } from './data';

export interface FakeAssetRequest {
  call: string;
  json: Record<string, unknown> | null;
}

interface FakeAssetsState {
  assets: Map<string, FakeAssetRecord>;
  requests: FakeAssetRequest[];
  /** "METHOD path" → the error the next such call answers (once). */
  failNext: Map<string, { status: number; detail: string }>;
  nextId: number;
  clock: number;
}

const freshState = (): FakeAssetsState => ({
  assets: new Map(),
  requests: [],
  failNext: new Map(),
  nextId: 1,
  clock: Date.parse('2025-02-01T12:00:00Z'),
});

export const fakeAssets: FakeAssetsState = freshState();

export function resetFakeAssets(): void {
  Object.assign(fakeAssets, freshState());
}

const tick = (): string => tickOf(fakeAssets);

export function addAsset(overrides: Partial<FakeAssetRecord> = {}): FakeAssetRecord {
  const now = tick();
  const asset = assetRecord(overrides.id ?? `asset-${fakeAssets.nextId++}`, now, overrides);
  fakeAssets.assets.set(asset.id, asset);
  return asset;
}

export const NOT_FOUND = 'Failed to find an asset with this id.';

const mediaOf = (id: string): FakeMediaRecord[] =>
  [...fakeMedia.media.values()].filter((media) => media.asset_id === id).sort((a, b) => b.created_at.localeCompare(a.created_at));

const coverOf = (id: string): string | null => {
  for (const media of mediaOf(id)) {
    const item = media.items.find((candidate) => candidate.thumbnail_url || (candidate.type === 'image' && candidate.url));
    if (item) return item.thumbnail_url ?? item.url;
  }
  return null;
};

const answerOf = (asset: FakeAssetRecord, withMedia: boolean) => ({
  ...asset,
  media_count: mediaOf(asset.id).length,
  cover_url: coverOf(asset.id),
  ...(withMedia ? { media: mediaOf(asset.id) } : {}),
});

async function record(request: Request): Promise<string> {
  const call = callOf(request);
  const json = request.method === 'POST' || request.method === 'PUT' ? ((await request.clone().json()) as Record<string, unknown>) : null;
  fakeAssets.requests.push({ call, json });
  return call;
}

/** The error a test asked this call to answer, once. */
function planned(call: string) {
  const failure = fakeAssets.failNext.get(call);
  if (!failure) return null;
  fakeAssets.failNext.delete(call);
  return detail(failure.status, failure.detail);
}

const nameError = (body: Record<string, unknown>): string | null =>
  typeof body.name !== 'string' || body.name.trim() === '' ? 'Give the asset a name.' : null;

export const assetHandlers = [
  http.get(`${API}/asset`, async ({ request }) => {
    const call = await record(request);
    if (!isSignedIn(request)) return detail(401, 'Not authenticated');
    const failure = planned(call);
    if (failure) return failure;
    const items = [...fakeAssets.assets.values()]
      .sort((a, b) => b.updated_at.localeCompare(a.updated_at))
      .map((asset) => answerOf(asset, false));
    return answer({ items });
  }),
  http.post(`${API}/asset`, async ({ request }) => {
    const call = await record(request);
    if (!isSignedIn(request)) return detail(401, 'Not authenticated');
    const failure = planned(call);
    if (failure) return failure;
    const body = (await request.json()) as Record<string, unknown>;
    const invalid = nameError(body);
    if (invalid) return detail(400, invalid);
    const asset = addAsset({
      name: String(body.name).trim(),
      description: typeof body.description === 'string' ? body.description.trim() : '',
      fields: (body.fields as Record<string, unknown> | undefined) ?? {},
    });
    return answer(answerOf(asset, false), { status: 201 });
  }),
  http.get(`${API}/asset/:id`, async ({ request, params }) => {
    const call = await record(request);
    if (!isSignedIn(request)) return detail(401, 'Not authenticated');
    const failure = planned(call);
    if (failure) return failure;
    const asset = fakeAssets.assets.get(String(params.id));
    if (!asset) return detail(404, NOT_FOUND);
    const fields = new URL(request.url).searchParams.get('fields');
    return answer(answerOf(asset, !fields || fields.split(',').includes('media')));
  }),
  http.put(`${API}/asset/:id`, async ({ request, params }) => {
    const call = await record(request);
    if (!isSignedIn(request)) return detail(401, 'Not authenticated');
    const failure = planned(call);
    if (failure) return failure;
    const asset = fakeAssets.assets.get(String(params.id));
    if (!asset) return detail(404, NOT_FOUND);
    const body = (await request.json()) as Record<string, unknown>;
    const invalid = nameError(body);
    if (invalid) return detail(400, invalid);
    asset.name = String(body.name).trim();
    asset.description = typeof body.description === 'string' ? body.description.trim() : '';
    asset.fields = (body.fields as Record<string, unknown> | undefined) ?? {};
    asset.updated_at = tick();
    if (Array.isArray(body.media_ids)) {
      const keep = new Set(body.media_ids.map(String));
      for (const media of fakeMedia.media.values()) {
        if (keep.has(media.id)) media.asset_id = asset.id;
        else if (media.asset_id === asset.id) media.asset_id = null;
      }
    }
    return answer(answerOf(asset, true));
  }),
  http.delete(`${API}/asset/:id`, async ({ request, params }) => {
    const call = await record(request);
    if (!isSignedIn(request)) return detail(401, 'Not authenticated');
    const failure = planned(call);
    if (failure) return failure;
    const id = String(params.id);
    if (!fakeAssets.assets.delete(id)) return detail(404, NOT_FOUND);
    for (const media of fakeMedia.media.values()) if (media.asset_id === id) media.asset_id = null;
    return answer({ id, deleted: true });
  }),
];
