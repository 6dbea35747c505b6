import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Mock } from 'vitest';
import { shallowEqual } from '@xstate/react';
import { createActor, fromPromise } from 'xstate';
import type { ActorRefFrom, StateValue } from 'xstate';
import { JOB_REQUEST_TIMEOUT_MS } from '@/config/limits';
import { STORY_TOOLS, type StoryPart } from '@/config/story';
import { audioSource } from '@/lib/story';
import type { CreateStoryFields, SaveStoryFields } from '@/services/story';
import { storyAutosaveMachine } from '@/machines/story/story-autosave.machine';
import { storyPollerMachine } from '@/machines/story/story-poller.machine';
import { storyWizardMachine, STORY_SAVE_DEBOUNCE_MS, STORY_SUBMIT_RETRIES } from '@/machines/story/story-wizard.machine';
import type { Story, Storyboard, StoryPaidRequest, StoryRequestPart, StoryWizardEmitted, StoryWizardInput } from '@/machines/story/story-wizard.machine';
import { paidRequestWith } from '@/machines/paid-request/paid-request.machine';
import {
  selectActiveStep,
  selectAudioCost,
  selectConcatProblem,
  selectFinalFilm,
  selectPartCost,
  selectPartView,
  selectReachableSteps,
  selectSaveState,
  selectStepStatuses,
  selectStoryTitle,
  selectStoryView,
  selectWizardState,
  sameStepStatuses,
} from '@/machines/story/story-wizard.selectors';
import {
  buildStory,
  buildStoryJob,
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
import { CREATOR, DEVELOPER, httpError, networkError } from '../generation-job/generation-job.fixtures';
import { paidChildOf } from '../../helpers/paid-child';

/** The wizard's calls, as mocks each test scripts. */
interface StoryServer {
  load: Mock<(id: string) => Promise<Story>>;
  poll: Mock<(id: string) => Promise<Story>>;
  create: Mock<(fields: CreateStoryFields) => Promise<Story>>;
  save: Mock<(id: string, fields: SaveStoryFields) => Promise<Story>>;
  generate: Mock<(id: string, part: StoryRequestPart, board: Storyboard, ids: string[], key: string, revision: string) => Promise<Story>>;
  concat: Mock<(id: string, videoUrls: string[], audioUrls: string[]) => Promise<Story>>;
  cancel: Mock<(id: string, part: StoryPart) => Promise<Story>>;
}

function buildServer(): StoryServer {
  return {
    load: vi.fn(async () => NEW_BOARD),
    poll: vi.fn(async () => NEW_BOARD),
    create: vi.fn(async () => NEW_BOARD),
    save: vi.fn(async (_id: string, fields: SaveStoryFields) => ({ ...NEW_BOARD, ...(fields.storyboard ? { storyboard: fields.storyboard } : {}) })),
    generate: vi.fn(async () => NEW_BOARD),
    concat: vi.fn(async () => withFilm(VIDEOS_MADE, 'running')),
    cancel: vi.fn(async () => NEW_BOARD),
  };
}

let server = buildServer();

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2025-01-01T10:00:00.000Z'));
  server = buildServer();
  // A retry waits a full-jitter delay (0 up to its ceiling): a draw near 0 would send it again
  // inside the same flush, so the draw is fixed mid-range and each test sees one retry at a time.
  vi.spyOn(Math, 'random').mockReturnValue(0.5);
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const machineFor = (calls: StoryServer) =>
  storyWizardMachine.provide({
    actors: {
      loadStory: fromPromise<Story, { id: string }>(({ input }) => calls.load(input.id)),
      createStory: fromPromise<Story, CreateStoryFields>(({ input }) => calls.create(input)),
      saveStory: fromPromise<Story, { id: string; fields: SaveStoryFields }>(({ input }) => calls.save(input.id, input.fields)),
      // The paid-request child, its call answered by `server`.
      generate: paidRequestWith<StoryPaidRequest, Story>(({ request, idempotencyKey }) =>
        calls.generate(request.id, request.part, request.board, request.ids, idempotencyKey, request.revision),
      ).provide({ delays: { retryDelay: 500 } }),
      concat: fromPromise<Story, { id: string; videoUrls: string[]; audioUrls: string[] }>(({ input }) =>
        calls.concat(input.id, input.videoUrls, input.audioUrls),
      ),
      cancelPart: fromPromise<Story, { id: string; part: StoryPart }>(({ input }) => calls.cancel(input.id, input.part)),
      // The merge's read after a 412 is the same GET story/{id} as the poller's.
      storyAutosave: storyAutosaveMachine.provide({
        actors: {
          saveStory: fromPromise<Story, { id: string; fields: SaveStoryFields }>(({ input }) => calls.save(input.id, input.fields)),
          readStory: fromPromise<Story, { id: string }>(({ input }) => calls.poll(input.id)),
        },
        delays: { saveRetryDelay: 2000 },
      }),
      storyPoller: storyPollerMachine.provide({
        actors: { pollStory: fromPromise<Story, { id: string }>(({ input }) => calls.poll(input.id)) },
        delays: { pollDelay: 1000 },
      }),
    },
  });

function start(input: Partial<StoryWizardInput> = {}) {
  const actor = createActor(machineFor(server), { input: { storyId: 'story-1', user: CREATOR, credit: 500, ...input } });
  const emitted: StoryWizardEmitted[] = [];
  actor.on('*', (event) => emitted.push(event));
  actor.start();
  return { actor, emitted };
}

type Actor = ReturnType<typeof start>['actor'];
const flush = () => vi.advanceTimersByTimeAsync(0);
/** The wizard is in this (nested) state; the steps are built by a factory, so their values are not typed one by one. */
const inState = (actor: Actor, value: StateValue): boolean => actor.getSnapshot().matches(value as never);
const view = (actor: Actor) => selectStoryView(actor.getSnapshot())!;
/** Failed reads in a row, as the wizard's poller child counts them. */
const pollErrors = (actor: Actor): number => (actor.system.get('storyPoller') as ActorRefFrom<typeof storyPollerMachine>).getSnapshot().context.errors;
const wizard = (actor: Actor) => selectWizardState(actor.getSnapshot());
/** The step state's child path, e.g. "elements.generating.retrying" (the steps' sub-states are built by a helper, so untyped). */
const at = (actor: Actor, path: string): boolean => JSON.stringify(actor.getSnapshot().value) === JSON.stringify(pathValue(path));
/** Where the paid call of a step's `generating` is (the paid-request child's state). */
const paidStage = (actor: Actor): unknown => paidChildOf(actor.getSnapshot())?.value;
const pathValue = (path: string): unknown => path.split('.').reduceRight<unknown>((inner, key) => (inner === undefined ? key : { [key]: inner }), undefined);

async function resume(story: Story, input: Partial<StoryWizardInput> = {}) {
  server.load.mockResolvedValue(story);
  server.poll.mockResolvedValue(story);
  const started = start(input);
  await flush();
  return started;
}

describe('a new story', () => {
  it('starts at the idea, writes the storyboard with POST story and announces the new id', async () => {
    server.create.mockResolvedValue(NEW_BOARD);
    const { actor, emitted } = start({ storyId: null });
    expect(wizard(actor)).toBe('idea');
    expect(selectStoryView(actor.getSnapshot())).toBeNull();
    // Too short: refused without a call.
    actor.send({ type: 'idea.submit', fields: { idea: 'short', duration: 15, aspect_ratio: '16:9', style: 'cinematic' } });
    expect(inState(actor, { idea: 'idle' })).toBe(true);
    actor.send({
      type: 'idea.submit',
      fields: { idea: '  Mara keeps a lighthouse.  ', duration: 15, aspect_ratio: '16:9', style: 'cinematic', image_urls: ['http://localhost/api/files/ref.png'] },
    });
    expect(inState(actor, { idea: 'creating' })).toBe(true);
    await flush();
    expect(server.create).toHaveBeenCalledWith({
      idea: 'Mara keeps a lighthouse.',
      duration: 15,
      aspect_ratio: '16:9',
      style: 'cinematic',
      image_urls: ['http://localhost/api/files/ref.png'],
    });
    expect(wizard(actor)).toBe('storyboard');
    expect(emitted).toEqual([{ type: 'story.created', id: 'story-1' }]);
    expect(view(actor)).toMatchObject({ id: 'story-1', title: 'The keeper', saveState: 'saved', busy: null });
    expect(view(actor).reachable).toEqual({ idea: true, storyboard: true, elements: true, scenes: false, scriptboard: false });
  });

  it('shows why the storyboard could not be written and stays at the idea', async () => {
    server.create.mockRejectedValue(httpError(400, 'The idea is too short.'));
    const { actor } = start({ storyId: null });
    actor.send({ type: 'idea.submit', fields: { idea: 'Mara keeps a lighthouse.', duration: 15, aspect_ratio: '16:9', style: 'cinematic' } });
    await flush();
    expect(inState(actor, { idea: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.error).toBe('The idea is too short.');
    actor.send({ type: 'error.dismiss' });
    expect(actor.getSnapshot().context.error).toBeNull();
  });
});

describe('resuming from the server’s story', () => {
  it.each([
    ['storyboard', NEW_BOARD, 'storyboard'],
    ['elements', ELEMENTS_MADE, 'elements'],
    ['scenes', { ...SCENES_MADE, step: 'scenes' as const }, 'scenes'],
    ['scriptboard', VIDEOS_MADE, 'scriptboard'],
    ['done', FILM_MADE, 'done'],
    ['a live join', withFilm(VIDEOS_MADE, 'running'), 'concatenating'],
  ])('opens at %s', async (_, story, state) => {
    const { actor } = await resume(story);
    expect(server.load).toHaveBeenCalledWith('story-1');
    expect(wizard(actor)).toBe(state);
    expect(view(actor).saveState).toBe('saved');
  });

  it('falls back to the last step that can be reached', async () => {
    // Recorded at scenes, but an element's picture failed: elements is the furthest step open.
    const { actor } = await resume({ ...withElements(buildStory(), 'failed'), step: 'scenes' });
    expect(wizard(actor)).toBe('elements');
  });

  it('says the story was not found on a 404, and another failure with its reason; retry loads again', async () => {
    server.load.mockRejectedValueOnce(httpError(404, 'Failed to find a Story with this id'));
    const { actor } = start();
    await flush();
    expect(wizard(actor)).toBe('notFound');
    server.load.mockRejectedValueOnce(httpError(500, 'The database is resting.'));
    actor.send({ type: 'story.retry' });
    await flush();
    expect(wizard(actor)).toBe('loadFailed');
    expect(actor.getSnapshot().context.error).toBe('The database is resting.');
    actor.send({ type: 'story.retry' });
    await flush();
    expect(wizard(actor)).toBe('storyboard');
  });

  it('resumes into scenes with a live job and polls until it ends', async () => {
    const live = { ...withScenes(ELEMENTS_MADE, 'running'), step: 'scenes' as const };
    const { actor, emitted } = await resume(live);
    expect(wizard(actor)).toBe('scenes');
    expect(view(actor).running).toEqual({ elements: 0, scenes: 2, videos: 0, audio: 0, concat: 0 });
    expect(server.poll).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.poll).toHaveBeenCalledWith('story-1');
    server.poll.mockResolvedValue(withJobs(live, { 'pic-scene-1': 'done', 'pic-scene-2': 'done' }));
    await vi.advanceTimersByTimeAsync(1000);
    expect(view(actor).states.sceneImages).toEqual({ 'scene-1': 'ready', 'scene-2': 'ready' });
    expect(view(actor).reachable.scriptboard).toBe(true);
    // The jobs ended: refunds or not, the balance is fetched again; no more polls.
    expect(emitted).toEqual([{ type: 'story.creditsChanged' }]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.poll).toHaveBeenCalledTimes(2);
  });
});

describe('polling', () => {
  const live = { ...withScenes(ELEMENTS_MADE, 'running'), step: 'scenes' as const };

  it('pauses while the page is hidden and polls at once when shown', async () => {
    const { actor } = await resume(live, { hidden: true });
    expect(view(actor).paused).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.poll).not.toHaveBeenCalled();
    actor.send({ type: 'story.visibility', hidden: false });
    await flush();
    expect(server.poll).toHaveBeenCalledTimes(1);
    actor.send({ type: 'story.visibility', hidden: true });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.poll).toHaveBeenCalledTimes(1);
  });

  it('backs off while polls fail, and gives up a poll that hangs', async () => {
    const { actor } = await resume(live);
    server.poll.mockRejectedValue(networkError());
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.poll).toHaveBeenCalledTimes(1);
    expect(pollErrors(actor)).toBe(1);
    server.poll.mockImplementationOnce(() => new Promise(() => {}));
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.poll).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(JOB_REQUEST_TIMEOUT_MS);
    expect(pollErrors(actor)).toBe(2);
    server.poll.mockResolvedValue(live);
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.poll).toHaveBeenCalledTimes(3);
    expect(pollErrors(actor)).toBe(0);
  });
});

describe('moving between steps', () => {
  it('goes back without losing later work, and forward only where the work allows', async () => {
    const { actor } = await resume(VIDEOS_MADE);
    expect(wizard(actor)).toBe('scriptboard');
    actor.send({ type: 'step.goto', step: 'storyboard' });
    expect(wizard(actor)).toBe('storyboard');
    actor.send({ type: 'step.goto', step: 'idea' });
    expect(wizard(actor)).toBe('idea');
    expect(selectActiveStep(actor.getSnapshot())).toBe('idea');
    // Everything made is still there and still ready.
    expect(view(actor).states).toEqual({
      elements: { 'el-1': 'ready', 'el-2': 'ready' },
      sceneImages: { 'scene-1': 'ready', 'scene-2': 'ready' },
      sceneVideos: { 'scene-1': 'ready', 'scene-2': 'ready' },
      audio: 'ready',
    });
    actor.send({ type: 'step.goto', step: 'scriptboard' });
    expect(wizard(actor)).toBe('scriptboard');
    // Each step is saved as the person arrives; what is saved last is where they are.
    await vi.advanceTimersByTimeAsync(STORY_SAVE_DEBOUNCE_MS);
    await flush();
    expect(server.save).toHaveBeenLastCalledWith('story-1', { step: 'scriptboard' });
    expect(view(actor).saveState).toBe('saved');
  });

  it('refuses a later step that cannot be reached yet', async () => {
    const { actor } = await resume(NEW_BOARD);
    expect(actor.getSnapshot().can({ type: 'step.goto', step: 'scenes' })).toBe(false);
    actor.send({ type: 'step.goto', step: 'scenes' });
    expect(wizard(actor)).toBe('storyboard');
    actor.send({ type: 'step.next' });
    expect(wizard(actor)).toBe('elements');
    actor.send({ type: 'step.next' });
    expect(wizard(actor)).toBe('elements');
  });

  it('saves the step the person is on as soon as they arrive (a reload right after resumes there)', async () => {
    const { actor } = await resume(NEW_BOARD);
    actor.send({ type: 'step.next' });
    await vi.advanceTimersByTimeAsync(0);
    expect(server.save).toHaveBeenCalledWith('story-1', { step: 'elements' });
    await flush();
    expect(view(actor).saveState).toBe('saved');
  });
});

describe('editing', () => {
  it('keeps the narrow views (title, steps, badges) equal while a scene’s words change, so the page around the scene is not drawn again', async () => {
    const { actor } = await resume(VIDEOS_MADE);
    actor.send({ type: 'step.goto', step: 'storyboard' });
    const before = actor.getSnapshot();
    actor.send({ type: 'scene.change', sceneId: 'scene-1', changes: { text: 'Mara climbs the stairs.' } });
    const typed = actor.getSnapshot();
    // The view itself changed (the board did), the title did not.
    expect(selectStoryView(typed)).not.toBe(selectStoryView(before));
    expect(selectStoryTitle(typed)).toBe(selectStoryTitle(before));
    expect(selectStoryTitle(typed)).toBe(VIDEOS_MADE.storyboard.title);
    expect(shallowEqual(selectReachableSteps(typed), selectReachableSteps(before))).toBe(true);
    expect(selectSaveState(typed)).toBe(selectStoryView(typed)!.saveState);
    // The first change of the scene makes its picture and video stale: the badges change once…
    expect(sameStepStatuses(selectStepStatuses(typed), selectStepStatuses(before))).toBe(false);
    expect(selectStepStatuses(typed)).toMatchObject({ scenes: { running: 0, stale: 1 }, scriptboard: { running: 0, stale: 1 } });
    // …and not again for the next key.
    actor.send({ type: 'scene.change', sceneId: 'scene-1', changes: { text: 'Mara climbs the stairs!' } });
    expect(sameStepStatuses(selectStepStatuses(actor.getSnapshot()), selectStepStatuses(typed))).toBe(true);
  });

  it('marks a changed scene’s picture and video stale and nothing else', async () => {
    const { actor } = await resume(VIDEOS_MADE);
    actor.send({ type: 'step.goto', step: 'storyboard' });
    actor.send({ type: 'scene.change', sceneId: 'scene-2', changes: { text: 'Mara lights the lamp at dawn.' } });
    expect(view(actor).states).toEqual({
      elements: { 'el-1': 'ready', 'el-2': 'ready' },
      sceneImages: { 'scene-1': 'ready', 'scene-2': 'stale' },
      sceneVideos: { 'scene-1': 'ready', 'scene-2': 'stale' },
      audio: 'ready',
    });
    // Nothing was removed: the stale parts are still named, still playable.
    expect(view(actor).board.scenes[1]!.video?.media_id).toBe('vid-scene-2');
    expect(selectPartView(actor.getSnapshot(), 'vid-scene-2')).toMatchObject({ status: 'done', url: 'http://localhost/api/files/vid-scene-2.mp4' });
  });

  it('marks everything downstream of a changed element stale', async () => {
    const { actor } = await resume(VIDEOS_MADE);
    actor.send({ type: 'step.goto', step: 'elements' });
    actor.send({ type: 'element.change', elementId: 'el-2', changes: { description: 'on a rock in the sea' } });
    expect(view(actor).states).toMatchObject({
      elements: { 'el-1': 'ready', 'el-2': 'stale' },
      // scene-2 does not show the lighthouse.
      sceneImages: { 'scene-1': 'stale', 'scene-2': 'ready' },
      sceneVideos: { 'scene-1': 'stale', 'scene-2': 'ready' },
    });
    // Stale pictures still open the later steps.
    expect(view(actor).reachable.scriptboard).toBe(true);
  });

  it('lets the narration follow a changed scene\'s words, so the sound made from the old ones goes stale (issue 17)', async () => {
    const board = VIDEOS_MADE.storyboard;
    // A narration as the storyboard writes it: the scenes' words in order, made into a sound.
    const audio = { kind: 'speech' as const, text: board.scenes.map((scene) => scene.text).join(' '), voice: 'Rachel', track: null };
    const story = {
      ...VIDEOS_MADE,
      storyboard: { ...board, audio: { ...audio, track: { media_id: 'snd-1', source: audioSource(audio) } } },
      media: { ...VIDEOS_MADE.media, 'snd-1': buildStoryJob('snd-1', STORY_TOOLS.audio, 'done') },
    };
    const { actor } = await resume(story);
    expect(view(actor).states.audio).toBe('ready');
    actor.send({ type: 'scene.change', sceneId: 'scene-2', changes: { text: 'The storm breaks.' } });
    expect(view(actor).board.audio.text).toBe('Mara climbs the lighthouse. The storm breaks.');
    expect(view(actor).states.audio).toBe('stale');
    // A narration the person wrote keeps their words; a changed scene's old words in it are replaced.
    actor.send({ type: 'audio.change', changes: { text: 'Listen. The storm breaks. Silence.' } });
    actor.send({ type: 'scene.change', sceneId: 'scene-2', changes: { text: 'The lamp goes out.' } });
    expect(view(actor).board.audio.text).toBe('Listen. The lamp goes out. Silence.');
  });

  it('debounces saves of edits, and an edit during a save is saved after it', async () => {
    const { actor } = await resume(NEW_BOARD);
    actor.send({ type: 'scene.change', sceneId: 'scene-1', changes: { shot: 'aerial' } });
    expect(view(actor).saveState).toBe('unsaved');
    await vi.advanceTimersByTimeAsync(500);
    actor.send({ type: 'scene.change', sceneId: 'scene-1', changes: { duration: 6 } });
    await vi.advanceTimersByTimeAsync(500);
    expect(server.save).not.toHaveBeenCalled();
    let release!: (story: Story) => void;
    server.save.mockImplementationOnce(() => new Promise((resolve) => (release = resolve)));
    await vi.advanceTimersByTimeAsync(300);
    expect(server.save).toHaveBeenCalledTimes(1);
    expect(server.save.mock.calls[0]![1].storyboard!.scenes[0]).toMatchObject({ shot: 'aerial', duration: 6 });
    expect(view(actor).saveState).toBe('saving');
    actor.send({ type: 'scene.move', sceneId: 'scene-2', offset: -1 });
    release(NEW_BOARD);
    await flush();
    expect(view(actor).saveState).toBe('unsaved');
    await vi.advanceTimersByTimeAsync(STORY_SAVE_DEBOUNCE_MS);
    expect(server.save).toHaveBeenCalledTimes(2);
    expect(server.save.mock.calls[1]![1].storyboard!.scenes.map((scene) => scene.id)).toEqual(['scene-2', 'scene-1']);
    await flush();
    expect(view(actor).saveState).toBe('saved');
  });

  it('retries a save that failed for want of a network, and says so meanwhile', async () => {
    const { actor } = await resume(NEW_BOARD);
    server.save.mockRejectedValueOnce(networkError());
    actor.send({ type: 'board.settings', changes: { title: 'The lamp' } });
    await vi.advanceTimersByTimeAsync(STORY_SAVE_DEBOUNCE_MS);
    expect(view(actor).saveState).toBe('failed');
    await vi.advanceTimersByTimeAsync(2000);
    expect(server.save).toHaveBeenCalledTimes(2);
    expect(view(actor).saveState).toBe('saved');
  });

  it('adds, removes and moves scenes and elements; removing an element takes it out of the scenes', async () => {
    const { actor } = await resume(NEW_BOARD);
    actor.send({ type: 'scene.add', afterId: 'scene-1' });
    expect(view(actor).board.scenes.map((scene) => scene.id)).toEqual(['scene-1', 'scene-3', 'scene-2']);
    actor.send({ type: 'scene.remove', sceneId: 'scene-3' });
    actor.send({ type: 'element.add', kind: 'object' });
    expect(view(actor).board.elements.at(-1)).toMatchObject({ id: 'el-3', kind: 'object', name: 'New object' });
    actor.send({ type: 'element.remove', elementId: 'el-2' });
    expect(view(actor).board.scenes.map((scene) => scene.element_ids)).toEqual([['el-1'], ['el-1']]);
    actor.send({ type: 'scene.remove', sceneId: 'scene-2' });
    // The last scene stays.
    expect(actor.getSnapshot().can({ type: 'scene.remove', sceneId: 'scene-1' })).toBe(false);
    actor.send({ type: 'audio.change', changes: { kind: 'music', text: 'waves' } });
    expect(view(actor).board.audio).toMatchObject({ kind: 'music', text: 'waves' });
  });

  it('rewrites the storyboard from the idea, replacing the draft', async () => {
    const { actor } = await resume(NEW_BOARD);
    const rewritten = buildStory({ storyboard: { ...NEW_BOARD.storyboard, title: 'Rewritten' } });
    server.save.mockResolvedValueOnce(rewritten);
    actor.send({ type: 'scene.change', sceneId: 'scene-1', changes: { text: 'A draft nobody keeps.' } });
    actor.send({ type: 'idea.rewrite' });
    expect(view(actor).busy).toBe('rewriting');
    await flush();
    expect(server.save).toHaveBeenCalledWith('story-1', { rewrite: true });
    expect(view(actor)).toMatchObject({ title: 'Rewritten', saveState: 'saved', busy: null });
    await vi.advanceTimersByTimeAsync(STORY_SAVE_DEBOUNCE_MS);
    expect(server.save).toHaveBeenCalledTimes(1);
  });

  it('saves a changed idea with PUT and goes on to the storyboard', async () => {
    const { actor } = await resume(NEW_BOARD);
    actor.send({ type: 'step.goto', step: 'idea' });
    server.save.mockResolvedValueOnce({ ...NEW_BOARD, idea: 'Mara keeps a lighthouse in the north.', style: 'noir' });
    actor.send({ type: 'idea.submit', fields: { idea: 'Mara keeps a lighthouse in the north.', duration: 15, aspect_ratio: '16:9', style: 'noir' } });
    expect(view(actor).busy).toBe('saving-idea');
    await flush();
    expect(server.save).toHaveBeenCalledWith('story-1', {
      idea: 'Mara keeps a lighthouse in the north.',
      duration: 15,
      aspect_ratio: '16:9',
      style: 'noir',
    });
    expect(wizard(actor)).toBe('storyboard');
    expect(view(actor)).toMatchObject({ style: 'noir', idea: 'Mara keeps a lighthouse in the north.' });
  });
});

describe('two tabs editing one story (issue 17)', () => {
  it('sends the revision its board was edited from; refused (412), it reads the story again, merges both tabs\' edits, saves and says so', async () => {
    const { actor } = await resume(NEW_BOARD);
    // The other tab changed scene 2's words and the title meanwhile (a new revision).
    const board = NEW_BOARD.storyboard;
    const theirs = buildStory({
      revision: 'rev-2',
      storyboard: { ...board, title: 'Their title', scenes: board.scenes.map((scene) => (scene.id === 'scene-2' ? { ...scene, text: 'The storm breaks.' } : scene)) },
    });
    server.save.mockRejectedValueOnce(httpError(412, 'This storyboard was changed in another tab or window since you opened it.'));
    server.poll.mockResolvedValue(theirs);
    actor.send({ type: 'scene.change', sceneId: 'scene-1', changes: { shot: 'aerial' } });
    await vi.advanceTimersByTimeAsync(STORY_SAVE_DEBOUNCE_MS);
    expect(server.save).toHaveBeenNthCalledWith(1, 'story-1', { storyboard: expect.objectContaining({ title: 'The keeper' }), revision: 'rev-1' });
    await flush();
    await flush();
    // Saved again at once from their revision, with both tabs' edits.
    expect(server.save).toHaveBeenCalledTimes(2);
    const [, fields] = server.save.mock.calls[1]!;
    expect(fields.revision).toBe('rev-2');
    expect(fields.storyboard).toMatchObject({
      title: 'Their title',
      scenes: [
        { id: 'scene-1', shot: 'aerial', text: 'Mara climbs the lighthouse.' },
        { id: 'scene-2', text: 'The storm breaks.' },
      ],
    });
    expect(view(actor).board.scenes.map((scene) => scene.shot)).toEqual(['aerial', 'close-up']);
    expect(view(actor).notice).toBe('This story was changed in another tab or window meanwhile. Your edits were added to those changes and saved.');
    expect(view(actor).error).toBeNull();
    actor.send({ type: 'notice.dismiss' });
    expect(view(actor).notice).toBeNull();
  });

  it('keeps this tab\'s words where both tabs changed the same thing, and says so', async () => {
    const { actor } = await resume(NEW_BOARD);
    const board = NEW_BOARD.storyboard;
    const theirs = buildStory({ revision: 'rev-2', storyboard: { ...board, title: 'Their title' } });
    server.save.mockRejectedValueOnce(httpError(412, 'Changed elsewhere.'));
    server.poll.mockResolvedValue(theirs);
    actor.send({ type: 'board.settings', changes: { title: 'My title' } });
    await vi.advanceTimersByTimeAsync(STORY_SAVE_DEBOUNCE_MS);
    await flush();
    await flush();
    expect(server.save.mock.calls[1]?.[1]).toMatchObject({ storyboard: { title: 'My title' }, revision: 'rev-2' });
    expect(view(actor).notice).toContain('where both changed the same thing, your version was kept');
  });

  it('a paid call refused as stale (412) shows why and merges the newer board, so the next click is sent from it', async () => {
    const { actor } = await resume(NEW_BOARD);
    actor.send({ type: 'step.next' });
    await flush();
    const theirs = buildStory({ revision: 'rev-2', storyboard: { ...NEW_BOARD.storyboard, title: 'Their title' } });
    server.generate.mockRejectedValueOnce(httpError(412, 'This storyboard was changed in another tab or window since you opened it.'));
    server.poll.mockResolvedValue(theirs);
    actor.send({ type: 'part.generate', part: 'elements' });
    await flush();
    expect(server.generate.mock.calls[0]?.[5]).toBe('rev-1');
    expect(view(actor).error).toBe('This storyboard was changed in another tab or window since you opened it.');
    await flush();
    expect(view(actor).board.title).toBe('Their title');
    // Nothing of this tab's to add: nothing saved, the newer board taken as it is.
    expect(server.save).not.toHaveBeenCalledWith('story-1', expect.objectContaining({ storyboard: expect.anything() }));
    server.generate.mockResolvedValueOnce(withElements(theirs, 'running'));
    actor.send({ type: 'part.generate', part: 'elements' });
    await flush();
    expect(server.generate.mock.calls[1]?.[5]).toBe('rev-2');
  });
});

describe('making parts (SPEC §6 credit check first)', () => {
  it('makes every element picture needed, with the board and a fresh key, then polls', async () => {
    const { actor, emitted } = await resume({ ...NEW_BOARD, step: 'elements' });
    expect(selectPartCost(actor.getSnapshot(), 'elements')).toEqual({ count: 2, each: 4, total: 8, ids: ['el-1', 'el-2'], affordable: true });
    actor.send({ type: 'element.change', elementId: 'el-1', changes: { name: 'Mara Lind' } });
    const answer = withElements(buildStory({ storyboard: { ...NEW_BOARD.storyboard, elements: [{ ...NEW_BOARD.storyboard.elements[0]!, name: 'Mara Lind' }, NEW_BOARD.storyboard.elements[1]!] } }), 'running');
    server.generate.mockResolvedValue(answer);
    actor.send({ type: 'part.generate', part: 'elements' });
    expect(view(actor)).toMatchObject({ busy: 'generating', generatingPart: 'elements' });
    // The board being sent does not change under it.
    expect(actor.getSnapshot().can({ type: 'element.change', elementId: 'el-1', changes: { name: 'X' } })).toBe(false);
    await flush();
    const [id, part, board, ids, key] = server.generate.mock.calls[0]!;
    expect([id, part, ids]).toEqual(['story-1', 'elements', ['el-1', 'el-2']]);
    expect(board.elements[0]!.name).toBe('Mara Lind');
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(emitted).toEqual([{ type: 'story.creditsChanged' }]);
    expect(view(actor)).toMatchObject({ busy: null, saveState: 'saved', running: { elements: 2 } });
    // The edit went with the call: no separate save.
    await vi.advanceTimersByTimeAsync(STORY_SAVE_DEBOUNCE_MS);
    expect(server.save).not.toHaveBeenCalled();
    server.poll.mockResolvedValue(withJobs(answer, { 'img-el-1': 'done', 'img-el-2': 'done' }));
    await vi.advanceTimersByTimeAsync(1000);
    expect(view(actor).states.elements).toEqual({ 'el-1': 'ready', 'el-2': 'ready' });
    expect(selectPartView(actor.getSnapshot(), 'img-el-1')).toEqual({
      status: 'done',
      progress: 100,
      url: 'http://localhost/api/files/img-el-1.png',
      thumbnailUrl: 'http://localhost/api/files/img-el-1.jpg',
      error: null,
    });
  });

  it('regenerates one scene: only that scene is sent and paid for', async () => {
    const { actor } = await resume({ ...SCENES_MADE, step: 'scenes' });
    actor.send({ type: 'scene.change', sceneId: 'scene-1', changes: { shot: 'aerial' } });
    expect(selectPartCost(actor.getSnapshot(), 'scenes')).toMatchObject({ count: 1, total: 4, ids: ['scene-1'] });
    server.generate.mockResolvedValue(withScenes({ ...SCENES_MADE, storyboard: view(actor).board }, 'running', ['scene-1']));
    actor.send({ type: 'part.generate', part: 'scenes', ids: ['scene-1'] });
    await flush();
    expect(server.generate).toHaveBeenCalledTimes(1);
    expect(server.generate.mock.calls[0]!.slice(1, 2)).toEqual(['scenes']);
    expect(server.generate.mock.calls[0]![3]).toEqual(['scene-1']);
    expect(view(actor).states.sceneImages).toEqual({ 'scene-1': 'running', 'scene-2': 'ready' });
  });

  it('blocks a step that costs more than the balance, without a call', async () => {
    const { actor } = await resume({ ...NEW_BOARD, step: 'elements' }, { credit: 5 });
    expect(selectPartCost(actor.getSnapshot(), 'elements')).toMatchObject({ total: 8, affordable: false });
    actor.send({ type: 'part.generate', part: 'elements' });
    await flush();
    expect(server.generate).not.toHaveBeenCalled();
    expect(at(actor, 'elements.idle')).toBe(true);
    expect(view(actor).error).toBe('Not enough credits: this step costs 8 credits and you have 5.');
    // One picture fits.
    actor.send({ type: 'part.generate', part: 'elements', ids: ['el-2'] });
    await flush();
    expect(server.generate).toHaveBeenCalledTimes(1);
  });

  it('lets the Developer group make parts without credits, and follows the balance the page sends', async () => {
    const { actor } = await resume({ ...NEW_BOARD, step: 'elements' }, { user: DEVELOPER, credit: 0 });
    expect(selectPartCost(actor.getSnapshot(), 'elements').affordable).toBe(true);
    actor.send({ type: 'story.account', user: CREATOR, credit: 0, creditLoading: false });
    expect(selectPartCost(actor.getSnapshot(), 'elements').affordable).toBe(false);
  });

  it('sends the same key again after no answer, and gives up after STORY_SUBMIT_RETRIES', async () => {
    const { actor } = await resume({ ...NEW_BOARD, step: 'elements' });
    server.generate.mockRejectedValue(networkError());
    actor.send({ type: 'part.generate', part: 'elements' });
    await flush();
    expect(at(actor, 'elements.generating')).toBe(true);
    expect(paidStage(actor)).toBe('retrying');
    await vi.advanceTimersByTimeAsync(500 * STORY_SUBMIT_RETRIES);
    expect(server.generate).toHaveBeenCalledTimes(STORY_SUBMIT_RETRIES + 1);
    expect(new Set(server.generate.mock.calls.map((call) => call[4])).size).toBe(1);
    expect(at(actor, 'elements.idle')).toBe(true);
    expect(view(actor).error).toMatch(/^Network error/);
    server.generate.mockResolvedValue(NEW_BOARD);
    actor.send({ type: 'part.generate', part: 'elements' });
    await flush();
    expect(server.generate.mock.calls.at(-1)![4]).not.toBe(server.generate.mock.calls[0]![4]);
  });

  it('retries a 5xx but not the server’s refusal (402)', async () => {
    const { actor } = await resume({ ...NEW_BOARD, step: 'elements' });
    server.generate.mockRejectedValueOnce(httpError(503, 'Busy')).mockRejectedValueOnce(httpError(402, 'Not enough credits: this costs 8 credits and you have 4.'));
    actor.send({ type: 'part.generate', part: 'elements' });
    await vi.advanceTimersByTimeAsync(500);
    expect(server.generate).toHaveBeenCalledTimes(2);
    expect(view(actor).error).toBe('Not enough credits: this costs 8 credits and you have 4.');
  });

  it('waits for a save on its way before sending the board', async () => {
    const { actor } = await resume({ ...NEW_BOARD, step: 'elements' });
    let release!: (story: Story) => void;
    server.save.mockImplementationOnce(() => new Promise((resolve) => (release = resolve)));
    actor.send({ type: 'element.change', elementId: 'el-1', changes: { description: 'older' } });
    await vi.advanceTimersByTimeAsync(STORY_SAVE_DEBOUNCE_MS);
    expect(server.save).toHaveBeenCalledTimes(1);
    actor.send({ type: 'part.generate', part: 'elements' });
    await flush();
    expect(at(actor, 'elements.generating')).toBe(true);
    expect(paidStage(actor)).toBe('waiting');
    expect(server.generate).not.toHaveBeenCalled();
    release(NEW_BOARD);
    await flush();
    expect(server.generate).toHaveBeenCalledTimes(1);
  });

  it('refuses scenes whose elements have no picture yet, and videos whose scene has none', async () => {
    const { actor } = await resume({ ...ELEMENTS_MADE, step: 'scenes' });
    expect(actor.getSnapshot().can({ type: 'part.generate', part: 'scenes' })).toBe(true);
    actor.send({ type: 'element.add', kind: 'object' });
    actor.send({ type: 'scene.change', sceneId: 'scene-2', changes: { element_ids: ['el-1', 'el-3'] } });
    expect(actor.getSnapshot().can({ type: 'part.generate', part: 'scenes', ids: ['scene-2'] })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'part.generate', part: 'scenes', ids: ['scene-1'] })).toBe(true);
  });

  it('makes the sound at its price', async () => {
    const story = withSound(VIDEOS_MADE);
    const { actor } = await resume(story);
    actor.send({ type: 'audio.change', changes: { text: 'Mara keeps the light burning.' } });
    expect(view(actor).states.audio).toBe('stale');
    expect(selectAudioCost(actor.getSnapshot())).toEqual({ total: 8, affordable: true });
    server.generate.mockResolvedValue(story);
    actor.send({ type: 'audio.generate' });
    await flush();
    expect(server.generate.mock.calls[0]!.slice(1, 2)).toEqual(['audio']);
    expect(server.generate.mock.calls[0]![2].audio.text).toBe('Mara keeps the light burning.');
  });
});

describe('cancelling', () => {
  it('cancels a running part and keeps polling what is left', async () => {
    const live = { ...withScenes(ELEMENTS_MADE, 'running'), step: 'scenes' as const };
    const { actor, emitted } = await resume(live);
    const cancelled = withJobs(live, { 'pic-scene-1': 'failed', 'pic-scene-2': 'failed' });
    server.cancel.mockResolvedValue(cancelled);
    expect(actor.getSnapshot().can({ type: 'part.cancel', part: 'videos' })).toBe(false);
    actor.send({ type: 'part.cancel', part: 'scenes' });
    expect(view(actor).busy).toBe('cancelling');
    await flush();
    expect(server.cancel).toHaveBeenCalledWith('story-1', 'scenes');
    expect(view(actor)).toMatchObject({ busy: null, running: { scenes: 0 } });
    expect(view(actor).states.sceneImages).toEqual({ 'scene-1': 'failed', 'scene-2': 'failed' });
    expect(emitted).toEqual([{ type: 'story.creditsChanged' }]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.poll).not.toHaveBeenCalled();
  });

  it('shows why a cancel failed', async () => {
    const { actor } = await resume({ ...withScenes(ELEMENTS_MADE, 'running'), step: 'scenes' });
    server.cancel.mockRejectedValue(httpError(500, 'Boom'));
    actor.send({ type: 'part.cancel', part: 'scenes' });
    await flush();
    expect(view(actor).error).toBe('Boom');
  });
});

describe('joining the film', () => {
  it('explains what is missing before the film can be joined', async () => {
    const { actor } = await resume({ ...SCENES_MADE, step: 'scriptboard' });
    expect(selectConcatProblem(actor.getSnapshot())).toBe('Make the videos of scenes 1 and 2 first.');
    expect(actor.getSnapshot().can({ type: 'concat.start' })).toBe(false);
    const stale = await resume(VIDEOS_MADE);
    stale.actor.send({ type: 'scene.change', sceneId: 'scene-2', changes: { duration: 6 } });
    expect(selectConcatProblem(stale.actor.getSnapshot())).toBe('The videos of scene 2 are out of date: make them again first.');
    stale.actor.send({ type: 'scene.change', sceneId: 'scene-2', changes: { duration: 4 } });
    stale.actor.send({ type: 'audio.change', changes: { kind: 'speech', text: 'Mara.' } });
    expect(selectConcatProblem(stale.actor.getSnapshot())).toBe('Make the sound first, or choose no sound.');
  });

  it('joins the videos in scene order with the sound, follows the join, then is done', async () => {
    const story = withVideos(withSound(SCENES_MADE));
    const { actor } = await resume({ ...story, step: 'scriptboard' });
    expect(selectConcatProblem(actor.getSnapshot())).toBeNull();
    expect(selectFinalFilm(actor.getSnapshot()).state).toBe('none');
    const joining = withFilm(story, 'running');
    server.concat.mockResolvedValue(joining);
    server.poll.mockResolvedValue(joining);
    actor.send({ type: 'concat.start' });
    expect(wizard(actor)).toBe('concatenating');
    expect(selectActiveStep(actor.getSnapshot())).toBe('scriptboard');
    await flush();
    expect(server.concat).toHaveBeenCalledWith(
      'story-1',
      ['http://localhost/api/files/vid-scene-1.mp4', 'http://localhost/api/files/vid-scene-2.mp4'],
      ['http://localhost/api/files/snd-1.wav'],
    );
    expect(view(actor)).toMatchObject({ busy: 'joining', running: { concat: 1 } });
    expect(selectFinalFilm(actor.getSnapshot()).state).toBe('running');
    server.poll.mockResolvedValue(withFilm(story, 'done'));
    await vi.advanceTimersByTimeAsync(1000);
    expect(wizard(actor)).toBe('done');
    expect(selectFinalFilm(actor.getSnapshot())).toEqual({
      state: 'ready',
      url: 'http://localhost/api/files/film-1.mp4',
      posterUrl: 'http://localhost/api/files/film-1.jpg',
      progress: 100,
      error: null,
    });
    // Done is recorded.
    await vi.advanceTimersByTimeAsync(STORY_SAVE_DEBOUNCE_MS);
    expect(server.save).toHaveBeenCalledWith('story-1', { step: 'done' });
    // A later change makes the film stale, not gone.
    actor.send({ type: 'scene.change', sceneId: 'scene-1', changes: { text: 'Mara climbs slowly.' } });
    expect(selectFinalFilm(actor.getSnapshot())).toMatchObject({ state: 'stale', url: 'http://localhost/api/files/film-1.mp4' });
  });

  it('goes back to the scriptboard with the reason when the join fails', async () => {
    const joining = withFilm(VIDEOS_MADE, 'running');
    const { actor } = await resume(joining);
    expect(wizard(actor)).toBe('concatenating');
    server.poll.mockResolvedValue(withJobs(joining, { 'film-1': 'failed' }));
    await vi.advanceTimersByTimeAsync(1000);
    expect(wizard(actor)).toBe('scriptboard');
    expect(view(actor).error).toBe('The render engine failed.');
    expect(selectFinalFilm(actor.getSnapshot())).toMatchObject({ state: 'failed', error: 'The render engine failed.' });
  });

  it('takes a person who went back a step while the film was joined to the film once it is made', async () => {
    const joining = withFilm(VIDEOS_MADE, 'running');
    const { actor } = await resume(joining);
    expect(wizard(actor)).toBe('concatenating');
    actor.send({ type: 'step.goto', step: 'scenes' });
    expect(wizard(actor)).toBe('scenes');
    // Still joining: they stay where they went, and the join is still followed.
    await vi.advanceTimersByTimeAsync(1000);
    expect(wizard(actor)).toBe('scenes');
    server.poll.mockResolvedValue(withFilm(VIDEOS_MADE, 'done'));
    await vi.advanceTimersByTimeAsync(1000);
    expect(wizard(actor)).toBe('done');
    expect(selectFinalFilm(actor.getSnapshot()).state).toBe('ready');
    await vi.advanceTimersByTimeAsync(STORY_SAVE_DEBOUNCE_MS);
    expect(server.save).toHaveBeenLastCalledWith('story-1', { step: 'done' });
  });

  it('waits for a paid call the person started meanwhile before taking them to the film', async () => {
    const joining = withFilm(withScenes(ELEMENTS_MADE), 'running');
    const { actor } = await resume({ ...joining, step: 'scriptboard' });
    expect(wizard(actor)).toBe('concatenating');
    actor.send({ type: 'step.goto', step: 'elements' });
    let answer: (story: Story) => void = () => {};
    server.generate.mockImplementation(() => new Promise<Story>((resolve) => (answer = resolve)));
    actor.send({ type: 'part.generate', part: 'elements', ids: ['el-1'] });
    await flush();
    expect(at(actor, 'elements.generating')).toBe(true);
    expect(paidStage(actor)).toBe('submitting');
    server.poll.mockResolvedValue(withFilm(withScenes(ELEMENTS_MADE), 'done'));
    await vi.advanceTimersByTimeAsync(1000);
    expect(at(actor, 'elements.generating')).toBe(true);
    expect(paidStage(actor)).toBe('submitting');
    answer(withFilm(withScenes(ELEMENTS_MADE), 'done'));
    await flush();
    expect(wizard(actor)).toBe('done');
  });

  it('tells a person who went back why a followed join failed, and leaves them where they are', async () => {
    const joining = withFilm(VIDEOS_MADE, 'running');
    const { actor } = await resume(joining);
    actor.send({ type: 'step.goto', step: 'storyboard' });
    server.poll.mockResolvedValue(withJobs(joining, { 'film-1': 'failed' }));
    await vi.advanceTimersByTimeAsync(1000);
    expect(wizard(actor)).toBe('storyboard');
    expect(view(actor).error).toBe('The render engine failed.');
  });

  it('does not take a person to the film of a join they cancelled', async () => {
    const joining = withFilm(VIDEOS_MADE, 'running');
    const { actor } = await resume(joining);
    actor.send({ type: 'step.goto', step: 'scenes' });
    server.cancel.mockResolvedValue(withJobs(joining, { 'film-1': 'failed' }));
    actor.send({ type: 'part.cancel', part: 'concat' });
    await flush();
    expect(wizard(actor)).toBe('scenes');
    expect(view(actor).error).toBeNull();
  });

  it('shows the refusal of a join (409) on the scriptboard', async () => {
    server.concat.mockRejectedValue(httpError(409, 'The film is already being joined.'));
    const { actor } = await resume(VIDEOS_MADE);
    actor.send({ type: 'concat.start' });
    await flush();
    expect(wizard(actor)).toBe('scriptboard');
    expect(view(actor).error).toBe('The film is already being joined.');
  });

  it('cancels a join', async () => {
    const joining = withFilm(VIDEOS_MADE, 'running');
    server.cancel.mockResolvedValue(withJobs(joining, { 'film-1': 'failed' }));
    const { actor } = await resume(joining);
    actor.send({ type: 'part.cancel', part: 'concat' });
    expect(view(actor).busy).toBe('cancelling');
    await flush();
    expect(server.cancel).toHaveBeenCalledWith('story-1', 'concat');
    expect(wizard(actor)).toBe('scriptboard');
  });
});

describe('selectors', () => {
  it('reads a running and a queued job', async () => {
    const story = { ...ELEMENTS_MADE, media: { ...ELEMENTS_MADE.media, 'img-el-2': buildStoryJob('img-el-2', STORY_TOOLS.element, 'queued') } };
    const { actor } = await resume(story);
    expect(selectPartView(actor.getSnapshot(), 'img-el-2')).toEqual({ status: 'queued', progress: 0, url: null, thumbnailUrl: null, error: null });
    expect(selectPartView(actor.getSnapshot(), null)).toBeNull();
    expect(selectPartView(actor.getSnapshot(), 'unknown')).toBeNull();
  });
});
