import { describe, expect, it } from 'vitest';
import type { AnyActorRef } from 'xstate';
import { getStateNodes } from 'xstate/graph';
import { classifyStatus } from '@/lib/job-status';
import { isDirty, statesOf, storyWizardMachine } from '@/machines/story/story-wizard.machine';
import type { Story } from '@/machines/story/story-wizard.machine';
import { hasLiveJobs } from '@/machines/story/story-board';
import { needsWork } from '@/lib/story';
import type { StoryPartState } from '@/lib/story';
import type { StoryWizardInput, StoryWizardMachineEvent } from '@/machines/story/story-wizard.machine';
import type { StoryWizardSnapshot } from '@/machines/story/story-wizard.selectors';
import {
  buildStory,
  ELEMENTS_MADE,
  FILM_MADE,
  NEW_BOARD,
  SCENES_MADE,
  VIDEOS_MADE,
  withElements,
  withFilm,
  withJobs,
  withScenes,
  withSound,
  withVideos,
} from './story.fixtures';
import { CREATOR, httpError, networkError } from '../generation-job/generation-job.fixtures';
import { activePaths, itTakesEveryTransition, itVisitsEveryState, machineGraph } from '../../helpers/graph-coverage';

/**
 * Model-based coverage of the AI Story wizard (ARCHITECTURE §3, §5; issue 6): the shortest paths
 * from each way the wizard starts (a new story; a story resumed, with and without credits, hidden),
 * over every event it accepts (its calls' answers, its own timers included), reach every state
 * node where it can rest and take every transition of the definition — back steps, stale
 * marking, per-scene regeneration, cancel and resume among them. Nodes and edges come from the
 * machine itself: one added later that nothing reaches fails here.
 */

type Snapshot = StoryWizardSnapshot;
type Event = StoryWizardMachineEvent;

const machine = storyWizardMachine;
const nodes = getStateNodes(machine.root);

const ELEMENTS_RUNNING = { ...withElements(NEW_BOARD, 'running'), step: 'elements' as const };
const SCENES_RUNNING = { ...withScenes(ELEMENTS_MADE, 'running'), step: 'scenes' as const };
const VIDEOS_RUNNING = { ...withVideos({ ...SCENES_MADE, step: 'scriptboard' }, 'running') };
const SOUND_RUNNING = withSound(VIDEOS_MADE, 'running');
const JOINING = withFilm(VIDEOS_MADE, 'running');

/** A story with every running job ended (done), or failed (as a cancel leaves them). */
const ended = (story: Story, state: 'done' | 'failed'): Story =>
  withJobs(story, Object.fromEntries([...Object.values(story.media), ...(story.concat ? [story.concat] : [])].filter((job) => classifyStatus(job.status) === 'processing').map((job) => [job.id, state])));

/** What each call may answer with, by its actor's name in `setup`; answers about the story follow the story as it is. */
const outputsFor = (src: string, snapshot: Snapshot): readonly unknown[] => {
  const story = snapshot.context.story ?? NEW_BOARD;
  switch (src) {
    case 'loadStory':
      return [buildStory({ step: 'idea' }), NEW_BOARD, ELEMENTS_MADE, { ...SCENES_MADE, step: 'scenes' }, VIDEOS_MADE, FILM_MADE, JOINING, SCENES_RUNNING];
    case 'pollStory':
      return [story, ended(story, 'done'), ended(story, 'failed')];
    case 'createStory':
    case 'saveStory':
      return [NEW_BOARD];
    case 'generate':
      return [{ elements: ELEMENTS_RUNNING, scenes: SCENES_RUNNING, videos: VIDEOS_RUNNING, audio: SOUND_RUNNING }[snapshot.context.request?.part ?? 'elements']];
    case 'concat':
      return [JOINING];
    case 'cancelPart':
      return [ended(story, 'failed')];
    default:
      return [];
  }
};

const errors = [networkError(), httpError(404, 'Failed to find a Story with this id'), httpError(400, 'Nope')];
/** A board edited from an older revision (another tab saved one since): only the calls that send the board are refused so. */
const staleBoard = httpError(412, 'This storyboard was changed in another tab or window since you opened it.');

/** The answers of every call running now: invoked by a state or spawned (the save, the poll). */
const actorEvents = (snapshot: Snapshot): Event[] =>
  Object.entries(snapshot.children as Record<string, AnyActorRef>).flatMap(([id, child]) => {
    const src = typeof child.src === 'string' ? child.src : '';
    return [
      ...outputsFor(src, snapshot).map((output) => ({ type: `xstate.done.actor.${id}`, output })),
      ...errors.map((error) => ({ type: `xstate.error.actor.${id}`, error })),
      ...(src === 'saveStory' || src === 'generate' ? [{ type: `xstate.error.actor.${id}`, error: staleBoard }] : []),
    ] as unknown as Event[];
  });

const IDEA = { idea: 'Mara keeps a lighthouse on a stormy night.', duration: 15, aspect_ratio: '16:9', style: 'cinematic' };

const uiEvents: Event[] = [
  { type: 'story.visibility', hidden: true },
  { type: 'story.visibility', hidden: false },
  { type: 'story.account', user: CREATOR, credit: 500, creditLoading: false },
  { type: 'story.retry' },
  { type: 'idea.submit', fields: IDEA },
  { type: 'idea.rewrite' },
  ...(['idea', 'storyboard', 'elements', 'scenes', 'scriptboard'] as const).map((step) => ({ type: 'step.goto' as const, step })),
  { type: 'step.next' },
  // Stale marking: a changed scene, a changed element.
  { type: 'scene.change', sceneId: 'scene-1', changes: { text: 'Mara climbs slowly.' } },
  { type: 'element.change', elementId: 'el-1', changes: { description: 'an old keeper' } },
  { type: 'scene.move', sceneId: 'scene-2', offset: -1 },
  { type: 'scene.add' },
  { type: 'scene.remove', sceneId: 'scene-2' },
  { type: 'element.add', kind: 'object' },
  { type: 'element.remove', elementId: 'el-2' },
  { type: 'board.settings', changes: { title: 'The lamp' } },
  { type: 'audio.change', changes: { kind: 'speech', text: 'Mara keeps the light.' } },
  { type: 'part.generate', part: 'elements' },
  // Per-scene regeneration.
  { type: 'part.generate', part: 'scenes', ids: ['scene-1'] },
  { type: 'part.generate', part: 'videos' },
  { type: 'audio.generate' },
  { type: 'concat.start' },
  ...(['elements', 'scenes', 'videos', 'audio', 'concat'] as const).map((part) => ({ type: 'part.cancel' as const, part })),
];

/** A part's states as the guards read them: any running, any needing work, every one made (ready or stale). */
const shape = (record: Record<string, StoryPartState>): string => {
  const values = Object.values(record);
  return [
    values.includes('running') ? 'running' : '',
    values.some(needsWork) ? 'work' : '',
    values.every((state) => state === 'ready' || state === 'stale') ? 'made' : '',
  ].join('|');
};

/**
 * The state value plus what the guards read, kept coarse so the graph stays small: the part
 * states as sets, which steps are open, whether edits wait to be saved, the save and the poll on
 * their way, the retry, the balance, the page hidden, the join's status.
 */
const idle = (snapshot: Snapshot): boolean => activePaths(snapshot.value.wizard ?? 'loading').some((path) => path.endsWith('.idle'));

/**
 * The state value plus what the guards read, kept coarse so the graph stays small: the part
 * states as sets, whether the person's changes wait to be saved, the calls on their way (the save,
 * the poll), the join's status, and — where they matter — the retry, the balance, the page hidden.
 */
const serializeState = (snapshot: Snapshot): string => {

  const { context } = snapshot;
  const states = statesOf(context);
  const generating = activePaths(snapshot.value).some((path) => path.includes('generating'));
  // The regions beside the steps (issue 18) stand for what the old flags said: the autosave's
  // state says whether edits wait and a save or merge is on its way, the poller's whether a poll is.
  const key = JSON.stringify({
    value: snapshot.value,
    states: states ? [shape(states.elements), shape(states.sceneImages), shape(states.sceneVideos), shape({ audio: states.audio })] : null,
    concat: context.story?.concat ? classifyStatus(context.story.concat.status) : null,
    dirty: isDirty(context),
    notice: context.notice !== null,
    retry: generating ? context.retryAttempt : null,
    rich: (context.credit ?? 0) >= 100,
  });
  seen.add(key);
  return key;
};
const seen = new Set<string>();

/** The events worth sending here: the person's (where a state takes them), the machine's timers when due, the calls' answers. */
const eventsFor = (snapshot: Snapshot): Event[] => {
  const { context } = snapshot;
  // A notice on screen (a merge after another tab's save) is dismissed before anything else:
  // nothing the person does depends on it, and letting every other event run beside it would
  // double the graph (minutes of traversal for no transition that is not reached without it).
  if (context.notice !== null) return [{ type: 'notice.dismiss' }];
  const own = new Set(activePaths(snapshot.value).flatMap((path) => nodes.find((node) => node.path.join('.') === path)?.ownEvents ?? []));
  // The poller waiting for its next poll (a job is live) is let run first, its page-visibility
  // changes aside: what the person does meanwhile is explored once the poll is on its way, as it
  // was before the poller became a region. Offering everything here too would multiply the graph
  // by the poller's states for no transition that is not reached without it.
  if (snapshot.matches({ poller: 'waiting' } as never)) {
    const pollTimers = [...own].filter((type) => type.startsWith('xstate.after.') && type.includes('poller')).map((type) => ({ type }) as unknown as Event);
    return [...pollTimers, { type: 'story.visibility', hidden: true }, { type: 'story.visibility', hidden: false }];
  }
  const live = hasLiveJobs(context.story);
  const root: Event[] = [
    ...(idle(snapshot) && (live || context.hidden)
      ? [{ type: 'story.visibility', hidden: true } as const, { type: 'story.visibility', hidden: false } as const]
      : []),
    ...(context.credit === 0 && idle(snapshot) ? [{ type: 'story.account', user: CREATOR, credit: 500, creditLoading: false } as const] : []),
    ...(context.error !== null ? [{ type: 'error.dismiss' } as const] : []),
  ];
  const timers = [...own].filter((type) => type.startsWith('xstate.after.')).map((type) => ({ type }) as unknown as Event);
  return [...uiEvents.filter((event) => own.has(event.type)), ...timers, ...root, ...actorEvents(snapshot)];
};

/** Each way the wizard starts. */
const STARTS: Record<string, StoryWizardInput> = {
  fresh: { storyId: null, user: CREATOR, credit: 500 },
  // Without credits until the page sends the balance (story.account): refused, then allowed.
  resumed: { storyId: 'story-1', user: CREATOR, credit: 0 },
};

const graph = machineGraph(machine, { inputs: Object.values(STARTS), events: eventsFor, serializeState });
const adjacency = graph.adjacency;

describe('story wizard paths (xstate/graph)', () => {
  // The steps are the wizard region (issue 18: autosave and the poller are regions beside it), so
  // a step's full path starts with `wizard.`; the autosave and poller states are reached too.
  itVisitsEveryState(graph, {
    title: 'reaches every state node where the wizard can rest',
    atLeast: 40,
    decisions: [
      'done.generating.checkingCredit',
      'elements.generating.checkingCredit',
      'scenes.generating.checkingCredit',
      'scriptboard.generating.checkingCredit',
    ].map((path) => `wizard.${path}`),
    timeout: 300_000,
  });

  itTakesEveryTransition(graph, { atLeast: 150, timeout: 300_000 });

  it('never sends a paid call without the credit check passing', () => {
    let sends = 0;
    for (const steps of adjacency) {
      for (const { state, event, nextState } of steps) {
        const before = state as Snapshot;
        const after = nextState as Snapshot;
        const submitting = (snapshot: Snapshot) => activePaths(snapshot.value).some((path) => path.endsWith('generating.submitting'));
        const waiting = (snapshot: Snapshot) => activePaths(snapshot.value).some((path) => path.endsWith('generating.waitingForSave'));
        if ((submitting(after) || waiting(after)) && !submitting(before) && !waiting(before)) {
          if (activePaths(before.value).some((path) => path.endsWith('generating.retrying'))) continue;
          sends += 1;
          expect((before.context.credit ?? 0) >= (after.context.request?.cost ?? 0)).toBe(true);
        }
        // The poor start is refused at once, without a call.
        if (before.context.credit === 0 && (event.type === 'part.generate' || event.type === 'audio.generate') && after.context.request?.cost) {
          expect(submitting(after) || waiting(after)).toBe(false);
        }
      }
    }
    expect(sends).toBeGreaterThan(0);
  });

  it('regenerating one scene asks for that scene only', () => {
    const regenerations = adjacency
      .flat()
      .filter(({ event, nextState }) => event.type === 'part.generate' && event.part === 'scenes' && (nextState as Snapshot).context.request?.part === 'scenes');
    expect(regenerations.length).toBeGreaterThan(0);
    for (const { nextState } of regenerations) expect((nextState as Snapshot).context.request?.ids).toEqual(['scene-1']);
  });

  it('going back never changes the board or the story', () => {
    const backs = adjacency
      .flat()
      .filter(({ event, state, nextState }) => event.type === 'step.goto' && (state as Snapshot).value !== (nextState as Snapshot).value);
    expect(backs.length).toBeGreaterThan(10);
    for (const { state, nextState } of backs) {
      expect((nextState as Snapshot).context.board).toBe((state as Snapshot).context.board);
      expect((nextState as Snapshot).context.story).toBe((state as Snapshot).context.story);
    }
  });
});
