import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { mediaSourceMachine, type Media } from '@/machines/media-source/media-source.machine';
import { selectCanRetrySource, selectSourceVideo } from '@/machines/media-source/media-source.selectors';
import { ApiError } from '@/services/api-error';
import { buildMedia } from '../../services/media.fixtures';

const videoItem = (name: string) => ({
  type: 'video' as const,
  status: 'success' as const,
  url: `http://localhost/api/files/${name}.mp4`,
  thumbnail_url: `http://localhost/api/files/${name}.jpg`,
  file_id: name,
  label: `1.1.${name}`,
});

const videoMedia = (overrides: Partial<Media> = {}): Media =>
  buildMedia({
    id: 'clip',
    kind: 'video',
    tool: 'parallax-motion',
    status: 'success',
    items: [videoItem('HorizontalArc'), videoItem('Circular')],
    ...overrides,
  });

const start = (load: (mediaId: string) => Promise<Media>, itemIndex = 0) => {
  const loader = vi.fn(load);
  const machine = mediaSourceMachine.provide({
    actors: { loadMedia: fromPromise<Media, { mediaId: string }>(({ input }) => loader(input.mediaId)) },
  });
  return { actor: createActor(machine, { input: { mediaId: 'clip', itemIndex } }).start(), loader };
};

describe('media source', () => {
  it('loads the media by id and offers the chosen item’s video', async () => {
    const { actor, loader } = start(async () => videoMedia(), 1);
    expect(selectSourceVideo(actor.getSnapshot()).phase).toBe('loading');
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(loader).toHaveBeenCalledWith('clip');
    expect(selectSourceVideo(actor.getSnapshot())).toEqual({
      phase: 'ready',
      url: 'http://localhost/api/files/Circular.mp4',
      thumbnailUrl: 'http://localhost/api/files/Circular.jpg',
      label: '1.1.Circular',
      error: null,
    });
    // The same view for the same snapshot (a stable selector result).
    expect(selectSourceVideo(actor.getSnapshot())).toBe(selectSourceVideo(actor.getSnapshot()));
    expect(selectCanRetrySource(actor.getSnapshot())).toBe(false);
  });

  it.each([
    ['an item index past the end', videoMedia(), 5],
    ['a picture', videoMedia({ kind: 'image', items: [{ ...videoItem('x'), type: 'image' }] }), 0],
    ['a video item without a URL (failed)', videoMedia({ items: [{ ...videoItem('x'), status: 'failed', url: null }] }), 0],
  ])('calls %s unavailable', async (_name, media, index) => {
    const { actor } = start(async () => media, index);
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(selectSourceVideo(actor.getSnapshot())).toMatchObject({ phase: 'unavailable', url: null });
  });

  it('says why the load failed, and loads again on source.retry', async () => {
    let calls = 0;
    const { actor, loader } = start(async () => {
      calls += 1;
      if (calls === 1) throw new ApiError('Media not found', { kind: 'http', status: 404 });
      return videoMedia();
    });
    await waitFor(actor, (snapshot) => snapshot.matches('failed'));
    expect(selectSourceVideo(actor.getSnapshot())).toMatchObject({ phase: 'failed', error: 'Media not found' });
    expect(selectCanRetrySource(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'source.retry' });
    expect(selectSourceVideo(actor.getSnapshot()).phase).toBe('loading');
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(selectSourceVideo(actor.getSnapshot()).url).toBe('http://localhost/api/files/HorizontalArc.mp4');
    expect(loader).toHaveBeenCalledTimes(2);
  });

  it('ignores source.retry while loading or loaded', async () => {
    const { actor, loader } = start(async () => videoMedia());
    actor.send({ type: 'source.retry' });
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    actor.send({ type: 'source.retry' });
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(loader).toHaveBeenCalledTimes(1);
  });
});
