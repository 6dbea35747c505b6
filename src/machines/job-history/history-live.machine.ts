import { assign, fromCallback, fromPromise, sendParent, setup } from 'xstate';
import { JOB_POLL, JOB_REQUEST_TIMEOUT_MS } from '@/config/limits';
import { backoffCeiling } from '@/lib/backoff';
import { classifyStatus } from '@/lib/job-status';
import { readLiveJobs, type LiveJobsRead } from '@/services/job-history';
import type { Media } from '@/services/schemas/media';
import { watchPage } from '@/machines/account-link/account-link';

/**
 * The History page's live rows (issue 21 items 1–2): a child the History machine invokes for its
 * whole life (systemId `historyLive`), so the inspector shows the polling as states:
 *
 *   idle → waiting → polling → waiting | idle
 *
 * While a listed job is waiting (queued, held) or running and the page is shown, it reads them all
 * every JOB_POLL interval in one batched request (`readLiveJobs`: processing-status for all, the
 * full job for each that ended), backing off while reads fail and giving up a read unanswered after
 * JOB_REQUEST_TIMEOUT_MS. Each answer goes to the History machine (`history.live`), which updates
 * the rows in place (filters, pages and scroll untouched) and says again which rows are live.
 */

export type { LiveJobsRead } from '@/services/job-history';

export interface HistoryLiveInput {
  /** The page is hidden now (no reads until it is shown). */
  hidden: boolean;
}

export interface HistoryLiveContext {
  /** The listed jobs still waiting or running, as the History machine last said. */
  ids: string[];
  /** Jobs a read did not find (deleted meanwhile, on another device): no longer read. */
  gone: string[];
  hidden: boolean;
  /** Failed reads in a row (the back-off). */
  errors: number;
}

/** What the History machine sends its poller, and what the page's visibility sends it. */
export type HistoryLiveEvent = { type: 'live.watch'; ids: string[] } | { type: 'live.visibility'; hidden: boolean };

/** What the poller tells the History machine: the live rows as the server has them now. */
export interface HistoryLiveEmitted {
  type: 'history.live';
  read: LiveJobsRead;
}

/** A job the History page follows: not ended yet (SPEC §4: queued, held, processing, …). */
export const isLiveJob = (media: Pick<Media, 'status'>): boolean => classifyStatus(media.status) === 'processing';

/** The ids of the listed jobs to follow. */
export const liveIdsOf = (items: readonly Media[]): string[] => items.filter(isLiveJob).map((item) => item.id);

/** The rows with a read applied: a running job's status, progress, held and place; an ended job whole. Unchanged rows keep their identity. */
export function mergeLiveRead(items: Media[], read: LiveJobsRead): Media[] {
  const ended = new Map(read.ended.map((media) => [media.id, media]));
  const statuses = new Map(read.statuses.map((status) => [status.id, status]));
  let changed = false;
  const merged = items.map((item) => {
    if (!isLiveJob(item)) return item;
    const whole = ended.get(item.id);
    if (whole) {
      changed = true;
      return whole;
    }
    const status = statuses.get(item.id);
    if (
      !status ||
      (status.status === item.status &&
        status.progress === item.progress &&
        status.held === item.held &&
        status.queue_position === (item.queue_position ?? null))
    ) {
      return item;
    }
    changed = true;
    return { ...item, status: status.status, progress: status.progress, held: status.held, queue_position: status.queue_position, updated_at: status.updated_at };
  });
  return changed ? merged : items;
}

const followed = (context: HistoryLiveContext): string[] => context.ids.filter((id) => !context.gone.includes(id));

/** After a read or a change: wait for the next read while a row is live and the page is shown, else rest. */
const NEXT = [{ guard: 'shouldWait' as const, target: 'waiting' as const, reenter: true }, { target: 'idle' as const }];

export const historyLiveMachine = setup({
  types: {
    context: {} as HistoryLiveContext,
    events: {} as HistoryLiveEvent,
    input: {} as HistoryLiveInput,
  },
  actors: {
    readLiveJobs: fromPromise<LiveJobsRead, { ids: string[] }>(({ input, signal }) => readLiveJobs(input.ids, { signal })),
    /** The page hidden or shown again (polling pauses while hidden). */
    page: fromCallback<HistoryLiveEvent>(({ sendBack }) => watchPage((hidden) => sendBack({ type: 'live.visibility', hidden }))),
  },
  guards: {
    shouldWait: ({ context }) => !context.hidden && followed(context).length > 0,
    becameVisibleWithLiveRows: ({ context, event }) => event.type === 'live.visibility' && !event.hidden && followed(context).length > 0,
  },
  actions: {
    fromEvent: assign(({ event }) => (event.type === 'live.visibility' ? { hidden: event.hidden } : { ids: event.ids })),
    countError: assign(({ context }) => ({ errors: context.errors + 1 })),
    /** A read answered: the back-off is forgotten, and a job it did not find is no longer read. */
    storeRead: assign(({ context }, params: { read: LiveJobsRead }) => {
      const found = new Set([...params.read.statuses.map((status) => status.id), ...params.read.ended.map((media) => media.id)]);
      return { errors: 0, gone: [...context.gone, ...params.read.asked.filter((id) => !found.has(id))] };
    }),
    tellHistory: sendParent((_, params: { read: LiveJobsRead }): HistoryLiveEmitted => ({ type: 'history.live', read: params.read })),
  },
  delays: {
    /** Every JOB_POLL base interval while reads answer (as the jobs panel's); doubling to the cap while they fail. */
    pollDelay: ({ context }) => backoffCeiling(context.errors, JOB_POLL),
    requestTimeout: JOB_REQUEST_TIMEOUT_MS,
  },
}).createMachine({
  id: 'historyLive',
  context: ({ input }) => ({ ids: [], gone: [], hidden: input.hidden, errors: 0 }),
  invoke: { src: 'page' },
  initial: 'idle',
  states: {
    /** Only to choose between waiting and idle (a state, so the choice is one place). */
    deciding: { always: NEXT },
    /** No live row, or the page is hidden. */
    idle: {
      on: {
        'live.watch': { target: 'deciding', actions: 'fromEvent' },
        // Shown again: the rows are read at once (they may have ended meanwhile).
        'live.visibility': [{ guard: 'becameVisibleWithLiveRows', target: 'polling', actions: 'fromEvent' }, { actions: 'fromEvent' }],
      },
    },
    waiting: {
      after: { pollDelay: 'polling' },
      on: {
        'live.watch': { target: 'deciding', actions: 'fromEvent' },
        'live.visibility': [{ guard: 'becameVisibleWithLiveRows', target: 'polling', actions: 'fromEvent' }, { target: 'idle', actions: 'fromEvent' }],
      },
    },
    polling: {
      invoke: {
        src: 'readLiveJobs',
        input: ({ context }) => ({ ids: followed(context) }),
        onDone: {
          target: 'deciding',
          actions: [
            { type: 'storeRead', params: ({ event }) => ({ read: event.output }) },
            { type: 'tellHistory', params: ({ event }) => ({ read: event.output }) },
          ],
        },
        onError: { target: 'deciding', actions: 'countError' },
      },
      after: { requestTimeout: { target: 'deciding', actions: 'countError' } },
      // A read on its way is answered first; the rows it brings decide the next wait.
      on: { 'live.watch': { actions: 'fromEvent' }, 'live.visibility': { actions: 'fromEvent' } },
    },
  },
});
