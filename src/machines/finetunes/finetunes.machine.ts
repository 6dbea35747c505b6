import { and, assertEvent, assign, fromPromise, setup } from 'xstate';
import { errorMessageOf } from '@/services/api-error';
import { listFinetunes } from '@/services/finetune';
import type { Finetune } from '@/services/finetune';

// Screens may not import services; they get these from here. A training is started through the
// jobs registry (`jobs.submit` with this endpoint), like every credit-spending call.
export type { Finetune } from '@/services/finetune';
export { FINETUNE_ENDPOINT } from '@/services/finetune';

/**
 * While one of the person's models is training, the list is asked for again this often: a training
 * started in another tab or on another device is not followed by this tab's jobs registry.
 */
export const FINETUNES_TRAINING_REFRESH_MS = 30_000;

export interface FinetunesContext {
  /** The signed-in person the list belongs to; null when signed out. */
  userId: string | null;
  /** As the server listed them. */
  items: Finetune[];
  /** The last load's failure (SPEC §8: detail, else message, else "api error"); null after a success. */
  error: string | null;
  /**
   * Media ids of finetune jobs (from the jobs registry) the list has already been loaded again
   * for: each new training job asks for the list once, never in a loop.
   */
  seenJobMediaIds: string[];
  /**
   * Jobs first seen while a load was on its way: that answer may predate them, so the list is
   * asked for once more only if it does not hold them (a page opening with the registry's jobs
   * restored asks once, not twice).
   */
  awaitedJobMediaIds: string[];
  /** The tab is hidden: the training refresh waits until it is shown again. */
  hidden: boolean;
}

export type FinetunesEvent =
  /** Who is signed in (the session): a new person gets their own list, signing out clears it. */
  | { type: 'finetunes.userChanged'; userId: string | null }
  /** Load the list again (a finetune job finished, or the person asked). */
  | { type: 'finetunes.refresh' }
  /** The finetune jobs the registry knows, by media id: a new one means a new model to list. */
  | { type: 'finetunes.jobsSeen'; mediaIds: string[] }
  /** The page was hidden or shown (the training refresh pauses while hidden). */
  | { type: 'finetunes.visibility'; hidden: boolean };

/** Media ids of jobs neither listed nor already loaded for. */
const unseenJobs = (context: FinetunesContext, mediaIds: readonly string[]): string[] => {
  const known = new Set([...context.items.map((item) => item.media_id), ...context.seenJobMediaIds]);
  return mediaIds.filter((id) => !known.has(id));
};

/**
 * The signed-in person's trained models (Kinora's `GET finetune`), shared by the LoRA Finetune page
 * and the image tools' model lists: signedOut → signedIn { loading → ready | failed }. Loaded on
 * sign-in; loaded again on `finetunes.refresh`, when the registry shows a finetune job the list
 * does not have yet, and every FINETUNES_TRAINING_REFRESH_MS while a model trains and the tab is
 * shown (a refresh due while hidden waits in `waitingForTab` until the tab is shown); cleared on
 * sign-out. A reload keeps the list shown until the new one arrives, and a newer request replaces a
 * running one, so an older answer never lands.
 */
export const finetunesMachine = setup({
  types: {
    context: {} as FinetunesContext,
    events: {} as FinetunesEvent,
  },
  actors: {
    loadFinetunes: fromPromise<Finetune[]>(({ signal }) => listFinetunes({ signal })),
  },
  delays: {
    trainingRefresh: FINETUNES_TRAINING_REFRESH_MS,
  },
  guards: {
    signedIn: ({ event }) => event.type === 'finetunes.userChanged' && event.userId !== null,
    otherUser: ({ context, event }) =>
      event.type === 'finetunes.userChanged' && event.userId !== null && event.userId !== context.userId,
    signedOutNow: ({ event }) => event.type === 'finetunes.userChanged' && event.userId === null,
    hasUnseenJob: ({ context, event }) =>
      event.type === 'finetunes.jobsSeen' && unseenJobs(context, event.mediaIds).length > 0,
    anyTraining: ({ context }) => context.items.some((item) => item.status === 'training'),
    tabShown: ({ context }) => !context.hidden,
    shownNow: ({ event }) => event.type === 'finetunes.visibility' && !event.hidden,
    awaitedJobMissing: ({ context }, params: { items: Finetune[] }) => {
      const listed = new Set(params.items.map((item) => item.media_id));
      return context.awaitedJobMediaIds.some((id) => !listed.has(id));
    },
  },
  actions: {
    startUser: assign(({ event }) => {
      assertEvent(event, 'finetunes.userChanged');
      return { userId: event.userId, items: [], error: null, seenJobMediaIds: [], awaitedJobMediaIds: [] };
    }),
    clear: assign({ userId: null, items: [], error: null, seenJobMediaIds: [], awaitedJobMediaIds: [] }),
    awaitJobs: assign(({ context, event }) => {
      assertEvent(event, 'finetunes.jobsSeen');
      return { awaitedJobMediaIds: [...context.awaitedJobMediaIds, ...unseenJobs(context, event.mediaIds)] };
    }),
    forgetAwaitedJobs: assign({ awaitedJobMediaIds: [] }),
    storeVisibility: assign(({ event }) => {
      assertEvent(event, 'finetunes.visibility');
      return { hidden: event.hidden };
    }),
    markJobsSeen: assign(({ context, event }) => {
      assertEvent(event, 'finetunes.jobsSeen');
      return { seenJobMediaIds: [...context.seenJobMediaIds, ...unseenJobs(context, event.mediaIds)] };
    }),
    storeItems: assign((_, params: { items: Finetune[] }) => ({ items: params.items, error: null })),
    storeError: assign((_, params: { error: unknown }) => ({ error: errorMessageOf(params.error) })),
  },
}).createMachine({
  id: 'finetunes',
  context: { userId: null, items: [], error: null, seenJobMediaIds: [], awaitedJobMediaIds: [], hidden: false },
  initial: 'signedOut',
  on: {
    'finetunes.visibility': { actions: 'storeVisibility' },
  },
  states: {
    signedOut: {
      on: {
        'finetunes.userChanged': { guard: 'signedIn', target: 'signedIn', actions: 'startUser' },
      },
    },
    signedIn: {
      initial: 'loading',
      on: {
        'finetunes.userChanged': [
          { guard: 'signedOutNow', target: 'signedOut', actions: 'clear' },
          { guard: 'otherUser', target: 'signedIn', reenter: true, actions: 'startUser' },
        ],
      },
      states: {
        loading: {
          entry: 'forgetAwaitedJobs',
          invoke: {
            src: 'loadFinetunes',
            onDone: [
              {
                guard: { type: 'awaitedJobMissing', params: ({ event }) => ({ items: event.output }) },
                target: 'loading',
                reenter: true,
                actions: { type: 'storeItems', params: ({ event }) => ({ items: event.output }) },
              },
              { target: 'ready', actions: { type: 'storeItems', params: ({ event }) => ({ items: event.output }) } },
            ],
            onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
          },
          on: {
            // A newer request replaces the running one.
            'finetunes.refresh': { target: 'loading', reenter: true },
            // Checked against the answer on its way (see awaitedJobMediaIds), not asked for at once.
            'finetunes.jobsSeen': { guard: 'hasUnseenJob', actions: ['awaitJobs', 'markJobsSeen'] },
          },
        },
        ready: {
          after: {
            trainingRefresh: [
              { guard: and(['anyTraining', 'tabShown']), target: 'loading' },
              { guard: 'anyTraining', target: 'waitingForTab' },
            ],
          },
          on: {
            'finetunes.refresh': 'loading',
            'finetunes.jobsSeen': { guard: 'hasUnseenJob', target: 'loading', actions: 'markJobsSeen' },
          },
        },
        /** A training refresh fell due while the tab was hidden: it is made once the tab is shown. */
        waitingForTab: {
          on: {
            'finetunes.visibility': { guard: 'shownNow', target: 'loading', actions: 'storeVisibility' },
            'finetunes.refresh': 'loading',
            'finetunes.jobsSeen': { guard: 'hasUnseenJob', target: 'loading', actions: 'markJobsSeen' },
          },
        },
        failed: {
          on: {
            'finetunes.refresh': 'loading',
            'finetunes.jobsSeen': { guard: 'hasUnseenJob', target: 'loading', actions: 'markJobsSeen' },
          },
        },
      },
    },
  },
});
