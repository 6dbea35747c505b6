import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { toolHistoryMachine, TOOL_HISTORY_LIMIT } from '@/machines/tool-history/tool-history.machine';
import type { Media } from '@/machines/tool-history/tool-history.machine';
import { selectHistory } from '@/machines/tool-history/tool-history.selectors';
import { buildMedia, deferred } from './generation-job.fixtures';

const start = (load: (tool: string) => Promise<Media[]>) => {
  const loader = vi.fn(load);
  const machine = toolHistoryMachine.provide({
    actors: { loadHistory: fromPromise<Media[], { tool: string }>(({ input }) => loader(input.tool)) },
  });
  return { actor: createActor(machine, { input: { tool: 'text-to-speech' } }).start(), loader };
};

describe('tool history', () => {
  it('loads the tool’s media, newest first as the server lists them', async () => {
    const items = [buildMedia({ id: 'b' }), buildMedia({ id: 'a' })];
    const { actor, loader } = start(async () => items);
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(selectHistory(actor.getSnapshot()).map((media) => media.id)).toEqual(['b', 'a']);
    expect(loader).toHaveBeenCalledWith('text-to-speech');
    expect(TOOL_HISTORY_LIMIT).toBe(20);
  });

  it('lists the results newest first by created_at, whatever order the server sent', async () => {
    const items = [
      buildMedia({ id: 'old', created_at: '2025-01-01T09:00:00.000Z' }),
      buildMedia({ id: 'new', created_at: '2025-01-01T11:00:00.000Z' }),
      buildMedia({ id: 'mid', created_at: '2025-01-01T10:00:00.000Z' }),
    ];
    const { actor } = start(async () => items);
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    const sorted = selectHistory(actor.getSnapshot());
    expect(sorted.map((media) => media.id)).toEqual(['new', 'mid', 'old']);
    expect(selectHistory(actor.getSnapshot())).toBe(sorted);
  });

  it('keeps the old list while refreshing, then shows the new one', async () => {
    const second = deferred<Media[]>();
    let calls = 0;
    const { actor } = start(() => (++calls === 1 ? Promise.resolve([buildMedia({ id: 'a' })]) : second.promise));
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    actor.send({ type: 'history.refresh' });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    expect(selectHistory(actor.getSnapshot()).map((media) => media.id)).toEqual(['a']);
    second.resolve([buildMedia({ id: 'b' }), buildMedia({ id: 'a' })]);
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(selectHistory(actor.getSnapshot()).map((media) => media.id)).toEqual(['b', 'a']);
  });

  it('a failure is silent: the list stays as it was (empty at first)', async () => {
    const { actor } = start(async () => {
      throw new Error('api error');
    });
    await waitFor(actor, (snapshot) => snapshot.matches('failed'));
    expect(selectHistory(actor.getSnapshot())).toEqual([]);
    expect(actor.getSnapshot().matches('loading')).toBe(false);
  });

  it('a refresh while loading replaces the request, so the older answer never lands', async () => {
    const first = deferred<Media[]>();
    const second = deferred<Media[]>();
    let calls = 0;
    const { actor } = start(() => (++calls === 1 ? first.promise : second.promise));
    actor.send({ type: 'history.refresh' });
    second.resolve([buildMedia({ id: 'new' })]);
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    first.resolve([buildMedia({ id: 'old' })]);
    // A macrotask: every promise callback the old answer could trigger has run by then.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(selectHistory(actor.getSnapshot()).map((media) => media.id)).toEqual(['new']);
  });
});
