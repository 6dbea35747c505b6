import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { CreateBatchFields } from '@/services/batch';
import { albumsMachine } from '@/machines/batch/albums.machine';
import type { AlbumsEmitted, Batch } from '@/machines/batch/albums.machine';
import {
  selectAlbumRows,
  selectAlbumsLoading,
  selectCreateError,
  selectCreating,
} from '@/machines/batch/albums.selectors';
import { buildBatch } from './batch.fixtures';
import { httpError } from '../generation-job/generation-job.fixtures';

const OLD = buildBatch({ id: 'old', title: 'Old trip', created_at: '2024-06-01T10:00:00.000Z' });
const NEW = buildBatch({ id: 'new', title: '', batch_type: 'parallax', image_urls: ['a'], created_at: '2025-02-01T10:00:00.000Z' });

let list = vi.fn(async (): Promise<Batch[]> => [OLD, NEW]);
let create = vi.fn(async (fields: CreateBatchFields): Promise<Batch> =>
  buildBatch({ id: 'made', title: fields.title, created_at: '2025-03-01T10:00:00.000Z' }),
);

beforeEach(() => {
  vi.useFakeTimers();
  list = vi.fn(async (): Promise<Batch[]> => [OLD, NEW]);
  create = vi.fn(async (fields: CreateBatchFields): Promise<Batch> =>
    buildBatch({ id: 'made', title: fields.title, created_at: '2025-03-01T10:00:00.000Z' }),
  );
});
afterEach(() => vi.useRealTimers());

function start() {
  const machine = albumsMachine.provide({
    actors: {
      loadAlbums: fromPromise<Batch[]>(() => list()),
      createAlbum: fromPromise<Batch, CreateBatchFields>(({ input }) => create(input)),
    },
  });
  const actor = createActor(machine);
  const emitted: AlbumsEmitted[] = [];
  actor.on('*', (event) => emitted.push(event));
  actor.start();
  return { actor, emitted };
}

const flush = () => vi.advanceTimersByTimeAsync(0);

describe('the albums list', () => {
  it('loads the albums, newest first, with their type label and picture count', async () => {
    const { actor } = start();
    expect(selectAlbumsLoading(actor.getSnapshot())).toBe(true);
    await flush();
    expect(selectAlbumsLoading(actor.getSnapshot())).toBe(false);
    const rows = selectAlbumRows(actor.getSnapshot());
    expect(rows).toEqual([
      { id: 'new', title: 'Untitled album', typeLabel: 'Parallax batch', pictureCount: 1, createdAt: '2025-02-01T10:00:00.000Z' },
      { id: 'old', title: 'Old trip', typeLabel: 'AI batch', pictureCount: 2, createdAt: '2024-06-01T10:00:00.000Z' },
    ]);
    // The same array while the list does not change.
    expect(selectAlbumRows(actor.getSnapshot())).toBe(rows);
  });

  it('shows an empty list, silently, when loading fails (SPEC §8 "Other calls fail")', async () => {
    list.mockRejectedValueOnce(httpError(500, 'Boom'));
    const { actor } = start();
    await flush();
    expect(actor.getSnapshot().matches({ list: 'failed' })).toBe(true);
    expect(selectAlbumRows(actor.getSnapshot())).toEqual([]);
    actor.send({ type: 'albums.refresh' });
    await flush();
    expect(selectAlbumRows(actor.getSnapshot())).toHaveLength(2);
  });

  it('lets a refresh replace a load still running', async () => {
    let resolveFirst: (albums: Batch[]) => void = () => {};
    list.mockImplementationOnce(() => new Promise((resolve) => (resolveFirst = resolve)));
    list.mockResolvedValueOnce([NEW]);
    const { actor } = start();
    actor.send({ type: 'albums.refresh' });
    await flush();
    resolveFirst([OLD]);
    await flush();
    expect(selectAlbumRows(actor.getSnapshot()).map((row) => row.id)).toEqual(['new']);
  });
});

describe('creating an album', () => {
  it('sends the form, adds the album on top and announces it', async () => {
    const { actor, emitted } = start();
    await flush();
    actor.send({ type: 'albums.create', title: 'Beach', batchType: 'parallax', imageUrls: ['u1', 'u2'] });
    expect(selectCreating(actor.getSnapshot())).toBe(true);
    // One at a time.
    expect(actor.getSnapshot().can({ type: 'albums.create', title: 'x', batchType: 'ai', imageUrls: ['u'] })).toBe(false);
    await flush();
    expect(create).toHaveBeenCalledWith({ title: 'Beach', batch_type: 'parallax', image_urls: ['u1', 'u2'] });
    expect(emitted).toEqual([{ type: 'albums.created', id: 'made' }]);
    expect(selectCreating(actor.getSnapshot())).toBe(false);
    expect(selectAlbumRows(actor.getSnapshot())[0]).toMatchObject({ id: 'made', title: 'Beach' });
  });

  it('keeps the reason of a refusal until the next try', async () => {
    create.mockRejectedValueOnce(httpError(400, 'Add 1 to 12 pictures (image_urls).'));
    const { actor, emitted } = start();
    await flush();
    actor.send({ type: 'albums.create', title: 'Beach', batchType: 'ai', imageUrls: [] });
    await flush();
    expect(selectCreateError(actor.getSnapshot())).toBe('Add 1 to 12 pictures (image_urls).');
    expect(emitted).toEqual([]);
    actor.send({ type: 'albums.create', title: 'Beach', batchType: 'ai', imageUrls: ['u'] });
    expect(selectCreateError(actor.getSnapshot())).toBeNull();
  });
});
