import { beforeAll, describe, expect, it } from 'vitest';
import { fromCallback, fromPromise, type AnyActorRef } from 'xstate';
import { getStateNodes } from 'xstate/graph';
import { classifyStatus } from '@/lib/job-status';
import { storyWizardMachine } from '@/machines/story/story-wizard.machine';
import { storyExportMachine } from '@/machines/story/story-export.machine';
import { isDirty, statesOf } from '@/machines/story/story-wizard.rules';
import type { Story, Storyboard } from '@/machines/story/story-wizard.machine';
import { hasLiveJobs } from '@/machines/story/story-board';
import { needsWork } from '@/lib/story';
import { TAKE_PARTS, takeSlot, undoTakeOf } from '@/lib/story-takes';
import type { StoryPartState } from '@/lib/story';
import type { StoryWizardInput, StoryWizardMachineEvent } from '@/machines/story/story-wizard.machine';
import type { StoryWizardSnapshot } from '@/machines/story/story-wizard.selectors';
import type { PaidRequestOutput } from '@/machines/paid-request/paid-request.machine';
import { errorMessageOf } from '@/services/api-error';
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
  withRetake,
  withVideos,
} from './story.fixtures';
import { CREATOR, httpError, networkError } from '../generation-job/generation-job.fixtures';
import { activePaths, isDecision, machineGraph } from '../../helpers/graph-coverage';
import { paidChildOf } from '../../helpers/paid-child';

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

/** The export's side effects (a file offered to save, the zip's downloads) are story-export.machine.test's: here only the wizard's edges. */
const machine = storyWizardMachine.provide({
  actions: { saveExportFile: () => undefined },
  actors: {
    storyExport: storyExportMachine.provide({
      actors: { fetchFile: fromCallback(() => undefined), saveZip: fromPromise(async () => '') },
    }),
  },
});
/** The wizard's state nodes by dotted path (the walk looks its active ones up at every step). */
const nodes = new Map(getStateNodes(machine.root).map((node) => [node.path.join('.'), node]));

const ELEMENTS_RUNNING = { ...withElements(NEW_BOARD, 'running'), step: 'elements' as const };
const SCENES_RUNNING = { ...withScenes(ELEMENTS_MADE, 'running'), step: 'scenes' as const };
const VIDEOS_RUNNING = { ...withVideos({ ...SCENES_MADE, step: 'scriptboard' }, 'running') };
const SOUND_RUNNING = withSound(VIDEOS_MADE, 'running');
const JOINING = withFilm(VIDEOS_MADE, 'running');
/** The film made, then an element picture, a scene picture and a video made again: a take to choose on every step that shows them. */
const RETAKEN = withRetake(withRetake(withRetake(FILM_MADE, 'elements', 'el-1'), 'scenes', 'scene-1'), 'videos', 'scene-2');

/** A story with every running job ended (done), or failed (as a cancel leaves them). */
const ended = (story: Story, state: 'done' | 'failed'): Story =>
  withJobs(story, Object.fromEntries([...Object.values(story.media), ...(story.concat ? [story.concat] : [])].filter((job) => classifyStatus(job.status) === 'processing').map((job) => [job.id, state])));

/** What each call may answer with, by its actor's name in `setup`; answers about the story follow the story as it is. */
const outputsFor = (src: string, snapshot: Snapshot): readonly unknown[] => {
  const story = snapshot.context.story ?? NEW_BOARD;
  switch (src) {
    case 'loadStory':
      return [buildStory({ step: 'idea' }), NEW_BOARD, ELEMENTS_MADE, { ...SCENES_MADE, step: 'scenes' }, VIDEOS_MADE, FILM_MADE, JOINING, SCENES_RUNNING, RETAKEN];
    // A take chosen: the story as it is (its other takes still there to choose).
    case 'chooseTake':
      return [story];
    case 'createStory':
    case 'saveStory':
      return [NEW_BOARD];
    case 'concat':
      return [JOINING];
    case 'cancelPart':
      return [ended(story, 'failed')];
    default:
      return [];
  }
};

/** What the poller child may send back: the story as it is, or with its running jobs ended or failed. */
const polled = (story: Story): Event[] => [story, ended(story, 'done'), ended(story, 'failed')].map((answer) => ({ type: 'story.polled', story: answer }));

const errors = [networkError(), httpError(404, 'Failed to find a Story with this id'), httpError(400, 'Nope')];
/** A board edited from an older revision (another tab saved one since): only the calls that send the board are refused so. */
const staleBoard = httpError(412, 'This storyboard was changed in another tab or window since you opened it.');

/**
 * The children (story-poller, story-autosave) have graph tests of their own: what they send the wizard is `polled` and `autosaveEvents` below.
 * The export's zip child (story-export.machine.test) tells the wizard nothing.
 */
const CHILDREN = ['storyPoller', 'storyAutosave', 'storyExport'];

/**
 * What the paid child may end with (its own states are its own tests'): its refusal when its
 * credit check refused (it ends at once, having sent nothing), else the story with the new jobs, or
 * a failure after its retries — a board refused as stale among them.
 */
const paidOutcomes = (snapshot: Snapshot): PaidRequestOutput[] => {
  const paid = paidChildOf(snapshot);
  if (paid?.status === 'done' && paid.output) return [paid.output];
  const answer = { elements: ELEMENTS_RUNNING, scenes: SCENES_RUNNING, videos: VIDEOS_RUNNING, audio: SOUND_RUNNING }[snapshot.context.request?.part ?? 'elements'];
  return [
    { outcome: 'done', answer, idempotencyKey: 'key-1' },
    ...[...errors, staleBoard].map((error) => ({ outcome: 'failed' as const, error, message: errorMessageOf(error) })),
  ];
};

/** The answers of every call running now (invoked by a state). */
const actorEvents = (snapshot: Snapshot): Event[] =>
  Object.entries(snapshot.children as Record<string, AnyActorRef>).flatMap(([id, child]) => {
    const src = typeof child.src === 'string' ? child.src : '';
    if (CHILDREN.includes(src)) return [];
    if (src === 'generate') return paidOutcomes(snapshot).map((output) => ({ type: `xstate.done.actor.${id}`, output })) as unknown as Event[];
    return [
      ...outputsFor(src, snapshot).map((output) => ({ type: `xstate.done.actor.${id}`, output })),
      ...errors.map((error) => ({ type: `xstate.error.actor.${id}`, error })),
    ] as unknown as Event[];
  });

/**
 * What the autosave child may tell the wizard: its time to save has come, it started a save or a merge's read (also after a paid call refused as stale, which
 * leaves an error on screen), and that save or read ended: saved, failed, or merged with the story
 * as it is, or with its running jobs ended or failed.
 */
const autosaveEvents = (snapshot: Snapshot): Event[] => {
  const { context } = snapshot;
  if (context.saving) {
    const story = context.story ?? NEW_BOARD;
    return [
      { type: 'autosave.saved', story: NEW_BOARD },
      { type: 'autosave.failed', message: 'Nope' },
      ...[story, ended(story, 'done'), ended(story, 'failed')].map((answer) => ({ type: 'autosave.merged' as const, story: answer })),
    ];
  }
  return [
    // Due with edits to send, or with nothing left to send (they went with a paid call meanwhile).
    { type: 'autosave.due' } as const,
    ...(isDirty(context) || context.error !== null ? [{ type: 'autosave.saving' } as const] : []),
  ];
};

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
  // Takes (issue 21): one picked, the last regeneration undone, on each step that shows them.
  { type: 'take.select', part: 'elements', partId: 'el-1', mediaId: 'img-el-1' },
  { type: 'take.undo', part: 'elements', partId: 'el-1' },
  { type: 'take.select', part: 'scenes', partId: 'scene-1', mediaId: 'pic-scene-1' },
  { type: 'take.undo', part: 'scenes', partId: 'scene-1' },
  { type: 'take.select', part: 'videos', partId: 'scene-2', mediaId: 'vid-scene-2' },
  { type: 'take.undo', part: 'videos', partId: 'scene-2' },
  // The autosave's answer to the hold a paid call or a rewrite asks for (where a state waits for it).
  { type: 'autosave.held' },
];

/** Whether any part of the board has a regeneration to undo. */
const hasUndo = (board: Storyboard): boolean =>
  TAKE_PARTS.some((part) =>
    (part === 'elements' ? board.elements : board.scenes).some((item) => {
      const slot = takeSlot(board, part, item.id);
      return slot !== null && undoTakeOf(slot) !== null;
    }),
  );

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
const idle = (snapshot: Snapshot): boolean => activePaths(snapshot.value).some((path) => path.endsWith('.idle'));

/**
 * The state value plus what the guards read, kept coarse so the graph stays small: the part
 * states as sets, whether the person's changes wait to be saved, the calls on their way (the save,
 * the poll), the join's status, and — where they matter — the retry, the balance, the page hidden.
 */
const serializeState = (snapshot: Snapshot): string => {

  const { context } = snapshot;
  const states = statesOf(context);
  const key = JSON.stringify({
    value: snapshot.value,
    states: states ? [shape(states.elements), shape(states.sceneImages), shape(states.sceneVideos), shape({ audio: states.audio })] : null,
    concat: context.story?.concat ? classifyStatus(context.story.concat.status) : null,
    dirty: isDirty(context),
    saving: context.saving,
    notice: context.notice !== null,
    rich: (context.credit ?? 0) >= 100,
    // A story with takes to choose is another graph than one without (the take events' guards read them).
    takes: context.board !== null && hasUndo(context.board),
  });
  return key;
};

const EXPORT_EVENTS: Event[] = [{ type: 'export.file', format: 'otio' }, { type: 'export.zip' }, { type: 'export.retry' }, { type: 'export.cancel' }];

/** The events worth sending here: the person's (where a state takes them), the machine's timers when due, the calls' answers. */
const eventsFor = (snapshot: Snapshot): Event[] => {
  const { context } = snapshot;
  // A notice on screen (a merge after another tab's save) is dismissed before anything else:
  // nothing the person does depends on it, and letting every other event run beside it would
  // double the graph (minutes of traversal for no transition that is not reached without it).
  if (context.notice !== null) return [{ type: 'notice.dismiss' }];
  const own = new Set(activePaths(snapshot.value).flatMap((path) => nodes.get(path)?.ownEvents ?? []));
  const live = hasLiveJobs(context.story);
  const root: Event[] = [
    ...(idle(snapshot) && (live || context.hidden)
      ? [{ type: 'story.visibility', hidden: true } as const, { type: 'story.visibility', hidden: false } as const]
      : []),
    ...(context.credit === 0 && idle(snapshot) ? [{ type: 'story.account', user: CREATOR, credit: 500, creditLoading: false } as const] : []),
    ...(context.error !== null ? [{ type: 'error.dismiss' } as const] : []),
    // Export for editing, where the film's parts may exist (offered there, refused before).
    ...(idle(snapshot) && (snapshot.matches('scriptboard') || snapshot.matches('done')) ? EXPORT_EVENTS : []),
    ...autosaveEvents(snapshot),
    // The poller's reads (its own waits, failures and time-outs are its graph test's): while a job is live and the page is shown.
    ...(live && !context.hidden ? polled(context.story ?? NEW_BOARD) : []),
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

/** One walk of the graph from both starts: the shortest paths, the steps and the edges taken come from it (tests/helpers/graph-coverage.ts). */
const graph = machineGraph(machine, { inputs: Object.values(STARTS), events: eventsFor, serializeState });

describe('story wizard paths (xstate/graph)', () => {
  // The walk (tens of thousands of steps) runs once, before the tests that read it.
  beforeAll(() => {
    expect(graph.paths.length).toBeGreaterThan(0);
  }, 120_000);

  it('reaches every state node where the wizard can rest', () => {
    const reached = new Set(graph.paths.flatMap((path) => activePaths(path.state.value)));
    const resting = graph.nodes.filter((node) => !isDecision(node)).map((node) => node.path.join('.'));
    expect(resting.filter((path) => !reached.has(path))).toEqual([]);
    // Each paid step's generating is one node now (its waiting, submitting and retrying are the paid-request child's).
    expect(resting.length).toBeGreaterThan(35);
    // The credit check before a paid call is the paid-request child's now (its own tests).
    expect(graph.nodes.filter(isDecision).map((node) => node.path.join('.')).sort()).toEqual([]);
  });

  it('takes every transition of the machine', () => {
    // The starts' own edges (a new story skips loading) are among them.
    const { taken, defined } = graph;
    expect([...defined].filter((edge) => !taken.has(edge)).sort()).toEqual([]);
    expect(defined.size).toBeGreaterThan(150);
  });

  it('never sends a paid call without the credit check passing', () => {
    let sends = 0;
    let refusals = 0;
    for (const { state, event, nextState } of graph.adjacency.flat()) {
      const before = state as Snapshot;
      const after = nextState as Snapshot;
      if ((event.type !== 'part.generate' && event.type !== 'audio.generate') || !activePaths(after.value).some((path) => path.endsWith('.generating'))) continue;
      // The paid child was handed the balance the page showed and the request's cost.
      const paid = paidChildOf(after);
      const cost = after.context.request?.cost ?? 0;
      expect(paid?.context).toMatchObject({ cost, credit: before.context.credit });
      if ((before.context.credit ?? 0) >= cost) {
        // Affordable: it waits for the autosave to be held, then sends.
        sends += 1;
        expect(paid?.value).toBe('waiting');
      } else {
        // The poor start is refused at once, without a call.
        refusals += 1;
        expect(paid?.value).toBe('refused');
      }
    }
    expect(sends).toBeGreaterThan(0);
    expect(refusals).toBeGreaterThan(0);
    // A refusal comes back to the step's idle with its words.
    const refused = graph.adjacency.flat().filter(({ event }) => {
      const done = event as unknown as { type: string; output?: PaidRequestOutput };
      return done.type === 'xstate.done.actor.paidRequest' && done.output?.outcome === 'refused';
    });
    expect(refused.length).toBeGreaterThan(0);
    for (const { nextState } of refused) {
      expect(activePaths((nextState as Snapshot).value).some((path) => path.endsWith('.idle'))).toBe(true);
      expect((nextState as Snapshot).context.error).toMatch(/^Not enough credits: this step costs \d+ credits and you have 0\.$/);
    }
  });

  it('regenerating one scene asks for that scene only', () => {
    const regenerations = graph.adjacency
      .flat()
      .filter(({ event, nextState }) => event.type === 'part.generate' && event.part === 'scenes' && (nextState as Snapshot).context.request?.part === 'scenes');
    expect(regenerations.length).toBeGreaterThan(0);
    for (const { nextState } of regenerations) expect((nextState as Snapshot).context.request?.ids).toEqual(['scene-1']);
  });

  it('going back never changes the board or the story', () => {
    const backs = graph.adjacency
      .flat()
      .filter(({ event, state, nextState }) => event.type === 'step.goto' && (state as Snapshot).value !== (nextState as Snapshot).value);
    expect(backs.length).toBeGreaterThan(10);
    for (const { state, nextState } of backs) {
      expect((nextState as Snapshot).context.board).toBe((state as Snapshot).context.board);
      expect((nextState as Snapshot).context.story).toBe((state as Snapshot).context.story);
    }
  });
});
