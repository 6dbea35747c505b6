import { describe } from 'vitest';
import type { AnyStateNode, SnapshotFrom } from 'xstate';
import { getStateNodes } from 'xstate/graph';
import { storyPollerMachine, type StoryPollerEvent } from '@/machines/story/story-poller.machine';
import { activePaths, itTakesEveryTransition, itVisitsEveryState, machineGraph, ownEventsOf } from '../../helpers/graph-coverage';
import { ELEMENTS_MADE, SCENES_MADE, withScenes } from './story.fixtures';
import { networkError } from '../generation-job/generation-job.fixtures';

/**
 * Model-based coverage of the story wizard's poller child (issue 18 item 2): from a shown and a
 * hidden page, over what the wizard tells it (the story changed, a call replaced it, the page's
 * visibility) and what its read answers, the shortest paths reach every state where it rests and
 * take every transition, its waits and time-outs included.
 */

type Snapshot = SnapshotFrom<typeof storyPollerMachine>;
type Event = StoryPollerEvent;

// Walked without a wizard: what it would be told goes nowhere (the wizard's own graph test sends it `story.polled`).
const machine = storyPollerMachine.provide({ actions: { tellWizard: () => {} } });
const nodeByPath = new Map<string, AnyStateNode>(getStateNodes(machine.root).map((node) => [node.path.join('.'), node]));

const LIVE = { ...withScenes(ELEMENTS_MADE, 'running'), step: 'scenes' as const };

/** A read answers the story with a job live, or with every job ended; or fails. */
const readEvents = (snapshot: Snapshot): Event[] =>
  activePaths(snapshot.value).flatMap((path) =>
    (nodeByPath.get(path)?.invoke ?? []).flatMap(
      (invoke) =>
        [
          ...[LIVE, SCENES_MADE].map((output) => ({ type: `xstate.done.actor.${invoke.id}`, output })),
          { type: `xstate.error.actor.${invoke.id}`, error: networkError() },
        ] as unknown as Event[],
    ),
  );

const wizardEvents: Event[] = [
  { type: 'poll.watch', storyId: 'story-1', live: true },
  { type: 'poll.watch', storyId: 'story-1', live: false },
  { type: 'poll.restart', storyId: 'story-1', live: true },
  { type: 'poll.restart', storyId: 'story-1', live: false },
  { type: 'poll.visibility', hidden: true },
  { type: 'poll.visibility', hidden: false },
];

/** The state value plus what the guards read; the back-off only as whether reads failed. */
const serializeState = (snapshot: Snapshot): string =>
  JSON.stringify({
    value: snapshot.value,
    storyId: snapshot.context.storyId,
    live: snapshot.context.live,
    hidden: snapshot.context.hidden,
    failing: snapshot.context.errors > 0,
  });

const eventsFor = (snapshot: Snapshot): Event[] => ownEventsOf(machine, snapshot.value, [...wizardEvents, ...readEvents(snapshot)]);

const graph = machineGraph(machine, { inputs: [{ hidden: false }, { hidden: true }], events: eventsFor, serializeState });

describe('story poller paths (xstate/graph)', () => {
  itVisitsEveryState(graph, { title: 'reaches every state node where the poller can rest', atLeast: 2, decisions: ['deciding'] });

  itTakesEveryTransition(graph, {
    atLeast: 12,
    includes: [
      'waiting · xstate.after.pollDelay.storyPoller.waiting #0',
      'polling · xstate.after.requestTimeout.storyPoller.polling #0',
      'deciding · (always) #0',
      'deciding · (always) #1',
    ],
  });
});
