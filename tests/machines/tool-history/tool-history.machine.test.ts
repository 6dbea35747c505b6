import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { toolHistoryMachine, TOOL_HISTORY_LIMIT, TOOL_HISTORY_RETRY } from '@/machines/tool-history/tool-history.machine';
import type { Media } from '@/machines/tool-history/tool-history.machine';
import { selectHistory } from '@/machines/tool-history/tool-history.selectors';
import { ApiError } from '@/services/api-error';
import { buildMedia, deferred } from '../generation-job/generation-job.fixtures';

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

  it('a lost answer is asked for again after 1 s, 2 s…, so a finished job’s result still shows', async () => {
    vi.useFakeTimers();
    try {
      let calls = 0;
      const { actor, loader } = start(async () => {
        calls += 1;
        if (calls <= 2) throw new ApiError('Network error on GET media', { kind: 'network' });
        return [buildMedia({ id: 'done' })];
      });
      await vi.advanceTimersByTimeAsync(0);
      expect(actor.getSnapshot().matches('retrying')).toBe(true);
      expect(loader).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(999);
      expect(loader).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(loader).toHaveBeenCalledTimes(2);
      // The second wait is twice as long.
      await vi.advanceTimersByTimeAsync(1999);
      expect(loader).toHaveBeenCalledTimes(2);
      await vi.advanceTimersByTimeAsync(1);
      expect(loader).toHaveBeenCalledTimes(3);
      expect(actor.getSnapshot().matches('ready')).toBe(true);
      expect(selectHistory(actor.getSnapshot()).map((media) => media.id)).toEqual(['done']);
      expect(actor.getSnapshot().context.retries).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives up silently after TOOL_HISTORY_RETRY.attempts retries, and a server 5xx counts too', async () => {
    vi.useFakeTimers();
    try {
      const { actor, loader } = start(async () => {
        throw new ApiError('api error', { kind: 'http', status: 503 });
      });
      await vi.advanceTimersByTimeAsync(60_000);
      expect(loader).toHaveBeenCalledTimes(TOOL_HISTORY_RETRY.attempts + 1);
      expect(actor.getSnapshot().matches('failed')).toBe(true);
      expect(selectHistory(actor.getSnapshot())).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a refused request (4xx) is not retried', async () => {
    vi.useFakeTimers();
    try {
      const { actor, loader } = start(async () => {
        throw new ApiError('forbidden', { kind: 'http', status: 403 });
      });
      await vi.advanceTimersByTimeAsync(60_000);
      expect(loader).toHaveBeenCalledTimes(1);
      expect(actor.getSnapshot().matches('failed')).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a refresh while retrying asks at once and starts the back-off over', async () => {
    vi.useFakeTimers();
    try {
      let calls = 0;
      const { actor, loader } = start(async () => {
        calls += 1;
        if (calls === 1) throw new ApiError('Network error', { kind: 'network' });
        return [buildMedia({ id: 'fresh' })];
      });
      await vi.advanceTimersByTimeAsync(0);
      expect(actor.getSnapshot().matches('retrying')).toBe(true);
      actor.send({ type: 'history.refresh' });
      await vi.advanceTimersByTimeAsync(0);
      expect(loader).toHaveBeenCalledTimes(2);
      expect(actor.getSnapshot().matches('ready')).toBe(true);
      expect(actor.getSnapshot().context.retries).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
