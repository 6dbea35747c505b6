import { assign, fromPromise, sendParent, setup, stateIn } from 'xstate';
import { JOB_POLL } from '@/config/limits';
import { backoffCeiling } from '@/lib/backoff';
import { errorMessageOf, isRetryable } from '@/services/api-error';
import { getStory, saveStory, type SaveStoryFields } from '@/services/story';
import type { Story } from '@/services/schemas/story';
import { isStaleBoard } from '@/machines/story/story-wizard.rules';
import type { StoryWizardInternalEvent } from '@/machines/story/story-wizard.types';

/**
 * The story wizard's autosave (issue 18 item 2), a child the wizard invokes for its whole life
 * (systemId `storyAutosave`), so the inspector shows when and whether edits are saved instead of
 * context flags and raised timers. Two regions:
 *
 *   work: idle → debouncing → due → saving → idle | retrying | merging
 *   gate: open ⇄ held
 *
 * The wizard keeps the draft; this child keeps the timing. Told of a change (`autosave.change`),
 * it waits STORY_SAVE_DEBOUNCE_MS after the last one (or not at all for a new step), then asks the
 * wizard what to send (`autosave.due`), sends it (PUT story/{id}) and says how it went. A save
 * that fails for want of the network or the server is sent again with back-off; one refused as
 * stale (412: the board was saved elsewhere since) reads the story again so the wizard can merge.
 * While the wizard sends or replaces the board (a paid call, "rewrite from idea") the gate is held:
 * no save starts, and the wizard is told `autosave.held` once none is on its way.
 */

/** Edits are saved this long after the last one (PUT story/{id}). */
export const STORY_SAVE_DEBOUNCE_MS = 800;

/** What the wizard has to save now: the story and the fields that changed. */
export interface StorySaveRequest {
  id: string;
  fields: SaveStoryFields;
}

/** Whether the wizard's draft has something to save, and whether it should go at once (a new step). */
interface DraftState {
  dirty: boolean;
  now: boolean;
}

/** What the wizard sends its autosave. */
export type StoryAutosaveEvent =
  /** The draft changed, or was saved or merged: wait to save it, or rest when there is nothing to save. */
  | ({ type: 'autosave.change' } & DraftState)
  /** The wizard's answer to `autosave.due`: what to send, or nothing. */
  | { type: 'autosave.request'; request: StorySaveRequest | null }
  /** A call that sends or replaces the board is about to go: no save may start or be on its way. */
  | { type: 'autosave.hold' }
  /** That call ended: saving goes on from the draft as it is now. */
  | ({ type: 'autosave.release' } & DraftState)
  /** A paid call was refused as stale (412): read the story again for a merge. */
  | { type: 'autosave.stale'; storyId: string };

/** What the autosave tells the wizard (the wizard's own events). */
export type StoryAutosaveEmitted = Extract<StoryWizardInternalEvent, { type: `autosave.${string}` }>;

export interface StoryAutosaveContext {
  /** The story being saved (from the last request or stale notice): the merge reads it. */
  storyId: string | null;
  /** The save being sent. */
  request: StorySaveRequest | null;
  /** Failed saves or merge reads in a row (the back-off). */
  errors: number;
}

const storyOf = ({ event }: { event: { output: Story } }) => ({ story: event.output });
const errorOf = ({ event }: { event: { error: unknown } }) => ({ error: event.error });

/** The draft changed (or the gate opened) while nothing is on its way: rest when clean, save a new step at once, else wait for more edits. */
const WAIT = [
  { guard: 'clean' as const, target: 'idle' as const },
  { guard: 'now' as const, target: 'due' as const },
  { target: 'debouncing' as const, reenter: true },
];
/** Resting, the draft changed: the same, unless the gate is held (the wizard says again when it opens). */
const WAIT_UNLESS_HELD = [{ guard: 'held' as const, target: 'idle' as const }, ...WAIT];
/** A read for a merge, where nothing else is on its way. */
const STALE = { target: 'merging' as const, actions: 'setStory' as const };
/** Held while nothing is on its way: the wizard may send its call now. */
const HOLD = { target: 'idle' as const, actions: 'tellHeld' as const };

export const storyAutosaveMachine = setup({
  types: {
    context: {} as StoryAutosaveContext,
    events: {} as StoryAutosaveEvent,
  },
  actors: {
    saveStory: fromPromise<Story, StorySaveRequest>(({ input, signal }) => saveStory(input.id, input.fields, { signal })),
    /** The merge's read of the story as the server has it now (after a 412). */
    readStory: fromPromise<Story, { id: string }>(({ input, signal }) => getStory(input.id, { signal })),
  },
  guards: {
    /** The wizard is sending or replacing the board. */
    held: stateIn({ gate: 'held' }),
    clean: ({ event }) => (event.type === 'autosave.change' || event.type === 'autosave.release') && !event.dirty,
    now: ({ event }) => (event.type === 'autosave.change' || event.type === 'autosave.release') && event.now,
    nothingToSend: ({ event }) => event.type === 'autosave.request' && event.request === null,
    stale: (_, params: { error: unknown }) => isStaleBoard(params.error),
    /** A save refused for a reason other than the network or the server being down is not sent again by itself. */
    retryable: (_, params: { error: unknown }) => isRetryable(params.error),
  },
  actions: {
    setRequest: assign(({ event }) => (event.type === 'autosave.request' && event.request ? { request: event.request, storyId: event.request.id } : {})),
    setStory: assign(({ event }) => (event.type === 'autosave.stale' ? { storyId: event.storyId } : {})),
    forgetErrors: assign({ errors: 0 }),
    countError: assign(({ context }) => ({ errors: context.errors + 1 })),
    askWizard: sendParent({ type: 'autosave.due' } satisfies StoryAutosaveEmitted),
    tellSaving: sendParent({ type: 'autosave.saving' } satisfies StoryAutosaveEmitted),
    tellHeld: sendParent({ type: 'autosave.held' } satisfies StoryAutosaveEmitted),
    tellSaved: sendParent((_, params: { story: Story }): StoryAutosaveEmitted => ({ type: 'autosave.saved', story: params.story })),
    tellMerge: sendParent((_, params: { story: Story }): StoryAutosaveEmitted => ({ type: 'autosave.merged', story: params.story })),
    tellFailed: sendParent((_, params: { error: unknown }): StoryAutosaveEmitted => ({ type: 'autosave.failed', message: errorMessageOf(params.error) })),
  },
  delays: {
    saveDelay: STORY_SAVE_DEBOUNCE_MS,
    /** Doubling (to the cap) while saves fail. */
    saveRetryDelay: ({ context }) => backoffCeiling(Math.max(context.errors - 1, 0), JOB_POLL),
  },
}).createMachine({
  id: 'storyAutosave',
  type: 'parallel',
  context: { storyId: null, request: null, errors: 0 },
  states: {
    gate: {
      initial: 'open',
      states: {
        open: { on: { 'autosave.hold': 'held' } },
        held: { on: { 'autosave.release': 'open' } },
      },
    },
    work: {
      initial: 'idle',
      states: {
        idle: {
          on: { 'autosave.change': WAIT_UNLESS_HELD, 'autosave.release': WAIT, 'autosave.hold': HOLD, 'autosave.stale': STALE },
        },
        debouncing: {
          after: { saveDelay: 'due' },
          on: { 'autosave.change': WAIT, 'autosave.hold': HOLD, 'autosave.stale': STALE },
        },
        /** Asked the wizard what to send; it answers at once (`autosave.request`). */
        due: {
          entry: 'askWizard',
          on: {
            'autosave.request': [
              { guard: 'held', target: 'idle', actions: 'tellHeld' },
              { guard: 'nothingToSend', target: 'idle' },
              { target: 'saving', actions: 'setRequest' },
            ],
            'autosave.stale': STALE,
          },
        },
        saving: {
          entry: 'tellSaving',
          invoke: {
            src: 'saveStory',
            input: ({ context }) => context.request as StorySaveRequest,
            onDone: [
              { guard: 'held', target: 'idle', actions: ['forgetErrors', { type: 'tellSaved', params: storyOf }, 'tellHeld'] },
              { target: 'idle', actions: ['forgetErrors', { type: 'tellSaved', params: storyOf }] },
            ],
            onError: [
              { guard: { type: 'stale', params: errorOf }, target: 'merging' },
              { guard: 'held', target: 'idle', actions: ['countError', { type: 'tellFailed', params: errorOf }, 'tellHeld'] },
              { guard: { type: 'retryable', params: errorOf }, target: 'retrying', actions: ['countError', { type: 'tellFailed', params: errorOf }] },
              { target: 'idle', actions: ['countError', { type: 'tellFailed', params: errorOf }] },
            ],
          },
        },
        retrying: {
          after: { saveRetryDelay: 'due' },
          on: { 'autosave.change': WAIT, 'autosave.hold': HOLD, 'autosave.stale': STALE },
        },
        merging: {
          entry: 'tellSaving',
          invoke: {
            src: 'readStory',
            input: ({ context }) => ({ id: context.storyId ?? '' }),
            onDone: [
              { guard: 'held', target: 'idle', actions: ['forgetErrors', { type: 'tellMerge', params: storyOf }, 'tellHeld'] },
              { target: 'idle', actions: ['forgetErrors', { type: 'tellMerge', params: storyOf }] },
            ],
            // The save is sent again after the back-off: refused again (412), it reads the story again.
            onError: [
              { guard: 'held', target: 'idle', actions: ['countError', { type: 'tellFailed', params: errorOf }, 'tellHeld'] },
              { target: 'retrying', actions: ['countError', { type: 'tellFailed', params: errorOf }] },
            ],
          },
        },
      },
    },
  },
});
