import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Mock } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { MediaKind } from '@/config/enums';
import { assetPickerMachine, type Asset } from '@/machines/assets/asset-picker.machine';
import {
  selectPickableResults,
  selectPickerChosenId,
  selectPickerError,
  selectPickerStatus,
} from '@/machines/assets/asset-picker.selectors';
import { buildAsset } from './assets.fixtures';
import { buildFinishedMedia, buildMedia, httpError } from '../generation-job/generation-job.fixtures';

const video = (id: string) =>
  buildFinishedMedia({
    id,
    kind: 'video',
    status: 'success',
    args: { prompt: 'waves' },
    items: [0, 1].map((index) => ({
      type: 'video' as const,
      status: 'success' as const,
      url: `http://localhost/files/${id}-${index}.mp4`,
      thumbnail_url: null,
      file_id: `${id}-${index}`,
    })),
  });

const assets: Record<string, Asset> = {
  empty: buildAsset('empty', { media_count: 0, media: [] }),
  mixed: buildAsset('mixed', {
    media_count: 4,
    media: [
      buildFinishedMedia({ id: 'img', title: 'Sunset' }),
      video('vid'),
      buildMedia({ id: 'live', status: 'processing_source' }),
      buildFinishedMedia({ id: 'failed', status: 'failed' }),
    ],
  }),
  other: buildAsset('other', { media_count: 1, media: [buildFinishedMedia({ id: 'img2', args: { prompt: 'a fox' } })] }),
};

let list: Mock<() => Promise<Asset[]>>;
let load: Mock<(id: string) => Promise<Asset>>;

beforeEach(() => {
  vi.useFakeTimers();
  list = vi.fn(async () => [assets.empty!, assets.mixed!, assets.other!]);
  load = vi.fn(async (id: string) => assets[id]!);
});

afterEach(() => {
  vi.useRealTimers();
});

function start(kind: MediaKind = 'image') {
  const actor = createActor(
    assetPickerMachine.provide({
      actors: {
        loadAssets: fromPromise<Asset[]>(() => list()),
        loadAsset: fromPromise<Asset, { id: string }>(({ input }) => load(input.id)),
      },
    }),
    { input: { kind } },
  );
  actor.start();
  return actor;
}

const flush = () => vi.advanceTimersByTimeAsync(0);

describe('the asset picker machine', () => {
  it('opens the first asset holding anything and offers its finished results of the kind', async () => {
    const actor = start('image');
    expect(selectPickerStatus(actor.getSnapshot())).toBe('loading');
    await flush();
    expect(load).toHaveBeenCalledWith('mixed');
    expect(selectPickerChosenId(actor.getSnapshot())).toBe('mixed');
    expect(selectPickerStatus(actor.getSnapshot())).toBe('ready');
    const results = selectPickableResults(actor.getSnapshot());
    expect(results.map((result) => [result.key, result.label])).toEqual([['img:0', 'Sunset']]);
    expect(results[0]?.url).toBe('http://localhost/api/files/f1?expires=1&signature=abc');
    // The same array for the same asset and kind (the grid re-renders only on a change).
    expect(selectPickableResults(actor.getSnapshot())).toBe(results);
  });

  it('lists every video of a video job, numbered', async () => {
    const actor = start('video');
    await flush();
    expect(selectPickableResults(actor.getSnapshot()).map((result) => [result.key, result.label, result.itemIndex])).toEqual([
      ['vid:0', 'waves (1)', 0],
      ['vid:1', 'waves (2)', 1],
    ]);
  });

  it('shows another asset when chosen', async () => {
    const actor = start('image');
    await flush();
    actor.send({ type: 'picker.chooseAsset', id: 'other' });
    expect(selectPickerStatus(actor.getSnapshot())).toBe('loadingAsset');
    await flush();
    expect(selectPickableResults(actor.getSnapshot()).map((result) => result.label)).toEqual(['a fox']);
  });

  it('says when there are no assets', async () => {
    list.mockResolvedValueOnce([]);
    const actor = start();
    await flush();
    expect(selectPickerStatus(actor.getSnapshot())).toBe('empty');
    expect(load).not.toHaveBeenCalled();
  });

  it('retries a failed list and a failed asset load', async () => {
    list.mockRejectedValueOnce(httpError(500, 'No list'));
    load.mockRejectedValueOnce(httpError(500, 'No asset'));
    const actor = start();
    await flush();
    expect(selectPickerStatus(actor.getSnapshot())).toBe('failed');
    expect(selectPickerError(actor.getSnapshot())).toBe('No list');
    actor.send({ type: 'picker.retry' });
    await flush();
    expect(selectPickerStatus(actor.getSnapshot())).toBe('failed');
    expect(selectPickerError(actor.getSnapshot())).toBe('No asset');
    actor.send({ type: 'picker.retry' });
    await flush();
    expect(selectPickerStatus(actor.getSnapshot())).toBe('ready');
    expect(load).toHaveBeenCalledTimes(2);
  });
});
