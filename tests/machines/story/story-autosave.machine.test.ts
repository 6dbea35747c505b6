import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { assign, createActor, fromPromise, sendTo, setup } from 'xstate';
import type { ActorRefFrom } from 'xstate';
import type { Story } from '@/services/schemas/story';
import {
  STORY_SAVE_DEBOUNCE_MS,
  storyAutosaveMachine,
  type StoryAutosaveEmitted,
  type StoryAutosaveEvent,
  type StorySaveRequest,
} from '@/machines/story/story-autosave.machine';
import { NEW_BOARD } from './story.fixtures';
import { httpError, networkError } from '../generation-job/generation-job.fixtures';

/**
 * The story wizard's autosave child (issue 18 item 2) under a stand-in wizard: when it saves,
 * what it asks and tells the wizard, its back-off, the merge after a 412, and the hold a paid call
 * asks for.
 */

let save = vi.fn<(request: StorySaveRequest) => Promise<Story>>();
let read = vi.fn<(id: string) => Promise<Story>>();
/** What the stand-in wizard answers `autosave.due` with. */
let toSend: StorySaveRequest | null = { id: 'story-1', fields: { step: 'elements' } };

beforeEach(() => {
  vi.useFakeTimers();
  save = vi.fn(async () => NEW_BOARD);
  read = vi.fn(async () => NEW_BOARD);
  toSend = { id: 'story-1', fields: { step: 'elements' } };
});

afterEach(() => {
  vi.useRealTimers();
});

type Told = StoryAutosaveEmitted['type'];

/** A stand-in wizard: invokes the autosave as the real one does, forwards what the test says, answers `autosave.due`, keeps what it is told. */
const wizard = setup({
  types: { context: {} as { told: Told[] }, events: {} as StoryAutosaveEvent | StoryAutosaveEmitted },
  actors: {
    storyAutosave: storyAutosaveMachine.provide({
      actors: {
        saveStory: fromPromise<Story, StorySaveRequest>(({ input }) => save(input)),
        readStory: fromPromise<Story, { id: string }>(({ input }) => read(input.id)),
      },
    }),
  },
  actions: {
    keep: assign(({ context, event }) => ({ told: [...context.told, event.type as Told] })),
    forward: sendTo('storyAutosave', ({ event }) => event),
  },
}).createMachine({
  context: { told: [] },
  invoke: { id: 'storyAutosave', systemId: 'storyAutosave', src: 'storyAutosave' },
  on: {
    'autosave.due': { actions: ['keep', sendTo('storyAutosave', (): StoryAutosaveEvent => ({ type: 'autosave.request', request: toSend }))] },
    'autosave.saving': { actions: 'keep' },
    'autosave.saved': { actions: 'keep' },
    'autosave.merged': { actions: 'keep' },
    'autosave.failed': { actions: 'keep' },
    'autosave.held': { actions: 'keep' },
    'autosave.change': { actions: 'forward' },
    'autosave.request': { actions: 'forward' },
    'autosave.hold': { actions: 'forward' },
    'autosave.release': { actions: 'forward' },
    'autosave.stale': { actions: 'forward' },
  },
});

function start() {
  const parent = createActor(wizard).start();
  const autosave = parent.system.get('storyAutosave') as ActorRefFrom<typeof storyAutosaveMachine>;
  return {
    parent,
    autosave,
    work: () => (autosave.getSnapshot().value as { work: string }).work,
    gate: () => (autosave.getSnapshot().value as { gate: string }).gate,
    told: () => parent.getSnapshot().context.told,
  };
}

const CHANGED = { type: 'autosave.change', dirty: true, now: false } as const;

describe('story autosave', () => {
  it('saves 800 ms after the last change, asking the wizard what to send then', async () => {
    const { parent, work, told } = start();
    expect(work()).toBe('idle');
    parent.send(CHANGED);
    expect(work()).toBe('debouncing');
    await vi.advanceTimersByTimeAsync(STORY_SAVE_DEBOUNCE_MS - 100);
    // Another change: the wait starts again.
    parent.send(CHANGED);
    await vi.advanceTimersByTimeAsync(STORY_SAVE_DEBOUNCE_MS - 100);
    expect(save).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(100);
    expect(save).toHaveBeenCalledExactlyOnceWith({ id: 'story-1', fields: { step: 'elements' } });
    await vi.advanceTimersByTimeAsync(0);
    expect(told()).toEqual(['autosave.due', 'autosave.saving', 'autosave.saved']);
    expect(work()).toBe('idle');
  });

  it('saves a new step at once, and rests when the draft is clean or nothing is left to send', async () => {
    const { parent, work, told } = start();
    parent.send({ type: 'autosave.change', dirty: true, now: true });
    expect(save).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(0);
    parent.send(CHANGED);
    parent.send({ type: 'autosave.change', dirty: false, now: false });
    expect(work()).toBe('idle');
    await vi.advanceTimersByTimeAsync(STORY_SAVE_DEBOUNCE_MS * 2);
    expect(save).toHaveBeenCalledTimes(1);
    // Due, but what was to be saved went with a paid call meanwhile.
    toSend = null;
    parent.send(CHANGED);
    await vi.advanceTimersByTimeAsync(STORY_SAVE_DEBOUNCE_MS);
    expect(save).toHaveBeenCalledTimes(1);
    expect(work()).toBe('idle');
    expect(told().filter((type) => type === 'autosave.due')).toHaveLength(2);
  });

  it('sends a save that failed for want of the network again after a back-off, and a refused one only after the next change', async () => {
    const { parent, work, told } = start();
    save.mockRejectedValueOnce(networkError());
    parent.send({ type: 'autosave.change', dirty: true, now: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(told()).toEqual(['autosave.due', 'autosave.saving', 'autosave.failed']);
    expect(work()).toBe('retrying');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(save).toHaveBeenCalledTimes(2);
    expect(told().at(-1)).toBe('autosave.saved');

    save.mockRejectedValueOnce(httpError(400, 'Nope'));
    parent.send({ type: 'autosave.change', dirty: true, now: true });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(save).toHaveBeenCalledTimes(3);
    expect(work()).toBe('idle');
    expect(told().at(-1)).toBe('autosave.failed');
  });

  it('reads the story again after a save refused as stale (412), and after a paid call refused so', async () => {
    const { parent, work, told } = start();
    save.mockRejectedValueOnce(httpError(412, 'Changed elsewhere.'));
    parent.send({ type: 'autosave.change', dirty: true, now: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(read).toHaveBeenCalledExactlyOnceWith('story-1');
    expect(told()).toEqual(['autosave.due', 'autosave.saving', 'autosave.saving', 'autosave.merged']);

    read.mockRejectedValueOnce(networkError());
    parent.send({ type: 'autosave.stale', storyId: 'story-2' });
    expect(work()).toBe('merging');
    await vi.advanceTimersByTimeAsync(0);
    expect(read).toHaveBeenLastCalledWith('story-2');
    // The read failed: the save is sent again after the back-off (refused again, it reads again).
    expect(told().at(-1)).toBe('autosave.failed');
    expect(work()).toBe('retrying');
  });

  it('held, starts no save and answers once the one on its way has answered; released, saves what is left', async () => {
    const { parent, work, gate, told } = start();
    let answer!: (story: Story) => void;
    save.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    parent.send({ type: 'autosave.change', dirty: true, now: true });
    parent.send({ type: 'autosave.hold' });
    expect(gate()).toBe('held');
    expect(told()).not.toContain('autosave.held');
    answer(NEW_BOARD);
    await vi.advanceTimersByTimeAsync(0);
    expect(told().slice(-2)).toEqual(['autosave.saved', 'autosave.held']);
    // Changes while held wait for the release.
    parent.send({ type: 'autosave.change', dirty: true, now: true });
    await vi.advanceTimersByTimeAsync(STORY_SAVE_DEBOUNCE_MS * 2);
    expect(save).toHaveBeenCalledTimes(1);
    expect(work()).toBe('idle');
    parent.send({ type: 'autosave.release', dirty: true, now: false });
    expect(gate()).toBe('open');
    await vi.advanceTimersByTimeAsync(STORY_SAVE_DEBOUNCE_MS);
    expect(save).toHaveBeenCalledTimes(2);
  });

  it('held while waiting to save: the wait is dropped and the wizard answered at once', async () => {
    const { parent, work, told } = start();
    parent.send(CHANGED);
    parent.send({ type: 'autosave.hold' });
    expect(work()).toBe('idle');
    expect(told()).toEqual(['autosave.held']);
    await vi.advanceTimersByTimeAsync(STORY_SAVE_DEBOUNCE_MS * 2);
    expect(save).not.toHaveBeenCalled();
    parent.send({ type: 'autosave.release', dirty: false, now: false });
    await vi.advanceTimersByTimeAsync(STORY_SAVE_DEBOUNCE_MS * 2);
    expect(save).not.toHaveBeenCalled();
  });
});
