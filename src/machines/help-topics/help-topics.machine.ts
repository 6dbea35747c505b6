import { assertEvent, assign, setup } from 'xstate';

/**
 * The contextual help popover (SPEC §2.9 item 4): closed, or open on one of the help topics
 * (SPEC §2.10). It opens on the topic of the button that opened it (the event says which, so a
 * button whose topic follows the form's mode opens the right one); previous / next move through
 * the topics and stop at the first and the last (the buttons are disabled there, see `can`).
 */

export interface HelpTopicsInput {
  /** How many topics there are (HELP_TOPICS.length). */
  topicCount: number;
}

export interface HelpTopicsContext {
  /** The topic shown (or last shown). */
  topicIndex: number;
  topicCount: number;
}

export type HelpTopicsEvent =
  | { type: 'help.open'; topicIndex: number }
  | { type: 'help.toggle'; topicIndex: number }
  | { type: 'help.next' }
  | { type: 'help.previous' }
  | { type: 'help.close' };

const clampIndex = (index: number, count: number): number => Math.min(Math.max(0, Math.trunc(index)), Math.max(0, count - 1));

export const helpTopicsMachine = setup({
  types: {
    context: {} as HelpTopicsContext,
    input: {} as HelpTopicsInput,
    events: {} as HelpTopicsEvent,
  },
  guards: {
    hasNextTopic: ({ context }) => context.topicIndex < context.topicCount - 1,
    hasPreviousTopic: ({ context }) => context.topicIndex > 0,
  },
  actions: {
    showOwnTopic: assign({
      topicIndex: ({ context, event }) => {
        assertEvent(event, ['help.open', 'help.toggle']);
        return clampIndex(event.topicIndex, context.topicCount);
      },
    }),
    showNextTopic: assign({ topicIndex: ({ context }) => context.topicIndex + 1 }),
    showPreviousTopic: assign({ topicIndex: ({ context }) => context.topicIndex - 1 }),
  },
}).createMachine({
  id: 'helpTopics',
  context: ({ input }) => ({ topicIndex: 0, topicCount: input.topicCount }),
  initial: 'closed',
  states: {
    closed: {
      on: {
        'help.open': { target: 'open', actions: 'showOwnTopic' },
        'help.toggle': { target: 'open', actions: 'showOwnTopic' },
      },
    },
    open: {
      on: {
        'help.next': { guard: 'hasNextTopic', actions: 'showNextTopic' },
        'help.previous': { guard: 'hasPreviousTopic', actions: 'showPreviousTopic' },
        'help.close': { target: 'closed' },
        'help.toggle': { target: 'closed' },
      },
    },
  },
});
