import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Mock } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { assetMachine, type Asset } from '@/machines/assets/asset.machine';
import {
  selectAsset,
  selectAssetFailure,
  selectAssetMedia,
  selectAssetStatus,
  selectRemovingMedia,
  selectSavedCount,
} from '@/machines/assets/asset.selectors';
import type { AssetWrite } from '@/services/schemas/assets';
import { buildAsset } from './assets.fixtures';
import { buildFinishedMedia, deferred, httpError } from '../generation-job/generation-job.fixtures';

const media = [buildFinishedMedia({ id: 'm2' }), buildFinishedMedia({ id: 'm1' })];
const stored = () => buildAsset('a1', { name: 'Beach', description: 'Summer', fields: { mood: 'calm' }, media_count: 2, media });

let load: Mock<(id: string) => Promise<Asset>>;
let update: Mock<(id: string, body: AssetWrite) => Promise<Asset>>;
let remove: Mock<(id: string) => Promise<{ id: string; deleted: true }>>;

beforeEach(() => {
  vi.useFakeTimers();
  load = vi.fn(async () => stored());
  // The server answers with what it kept: the body's name/description, the media left.
  update = vi.fn(async (_id: string, body: AssetWrite) => {
    const kept = body.media_ids ? media.filter((item) => body.media_ids?.includes(item.id)) : media;
    return buildAsset('a1', { name: body.name, description: body.description ?? '', fields: body.fields ?? {}, media: kept });
  });
  remove = vi.fn(async (id: string) => ({ id, deleted: true as const }));
});

afterEach(() => {
  vi.useRealTimers();
});

function start() {
  const actor = createActor(
    assetMachine.provide({
      actors: {
        loadAsset: fromPromise<Asset, { id: string }>(({ input }) => load(input.id)),
        updateAsset: fromPromise<Asset, { id: string; body: AssetWrite }>(({ input }) => update(input.id, input.body)),
        deleteAsset: fromPromise<{ id: string; deleted: true }, { id: string }>(({ input }) => remove(input.id)),
      },
    }),
    { input: { id: 'a1' } },
  );
  actor.start();
  return actor;
}

const flush = () => vi.advanceTimersByTimeAsync(0);
const mediaIds = (actor: ReturnType<typeof start>) => selectAssetMedia(actor.getSnapshot()).map((item) => item.id);

describe('the asset machine', () => {
  it('loads the asset with its media', async () => {
    const actor = start();
    expect(selectAssetStatus(actor.getSnapshot())).toBe('loading');
    await flush();
    expect(load).toHaveBeenCalledWith('a1');
    expect(selectAssetStatus(actor.getSnapshot())).toBe('ready');
    expect(selectAsset(actor.getSnapshot())?.name).toBe('Beach');
    expect(mediaIds(actor)).toEqual(['m2', 'm1']);
  });

  it('tells a missing asset from a failed load, and retries a failed one', async () => {
    load.mockRejectedValueOnce(httpError(404, 'Failed to find an asset with this id.'));
    const missing = start();
    await flush();
    expect(selectAssetStatus(missing.getSnapshot())).toBe('notFound');

    load.mockRejectedValueOnce(httpError(500, 'Server down'));
    const actor = start();
    await flush();
    expect(selectAssetStatus(actor.getSnapshot())).toBe('failed');
    expect(selectAssetFailure(actor.getSnapshot())).toMatchObject({ action: 'load', message: 'Server down' });
    actor.send({ type: 'asset.retry' });
    await flush();
    expect(selectAssetStatus(actor.getSnapshot())).toBe('ready');
    expect(selectAssetFailure(actor.getSnapshot())).toBeNull();
  });

  it('saves the name and description as the whole object, media left alone', async () => {
    const actor = start();
    await flush();
    actor.send({ type: 'asset.save', name: 'Coast', description: 'Autumn' });
    expect(actor.getSnapshot().matches('saving')).toBe(true);
    await flush();
    expect(update).toHaveBeenCalledWith('a1', { name: 'Coast', description: 'Autumn', fields: { mood: 'calm' } });
    expect(selectAsset(actor.getSnapshot())).toMatchObject({ name: 'Coast', description: 'Autumn' });
    expect(mediaIds(actor)).toEqual(['m2', 'm1']);
    expect(selectSavedCount(actor.getSnapshot())).toBe(1);
  });

  it('keeps the media when a save answer leaves them out', async () => {
    update.mockImplementationOnce(async (_id, body) => buildAsset('a1', { name: body.name }));
    const actor = start();
    await flush();
    actor.send({ type: 'asset.save', name: 'Coast', description: '' });
    await flush();
    expect(mediaIds(actor)).toEqual(['m2', 'm1']);
  });

  it('removes one media by sending the media_ids left', async () => {
    const answer = deferred<Asset>();
    update.mockReturnValueOnce(answer.promise);
    const actor = start();
    await flush();
    actor.send({ type: 'asset.removeMedia', mediaId: 'm2' });
    expect(selectRemovingMedia(actor.getSnapshot())).toBe('m2');
    expect(update).toHaveBeenCalledWith('a1', { name: 'Beach', description: 'Summer', fields: { mood: 'calm' }, media_ids: ['m1'] });
    // Nothing else is sent while it is on its way.
    actor.send({ type: 'asset.removeMedia', mediaId: 'm1' });
    actor.send({ type: 'asset.delete' });
    expect(update).toHaveBeenCalledTimes(1);
    expect(remove).not.toHaveBeenCalled();
    answer.resolve(buildAsset('a1', { name: 'Beach' }));
    await flush();
    // The answer had no media: the removed one is taken out here.
    expect(mediaIds(actor)).toEqual(['m1']);
    expect(selectRemovingMedia(actor.getSnapshot())).toBeNull();
  });

  it('ignores a media that is not in the asset', async () => {
    const actor = start();
    await flush();
    actor.send({ type: 'asset.removeMedia', mediaId: 'other' });
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(update).not.toHaveBeenCalled();
  });

  it('keeps a failed save, then sends the same body again on retry', async () => {
    update.mockRejectedValueOnce(httpError(500, 'Could not save'));
    const actor = start();
    await flush();
    actor.send({ type: 'asset.save', name: 'Coast', description: 'Autumn' });
    await flush();
    expect(selectAssetStatus(actor.getSnapshot())).toBe('ready');
    expect(selectAssetFailure(actor.getSnapshot())).toMatchObject({ action: 'save', message: 'Could not save' });
    expect(selectAsset(actor.getSnapshot())?.name).toBe('Beach');
    actor.send({ type: 'asset.retry' });
    await flush();
    expect(update).toHaveBeenCalledTimes(2);
    expect(update.mock.calls[1]).toEqual(['a1', { name: 'Coast', description: 'Autumn', fields: { mood: 'calm' } }]);
    expect(selectAsset(actor.getSnapshot())?.name).toBe('Coast');
    expect(selectAssetFailure(actor.getSnapshot())).toBeNull();
  });

  it('keeps a failed removal and retries it', async () => {
    update.mockRejectedValueOnce(httpError(500, 'Could not save'));
    const actor = start();
    await flush();
    actor.send({ type: 'asset.removeMedia', mediaId: 'm1' });
    await flush();
    expect(selectAssetFailure(actor.getSnapshot())).toMatchObject({ action: 'remove', mediaId: 'm1' });
    expect(mediaIds(actor)).toEqual(['m2', 'm1']);
    actor.send({ type: 'asset.retry' });
    await flush();
    expect(update.mock.calls[1]?.[1]).toMatchObject({ media_ids: ['m2'] });
    expect(mediaIds(actor)).toEqual(['m2']);
  });

  it('deletes the asset → deleted; a failed delete can be retried', async () => {
    remove.mockRejectedValueOnce(httpError(500, 'Could not delete'));
    const actor = start();
    await flush();
    actor.send({ type: 'asset.delete' });
    await flush();
    expect(selectAssetStatus(actor.getSnapshot())).toBe('ready');
    expect(selectAssetFailure(actor.getSnapshot())).toMatchObject({ action: 'delete', message: 'Could not delete' });
    actor.send({ type: 'asset.retry' });
    await flush();
    expect(remove).toHaveBeenCalledTimes(2);
    expect(selectAssetStatus(actor.getSnapshot())).toBe('deleted');
    expect(actor.getSnapshot().status).toBe('done');
  });
});
