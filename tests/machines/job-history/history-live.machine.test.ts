import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { assign, createActor, fromCallback, fromPromise, sendTo, setup } from 'xstate';
import type { ActorRefFrom } from 'xstate';
import { JOB_POLL, JOB_REQUEST_TIMEOUT_MS } from '@/config/limits';
import type { JobSearch } from '@/services/job-history';
import type { Media } from '@/services/schemas/media';
import {
  historyLiveMachine,
  liveIdsOf,
  mergeLiveRead,
  type HistoryLiveEmitted,
  type HistoryLiveEvent,
  type LiveJobsRead,
} from '@/machines/job-history/history-live.machine';
import { jobHistoryMachine } from '@/machines/job-history/job-history.machine';
import { selectHistoryItems, selectHistoryHasMore } from '@/machines/job-history/job-history.selectors';
import { buildMedia, buildStatus, flush, networkError } from '../generation-job/generation-job.fixtures';

/**
 * The History page's live rows (issue 21 items 1–2): the `historyLive` child under a stand-in
 * History machine (when it reads, what it tells, its back-off, time-out and the page's
 * visibility), how a read updates the rows, and the real History machine following a row from
 * waiting to finished without reloading its list.
 */

/** One page of GET media as the History machine reads it. */
interface Page {
  items: Media[];
  nextStartKeys: string | null;
}

let read = vi.fn<(ids: string[], signal: AbortSignal) => Promise<LiveJobsRead>>();
/** Sends the page's visibility to the poller, as its `page` actor would. */
let showPage: (hidden: boolean) => void = () => undefined;

const running = (id: string, progress = 40) => buildStatus({ id, status: 'processing_source', progress });
const answered = (ids: string[]): LiveJobsRead => ({ asked: ids, statuses: ids.map((id) => running(id)), ended: [] });

beforeEach(() => {
  vi.useFakeTimers();
  read = vi.fn(async (ids: string[]) => answered(ids));
});

afterEach(() => {
  vi.useRealTimers();
});

const pollerFor = () =>
  historyLiveMachine.provide({
    actors: {
      readLiveJobs: fromPromise<LiveJobsRead, { ids: string[] }>(({ input, signal }) => read(input.ids, signal)),
      page: fromCallback<HistoryLiveEvent>(({ sendBack }) => {
        showPage = (hidden) => sendBack({ type: 'live.visibility', hidden });
      }),
    },
  });

/** A stand-in History machine: invokes the poller as the real one does, forwards what the test says, keeps what it is told. */
const parentFor = (hidden: boolean) =>
  setup({
    types: { context: {} as { reads: LiveJobsRead[] }, events: {} as HistoryLiveEvent | HistoryLiveEmitted },
    actors: { historyLive: pollerFor() },
  }).createMachine({
    context: { reads: [] },
    invoke: { id: 'historyLive', systemId: 'historyLive', src: 'historyLive', input: { hidden } },
    on: {
      'history.live': { actions: assign(({ context, event }) => ({ reads: [...context.reads, event.read] })) },
      'live.watch': { actions: sendTo('historyLive', ({ event }) => event) },
    },
  });

function start(hidden = false) {
  const parent = createActor(parentFor(hidden)).start();
  const poller = parent.system.get('historyLive') as ActorRefFrom<typeof historyLiveMachine>;
  return { parent, state: () => poller.getSnapshot().value, reads: () => parent.getSnapshot().context.reads };
}

describe('the History live-rows poller', () => {
  it('rests without live rows; with some, reads them all in one call every JOB_POLL interval and hands each answer over', async () => {
    const { parent, state, reads } = start();
    expect(state()).toBe('idle');
    parent.send({ type: 'live.watch', ids: [] });
    expect(state()).toBe('idle');

    parent.send({ type: 'live.watch', ids: ['a', 'b'] });
    expect(state()).toBe('waiting');
    await vi.advanceTimersByTimeAsync(JOB_POLL.baseMs - 1);
    expect(read).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(read).toHaveBeenCalledTimes(1);
    expect(read.mock.calls[0]?.[0]).toEqual(['a', 'b']);
    await flush();
    expect(reads()).toEqual([answered(['a', 'b'])]);
    expect(state()).toBe('waiting');

    await vi.advanceTimersByTimeAsync(JOB_POLL.baseMs);
    expect(read).toHaveBeenCalledTimes(2);

    // Nothing live any more (the History machine says so once the rows ended): no more reads.
    parent.send({ type: 'live.watch', ids: [] });
    expect(state()).toBe('idle');
    await vi.advanceTimersByTimeAsync(JOB_POLL.capMs * 2);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('backs off while reads fail (doubling to the cap) and forgets it after one answers', async () => {
    read.mockRejectedValue(networkError());
    const { parent, reads } = start();
    parent.send({ type: 'live.watch', ids: ['a'] });
    await vi.advanceTimersByTimeAsync(JOB_POLL.baseMs);
    expect(read).toHaveBeenCalledTimes(1);
    // The second read waits twice as long, the third four times.
    await vi.advanceTimersByTimeAsync(JOB_POLL.baseMs * 2 - 1);
    expect(read).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(read).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(JOB_POLL.baseMs * 4);
    expect(read).toHaveBeenCalledTimes(3);
    expect(reads()).toEqual([]);

    read.mockImplementation(async (ids) => answered(ids));
    await vi.advanceTimersByTimeAsync(JOB_POLL.baseMs * 8);
    expect(read).toHaveBeenCalledTimes(4);
    expect(reads()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(JOB_POLL.baseMs);
    expect(read).toHaveBeenCalledTimes(5);
  });

  it('gives up a read unanswered after JOB_REQUEST_TIMEOUT_MS (aborting it) and reads again after the back-off', async () => {
    const signals: AbortSignal[] = [];
    read.mockImplementation((_ids, signal) => {
      signals.push(signal);
      return new Promise(() => undefined);
    });
    const { parent, state } = start();
    parent.send({ type: 'live.watch', ids: ['a'] });
    await vi.advanceTimersByTimeAsync(JOB_POLL.baseMs);
    expect(state()).toBe('polling');
    await vi.advanceTimersByTimeAsync(JOB_REQUEST_TIMEOUT_MS);
    expect(signals[0]?.aborted).toBe(true);
    expect(state()).toBe('waiting');
    await vi.advanceTimersByTimeAsync(JOB_POLL.baseMs * 2);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('pauses while the page is hidden and reads at once when it is shown again', async () => {
    const { parent, state } = start(true);
    parent.send({ type: 'live.watch', ids: ['a'] });
    expect(state()).toBe('idle');
    await vi.advanceTimersByTimeAsync(JOB_POLL.capMs);
    expect(read).not.toHaveBeenCalled();

    showPage(false);
    expect(state()).toBe('polling');
    expect(read).toHaveBeenCalledTimes(1);
    await flush();
    expect(state()).toBe('waiting');

    showPage(true);
    expect(state()).toBe('idle');
    await vi.advanceTimersByTimeAsync(JOB_POLL.capMs);
    expect(read).toHaveBeenCalledTimes(1);
  });

  it('no longer reads a job the server did not find (deleted on another device)', async () => {
    read.mockImplementation(async (ids) => ({ asked: ids, statuses: [running('a')], ended: [] }));
    const { parent } = start();
    parent.send({ type: 'live.watch', ids: ['a', 'gone'] });
    await vi.advanceTimersByTimeAsync(JOB_POLL.baseMs);
    expect(read.mock.calls[0]?.[0]).toEqual(['a', 'gone']);
    await vi.advanceTimersByTimeAsync(JOB_POLL.baseMs);
    expect(read.mock.calls[1]?.[0]).toEqual(['a']);
  });
});

describe('a live read applied to the rows', () => {
  const waiting = buildMedia({ id: 'w', status: 'queue_source', queue_position: 2 });
  const rendering = buildMedia({ id: 'r', status: 'processing_source', progress: 10 });
  const done = buildMedia({ id: 'd', status: 'success_image', progress: 100 });

  it('lists only the rows not yet ended as live', () => {
    expect(liveIdsOf([waiting, rendering, done])).toEqual(['w', 'r']);
  });

  it('takes a running job’s status, progress, held and place, and an ended job whole; unchanged rows stay the same objects', () => {
    const finished = buildMedia({ id: 'r', status: 'success_image', progress: 100, cost: 8, finished_at: '2025-01-01T10:01:00.000Z' });
    const items = [waiting, rendering, done];
    const merged = mergeLiveRead(items, {
      asked: ['w', 'r'],
      statuses: [buildStatus({ id: 'w', status: 'queue_source', progress: 0, held: true, queue_position: null, updated_at: '2025-01-01T10:00:09.000Z' })],
      ended: [finished],
    });
    expect(merged[0]).toMatchObject({ id: 'w', status: 'queue_source', held: true, queue_position: null, updated_at: '2025-01-01T10:00:09.000Z' });
    expect(merged[1]).toBe(finished);
    expect(merged[2]).toBe(done);

    // A read that changes nothing leaves the very list (no re-render).
    const same = { asked: ['w'], statuses: [buildStatus({ id: 'w', status: 'queue_source', progress: 0, held: false, queue_position: 2 })], ended: [] };
    expect(mergeLiveRead(items, same)).toBe(items);
  });
});

describe('the History machine with live rows', () => {
  it('follows a waiting row until it finishes, keeping the pages read and their cursor; then the poller rests', async () => {
    const waiting = buildMedia({ id: 'w', status: 'queue_source', queue_position: 2, progress: 0 });
    const old = buildMedia({ id: 'old', status: 'success_image', progress: 100 });
    const finished = buildMedia({ id: 'w', status: 'success_image', progress: 100, cost: 4 });
    const reads: LiveJobsRead[] = [
      { asked: ['w'], statuses: [buildStatus({ id: 'w', status: 'queue_source', progress: 0, queue_position: 1 })], ended: [] },
      { asked: ['w'], statuses: [buildStatus({ id: 'w', status: 'processing_source', progress: 55 })], ended: [] },
      { asked: ['w'], statuses: [], ended: [finished] },
    ];
    read.mockImplementation(async () => reads.shift() ?? answered([]));
    const loads: unknown[] = [];
    const machine = jobHistoryMachine.provide({
      actors: {
        loadPage: fromPromise<Page, { search: JobSearch }>(async ({ input }) => {
          loads.push(input.search);
          return { items: [waiting, old], nextStartKeys: 'k1' };
        }),
        historyLive: pollerFor(),
      },
    });
    const history = createActor(machine, { input: { jobs: null } }).start();
    await flush();
    const poller = () => history.getSnapshot().children.historyLive as ActorRefFrom<typeof historyLiveMachine>;
    const row = () => selectHistoryItems(history.getSnapshot())[0];
    expect(poller().getSnapshot().value).toBe('waiting');

    await vi.advanceTimersByTimeAsync(JOB_POLL.baseMs);
    expect(row()).toMatchObject({ status: 'queue_source', queue_position: 1 });
    await vi.advanceTimersByTimeAsync(JOB_POLL.baseMs);
    expect(row()).toMatchObject({ status: 'processing_source', progress: 55 });
    await vi.advanceTimersByTimeAsync(JOB_POLL.baseMs);
    expect(row()).toBe(finished);

    // The list was never loaded again: its second row and its "Load more" cursor are as they were.
    expect(loads).toHaveLength(1);
    expect(selectHistoryItems(history.getSnapshot())[1]).toBe(old);
    expect(selectHistoryHasMore(history.getSnapshot())).toBe(true);
    expect(poller().getSnapshot().value).toBe('idle');
    await vi.advanceTimersByTimeAsync(JOB_POLL.capMs);
    expect(read).toHaveBeenCalledTimes(3);
  });

  it('a filter change that fails to load stops the reads of the rows no longer shown', async () => {
    const waiting = buildMedia({ id: 'w', status: 'queue_source' });
    let fail = false;
    const machine = jobHistoryMachine.provide({
      actors: {
        loadPage: fromPromise<Page, { search: JobSearch }>(async () => {
          if (fail) throw networkError();
          return { items: [waiting], nextStartKeys: null };
        }),
        historyLive: pollerFor(),
      },
    });
    const history = createActor(machine, { input: { jobs: null } }).start();
    await flush();
    const poller = history.getSnapshot().children.historyLive as ActorRefFrom<typeof historyLiveMachine>;
    expect(poller.getSnapshot().value).toBe('waiting');
    fail = true;
    history.send({ type: 'history.filter', change: { status: 'live' } });
    await flush();
    expect(history.getSnapshot().matches({ list: 'failed' })).toBe(true);
    expect(poller.getSnapshot().value).toBe('idle');
  });
});
