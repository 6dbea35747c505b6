import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Mock } from 'vitest';
import { createActor, fromPromise, type StateValue } from 'xstate';
import { activateTake, takeSlot, takesOf, undoTakeOf } from '@/lib/story-takes';
import type { SaveStoryFields, TakeCallFields } from '@/services/story';
import { storyAutosaveMachine } from '@/machines/story/story-autosave.machine';
import { storyPollerMachine } from '@/machines/story/story-poller.machine';
import { storyWizardMachine } from '@/machines/story/story-wizard.machine';
import type { Story, StoryWizardInput, TakeChoice } from '@/machines/story/story-wizard.machine';
import { selectBusy, selectPartTakes, selectStoryView } from '@/machines/story/story-wizard.selectors';
import { buildStoryJob, ELEMENTS_MADE, SCENE_RETAKEN, SCENES_MADE, VIDEOS_MADE, withJobs, withRetake } from './story.fixtures';
import { CREATOR, httpError } from '../generation-job/generation-job.fixtures';

/**
 * Takes of a story's parts in the wizard (issue 21 item 4): `take.select` and `take.undo` wait for
 * a save on its way, send the draft with the choice and take the answer's board; the guard refuses
 * a choice that could not be made (no such take, the one in use, one without its result, a part
 * being made, a step that does not show it) without a call.
 */

interface TakeServer {
  load: Mock<(id: string) => Promise<Story>>;
  save: Mock<(id: string, fields: SaveStoryFields) => Promise<Story>>;
  choose: Mock<(id: string, take: TakeChoice, fields: TakeCallFields) => Promise<Story>>;
}

let server: TakeServer;

/** The server's answer to a choice: the sent board with the take made active (as story-takes.ts on the server). */
function answerChoice(story: Story) {
  return async (_id: string, take: TakeChoice, fields: TakeCallFields): Promise<Story> => {
    const board = fields.storyboard ?? story.storyboard;
    const slot = takeSlot(board, take.part, take.partId);
    const chosen = slot && (take.mediaId === null ? undoTakeOf(slot) : takesOf(slot).find((item) => item.media_id === take.mediaId));
    if (!chosen) throw httpError(404, 'No such take.');
    return { ...story, storyboard: activateTake(board, take.part, take.partId, chosen), revision: 'rev-2' };
  };
}

beforeEach(() => {
  vi.useFakeTimers();
  server = {
    load: vi.fn(async () => SCENE_RETAKEN),
    save: vi.fn(async (_id: string, fields: SaveStoryFields) => ({ ...SCENE_RETAKEN, ...(fields.storyboard ? { storyboard: fields.storyboard } : {}) })),
    choose: vi.fn(answerChoice(SCENE_RETAKEN)),
  };
});

afterEach(() => {
  vi.useRealTimers();
});

const machine = () =>
  storyWizardMachine.provide({
    actors: {
      loadStory: fromPromise<Story, { id: string }>(({ input }) => server.load(input.id)),
      chooseTake: fromPromise<Story, { id: string; take: TakeChoice; fields: TakeCallFields }>(({ input }) => server.choose(input.id, input.take, input.fields)),
      storyAutosave: storyAutosaveMachine.provide({
        actors: {
          saveStory: fromPromise<Story, { id: string; fields: SaveStoryFields }>(({ input }) => server.save(input.id, input.fields)),
          readStory: fromPromise<Story, { id: string }>(({ input }) => server.load(input.id)),
        },
      }),
      storyPoller: storyPollerMachine.provide({ actors: { pollStory: fromPromise<Story, { id: string }>(({ input }) => server.load(input.id)) } }),
    },
  });

async function resume(story: Story, input: Partial<StoryWizardInput> = {}) {
  server.load.mockResolvedValue(story);
  const actor = createActor(machine(), { input: { storyId: 'story-1', user: CREATOR, credit: 500, ...input } });
  actor.start();
  await vi.advanceTimersByTimeAsync(0);
  return actor;
}

type Actor = Awaited<ReturnType<typeof resume>>;
const flush = () => vi.advanceTimersByTimeAsync(0);
/** The wizard is in this (nested) state; the steps are built by a factory, so their values are not typed one by one. */
const inState = (actor: Actor, value: StateValue): boolean => actor.getSnapshot().matches(value as never);
const takes = (actor: Actor, part: 'elements' | 'scenes' | 'videos' = 'scenes', partId = 'scene-1') => selectPartTakes(actor.getSnapshot(), part, partId);
const picture = (actor: Actor) => actor.getSnapshot().context.board?.scenes[0]?.image?.media_id;

describe('choosing a take', () => {
  it('shows a part made again with its two takes and Undo; a part made once shows none', async () => {
    const actor = await resume(SCENE_RETAKEN);
    expect(takes(actor)).toEqual({
      takes: [
        { mediaId: 'pic-scene-1', number: 1, active: false, status: 'made', thumbnailUrl: 'http://localhost/api/files/pic-scene-1.jpg' },
        { mediaId: 'pic-scene-1-2', number: 2, active: true, status: 'made', thumbnailUrl: 'http://localhost/api/files/pic-scene-1-2.jpg' },
      ],
      undoTo: 1,
      canPick: ['pic-scene-1'],
      canUndo: true,
    });
    expect(takes(actor, 'scenes', 'scene-2')).toEqual({ takes: [], undoTo: null, canPick: [], canUndo: false });
  });

  it('undoes the last regeneration: the draft goes with it, the answer\'s board replaces it, saved', async () => {
    const actor = await resume(SCENE_RETAKEN);
    actor.send({ type: 'scene.change', sceneId: 'scene-2', changes: { text: 'Mara lights the big lamp.' } });
    actor.send({ type: 'take.undo', part: 'scenes', partId: 'scene-1' });
    expect(inState(actor, { scenes: 'choosingTake' })).toBe(true);
    expect(selectBusy(actor.getSnapshot())).toBe('choosing-take');
    // Busy: Undo and picking wait.
    expect(takes(actor)).toMatchObject({ canPick: [], canUndo: false });
    await flush();
    expect(server.choose).toHaveBeenCalledTimes(1);
    const [id, take, fields] = server.choose.mock.calls[0]!;
    expect([id, take]).toEqual(['story-1', { part: 'scenes', partId: 'scene-1', mediaId: null }]);
    expect(fields.revision).toBe('rev-1');
    expect(fields.storyboard?.scenes[1]?.text).toBe('Mara lights the big lamp.');
    expect(inState(actor, { scenes: 'idle' })).toBe(true);
    expect(picture(actor)).toBe('pic-scene-1');
    // The newer take stays; nothing left to undo; the edit went with the choice and is saved.
    expect(takes(actor)).toMatchObject({ undoTo: null, canPick: ['pic-scene-1-2'], canUndo: false });
    expect(actor.getSnapshot().context.revision).toBe('rev-2');
    expect(selectStoryView(actor.getSnapshot())?.saveState).toBe('saved');
    expect(actor.getSnapshot().context.board?.scenes[1]?.text).toBe('Mara lights the big lamp.');
  });

  it('picks a take by its media id', async () => {
    const actor = await resume(SCENE_RETAKEN);
    actor.send({ type: 'take.select', part: 'scenes', partId: 'scene-1', mediaId: 'pic-scene-1' });
    await flush();
    expect(server.choose.mock.calls[0]?.[1]).toEqual({ part: 'scenes', partId: 'scene-1', mediaId: 'pic-scene-1' });
    expect(picture(actor)).toBe('pic-scene-1');
  });

  it('refuses without a call: the take in use, no such take, a take without its result, a part being made, a step that does not show it', async () => {
    const actor = await resume(SCENE_RETAKEN);
    const refused = (event: Parameters<Actor['send']>[0]) => {
      actor.send(event);
      expect(inState(actor, { scenes: 'idle' })).toBe(true);
    };
    refused({ type: 'take.select', part: 'scenes', partId: 'scene-1', mediaId: 'pic-scene-1-2' });
    refused({ type: 'take.select', part: 'scenes', partId: 'scene-1', mediaId: 'pic-scene-2' });
    refused({ type: 'take.select', part: 'scenes', partId: 'scene-9', mediaId: 'pic-scene-1' });
    refused({ type: 'take.undo', part: 'scenes', partId: 'scene-2' });
    // The elements' takes are the elements step's.
    refused({ type: 'take.undo', part: 'elements', partId: 'el-1' });
    expect(server.choose).not.toHaveBeenCalled();

    // The take Undo returns to failed: Undo is offered, but waits.
    const failedFirst = await resume(withJobs(SCENE_RETAKEN, { 'pic-scene-1': 'failed' }));
    expect(takes(failedFirst)).toMatchObject({ undoTo: 1, canUndo: false, canPick: [] });
    // The new take is still being made: no choice until it ends (or is cancelled).
    const running = await resume(withJobs(SCENE_RETAKEN, { 'pic-scene-1-2': 'running' }));
    expect(takes(running)).toMatchObject({ undoTo: 1, canUndo: false, canPick: [] });
    expect(takes(running).takes[1]).toMatchObject({ status: 'making', thumbnailUrl: null });
  });

  it('takes element and video takes on their own steps', async () => {
    const elements = await resume({ ...withRetake(ELEMENTS_MADE, 'elements', 'el-1'), step: 'elements' });
    expect(takes(elements, 'elements', 'el-1')).toMatchObject({ undoTo: 1, canUndo: true });
    const videos = await resume(withRetake(VIDEOS_MADE, 'videos', 'scene-2'));
    expect(videos.getSnapshot().matches('scriptboard')).toBe(true);
    expect(takes(videos, 'videos', 'scene-2')).toMatchObject({ undoTo: 1, canUndo: true, canPick: ['vid-scene-2'] });
    videos.send({ type: 'take.select', part: 'videos', partId: 'scene-2', mediaId: 'vid-scene-2' });
    expect(inState(videos, { scriptboard: 'choosingTake' })).toBe(true);
  });

  it('shows why a choice was refused and stays; a board refused as stale (412) is read again and merged', async () => {
    server.choose.mockRejectedValueOnce(httpError(409, 'This picture is being made: wait for it to finish, or cancel it first.'));
    const actor = await resume(SCENE_RETAKEN);
    actor.send({ type: 'take.undo', part: 'scenes', partId: 'scene-1' });
    await flush();
    expect(inState(actor, { scenes: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.error).toBe('This picture is being made: wait for it to finish, or cancel it first.');
    expect(picture(actor)).toBe('pic-scene-1-2');

    const newer = { ...SCENE_RETAKEN, revision: 'rev-3', media: { ...SCENE_RETAKEN.media, 'pic-scene-1-2': buildStoryJob('pic-scene-1-2', 'scene-image', 'done') } };
    server.choose.mockRejectedValueOnce(httpError(412, 'This storyboard was changed in another tab or window since you opened it.'));
    server.load.mockResolvedValue(newer);
    const reads = server.load.mock.calls.length;
    actor.send({ type: 'take.undo', part: 'scenes', partId: 'scene-1' });
    await flush();
    await vi.advanceTimersByTimeAsync(10);
    expect(server.load.mock.calls.length).toBeGreaterThan(reads);
    expect(actor.getSnapshot().context.revision).toBe('rev-3');
  });

  it('keeps a scene\'s video stale after its picture\'s newer take, and ready again after Undo (staleness follows the take in use)', async () => {
    const filmed = withRetake(VIDEOS_MADE, 'scenes', 'scene-1');
    // The video moved the first picture: with the second in use, it is stale.
    const actor = await resume({ ...filmed, step: 'scenes' });
    expect(selectStoryView(actor.getSnapshot())?.states.sceneVideos['scene-1']).toBe('stale');
    server.choose.mockImplementation(answerChoice(filmed));
    actor.send({ type: 'take.undo', part: 'scenes', partId: 'scene-1' });
    await flush();
    expect(selectStoryView(actor.getSnapshot())?.states.sceneVideos['scene-1']).toBe('ready');
    expect(SCENES_MADE.storyboard.scenes[0]?.image?.media_id).toBe(picture(actor));
  });
});
