import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Mock } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { storiesMachine } from '@/machines/story/stories.machine';
import type { StorySummary } from '@/machines/story/stories.machine';
import { selectDeletingStory, selectStories, selectStoriesError, selectStoriesStatus } from '@/machines/story/stories.selectors';
import { httpError } from '../generation-job/generation-job.fixtures';

const summary = (id: string, overrides: Partial<StorySummary> = {}): StorySummary => ({
  id,
  title: `Story ${id}`,
  idea: 'Mara keeps a lighthouse.',
  step: 'elements',
  scene_count: 3,
  cover_url: null,
  created_at: '2025-01-01T10:00:00.000Z',
  updated_at: '2025-01-01T10:00:00.000Z',
  ...overrides,
});

let list: Mock<() => Promise<StorySummary[]>>;
let remove: Mock<(id: string) => Promise<{ id: string; deleted: true }>>;

beforeEach(() => {
  vi.useFakeTimers();
  list = vi.fn(async () => [summary('s2'), summary('s1')]);
  remove = vi.fn(async (id: string) => ({ id, deleted: true as const }));
});

afterEach(() => {
  vi.useRealTimers();
});

function start() {
  const actor = createActor(
    storiesMachine.provide({
      actors: {
        loadStories: fromPromise<StorySummary[]>(() => list()),
        deleteStory: fromPromise<{ id: string; deleted: true }, { id: string }>(({ input }) => remove(input.id)),
      },
    }),
  );
  actor.start();
  return actor;
}

const flush = () => vi.advanceTimersByTimeAsync(0);

describe('your stories', () => {
  it('loads the list, newest first as the server sends it', async () => {
    const actor = start();
    expect(selectStoriesStatus(actor.getSnapshot())).toBe('loading');
    await flush();
    expect(selectStoriesStatus(actor.getSnapshot())).toBe('ready');
    expect(selectStories(actor.getSnapshot()).map((story) => story.id)).toEqual(['s2', 's1']);
  });

  it('says the list failed, and loads it again on refresh', async () => {
    list.mockRejectedValueOnce(httpError(500, 'Boom'));
    const actor = start();
    await flush();
    expect(selectStoriesStatus(actor.getSnapshot())).toBe('failed');
    expect(selectStoriesError(actor.getSnapshot())).toBe('Boom');
    actor.send({ type: 'stories.refresh' });
    await flush();
    expect(selectStoriesStatus(actor.getSnapshot())).toBe('ready');
    expect(selectStoriesError(actor.getSnapshot())).toBeNull();
  });

  it('keeps showing the list while a refresh runs, and takes only the newest answer', async () => {
    const actor = start();
    await flush();
    let first!: (stories: StorySummary[]) => void;
    list.mockImplementationOnce(() => new Promise((resolve) => (first = resolve)));
    actor.send({ type: 'stories.refresh' });
    expect(selectStoriesStatus(actor.getSnapshot())).toBe('ready');
    list.mockResolvedValueOnce([summary('s3')]);
    actor.send({ type: 'stories.refresh' });
    await flush();
    first([summary('old')]);
    await flush();
    expect(selectStories(actor.getSnapshot()).map((story) => story.id)).toEqual(['s3']);
  });

  it('deletes a story, which leaves the list', async () => {
    const actor = start();
    await flush();
    actor.send({ type: 'stories.delete', id: 's1' });
    expect(selectDeletingStory(actor.getSnapshot(), 's1')).toBe(true);
    // A second click while it runs sends nothing more.
    actor.send({ type: 'stories.delete', id: 's1' });
    await flush();
    expect(remove).toHaveBeenCalledTimes(1);
    expect(remove).toHaveBeenCalledWith('s1');
    expect(selectStories(actor.getSnapshot()).map((story) => story.id)).toEqual(['s2']);
    expect(selectDeletingStory(actor.getSnapshot(), 's1')).toBe(false);
  });

  it('keeps a story whose delete failed and says why', async () => {
    remove.mockRejectedValue(httpError(404, 'Failed to find a Story with this id'));
    const actor = start();
    await flush();
    actor.send({ type: 'stories.delete', id: 's2' });
    await flush();
    expect(selectStories(actor.getSnapshot()).map((story) => story.id)).toEqual(['s2', 's1']);
    expect(selectStoriesError(actor.getSnapshot())).toBe('Failed to find a Story with this id');
    expect(selectDeletingStory(actor.getSnapshot(), 's2')).toBe(false);
  });
});
