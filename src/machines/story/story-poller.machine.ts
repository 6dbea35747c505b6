import { assign, fromPromise, sendParent, setup } from 'xstate';
import { JOB_POLL, JOB_REQUEST_TIMEOUT_MS } from '@/config/limits';
import { backoffCeiling } from '@/lib/backoff';
import { getStory } from '@/services/story';
import type { Story } from '@/services/schemas/story';
import { hasLiveJobs } from '@/machines/story/story-board';
import type { StoryWizardInternalEvent } from '@/machines/story/story-wizard.types';

/**
 * The story wizard's poller (issue 18 item 2), a child the wizard invokes for its whole life
 * (systemId `storyPoller`), so the inspector shows it instead of a context flag and raised timers:
 *
 *   idle → waiting → polling → waiting | idle
 *
 * While any job of the story is live and the page is shown it reads GET story/{id} every JOB_POLL
 * interval, backing off while reads fail and giving up (aborting) a read unanswered after
 * JOB_REQUEST_TIMEOUT_MS. Each answer goes to the wizard (`story.polled`); whether to wait for
 * the next read it decides from that answer itself.
 */

export interface StoryPollerInput {
  /** The page is hidden now (no reads until it is shown). */
  hidden: boolean;
}

export interface StoryPollerContext {
  storyId: string | null;
  /** A job of the story (a part or the join) was live in the story the wizard last had. */
  live: boolean;
  hidden: boolean;
  /** Failed reads in a row (the back-off). */
  errors: number;
}

/** What the wizard sends its poller. */
export type StoryPollerEvent =
  /** The story changed (loaded, merged): wait for the next read if a job is live, unless one is being read. */
  | { type: 'poll.watch'; storyId: string; live: boolean }
  /** A call's answer replaced the story: a read on its way would bring an older one, so it is dropped and the back-off forgotten. */
  | { type: 'poll.restart'; storyId: string; live: boolean }
  /** The page was hidden (no more waits) or shown (read at once when a job is live). */
  | { type: 'poll.visibility'; hidden: boolean };

/** What the poller tells the wizard (the wizard's own event): the story as the server has it now. */
export type StoryPollerEmitted = Extract<StoryWizardInternalEvent, { type: 'story.polled' }>;

/** After a read or a change: wait for the next read when a job is live and the page is shown, else rest. */
const NEXT = [{ guard: 'shouldWait' as const, target: 'waiting' as const, reenter: true }, { target: 'idle' as const }];

export const storyPollerMachine = setup({
  types: {
    context: {} as StoryPollerContext,
    events: {} as StoryPollerEvent,
    input: {} as StoryPollerInput,
  },
  actors: {
    pollStory: fromPromise<Story, { id: string }>(({ input, signal }) => getStory(input.id, { signal })),
  },
  guards: {
    shouldWait: ({ context }) => context.storyId !== null && !context.hidden && context.live,
    becameVisibleWithLiveJobs: ({ context, event }) =>
      event.type === 'poll.visibility' && !event.hidden && context.storyId !== null && context.live,
  },
  actions: {
    /** What the wizard said: the story and whether a job of it is live, or the page's visibility. */
    fromEvent: assign(({ event }) => (event.type === 'poll.visibility' ? { hidden: event.hidden } : { storyId: event.storyId, live: event.live })),
    forgetErrors: assign({ errors: 0 }),
    countError: assign(({ context }) => ({ errors: context.errors + 1 })),
    /** The read's answer goes to the wizard, which keeps the story. */
    tellWizard: sendParent((_, params: { story: Story }): StoryPollerEmitted => ({ type: 'story.polled', story: params.story })),
  },
  delays: {
    /** Every JOB_POLL base interval while reads answer; doubling (to the cap) while they fail. */
    pollDelay: ({ context }) => backoffCeiling(context.errors, JOB_POLL),
    /** A read still unanswered after this is given up (aborted) and asked again. */
    requestTimeout: JOB_REQUEST_TIMEOUT_MS,
  },
}).createMachine({
  id: 'storyPoller',
  context: ({ input }) => ({ storyId: null, live: false, hidden: input.hidden, errors: 0 }),
  on: {
    'poll.restart': { target: '.deciding', actions: ['fromEvent', 'forgetErrors'] },
  },
  initial: 'idle',
  states: {
    /** Only to choose between waiting and idle after a restart (a state, so the choice is one place). */
    deciding: { always: NEXT },
    idle: {
      on: {
        'poll.watch': { target: 'deciding', actions: 'fromEvent' },
        'poll.visibility': [
          { guard: 'becameVisibleWithLiveJobs', target: 'polling', actions: 'fromEvent' },
          { actions: 'fromEvent' },
        ],
      },
    },
    waiting: {
      after: { pollDelay: 'polling' },
      on: {
        'poll.watch': { target: 'deciding', actions: 'fromEvent' },
        'poll.visibility': [
          { guard: 'becameVisibleWithLiveJobs', target: 'polling', actions: 'fromEvent' },
          { target: 'idle', actions: 'fromEvent' },
        ],
      },
    },
    polling: {
      invoke: {
        src: 'pollStory',
        input: ({ context }) => ({ id: context.storyId ?? '' }),
        onDone: {
          target: 'deciding',
          actions: [
            assign(({ event }) => ({ errors: 0, live: hasLiveJobs(event.output) })),
            { type: 'tellWizard', params: ({ event }) => ({ story: event.output }) },
          ],
        },
        onError: { target: 'deciding', actions: 'countError' },
      },
      after: { requestTimeout: { target: 'deciding', actions: 'countError' } },
      // A read on its way is answered first; the story it brings decides the next wait.
      on: { 'poll.watch': { actions: 'fromEvent' }, 'poll.visibility': { actions: 'fromEvent' } },
    },
  },
});
