import { STORY_STEPS, type StoryStage, type StoryStep } from '@/config/story';
import { errorMessageOf } from '@/services/api-error';
import type { Story, Storyboard } from '@/services/schemas/story';
import { BOARD_EDIT_TYPES, nextStep } from '@/machines/story/story-board';
import { saveFieldsOf } from '@/machines/story/story-wizard.rules';
import type { StoryWizardContext } from '@/machines/story/story-wizard.types';

/**
 * The storyWizard machine's states, built as data: each step's sub-states, and the two regions
 * beside the steps (autosave, poller). The machine (story-wizard.machine.ts) names the guards and
 * actions they use.
 */

/** A step of the wizard region, by its absolute id. */
export const STEP = (stage: StoryStage | 'loading' | 'notFound' | 'loadFailed' | 'concatenating'): string => `#storyWizard.wizard.${stage}`;

/** The states where a call sends or replaces the board: a save waits until they are left (they schedule one when left). */
export const SENDING_STATES = [
  ...(['elements', 'scenes', 'scriptboard', 'done'] as const).map((step) => `${STEP(step)}.generating`),
  `${STEP('idea')}.rewriting`,
  `${STEP('storyboard')}.rewriting`,
];

const storyOf = ({ event }: { event: { output: Story } }) => ({ story: event.output });
export const errorOf = ({ event }: { event: { error: unknown } }) => ({ message: errorMessageOf(event.error) });
const errorParams = ({ event }: { event: { error: unknown } }) => ({ error: event.error });

/** The board edits, taken where the board is not being sent or replaced. */
export const EDITS = Object.fromEntries(
  BOARD_EDIT_TYPES.map((type) => [type, { guard: 'changesBoard', actions: ['applyEdit', 'scheduleSave'] }]),
) as Record<(typeof BOARD_EDIT_TYPES)[number], { guard: 'changesBoard'; actions: ['applyEdit', 'scheduleSave'] }>;

/** Going from `from` to another step: any earlier one, a later one when it can be reached; `step.next` to the one after it. */
export function nav(from: StoryStage) {
  const next = from === 'done' ? null : nextStep(from);
  return {
    'step.goto': STORY_STEPS.filter((step) => step !== from).map((step) => ({
      guard: { type: 'canGoTo' as const, params: { step } },
      target: STEP(step),
    })),
    ...(next ? { 'step.next': { guard: { type: 'canGoTo' as const, params: { step: next } }, target: STEP(next) } } : {}),
  };
}

/** A film the person stepped away from while it was joined is made: they are taken to it once they are idle. */
export const FOLLOWED_FILM_MADE = { guard: 'followedFilmMade' as const, target: STEP('done'), actions: 'stopFollowingFilm' as const };

/** Going back while the film is joined: the same moves as on the scriptboard, and the film is followed. */
export function navFollowingFilm() {
  const moves = nav('scriptboard');
  const follow = <T extends object>(transition: T) => ({ ...transition, actions: 'startFollowingFilm' as const });
  return { 'step.goto': moves['step.goto'].map(follow), ...(moves['step.next'] ? { 'step.next': follow(moves['step.next']) } : {}) };
}

/** A step where the person works on the board: its paid parts, cancelling, going elsewhere. */
export function boardStep(
  step: StoryStep | 'done',
  parts: readonly ('elements' | 'scenes' | 'videos')[],
  extra: { on?: Record<string, unknown>; states?: Record<string, unknown> } = {},
) {
  const idle = `${STEP(step)}.idle`;
  const withSound = parts.includes('videos');
  return {
    entry: { type: 'enterStep' as const, params: { step } },
    initial: 'idle' as const,
    states: {
      idle: {
        // The done step is where the followed film leads: it never follows one itself.
        ...(step === 'done' ? {} : { always: FOLLOWED_FILM_MADE }),
        on: {
          ...EDITS,
          ...nav(step),
          ...(parts.length > 0
            ? {
                'part.generate': {
                  guard: { type: 'canRequest' as const, params: { parts } },
                  target: 'generating',
                  actions: 'prepareRequest' as const,
                },
              }
            : {}),
          ...(withSound
            ? {
                'audio.generate': { guard: 'canMakeSound' as const, target: 'generating', actions: 'prepareSoundRequest' as const },
                'concat.start': { guard: 'canJoin' as const, target: STEP('concatenating') },
              }
            : {}),
          'part.cancel': { guard: 'partRunning' as const, target: 'cancelling', actions: 'setCancelPart' as const },
          ...extra.on,
        },
      },
      ...(parts.length > 0
        ? {
            generating: {
              // Edits made meanwhile are saved once the board is back (a save waits while the call is on its way).
              exit: 'scheduleSave' as const,
              initial: 'checkingCredit' as const,
              states: {
                checkingCredit: {
                  always: [{ guard: 'canAffordRequest' as const, target: 'waitingForSave' }, { target: idle, actions: 'setDeniedError' as const }],
                },
                // A save of older edits still on its way could land after the answer: it goes first.
                waitingForSave: { always: { guard: 'noSaveInFlight' as const, target: 'submitting' } },
                submitting: {
                  invoke: {
                    src: 'generate' as const,
                    input: ({ context }: { context: StoryWizardContext }) => ({
                      id: context.storyId ?? '',
                      part: context.request?.part ?? 'elements',
                      board: context.board as Storyboard,
                      ids: context.request?.ids ?? [],
                      idempotencyKey: context.idempotencyKey ?? '',
                      revision: context.revision,
                    }),
                    onDone: {
                      target: idle,
                      actions: [{ type: 'takeGenerated' as const, params: storyOf }, 'restartPolling', 'reportCreditsChanged'] as const,
                    },
                    onError: [
                      { guard: { type: 'isRetryableSubmit' as const, params: errorParams }, target: 'retrying', actions: 'countRetry' as const },
                      {
                        target: idle,
                        actions: [
                          { type: 'setError' as const, params: errorOf },
                          { type: 'mergeIfStale' as const, params: errorParams },
                        ],
                      },
                    ],
                  },
                },
                retrying: { after: { retryDelay: 'submitting' } },
              },
            },
          }
        : {}),
      cancelling: {
        on: EDITS,
        invoke: {
          src: 'cancelPart' as const,
          input: ({ context }: { context: StoryWizardContext }) => ({ id: context.storyId ?? '', part: context.cancelPart ?? 'elements' }),
          onDone: { target: idle, actions: [{ type: 'storeStory' as const, params: storyOf }, 'restartPolling', 'reportCreditsChanged'] as const },
          onError: { target: idle, actions: { type: 'setError' as const, params: errorOf } },
        },
      },
      ...extra.states,
    },
  };
}

/** "Rewrite from idea": waits for a save on its way, then PUT rewrite; the new board replaces the draft. */
export const rewriting = (done: string) => ({
  entry: 'cancelSaveTimer' as const,
  exit: 'scheduleSave' as const,
  initial: 'waitingForSave' as const,
  states: {
    waitingForSave: { always: { guard: 'noSaveInFlight' as const, target: 'sending' } },
    sending: {
      invoke: {
        src: 'saveStory' as const,
        input: ({ context }: { context: StoryWizardContext }) => ({ id: context.storyId ?? '', fields: { rewrite: true } }),
        onDone: { target: done, actions: { type: 'takeRewritten' as const, params: storyOf } },
        onError: { target: `${STEP('storyboard')}.idle`, actions: { type: 'setError' as const, params: errorOf } },
      },
    },
  },
});

/**
 * Where a change sends a resting autosave (a save on its way schedules the next one itself when it
 * ends): nothing to save; a new step at once; edits after the 800 ms wait, restarted by each one.
 */
const SCHEDULE_SAVE = [
  { guard: 'nothingToSave' as const, target: 'idle' },
  // A new step is saved at once: a reload right after moving on resumes on that step.
  { guard: 'stepChanged' as const, target: 'idle', actions: 'flushSave' as const },
  { target: 'debouncing', reenter: true },
];

/**
 * Autosave: edits and the current step are saved 800 ms after the last change (PUT story/{id}),
 * sent again with back-off while the save fails for want of an answer; a board refused as edited
 * from an older revision (412) is read again and merged with this tab's edits (merging), then saved.
 */
export const AUTOSAVE_REGION = {
  initial: 'idle' as const,
  // A paid call refused as stale reads the story again and merges, unless a save is on its way.
  on: { 'story.stale': { guard: 'canMerge' as const, target: '.merging' } },
  states: {
    /** Nothing waits to be saved, or it waits for the next change (or for the call that replaces the board to end). */
    idle: { on: { 'autosave.schedule': SCHEDULE_SAVE, 'autosave.flush': { guard: 'canSaveNow' as const, target: 'saving' } } },
    debouncing: {
      after: { saveDelay: { target: 'idle', actions: 'flushSave' as const } },
      on: { 'autosave.schedule': SCHEDULE_SAVE, 'autosave.cancel': 'idle' },
    },
    saving: {
      entry: 'markSending' as const,
      invoke: {
        id: 'save',
        src: 'saveStory' as const,
        input: ({ context }: { context: StoryWizardContext }) => ({ id: context.storyId ?? '', fields: saveFieldsOf(context) ?? {} }),
        onDone: { target: 'idle', actions: [{ type: 'markSaved' as const, params: storyOf }, 'scheduleSave'] as const },
        onError: [
          { guard: { type: 'staleBoard' as const, params: errorParams }, target: 'merging' },
          {
            guard: { type: 'saveRetryable' as const, params: errorParams },
            target: 'retrying',
            actions: { type: 'markSaveFailed' as const, params: errorOf },
          },
          { target: 'idle', actions: { type: 'markSaveFailed' as const, params: errorOf } },
        ],
      },
    },
    /** The board was saved elsewhere since this draft's revision: the story is read again and the two merged. */
    merging: {
      invoke: {
        id: 'merge',
        src: 'pollStory' as const,
        input: ({ context }: { context: StoryWizardContext }) => ({ id: context.storyId ?? '' }),
        onDone: { target: 'idle', actions: { type: 'takeMerged' as const, params: storyOf } },
        // The save is sent again: refused again (412), it reads the story again.
        onError: { target: 'retrying', actions: { type: 'markSaveFailed' as const, params: errorOf } },
      },
    },
    retrying: {
      after: { saveRetryDelay: { target: 'idle', actions: 'flushSave' as const } },
      on: { 'autosave.schedule': SCHEDULE_SAVE, 'autosave.cancel': 'idle' },
    },
  },
};

/** Shown again: polled at once when a job is live; hidden: the wait is dropped until it is shown. */
const VISIBILITY = [
  { guard: 'becameVisibleWithLiveJobs' as const, target: 'polling', actions: 'setHidden' as const },
  { target: 'idle', actions: 'setHidden' as const },
];

/**
 * Poller: while any job of the story is live it is polled (GET story/{id}) every JOB_POLL
 * interval, paused while the page is hidden, backing off on errors, given up after
 * JOB_REQUEST_TIMEOUT_MS and asked again.
 */
export const POLLER_REGION = {
  initial: 'idle' as const,
  on: { 'poller.restart': { target: '.idle', actions: ['resetPollErrors', 'schedulePoll'] as const } },
  states: {
    idle: {
      on: {
        // The story changed: the next poll after its wait while a job is live and the page shown.
        'poller.schedule': { guard: 'shouldPoll' as const, target: 'waiting' },
        'story.visibility': [{ guard: 'becameVisibleWithLiveJobs' as const, target: 'polling', actions: 'setHidden' as const }, { actions: 'setHidden' as const }],
      },
    },
    waiting: {
      after: { pollDelay: 'polling' },
      on: { 'story.visibility': VISIBILITY },
    },
    polling: {
      after: { requestTimeout: { target: 'idle', actions: ['pollFailed', 'schedulePoll'] as const } },
      on: { 'story.visibility': { actions: 'setHidden' as const } },
      invoke: {
        id: 'poll',
        src: 'pollStory' as const,
        input: ({ context }: { context: StoryWizardContext }) => ({ id: context.storyId ?? '' }),
        onDone: [
          {
            guard: { type: 'jobsEnded' as const, params: storyOf },
            target: 'idle',
            actions: [{ type: 'storePolled' as const, params: storyOf }, 'reportCreditsChanged', 'schedulePoll'] as const,
          },
          { target: 'idle', actions: [{ type: 'storePolled' as const, params: storyOf }, 'schedulePoll'] as const },
        ],
        onError: { target: 'idle', actions: ['pollFailed', 'schedulePoll'] as const },
      },
    },
  },
};

export { storyOf };
