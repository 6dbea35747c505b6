import { describe } from 'vitest';
import type { AnyStateNode, SnapshotFrom } from 'xstate';
import { getStateNodes } from 'xstate/graph';
import { storyAutosaveMachine, type StoryAutosaveEvent } from '@/machines/story/story-autosave.machine';
import { activePaths, itTakesEveryTransition, itVisitsEveryState, machineGraph, ownEventsOf } from '../../helpers/graph-coverage';
import { NEW_BOARD } from './story.fixtures';
import { httpError, networkError } from '../generation-job/generation-job.fixtures';

/**
 * Model-based coverage of the story wizard's autosave child (issue 18 item 2): over what the
 * wizard tells it (the draft changed, clean or not, at once or not; what to send; hold, release;
 * a paid call refused as stale) and what its save and its merge's read answer, the shortest paths
 * reach every state where it rests and take every transition, its debounce and back-off included.
 */

type Snapshot = SnapshotFrom<typeof storyAutosaveMachine>;
type Event = StoryAutosaveEvent;

// Walked without a wizard: what it would be told goes nowhere (the wizard's own graph test sends it the autosave's events).
const machine = storyAutosaveMachine.provide({
  actions: { askWizard: () => {}, tellSaving: () => {}, tellHeld: () => {}, tellSaved: () => {}, tellMerge: () => {}, tellFailed: () => {} },
});
const nodeByPath = new Map<string, AnyStateNode>(getStateNodes(machine.root).map((node) => [node.path.join('.'), node]));

/** A save answers the story, or fails for want of the network (sent again), as stale (merged) or for good (a 400). */
const callEvents = (snapshot: Snapshot): Event[] =>
  activePaths(snapshot.value).flatMap((path) =>
    (nodeByPath.get(path)?.invoke ?? []).flatMap(
      (invoke) =>
        [
          { type: `xstate.done.actor.${invoke.id}`, output: NEW_BOARD },
          ...[networkError(), httpError(412, 'Changed elsewhere.'), httpError(400, 'Nope')].map((error) => ({ type: `xstate.error.actor.${invoke.id}`, error })),
        ] as unknown as Event[],
    ),
  );

const wizardEvents: Event[] = [
  ...[true, false].flatMap((dirty) => [true, false].map((now) => ({ type: 'autosave.change' as const, dirty, now }))),
  ...[true, false].flatMap((dirty) => [true, false].map((now) => ({ type: 'autosave.release' as const, dirty, now }))),
  { type: 'autosave.request', request: { id: 'story-1', fields: { step: 'elements' } } },
  { type: 'autosave.request', request: null },
  { type: 'autosave.hold' },
  { type: 'autosave.stale', storyId: 'story-1' },
];

/** The state value plus what the guards read; the back-off only as whether saves failed. */
const serializeState = (snapshot: Snapshot): string =>
  JSON.stringify({ value: snapshot.value, request: snapshot.context.request !== null, failing: snapshot.context.errors > 0 });

const eventsFor = (snapshot: Snapshot): Event[] => ownEventsOf(machine, snapshot.value, [...wizardEvents, ...callEvents(snapshot)]);

const graph = machineGraph(machine, { inputs: [undefined as never], events: eventsFor, serializeState });

describe('story autosave paths (xstate/graph)', () => {
  itVisitsEveryState(graph, { title: 'reaches every state node where the autosave can rest', atLeast: 8 });

  itTakesEveryTransition(graph, {
    atLeast: 30,
    includes: [
      'work.debouncing · xstate.after.saveDelay.storyAutosave.work.debouncing #0',
      'work.retrying · xstate.after.saveRetryDelay.storyAutosave.work.retrying #0',
    ],
  });
});
