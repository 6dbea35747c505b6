import { assertEvent, assign, enqueueActions, fromPromise, sendTo, setup } from 'xstate';
import type { ActorRefFrom } from 'xstate';
import { newIdempotencyKey } from '@/lib/idempotency-key';
import { randomSeed } from '@/lib/seed';
import { errorMessageOf } from '@/services/api-error';
import { rerunJob, searchJobs } from '@/services/job-history';
import type { JobSearch } from '@/services/job-history';
import type { Media } from '@/services/schemas/media';
import { isPageHidden } from '@/lib/page-hidden';
import type { jobsMachine } from '@/machines/jobs/jobs.machine';
import {
  changedFilters,
  EMPTY_HISTORY_FILTERS,
  jobSearchOf,
  type HistoryFilterChange,
  type HistoryFilters,
} from '@/machines/job-history/job-history.filters';
import { historyLiveMachine, liveIdsOf, mergeLiveRead, type HistoryLiveEmitted } from '@/machines/job-history/history-live.machine';
import {
  firstPageChange,
  initialFocus,
  nextPageChange,
  seekFurther,
  seekPageChange,
  stopSeeking,
  type ListFocus,
  type PageAnswer as PagedAnswer,
} from '@/machines/paged-list';

// Screens may not import services; they get these from here.
export type { Media } from '@/services/schemas/media';
export type { JobSearchSort, JobSearchStatus } from '@/services/schemas/job-history';
export {
  JOB_SEARCH_SORT_LABELS,
  JOB_SEARCH_SORTS,
  JOB_SEARCH_STATUS_LABELS,
  JOB_SEARCH_STATUSES,
} from '@/services/schemas/job-history';
export {
  EMPTY_HISTORY_FILTERS,
  filtersAreEmpty,
  HISTORY_PAGE_SIZE,
  jobSearchOf,
  type HistoryFilterChange,
  type HistoryFilters,
} from '@/machines/job-history/job-history.filters';

/** How long the prompt-text search waits after the last keystroke before it asks the server. */
export const HISTORY_SEARCH_DEBOUNCE_MS = 400;
/** `?job={id}`: the most pages read looking for that job (HISTORY_PAGE_SIZE each) before saying it was not found. */
export const HISTORY_SEEK_PAGES_MAX = 20;

type JobsRef = ActorRefFrom<typeof jobsMachine>;

export interface JobHistoryInput {
  /** The app's jobs registry: a re-run job is handed to it (`jobs.track`) to be followed. */
  jobs: JobsRef | null;
  /** `/history?job={id}` (the Library's "Show in History"): the job to find, reading page after page, and outline. */
  focusId?: string | null;
}

export interface JobHistoryContext {
  /** The filters as set now (the prompt text as typed). */
  filters: HistoryFilters;
  /** The filters the items shown were found with (the prompt text once typing paused). */
  applied: HistoryFilters;
  items: Media[];
  /** The cursor of the next page; null on the last page. */
  nextStartKeys: string | null;
  /** Why the last load failed; null otherwise. */
  error: string | null;
  jobs: JobsRef | null;
  /** The job asked for by `?job=` (outlined and focused once found). */
  focus: ListFocus;
  /** The job being run again, its key (one per press), and how the last re-run went. */
  rerun: {
    mediaId: string | null;
    idempotencyKey: string | null;
    /** Vary (issue 21 item 7): the new seed; null for a plain Re-run, which keeps the job's own. */
    seed: number | null;
    /** The job a re-run was last asked for, and its new job (succeeded) or the failure. */
    lastSource: string | null;
    started: Media | null;
    error: string | null;
  };
}

export type JobHistoryEvent =
  | { type: 'history.filter'; change: HistoryFilterChange }
  | { type: 'history.type'; q: string }
  | { type: 'history.clear' }
  | { type: 'history.loadMore' }
  | { type: 'history.retry' }
  | { type: 'history.rerun'; mediaId: string }
  /** The same job with a new seed (image jobs that recorded one). */
  | { type: 'history.vary'; mediaId: string }
  | { type: 'history.dismissRerun' }
  | { type: 'history.dismissFocus' }
  /** The live rows read again by the `historyLive` child. */
  | HistoryLiveEmitted;

type PageAnswer = PagedAnswer<Media>;

/**
 * The History page (issue 21 item 1): the person's jobs from the server, whichever device ran
 * them. Two regions:
 * - list: loading → ready | empty | failed; ready ⇄ loadingMore (next_start_keys, appended; a
 *   failure keeps the items and shows beside "Load more"); a filter change loads the first page
 *   again at once, typed prompt text after HISTORY_SEARCH_DEBOUNCE_MS (`debouncing`). Leaving a
 *   state stops its call, so an older answer never lands over a newer one. With `?job=`, `seeking`
 *   reads the next pages until that job is listed (at most HISTORY_SEEK_PAGES_MAX pages); a filter
 *   change stops looking.
 * - rerun: idle → running (POST media/{id}/rerun of an ended job, with a fresh Idempotency-Key per press) → idle,
 *   the new job handed to the jobs registry (`jobs.track`), or the server's message (SPEC §8).
 * And a child, `historyLive` (history-live.machine.ts): while a listed job is waiting or running it
 * reads them all again in one request per tick; its answers (`history.live`) update those rows in
 * place, and each time the rows change it is told which are still live.
 */
export const jobHistoryMachine = setup({
  types: {
    context: {} as JobHistoryContext,
    events: {} as JobHistoryEvent,
    input: {} as JobHistoryInput,
  },
  actors: {
    loadPage: fromPromise<PageAnswer, { search: JobSearch }>(({ input, signal }) => searchJobs(input.search, { signal })),
    rerunJob: fromPromise<Media, { mediaId: string; idempotencyKey: string; seed: number | null }>(({ input, signal }) =>
      rerunJob(input.mediaId, input.idempotencyKey, { signal, ...(input.seed === null ? {} : { seed: input.seed }) }),
    ),
    historyLive: historyLiveMachine,
  },
  delays: {
    searchDelay: HISTORY_SEARCH_DEBOUNCE_MS,
  },
  guards: {
    hasMore: ({ context }) => context.nextStartKeys !== null,
    /** The focus is not on this page, another page follows, and fewer than the most pages were read. */
    seekFurther: ({ context }, params: { page: PageAnswer }) => seekFurther(context.focus, params.page, HISTORY_SEEK_PAGES_MAX),
    pageIsEmpty: (_, params: { page: PageAnswer }) => params.page.items.length === 0,
  },
  actions: {
    changeFilters: assign(({ context, event }) => {
      assertEvent(event, 'history.filter');
      const filters = changedFilters(context.filters, event.change);
      return { filters, applied: filters, focus: stopSeeking(context.focus) };
    }),
    typeQuery: assign(({ context, event }) => {
      assertEvent(event, 'history.type');
      return { filters: { ...context.filters, q: event.q }, focus: stopSeeking(context.focus) };
    }),
    applyQuery: assign(({ context }) => ({ applied: context.filters })),
    clearFilters: assign(({ context }) => ({ filters: EMPTY_HISTORY_FILTERS, applied: EMPTY_HISTORY_FILTERS, focus: stopSeeking(context.focus) })),
    storeFirstPage: assign(({ context }, params: { page: PageAnswer }) => firstPageChange(context, params.page)),
    appendPage: assign(({ context }, params: { page: PageAnswer }) => nextPageChange(context, params.page)),
    appendSeekPage: assign(({ context }, params: { page: PageAnswer }) => seekPageChange(context, params.page)),
    setError: assign(({ context }, params: { error: unknown }) => ({ error: errorMessageOf(params.error), focus: stopSeeking(context.focus) })),
    dismissFocus: assign(({ context }) => ({ focus: { ...context.focus, state: 'none' as const } })),
    clearError: assign({ error: null }),
    startRerun: assign(({ event }) => {
      assertEvent(event, ['history.rerun', 'history.vary']);
      const seed = event.type === 'history.vary' ? randomSeed() : null;
      return {
        rerun: { mediaId: event.mediaId, idempotencyKey: newIdempotencyKey(), seed, lastSource: event.mediaId, started: null, error: null },
      };
    }),
    /** The new job goes to the registry, which polls it, lists it in the jobs panel and refreshes the balance. */
    rerunStarted: enqueueActions(({ context, enqueue }, params: { media: Media }) => {
      enqueue.assign({ rerun: { ...context.rerun, mediaId: null, idempotencyKey: null, seed: null, started: params.media, error: null } });
      if (context.jobs) enqueue.sendTo(context.jobs, { type: 'jobs.track', media: params.media });
    }),
    rerunFailed: assign(({ context }, params: { error: unknown }) => ({
      rerun: { ...context.rerun, mediaId: null, idempotencyKey: null, seed: null, started: null, error: errorMessageOf(params.error) },
    })),
    /** The live rows read again: updated in place (the filters, the pages read and the scroll stay). */
    mergeLive: assign(({ context, event }) => {
      assertEvent(event, 'history.live');
      return { items: mergeLiveRead(context.items, event.read) };
    }),
    /** The poller is told which listed rows are still waiting or running (none: it rests). */
    watchLive: sendTo('historyLive', ({ context }) => ({ type: 'live.watch' as const, ids: liveIdsOf(context.items) })),
    unwatchLive: sendTo('historyLive', { type: 'live.watch' as const, ids: [] }),
    dismissRerun: assign(({ context }) => ({ rerun: { ...context.rerun, lastSource: null, started: null, error: null } })),
  },
}).createMachine({
  id: 'jobHistory',
  context: ({ input }) => ({
    filters: EMPTY_HISTORY_FILTERS,
    applied: EMPTY_HISTORY_FILTERS,
    items: [],
    nextStartKeys: null,
    error: null,
    jobs: input.jobs,
    focus: initialFocus(input.focusId),
    rerun: { mediaId: null, idempotencyKey: null, seed: null, lastSource: null, started: null, error: null },
  }),
  type: 'parallel',
  // The rows still waiting or running follow the server live (issue 21 items 1–2).
  invoke: { id: 'historyLive', src: 'historyLive', input: () => ({ hidden: isPageHidden() }) },
  on: { 'history.live': { actions: ['mergeLive', 'watchLive'] } },
  states: {
    list: {
      initial: 'loading',
      // Not `reenter: true`: in a parallel machine that re-enters the whole machine, which stopped
      // a Re-run in flight (its outcome lost). Targeting a child still exits and enters it, so a
      // load in flight or a pending debounce starts over.
      on: {
        'history.filter': { target: '.loading', actions: 'changeFilters' },
        'history.clear': { target: '.loading', actions: 'clearFilters' },
        'history.type': { target: '.debouncing', actions: 'typeQuery' },
        'history.dismissFocus': { actions: 'dismissFocus' },
      },
      states: {
        loading: {
          invoke: {
            src: 'loadPage',
            input: ({ context }) => ({ search: jobSearchOf(context.applied) }),
            onDone: [
              {
                guard: { type: 'seekFurther', params: ({ event }) => ({ page: event.output }) },
                target: 'seeking',
                actions: { type: 'appendSeekPage', params: ({ event }) => ({ page: event.output }) },
              },
              {
                guard: { type: 'pageIsEmpty', params: ({ event }) => ({ page: event.output }) },
                target: 'empty',
                actions: { type: 'storeFirstPage', params: ({ event }) => ({ page: event.output }) },
              },
              { target: 'ready', actions: { type: 'storeFirstPage', params: ({ event }) => ({ page: event.output }) } },
            ],
            onError: { target: 'failed', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        /** `?job=` not found yet: the next page is read too, and added to the list. */
        seeking: {
          entry: 'watchLive',
          invoke: {
            src: 'loadPage',
            input: ({ context }) => ({ search: jobSearchOf(context.applied, context.nextStartKeys) }),
            onDone: [
              {
                guard: { type: 'seekFurther', params: ({ event }) => ({ page: event.output }) },
                // Re-entering `seeking` itself (its own transition: only this region) reads the next page.
                target: 'seeking',
                reenter: true,
                actions: { type: 'appendSeekPage', params: ({ event }) => ({ page: event.output }) },
              },
              { target: 'ready', actions: { type: 'appendPage', params: ({ event }) => ({ page: event.output }) } },
            ],
            // The pages read stay; the error shows beside "Load more".
            onError: { target: 'ready', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        ready: {
          entry: 'watchLive',
          on: {
            'history.loadMore': { guard: 'hasMore', target: 'loadingMore', actions: 'clearError' },
          },
        },
        /** The first page came back with nothing: no jobs (or none matching the filters). */
        empty: { entry: 'watchLive' },
        loadingMore: {
          invoke: {
            src: 'loadPage',
            input: ({ context }) => ({ search: jobSearchOf(context.applied, context.nextStartKeys) }),
            onDone: { target: 'ready', actions: { type: 'appendPage', params: ({ event }) => ({ page: event.output }) } },
            // The items shown stay; the error shows beside "Load more", which tries again.
            onError: { target: 'ready', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        failed: {
          entry: 'unwatchLive',
          on: { 'history.retry': { target: 'loading', actions: 'clearError' } },
        },
        /** Typing the prompt text: the search starts once the typing pauses. */
        debouncing: {
          after: { searchDelay: { target: 'loading', actions: 'applyQuery' } },
        },
      },
    },
    rerun: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'history.rerun': { target: 'running', actions: 'startRerun' },
            'history.vary': { target: 'running', actions: 'startRerun' },
            'history.dismissRerun': { actions: 'dismissRerun' },
          },
        },
        running: {
          invoke: {
            src: 'rerunJob',
            input: ({ context }) => ({ mediaId: context.rerun.mediaId ?? '', idempotencyKey: context.rerun.idempotencyKey ?? '', seed: context.rerun.seed }),
            onDone: { target: 'idle', actions: { type: 'rerunStarted', params: ({ event }) => ({ media: event.output }) } },
            onError: { target: 'idle', actions: { type: 'rerunFailed', params: ({ event }) => ({ error: event.error }) } },
          },
        },
      },
    },
  },
});
