import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Mock } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { assetsMachine, type Asset, type AssetWrite } from '@/machines/assets/assets.machine';
import {
  selectAssets,
  selectAssetsLoadError,
  selectAssetsStatus,
  selectCreateAssetError,
  selectCreatingAsset,
  selectDeleteAssetError,
  selectDeletingAsset,
} from '@/machines/assets/assets.selectors';
import { buildAsset } from './assets.fixtures';
import { deferred, httpError } from '../generation-job/generation-job.fixtures';

let list: Mock<() => Promise<Asset[]>>;
let create: Mock<(body: AssetWrite) => Promise<Asset>>;
let remove: Mock<(id: string) => Promise<{ id: string; deleted: true }>>;

beforeEach(() => {
  vi.useFakeTimers();
  list = vi.fn(async () => [buildAsset('a2'), buildAsset('a1')]);
  create = vi.fn(async (body: AssetWrite) => buildAsset('a3', { name: body.name, description: body.description ?? '' }));
  remove = vi.fn(async (id: string) => ({ id, deleted: true as const }));
});

afterEach(() => {
  vi.useRealTimers();
});

function start() {
  const actor = createActor(
    assetsMachine.provide({
      actors: {
        loadAssets: fromPromise<Asset[]>(() => list()),
        createAsset: fromPromise<Asset, AssetWrite>(({ input }) => create(input)),
        deleteAsset: fromPromise<{ id: string; deleted: true }, { id: string }>(({ input }) => remove(input.id)),
      },
    }),
  );
  actor.start();
  return actor;
}

const flush = () => vi.advanceTimersByTimeAsync(0);
const ids = (actor: ReturnType<typeof start>) => selectAssets(actor.getSnapshot()).map((asset) => asset.id);

describe('the assets list machine', () => {
  it('loads the list as the server orders it', async () => {
    const actor = start();
    expect(selectAssetsStatus(actor.getSnapshot())).toBe('loading');
    await flush();
    expect(selectAssetsStatus(actor.getSnapshot())).toBe('ready');
    expect(ids(actor)).toEqual(['a2', 'a1']);
  });

  it('says the load failed and loads again on refresh', async () => {
    list.mockRejectedValueOnce(httpError(500, 'Server down'));
    const actor = start();
    await flush();
    expect(selectAssetsStatus(actor.getSnapshot())).toBe('failed');
    expect(selectAssetsLoadError(actor.getSnapshot())).toBe('Server down');
    actor.send({ type: 'assets.refresh' });
    await flush();
    expect(selectAssetsStatus(actor.getSnapshot())).toBe('ready');
    expect(selectAssetsLoadError(actor.getSnapshot())).toBeNull();
    expect(list).toHaveBeenCalledTimes(2);
  });

  it('creates an asset: sent with empty fields, first in the list, reported once', async () => {
    const actor = start();
    await flush();
    const created: string[] = [];
    actor.on('assets.created', (event) => created.push(event.asset.id));
    actor.send({ type: 'assets.create', name: 'Beach', description: 'Summer shots' });
    expect(selectCreatingAsset(actor.getSnapshot())).toBe(true);
    // A second create while one is on its way is not sent.
    actor.send({ type: 'assets.create', name: 'Twice' });
    await flush();
    expect(create).toHaveBeenCalledTimes(1);
    expect(create).toHaveBeenCalledWith({ name: 'Beach', description: 'Summer shots', fields: {} });
    expect(ids(actor)).toEqual(['a3', 'a2', 'a1']);
    expect(created).toEqual(['a3']);
    expect(selectCreatingAsset(actor.getSnapshot())).toBe(false);
  });

  it('keeps the create failure to show, and clears it on the next try', async () => {
    create.mockRejectedValueOnce(httpError(400, 'Give the asset a name.'));
    const actor = start();
    await flush();
    actor.send({ type: 'assets.create', name: ' ' });
    await flush();
    expect(selectCreateAssetError(actor.getSnapshot())).toBe('Give the asset a name.');
    expect(ids(actor)).toEqual(['a2', 'a1']);
    actor.send({ type: 'assets.create', name: 'Now' });
    expect(selectCreateAssetError(actor.getSnapshot())).toBeNull();
    await flush();
    expect(ids(actor)[0]).toBe('a3');
  });

  it('deletes an asset: it leaves the list once the server answers', async () => {
    const answer = deferred<{ id: string; deleted: true }>();
    remove.mockReturnValueOnce(answer.promise);
    const actor = start();
    await flush();
    actor.send({ type: 'assets.delete', id: 'a1' });
    expect(selectDeletingAsset(actor.getSnapshot(), 'a1')).toBe(true);
    actor.send({ type: 'assets.delete', id: 'a1' });
    expect(remove).toHaveBeenCalledTimes(1);
    expect(ids(actor)).toEqual(['a2', 'a1']);
    answer.resolve({ id: 'a1', deleted: true });
    await flush();
    expect(ids(actor)).toEqual(['a2']);
    expect(selectDeletingAsset(actor.getSnapshot(), 'a1')).toBe(false);
  });

  it('keeps an asset whose delete failed and says why', async () => {
    remove.mockRejectedValueOnce(httpError(404, 'Failed to find an asset with this id.'));
    const actor = start();
    await flush();
    actor.send({ type: 'assets.delete', id: 'a2' });
    await flush();
    expect(ids(actor)).toEqual(['a2', 'a1']);
    expect(selectDeleteAssetError(actor.getSnapshot())).toBe('Failed to find an asset with this id.');
    expect(selectDeletingAsset(actor.getSnapshot(), 'a2')).toBe(false);
  });
});
