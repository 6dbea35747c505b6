import { STORY_STEPS, type StoryStage, type StoryStep } from '@/config/story';
import { errorMessageOf } from '@/services/api-error';
import type { Story, Storyboard } from '@/services/schemas/story';
import { BOARD_EDIT_TYPES, nextStep } from '@/machines/story/story-board';
import type { StoryWizardContext } from '@/machines/story/story-wizard.types';
import { paidAnswer, paidError, paidMessage, type PaidRequestOutput } from '@/machines/paid-request/paid-request.machine';
import { STORY_SUBMIT_RETRIES, type StoryPaidRequest } from '@/machines/story/story-wizard.setup';

/**
 * The storyWizard machine's state builders, as data: the board edits, the moves between steps,
 * a board step (idle, generating: the paid-request child, cancelling) and "rewrite from idea".
 * They name the guards and actions of story-wizard.setup; story-wizard.machine puts the steps
 * together.
 */

/** The board edits, taken where the board is not being sent or replaced. */
export const EDITS = Object.fromEntries(BOARD_EDIT_TYPES.map((type) => [type, { guard: 'changesBoard', actions: 'applyEdit' }])) as Record<
  (typeof BOARD_EDIT_TYPES)[number],
  { guard: 'changesBoard'; actions: 'applyEdit' }
>;

/** Going from `from` to another step: any earlier one, a later one when it can be reached; `step.next` to the one after it. */
export function nav(from: StoryStage) {
  const next = from === 'done' ? null : nextStep(from);
  return {
    'step.goto': STORY_STEPS.filter((step) => step !== from).map((step) => ({
      guard: { type: 'canGoTo' as const, params: { step } },
      target: `#storyWizard.${step}`,
    })),
    ...(next ? { 'step.next': { guard: { type: 'canGoTo' as const, params: { step: next } }, target: `#storyWizard.${next}` } } : {}),
  };
}

/** A film the person stepped away from while it was joined is made: they are taken to it once they are idle. */
export const FOLLOWED_FILM_MADE = { guard: 'followedFilmMade' as const, target: '#storyWizard.done', actions: 'stopFollowingFilm' as const };

/** Going back while the film is joined: the same moves as on the scriptboard, and the film is followed. */
export function navFollowingFilm() {
  const moves = nav('scriptboard');
  const follow = <T extends object>(transition: T) => ({ ...transition, actions: 'startFollowingFilm' as const });
  return { 'step.goto': moves['step.goto'].map(follow), ...(moves['step.next'] ? { 'step.next': follow(moves['step.next']) } : {}) };
}

export const storyOf = ({ event }: { event: { output: Story } }) => ({ story: event.output });
type PaidDoneEvent = { event: { output: PaidRequestOutput } };
export const errorOf = ({ event }: { event: { error: unknown } }) => ({ message: errorMessageOf(event.error) });

/** A step where the person works on the board: its paid parts, cancelling, going elsewhere. */
export function boardStep(
  step: StoryStep | 'done',
  parts: readonly ('elements' | 'scenes' | 'videos')[],
  extra: { on?: Record<string, unknown>; states?: Record<string, unknown> } = {},
) {
  const idle = `#storyWizard.${step}.idle`;
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
                'concat.start': { guard: 'canJoin' as const, target: '#storyWizard.concatenating' },
              }
            : {}),
          'part.cancel': { guard: 'partRunning' as const, target: 'cancelling', actions: 'setCancelPart' as const },
          ...(parts.length > 0
            ? Object.fromEntries(
                (['take.select', 'take.undo'] as const).map((type) => [
                  type,
                  { guard: { type: 'canChooseTake' as const, params: { parts } }, target: 'choosingTake', actions: 'prepareTake' as const },
                ]),
              )
            : {}),
          ...extra.on,
        },
      },
      ...(parts.length > 0
        ? {
            generating: {
              // A save of older edits still on its way could land after the answer: the paid call
              // checks the credit at once, then waits for the autosave to be held before it sends.
              entry: 'holdAutosave' as const,
              exit: 'releaseAutosave' as const,
              on: { 'autosave.held': { actions: 'tellPaidGo' as const } },
              invoke: {
                id: 'paidRequest',
                src: 'generate' as const,
                input: ({ context }: { context: StoryWizardContext }) => ({
                  user: context.user,
                  credit: context.credit,
                  cost: context.request?.cost ?? 0,
                  request: {
                    id: context.storyId ?? '',
                    part: context.request?.part ?? 'elements',
                    board: context.board as Storyboard,
                    ids: context.request?.ids ?? [],
                    revision: context.revision,
                  } satisfies StoryPaidRequest,
                  idempotencyKey: context.idempotencyKey ?? undefined,
                  maxRetries: STORY_SUBMIT_RETRIES,
                  retryServerErrors: true,
                  wording: 'story' as const,
                  gated: true,
                }),
                onDone: [
                  {
                    guard: { type: 'paidDone' as const, params: ({ event }: PaidDoneEvent) => ({ output: event.output }) },
                    target: idle,
                    actions: [{ type: 'takeGenerated' as const, params: ({ event }: PaidDoneEvent) => ({ story: paidAnswer<Story>(event.output) }) }, 'restartPolling', 'reportCreditsChanged'] as const,
                  },
                  // Refused by the credit check (SPEC §6 words), or failed (a board refused as stale is merged).
                  {
                    target: idle,
                    actions: [
                      { type: 'setError' as const, params: ({ event }: PaidDoneEvent) => ({ message: paidMessage(event.output) }) },
                      { type: 'mergeIfStale' as const, params: ({ event }: PaidDoneEvent) => ({ error: paidError(event.output) }) },
                    ],
                  },
                ],
              },
            },
          }
        : {}),
      ...(parts.length > 0 ? { choosingTake: choosingTake(idle) } : {}),
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

/**
 * A take picked or the last regeneration undone (free): like a paid call, it waits for a save on
 * its way, then sends the draft with the choice; the answer's board (the draft with the choice
 * written in, saved) replaces it. A board refused as stale is merged, as after a paid call.
 */
const choosingTake = (idle: string) => ({
  entry: 'holdAutosave' as const,
  exit: 'releaseAutosave' as const,
  initial: 'waitingForSave' as const,
  states: {
    waitingForSave: { on: { 'autosave.held': 'sending' } },
    sending: {
      invoke: {
        src: 'chooseTake' as const,
        input: ({ context }: { context: StoryWizardContext }) => ({
          id: context.storyId ?? '',
          take: context.take ?? { part: 'elements' as const, partId: '', mediaId: null },
          fields: { storyboard: context.board ?? undefined, revision: context.revision || undefined },
        }),
        onDone: { target: idle, actions: [{ type: 'takeGenerated' as const, params: storyOf }, 'restartPolling'] as const },
        onError: {
          target: idle,
          actions: [
            { type: 'setError' as const, params: errorOf },
            { type: 'mergeIfStale' as const, params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }) },
          ],
        },
      },
    },
  },
});

/** "Rewrite from idea": waits for a save on its way, then PUT rewrite; the new board replaces the draft. */
export const rewriting = (done: string) => ({
  entry: 'holdAutosave' as const,
  exit: 'releaseAutosave' as const,
  initial: 'waitingForSave' as const,
  states: {
    waitingForSave: { on: { 'autosave.held': 'sending' } },
    sending: {
      invoke: {
        src: 'saveStory' as const,
        input: ({ context }: { context: StoryWizardContext }) => ({ id: context.storyId ?? '', fields: { rewrite: true } }),
        onDone: { target: done, actions: { type: 'takeRewritten' as const, params: storyOf } },
        onError: { target: '#storyWizard.storyboard.idle', actions: { type: 'setError' as const, params: errorOf } },
      },
    },
  },
});
