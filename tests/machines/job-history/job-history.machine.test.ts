import { SEED_MAX } from '@/config/limits';
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { ApiError } from '@/services/api-error';
import type { JobSearch } from '@/services/job-history';
import type { Media } from '@/services/schemas/media';
import {
  EMPTY_HISTORY_FILTERS,
  HISTORY_PAGE_SIZE,
  HISTORY_SEARCH_DEBOUNCE_MS,
  HISTORY_SEEK_PAGES_MAX,
  jobHistoryMachine,
  jobSearchOf,
} from '@/machines/job-history/job-history.machine';
import {
  selectCanRerun,
  selectHasFilters,
  selectHistoryError,
  selectHistoryFocusedId,
  selectHistoryFocusMissing,
  selectHistoryHasMore,
  selectHistoryItems,
  selectHistoryStatus,
  selectRerunningId,
  selectRerunOutcome,
} from '@/machines/job-history/job-history.selectors';
import { jobsMachine } from '@/machines/jobs/jobs.machine';
import { selectJobEntries } from '@/machines/jobs/jobs.selectors';
import { CREATOR, buildMedia, deferred, flush, jobMachineFor, setUpJobServer } from '../generation-job/generation-job.fixtures';

const server = setUpJobServer();

interface Page {
  items: Media[];
  nextStartKeys: string | null;
}

const job = (id: string, overrides: Partial<Media> = {}): Media => buildMedia({ id, status: 'success_image', ...overrides });
const page = (ids: string[], nextStartKeys: string | null = null): Page => ({ items: ids.map((id) => job(id)), nextStartKeys });

/** The History machine with its calls answered by `load` and `rerun`, handed a jobs registry. */
function startHistory(
  load: (search: JobSearch) => Promise<Page>,
  rerun: (mediaId: string, key: string) => Promise<Media> = async () => job('new'),
  focusId: string | null = null,
) {
  const searches: JobSearch[] = [];
  const reruns: { mediaId: string; key: string; seed: number | null }[] = [];
  const registry = createActor(jobsMachine.provide({ actors: { generationJob: jobMachineFor(server) } }), { input: {} });
  registry.start();
  registry.send({ type: 'jobs.userChanged', userId: 'user-1', user: CREATOR });
  const machine = jobHistoryMachine.provide({
    actors: {
      loadPage: fromPromise<Page, { search: JobSearch }>(({ input }) => {
        searches.push(input.search);
        return load(input.search);
      }),
      rerunJob: fromPromise<Media, { mediaId: string; idempotencyKey: string; seed: number | null }>(({ input }) => {
        reruns.push({ mediaId: input.mediaId, key: input.idempotencyKey, seed: input.seed });
        return rerun(input.mediaId, input.idempotencyKey);
      }),
    },
  });
  const actor = createActor(machine, { input: { jobs: registry, focusId } });
  actor.start();
  return { actor, registry, searches, reruns };
}

type History = ReturnType<typeof startHistory>['actor'];
const status = (actor: History) => selectHistoryStatus(actor.getSnapshot());
const ids = (actor: History) => selectHistoryItems(actor.getSnapshot()).map((item) => item.id);

describe('the History machine', () => {
  it('loads the newest jobs first, then the next pages by next_start_keys, until the last', async () => {
    const { actor, searches } = startHistory(async (search) =>
      search.nextStartKeys === 'k1' ? page(['c', 'b'], 'k2') : search.nextStartKeys === 'k2' ? page(['d']) : page(['a', 'b'], 'k1'),
    );
    expect(status(actor)).toBe('loading');
    await flush();
    expect(status(actor)).toBe('ready');
    expect(ids(actor)).toEqual(['a', 'b']);
    expect(searches[0]).toEqual({ sort: 'newest', limit: HISTORY_PAGE_SIZE });
    expect(selectHistoryHasMore(actor.getSnapshot())).toBe(true);

    actor.send({ type: 'history.loadMore' });
    expect(actor.getSnapshot().matches({ list: 'loadingMore' })).toBe(true);
    await flush();
    // A job repeated across a page boundary is listed once.
    expect(ids(actor)).toEqual(['a', 'b', 'c']);
    expect(searches[1]).toEqual({ sort: 'newest', limit: HISTORY_PAGE_SIZE, nextStartKeys: 'k1' });

    actor.send({ type: 'history.loadMore' });
    await flush();
    expect(ids(actor)).toEqual(['a', 'b', 'c', 'd']);
    expect(selectHistoryHasMore(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'history.loadMore' });
    expect(searches).toHaveLength(3);
  });

  it('keeps the jobs shown when a next page fails, says why, and tries again', async () => {
    let failMore = true;
    const { actor } = startHistory(async (search) => {
      if (search.nextStartKeys && failMore) throw new ApiError('Service unavailable', { kind: 'http', status: 503 });
      return search.nextStartKeys ? page(['b']) : page(['a'], 'k1');
    });
    await flush();
    actor.send({ type: 'history.loadMore' });
    await flush();
    expect(status(actor)).toBe('ready');
    expect(ids(actor)).toEqual(['a']);
    expect(selectHistoryError(actor.getSnapshot())).toBe('Service unavailable');
    failMore = false;
    actor.send({ type: 'history.loadMore' });
    await flush();
    expect(ids(actor)).toEqual(['a', 'b']);
    expect(selectHistoryError(actor.getSnapshot())).toBeNull();
  });

  it('a failed first page shows the server’s message (SPEC §8), and retries', async () => {
    let fail = true;
    const { actor } = startHistory(async () => {
      if (fail) throw new ApiError('User needs to be authenticated to call this API.', { kind: 'http', status: 401 });
      return page(['a']);
    });
    await flush();
    expect(status(actor)).toBe('failed');
    expect(selectHistoryError(actor.getSnapshot())).toBe('User needs to be authenticated to call this API.');
    fail = false;
    actor.send({ type: 'history.retry' });
    expect(status(actor)).toBe('loading');
    await flush();
    expect(status(actor)).toBe('ready');
  });

  it('says "no jobs yet" without filters, and "none match" with some', async () => {
    const { actor } = startHistory(async () => page([]));
    await flush();
    expect(status(actor)).toBe('empty');
    actor.send({ type: 'history.filter', change: { status: 'failed' } });
    await flush();
    expect(status(actor)).toBe('empty-filtered');
    expect(selectHasFilters(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'history.clear' });
    await flush();
    expect(status(actor)).toBe('empty');
    expect(actor.getSnapshot().context.filters).toEqual(EMPTY_HISTORY_FILTERS);
  });

  it('loads again at once with a changed filter; a new tool clears the model; the sort is always sent', async () => {
    const { actor, searches } = startHistory(async () => page(['a']));
    await flush();
    actor.send({ type: 'history.filter', change: { tool: 'text-to-image' } });
    actor.send({ type: 'history.filter', change: { option: 'Seedream', seed: ' 42 ', costMin: 2, costMax: 8 } });
    actor.send({ type: 'history.filter', change: { from: '2025-01-01', to: '2025-01-31', sort: 'cost_high', status: 'succeeded' } });
    await flush();
    expect(searches.at(-1)).toEqual({
      sort: 'cost_high',
      limit: HISTORY_PAGE_SIZE,
      tool: 'text-to-image',
      option: 'Seedream',
      status: 'succeeded',
      seed: '42',
      costMin: 2,
      costMax: 8,
      from: '2025-01-01',
      to: '2025-01-31',
    });
    actor.send({ type: 'history.filter', change: { tool: 'text-to-speech' } });
    expect(actor.getSnapshot().context.filters.option).toBeNull();
  });

  it('searches the prompt text once typing pauses (debounced), with the last text', async () => {
    const { actor, searches } = startHistory(async () => page(['a']));
    await flush();
    actor.send({ type: 'history.type', q: 'f' });
    await vi.advanceTimersByTimeAsync(HISTORY_SEARCH_DEBOUNCE_MS - 100);
    actor.send({ type: 'history.type', q: 'fo' });
    await vi.advanceTimersByTimeAsync(HISTORY_SEARCH_DEBOUNCE_MS - 100);
    actor.send({ type: 'history.type', q: 'fox ' });
    expect(status(actor)).toBe('loading');
    expect(searches).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(HISTORY_SEARCH_DEBOUNCE_MS - 1);
    expect(searches).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(searches).toHaveLength(2);
    expect(searches[1]).toMatchObject({ q: 'fox' });
    await flush();
    expect(status(actor)).toBe('ready');
  });

  it('never lets an older answer land over a newer search', async () => {
    const first = deferred<Page>();
    let calls = 0;
    const { actor } = startHistory(() => (++calls === 1 ? first.promise : Promise.resolve(page(['new']))));
    actor.send({ type: 'history.filter', change: { status: 'failed' } });
    await flush();
    first.resolve(page(['old']));
    await flush();
    expect(ids(actor)).toEqual(['new']);
  });

  it('runs a job again with a fresh key per press and hands the new job to the jobs registry', async () => {
    const { actor, registry, reruns } = startHistory(
      async () => page(['a']),
      async () => job('a-again', { status: 'queue_source' }),
    );
    await flush();
    actor.send({ type: 'history.rerun', mediaId: 'a' });
    expect(selectRerunningId(actor.getSnapshot())).toBe('a');
    expect(selectCanRerun(actor.getSnapshot())).toBe(false);
    await flush();
    expect(selectJobEntries(registry.getSnapshot()).map((entry) => entry.stored.mediaId)).toEqual(['a-again']);
    expect(selectRerunOutcome(actor.getSnapshot())).toMatchObject({ source: 'a', error: null, started: { id: 'a-again' } });

    actor.send({ type: 'history.rerun', mediaId: 'a' });
    await flush();
    expect(reruns.map((call) => call.mediaId)).toEqual(['a', 'a']);
    expect(reruns[0]?.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(reruns[1]?.key).not.toBe(reruns[0]?.key);
    actor.send({ type: 'history.dismissRerun' });
    expect(selectRerunOutcome(actor.getSnapshot())).toBeNull();
    // Re-run keeps the job's own seed (none is sent).
    expect(reruns.map((call) => call.seed)).toEqual([null, null]);
  });

  it('Vary runs the job again with a new seed each press (issue 21 item 7)', async () => {
    const { actor, registry, reruns } = startHistory(
      async () => page(['a']),
      async () => job('a-varied', { status: 'queue_source' }),
    );
    await flush();
    actor.send({ type: 'history.vary', mediaId: 'a' });
    expect(selectRerunningId(actor.getSnapshot())).toBe('a');
    await flush();
    actor.send({ type: 'history.vary', mediaId: 'a' });
    await flush();
    const [first, second] = reruns;
    expect(first?.seed).toEqual(expect.any(Number));
    expect(Number.isInteger(first?.seed) && first!.seed! >= 0 && first!.seed! <= SEED_MAX).toBe(true);
    expect(second?.seed).not.toBe(first?.seed);
    expect(second?.key).not.toBe(first?.key);
    expect(selectJobEntries(registry.getSnapshot()).map((entry) => entry.stored.mediaId)).toContain('a-varied');
  });

  it('a filter change, Clear or typing while a Re-run is in flight keeps the Re-run running and its outcome', async () => {
    const answer = deferred<Media>();
    const { actor, registry, reruns, searches } = startHistory(
      async () => page(['a']),
      () => answer.promise,
    );
    await flush();
    actor.send({ type: 'history.rerun', mediaId: 'a' });
    actor.send({ type: 'history.filter', change: { status: 'failed' } });
    actor.send({ type: 'history.type', q: 'cat' });
    actor.send({ type: 'history.clear' });
    // The list reloads; the Re-run is neither stopped nor sent again.
    expect(selectRerunningId(actor.getSnapshot())).toBe('a');
    expect(actor.getSnapshot().matches({ rerun: 'running' })).toBe(true);
    answer.resolve(job('a-again', { status: 'queue_source' }));
    await flush();
    expect(reruns).toHaveLength(1);
    expect(searches.length).toBeGreaterThanOrEqual(2);
    expect(selectRerunOutcome(actor.getSnapshot())).toMatchObject({ source: 'a', error: null, started: { id: 'a-again' } });
    expect(selectJobEntries(registry.getSnapshot()).map((entry) => entry.stored.mediaId)).toEqual(['a-again']);
  });

  it('a refused re-run (402) shows the server’s message and adds nothing', async () => {
    const { actor, registry } = startHistory(
      async () => page(['a']),
      async () => {
        throw new ApiError('Not enough credits', { kind: 'http', status: 402 });
      },
    );
    await flush();
    actor.send({ type: 'history.rerun', mediaId: 'a' });
    await flush();
    expect(selectRerunOutcome(actor.getSnapshot())).toEqual({ source: 'a', started: null, error: 'Not enough credits' });
    expect(selectJobEntries(registry.getSnapshot())).toEqual([]);
    expect(selectCanRerun(actor.getSnapshot())).toBe(true);
  });
});

describe('the History machine with ?job= (the Library’s "Show in History")', () => {
  /** Pages p0, p1, … of two jobs each (j0, j1 | j2, j3 | …), `count` pages in all. */
  const pages = (count: number) => async (search: JobSearch) => {
    const index = search.nextStartKeys ? Number(search.nextStartKeys.slice(1)) : 0;
    return page([`j${2 * index}`, `j${2 * index + 1}`], index + 1 < count ? `p${index + 1}` : null);
  };

  it('reads page after page until the job is listed, then outlines it and offers the rest by "Load more"', async () => {
    const { actor, searches } = startHistory(pages(10), undefined, 'j5');
    expect(selectHistoryFocusedId(actor.getSnapshot())).toBeNull();
    await flush();
    expect(ids(actor)).toEqual(['j0', 'j1', 'j2', 'j3', 'j4', 'j5']);
    expect(searches.map((search) => search.nextStartKeys ?? null)).toEqual([null, 'p1', 'p2']);
    expect(status(actor)).toBe('ready');
    expect(selectHistoryFocusedId(actor.getSnapshot())).toBe('j5');
    expect(selectHistoryFocusMissing(actor.getSnapshot())).toBe(false);
    expect(selectHistoryHasMore(actor.getSnapshot())).toBe(true);
  });

  it('says the job was not found after the last page, or after HISTORY_SEEK_PAGES_MAX pages', async () => {
    const short = startHistory(pages(3), undefined, 'gone');
    await flush();
    expect(ids(short.actor)).toHaveLength(6);
    expect(selectHistoryFocusMissing(short.actor.getSnapshot())).toBe(true);
    expect(selectHistoryFocusedId(short.actor.getSnapshot())).toBeNull();
    short.actor.send({ type: 'history.dismissFocus' });
    expect(selectHistoryFocusMissing(short.actor.getSnapshot())).toBe(false);

    const long = startHistory(pages(HISTORY_SEEK_PAGES_MAX + 5), undefined, 'gone');
    await flush();
    expect(long.searches).toHaveLength(HISTORY_SEEK_PAGES_MAX);
    expect(selectHistoryFocusMissing(long.actor.getSnapshot())).toBe(true);
    expect(selectHistoryHasMore(long.actor.getSnapshot())).toBe(true);
  });

  it('a filter change stops looking; a failed page keeps the pages read and stops looking', async () => {
    const held = deferred<Page>();
    const { actor } = startHistory((search) => (search.nextStartKeys === 'p1' ? held.promise : pages(5)(search)), undefined, 'j9');
    await flush();
    expect(actor.getSnapshot().matches({ list: 'seeking' })).toBe(true);
    actor.send({ type: 'history.filter', change: { status: 'failed' } });
    held.resolve(page(['j2', 'j9']));
    await flush();
    expect(selectHistoryFocusedId(actor.getSnapshot())).toBeNull();
    expect(selectHistoryFocusMissing(actor.getSnapshot())).toBe(false);
    expect(ids(actor)).toEqual(['j0', 'j1']);

    const failing = startHistory(
      async (search) => {
        if (search.nextStartKeys) throw new ApiError('Server busy', { kind: 'http', status: 503 });
        return page(['j0'], 'p1');
      },
      undefined,
      'j9',
    );
    await flush();
    expect(ids(failing.actor)).toEqual(['j0']);
    expect(selectHistoryError(failing.actor.getSnapshot())).toBe('Server busy');
    expect(selectHistoryFocusMissing(failing.actor.getSnapshot())).toBe(false);
    expect(status(failing.actor)).toBe('ready');
  });
});

describe('jobSearchOf', () => {
  it('sends only what is set', () => {
    expect(jobSearchOf({ ...EMPTY_HISTORY_FILTERS, q: '  ', seed: '' })).toEqual({ sort: 'newest', limit: HISTORY_PAGE_SIZE });
    expect(jobSearchOf({ ...EMPTY_HISTORY_FILTERS, costMin: 0 }, 'next')).toEqual({
      sort: 'newest',
      limit: HISTORY_PAGE_SIZE,
      costMin: 0,
      nextStartKeys: 'next',
    });
  });
});
