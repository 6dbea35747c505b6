import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { assign, createActor, fromPromise, sendTo, setup } from 'xstate';
import type { ActorRefFrom } from 'xstate';
import { JOB_POLL, JOB_REQUEST_TIMEOUT_MS } from '@/config/limits';
import type { Story } from '@/services/schemas/story';
import { storyPollerMachine, type StoryPollerEmitted, type StoryPollerEvent } from '@/machines/story/story-poller.machine';
import { ELEMENTS_MADE, SCENES_MADE, withScenes } from './story.fixtures';
import { networkError } from '../generation-job/generation-job.fixtures';

/**
 * The story wizard's poller child (issue 18 item 2) under a stand-in wizard: when it reads the
 * story, what it tells the wizard, its back-off and time-out, and the page's visibility.
 */

const LIVE = { ...withScenes(ELEMENTS_MADE, 'running'), step: 'scenes' as const };
const ENDED = SCENES_MADE;

let read = vi.fn<(id: string, signal: AbortSignal) => Promise<Story>>();

beforeEach(() => {
  vi.useFakeTimers();
  read = vi.fn(async () => LIVE);
});

afterEach(() => {
  vi.useRealTimers();
});

/** A stand-in wizard: invokes the poller as the real one does, forwards what the test says, keeps what it is told. */
const wizardFor = (hidden: boolean) =>
  setup({
    types: { context: {} as { polled: Story[] }, events: {} as StoryPollerEvent | StoryPollerEmitted },
    actors: {
      storyPoller: storyPollerMachine.provide({
        actors: { pollStory: fromPromise<Story, { id: string }>(({ input, signal }) => read(input.id, signal)) },
      }),
    },
  }).createMachine({
    context: { polled: [] },
    invoke: { id: 'storyPoller', systemId: 'storyPoller', src: 'storyPoller', input: { hidden } },
    on: {
      'story.polled': { actions: assign(({ context, event }) => ({ polled: [...context.polled, event.story] })) },
      'poll.watch': { actions: sendTo('storyPoller', ({ event }) => event) },
      'poll.restart': { actions: sendTo('storyPoller', ({ event }) => event) },
      'poll.visibility': { actions: sendTo('storyPoller', ({ event }) => event) },
    },
  });

function start(hidden = false) {
  const wizard = createActor(wizardFor(hidden)).start();
  const poller = wizard.system.get('storyPoller') as ActorRefFrom<typeof storyPollerMachine>;
  return { wizard, poller, state: () => poller.getSnapshot().value, polled: () => wizard.getSnapshot().context.polled };
}

describe('story poller', () => {
  it('rests until told of a live job, reads every JOB_POLL interval while one is live, and rests once none is', async () => {
    const { wizard, state, polled } = start();
    expect(state()).toBe('idle');
    wizard.send({ type: 'poll.watch', storyId: 'story-1', live: false });
    expect(state()).toBe('idle');
    wizard.send({ type: 'poll.watch', storyId: 'story-1', live: true });
    expect(state()).toBe('waiting');
    await vi.advanceTimersByTimeAsync(JOB_POLL.baseMs - 1);
    expect(read).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(read).toHaveBeenCalledWith('story-1', expect.any(AbortSignal));
    expect(polled()).toEqual([LIVE]);
    expect(state()).toBe('waiting');
    read.mockResolvedValue(ENDED);
    await vi.advanceTimersByTimeAsync(JOB_POLL.baseMs);
    expect(polled()).toEqual([LIVE, ENDED]);
    expect(state()).toBe('idle');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('backs off while reads fail, gives up a read that hangs, and forgets the failures once one answers', async () => {
    const { wizard, poller, state } = start();
    read.mockRejectedValue(networkError());
    wizard.send({ type: 'poll.watch', storyId: 'story-1', live: true });
    await vi.advanceTimersByTimeAsync(JOB_POLL.baseMs);
    expect(poller.getSnapshot().context.errors).toBe(1);
    // The wait doubles after a failure.
    await vi.advanceTimersByTimeAsync(JOB_POLL.baseMs * 2 - 1);
    expect(read).toHaveBeenCalledTimes(1);
    read.mockImplementationOnce(() => new Promise(() => {}));
    await vi.advanceTimersByTimeAsync(1);
    expect(read).toHaveBeenCalledTimes(2);
    expect(state()).toBe('polling');
    await vi.advanceTimersByTimeAsync(JOB_REQUEST_TIMEOUT_MS);
    expect(read.mock.calls[1]![1].aborted).toBe(true);
    expect(poller.getSnapshot().context.errors).toBe(2);
    read.mockResolvedValue(LIVE);
    await vi.advanceTimersByTimeAsync(JOB_POLL.baseMs * 4);
    expect(read).toHaveBeenCalledTimes(3);
    expect(poller.getSnapshot().context.errors).toBe(0);
  });

  it('waits while the page is hidden and reads at once when it is shown', async () => {
    const { wizard, state } = start(true);
    wizard.send({ type: 'poll.watch', storyId: 'story-1', live: true });
    expect(state()).toBe('idle');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(read).not.toHaveBeenCalled();
    wizard.send({ type: 'poll.visibility', hidden: false });
    expect(read).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(state()).toBe('waiting');
    wizard.send({ type: 'poll.visibility', hidden: true });
    expect(state()).toBe('idle');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(read).toHaveBeenCalledTimes(1);
  });

  it('drops a read on its way when a call replaced the story, and waits afresh', async () => {
    const { wizard, poller, state, polled } = start();
    read.mockImplementationOnce(() => new Promise(() => {}));
    wizard.send({ type: 'poll.watch', storyId: 'story-1', live: true });
    await vi.advanceTimersByTimeAsync(JOB_POLL.baseMs);
    expect(state()).toBe('polling');
    // A story change while reading waits for the read's answer.
    wizard.send({ type: 'poll.watch', storyId: 'story-1', live: true });
    expect(state()).toBe('polling');
    wizard.send({ type: 'poll.restart', storyId: 'story-1', live: true });
    expect(read.mock.calls[0]![1].aborted).toBe(true);
    expect(state()).toBe('waiting');
    expect(poller.getSnapshot().context.errors).toBe(0);
    wizard.send({ type: 'poll.restart', storyId: 'story-1', live: false });
    expect(state()).toBe('idle');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(read).toHaveBeenCalledTimes(1);
    expect(polled()).toEqual([]);
  });
});
