import { and, assign, emit, enqueueActions, fromPromise, setup, stopChild } from 'xstate';
import { JOB_POLL, JOB_REQUEST_TIMEOUT_MS, JOB_SUBMIT_RETRY_STATUSES } from '@/config/limits';
import { MESSAGES } from '@/config/messages';
import { STORY_IDEA, STORY_STAGES, STORY_STEPS, type StoryPart, type StoryStage, type StoryStep } from '@/config/story';
import { backoffCeiling, fullJitterDelay } from '@/lib/backoff';
import { canAfford } from '@/lib/credit-check';
import type { CreditCheckUser } from '@/lib/credit-check';
import { classifyStatus } from '@/lib/job-status';
import { newIdempotencyKey } from '@/lib/idempotency-key';
import { storyAudioPrice, storyPartPrice } from '@/lib/story';
import { errorMessageOf, isApiError } from '@/services/api-error';
import {
  cancelStoryPart,
  concatStory,
  createStory,
  generateStoryAudio,
  generateStoryPart,
  getStory,
  saveStory,
} from '@/services/story';
import type { CreateStoryFields, SaveStoryFields } from '@/services/story';
import type { Story, Storyboard } from '@/services/schemas/story';
import {
  applyBoardEdit,
  BOARD_EDIT_TYPES,
  boardIsValid,
  concatInputs,
  concatProblem,
  hasLiveJobs,
  nextStep,
  partRecord,
  partStatesOf,
  reachableSteps,
  requestIds,
  STORY_RULE_TEXTS,
  type BoardEditEvent,
} from '@/machines/story/story-board';
import { mergeBoards } from '@/machines/story/story-merge';
import type { IdeaFields, StoryWizardEvent, StoryWizardInput } from '@/machines/story/story-wizard.types';

// Screens may not import services; they get these types from here.
export type { Story, StoryAsset, StoryAudio, Storyboard, StoryElement, StoryScene, StorySummary } from '@/services/schemas/story';
export type { Media } from '@/services/schemas/media';
export type { CreditCheckUser } from '@/lib/credit-check';
export type { StoryPartState, StoryPartStates, StoryCost } from '@/lib/story';
export type * from '@/machines/story/story-wizard.types';

/** Edits are saved this long after the last one (PUT story/{id}). */
export const STORY_SAVE_DEBOUNCE_MS = 800;
/** Sending a paid call again after no answer (same key) at most this many times. */
export const STORY_SUBMIT_RETRIES = 4;

/** The paid calls: a step's parts, or the sound. */
export type StoryRequestPart = 'elements' | 'scenes' | 'videos' | 'audio';

export interface StoryRequest {
  part: StoryRequestPart;
  /** The elements or scenes made ([] for the sound). */
  ids: string[];
  /** Credits it costs, as checked before sending. */
  cost: number;
}

export interface StoryWizardContext {
  storyId: string | null;
  /** The story as the server last answered (its media map and the join); null before one exists. */
  story: Story | null;
  /** The storyboard being edited: the server's until the person changes it. */
  board: Storyboard | null;
  /** The server's storyboard the draft was edited from, and its revision (sent back with a save or a paid call). */
  baseBoard: Storyboard | null;
  revision: string;
  /** Bumped on every board change; equal to savedBoardVersion when the server has this board. */
  boardVersion: number;
  savedBoardVersion: number;
  sendingBoardVersion: number;
  /** The step the person is on, and the one the server has recorded. */
  step: StoryStage;
  savedStep: StoryStage;
  sendingStep: StoryStage;
  /** A PUT story/{id} of the edits is on its way. */
  saveInFlight: boolean;
  /** Failed saves in a row (the indicator says "Not saved — retrying"), and the last reason. */
  saveErrors: number;
  saveError: string | null;
  /** A call that sends or replaces the board is on its way: saves wait for it. */
  sending: boolean;
  /** A GET story/{id} poll is on its way; failed polls in a row (the back-off). */
  pollInFlight: boolean;
  pollErrors: number;
  user: CreditCheckUser | null;
  credit: number | null;
  creditLoading: boolean;
  hidden: boolean;
  /** The idea being sent (POST story or PUT story/{id}). */
  ideaFields: IdeaFields | null;
  /** The paid call being made, one Idempotency-Key per click (every retry sends it again). */
  request: StoryRequest | null;
  idempotencyKey: string | null;
  retryAttempt: number;
  /** The part whose running jobs are being cancelled. */
  cancelPart: StoryPart | null;
  /** The person went back to a step while the film was being joined: it takes them to the film once it is made. */
  followFilm: boolean;
  /** What the last action that failed says; null when nothing failed. */
  error: string | null;
  /** What the person is told that is not a failure (edits merged with another tab's); null when nothing. */
  notice: string | null;
}

/** Events the machine sends itself (timers) and the answers of the calls it spawns. */
export type StoryWizardInternalEvent =
  | { type: 'save.flush' }
  /** A paid call was refused (412): the board changed elsewhere since this draft's revision. */
  | { type: 'story.stale' }
  | { type: 'poll.tick' }
  | { type: 'poll.timeout' }
  | { type: 'xstate.done.actor.save'; output: Story }
  | { type: 'xstate.error.actor.save'; error: unknown }
  | { type: 'xstate.done.actor.poll'; output: Story }
  | { type: 'xstate.error.actor.poll'; error: unknown }
  | { type: 'xstate.done.actor.merge'; output: Story }
  | { type: 'xstate.error.actor.merge'; error: unknown };

export type StoryWizardMachineEvent = StoryWizardEvent | StoryWizardInternalEvent;

/** What the wizard tells the page (`actor.on`): the new story's id (replace the URL), a credits refresh. */
export type StoryWizardEmitted = { type: 'story.created'; id: string } | { type: 'story.creditsChanged' };

const statusOf = (error: unknown): number | undefined => (isApiError(error) ? error.status : undefined);
/** The server refused a board edited from an older revision (another tab or device saved one since). */
const isStaleBoard = (error: unknown): boolean => statusOf(error) === 412;
const isNetwork = (error: unknown): boolean => isApiError(error) && error.kind === 'network';
/** No answer, a server failure, or the first request with this key still running: worth sending again. */
const isRetryable = (error: unknown): boolean => {
  const status = statusOf(error) ?? 0;
  return isNetwork(error) || status >= 500 || JOB_SUBMIT_RETRY_STATUSES.includes(status);
};

const stageIndex = (stage: StoryStage): number => STORY_STAGES.indexOf(stage);

/** Derived part states of the board as it stands (null before a story exists). */
export const statesOf = (context: Pick<StoryWizardContext, 'story' | 'board'>) =>
  context.story && context.board ? partStatesOf(context.story, context.board) : null;

export const reachableOf = (context: Pick<StoryWizardContext, 'story' | 'board'>) =>
  reachableSteps(context.story, context.board, statesOf(context));

export const concatProblemOf = (context: Pick<StoryWizardContext, 'story' | 'board'>): string | null =>
  concatProblem(context.story, context.board, statesOf(context));

const boardDirty = (context: StoryWizardContext): boolean => context.boardVersion !== context.savedBoardVersion;
export const isDirty = (context: StoryWizardContext): boolean => boardDirty(context) || context.step !== context.savedStep;

/** What a save sends now: the board when it changed and passes the API's checks, the step when it changed. */
function saveFieldsOf(context: StoryWizardContext): SaveStoryFields | null {
  const fields: SaveStoryFields = {};
  if (context.board && boardDirty(context) && boardIsValid(context.board)) {
    fields.storyboard = context.board;
    if (context.revision) fields.revision = context.revision;
  }
  if (context.step !== context.savedStep) fields.step = context.step;
  return Object.keys(fields).length > 0 ? fields : null;
}

export type SaveState = 'saved' | 'saving' | 'unsaved' | 'failed';

export function saveStateOf(context: StoryWizardContext): SaveState {
  if (context.saveInFlight) return 'saving';
  if (!isDirty(context)) return 'saved';
  return context.saveErrors > 0 ? 'failed' : 'unsaved';
}

/** Where a loaded story resumes: a live join, the finished film, else the step it records (or the last one reachable before it). */
export function resumeStageOf(story: Story): StoryStep | 'concatenating' | 'done' {
  if (story.concat && classifyStatus(story.concat.status) === 'processing') return 'concatenating';
  if (story.step === 'done') return 'done';
  const reachable = reachableSteps(story, story.storyboard, partStatesOf(story, story.storyboard));
  const recorded = STORY_STEPS.indexOf(story.step);
  return [...STORY_STEPS.slice(0, recorded + 1)].reverse().find((step) => reachable[step]) ?? 'idea';
}

/** Why these parts cannot be made yet (their inputs are not made), or null. */
function requestProblem(context: StoryWizardContext, part: 'elements' | 'scenes' | 'videos', ids: readonly string[]): boolean {
  const states = statesOf(context);
  const board = context.board;
  if (!states || !board || ids.length === 0) return true;
  if (!boardIsValid(board)) return true;
  const record = partRecord(states, part);
  if (ids.some((partId) => record[partId] === 'running')) return true;
  const made = (state: string | undefined) => state === 'ready' || state === 'stale';
  if (part === 'scenes') {
    return board.scenes
      .filter((scene) => ids.includes(scene.id))
      .some((scene) => scene.element_ids.some((elementId) => !made(states.elements[elementId])));
  }
  if (part === 'videos') return ids.some((sceneId) => !made(states.sceneImages[sceneId]));
  return false;
}

const ideaIsValid = (fields: IdeaFields): boolean => {
  const length = fields.idea.trim().length;
  return length >= STORY_IDEA.min && length <= STORY_IDEA.max;
};

type TimerEvent = { type: 'save.flush' } | { type: 'poll.tick' } | { type: 'poll.timeout' };
type StoryDelay = 'saveDelay' | 'saveRetryDelay' | 'pollDelay' | 'retryDelay' | 'requestTimeout';
/** The part of `enqueue` the timer helpers use. */
interface TimerQueue {
  cancel: (id: string) => void;
  raise: (event: TimerEvent, options?: { id?: string; delay?: StoryDelay }) => void;
}

/** (Re)starts the 800 ms wait before saving edits (a changed step is saved at once), when there is something to save. */
function queueSave(enqueue: TimerQueue, context: StoryWizardContext): void {
  enqueue.cancel('saveTimer');
  if (context.storyId === null || !isDirty(context)) return;
  // A new step is saved at once: a reload right after moving on resumes on that step.
  if (context.step !== context.savedStep) enqueue.raise({ type: 'save.flush' }, { id: 'saveTimer' });
  else enqueue.raise({ type: 'save.flush' }, { id: 'saveTimer', delay: 'saveDelay' });
}

/** The next poll, when a job is live and the page is shown. */
function queuePoll(enqueue: TimerQueue, context: StoryWizardContext): void {
  enqueue.cancel('pollTimer');
  if (context.storyId !== null && !context.hidden && !context.pollInFlight && hasLiveJobs(context.story)) {
    enqueue.raise({ type: 'poll.tick' }, { id: 'pollTimer', delay: 'pollDelay' });
  }
}

/** The board edits, taken where the board is not being sent or replaced. */
const EDITS = Object.fromEntries(BOARD_EDIT_TYPES.map((type) => [type, { guard: 'changesBoard', actions: 'applyEdit' }])) as Record<
  (typeof BOARD_EDIT_TYPES)[number],
  { guard: 'changesBoard'; actions: 'applyEdit' }
>;

/** Going from `from` to another step: any earlier one, a later one when it can be reached; `step.next` to the one after it. */
function nav(from: StoryStage) {
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
const FOLLOWED_FILM_MADE = { guard: 'followedFilmMade' as const, target: '#storyWizard.done', actions: 'stopFollowingFilm' as const };

/** Going back while the film is joined: the same moves as on the scriptboard, and the film is followed. */
function navFollowingFilm() {
  const moves = nav('scriptboard');
  const follow = <T extends object>(transition: T) => ({ ...transition, actions: 'startFollowingFilm' as const });
  return { 'step.goto': moves['step.goto'].map(follow), ...(moves['step.next'] ? { 'step.next': follow(moves['step.next']) } : {}) };
}

const storyOf = ({ event }: { event: { output: Story } }) => ({ story: event.output });
const errorOf = ({ event }: { event: { error: unknown } }) => ({ message: errorMessageOf(event.error) });

/** A step where the person works on the board: its paid parts, cancelling, going elsewhere. */
function boardStep(
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
          ...extra.on,
        },
      },
      ...(parts.length > 0
        ? {
            generating: {
              entry: 'startSending' as const,
              exit: ['stopSending', 'scheduleSave'] as const,
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
                      {
                        guard: { type: 'isRetryableSubmit' as const, params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }) },
                        target: 'retrying',
                        actions: 'countRetry' as const,
                      },
                      {
                        target: idle,
                        actions: [
                          { type: 'setError' as const, params: errorOf },
                          { type: 'mergeIfStale' as const, params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }) },
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
const rewriting = (done: string) => ({
  entry: ['startSending', 'cancelSaveTimer'] as const,
  exit: ['stopSending', 'scheduleSave'] as const,
  initial: 'waitingForSave' as const,
  states: {
    waitingForSave: { always: { guard: 'noSaveInFlight' as const, target: 'sending' } },
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

/**
 * The AI Story production wizard (issue 6; SPEC §1, §2.7, §3 Story, §7 story calls). Top-level
 * states are the steps a person sees: loading → idea | storyboard | elements | scenes |
 * scriptboard (the step the server's story records) | loadFailed | notFound; concatenating → done.
 * Each step has its own sub-states (idle, generating { checkingCredit → waitingForSave →
 * submitting ⇄ retrying }, cancelling, rewriting…).
 *
 * Beside the steps, at the root: edits and the current step are saved 800 ms after the last
 * change (a spawned PUT story/{id}, retried with back-off while it fails), and while any job of
 * the story is live it is polled (a spawned GET story/{id} every JOB_POLL interval, paused while
 * the page is hidden, backing off on errors, given up after JOB_REQUEST_TIMEOUT_MS). Going back
 * never discards anything; parts made from inputs that changed since are derived as stale
 * (storyPartStates), kept and shown.
 */
export const storyWizardMachine = setup({
  types: {
    context: {} as StoryWizardContext,
    events: {} as StoryWizardMachineEvent,
    input: {} as StoryWizardInput,
    emitted: {} as StoryWizardEmitted,
  },
  actors: {
    loadStory: fromPromise<Story, { id: string }>(({ input, signal }) => getStory(input.id, { signal })),
    pollStory: fromPromise<Story, { id: string }>(({ input, signal }) => getStory(input.id, { signal })),
    createStory: fromPromise<Story, CreateStoryFields>(({ input, signal }) => createStory(input, { signal })),
    saveStory: fromPromise<Story, { id: string; fields: SaveStoryFields }>(({ input, signal }) => saveStory(input.id, input.fields, { signal })),
    generate: fromPromise<Story, { id: string; part: StoryRequestPart; board: Storyboard; ids: string[]; idempotencyKey: string; revision: string }>(
      ({ input, signal }) =>
        input.part === 'audio'
          ? generateStoryAudio(input.id, input.board, { idempotencyKey: input.idempotencyKey, revision: input.revision, signal })
          : generateStoryPart(input.id, input.part, input.board, input.ids, { idempotencyKey: input.idempotencyKey, revision: input.revision, signal }),
    ),
    concat: fromPromise<Story, { id: string; videoUrls: string[]; audioUrls: string[] }>(({ input, signal }) =>
      concatStory(input.id, input.videoUrls, input.audioUrls, { signal }),
    ),
    cancelPart: fromPromise<Story, { id: string; part: StoryPart }>(({ input, signal }) => cancelStoryPart(input.id, input.part, { signal })),
  },
  guards: {
    isNewStory: ({ context }) => context.storyId === null,
    hasStory: ({ context }) => context.story !== null,
    ideaValid: ({ event }) => event.type === 'idea.submit' && ideaIsValid(event.fields),
    resumesAt: (_, params: { story: Story; stage: StoryStep | 'concatenating' | 'done' }) => resumeStageOf(params.story) === params.stage,
    isNotFound: (_, params: { error: unknown }) => statusOf(params.error) === 404,
    changesBoard: ({ context, event }) =>
      context.board !== null && (BOARD_EDIT_TYPES as readonly string[]).includes(event.type) && applyBoardEdit(context.board, event as BoardEditEvent) !== context.board,
    canGoTo: ({ context, event }, params: { step: StoryStep }) => {
      const current = context.step;
      const wanted = event.type === 'step.goto' ? event.step : event.type === 'step.next' && current !== 'done' ? nextStep(current) : null;
      if (wanted !== params.step || wanted === current) return false;
      return stageIndex(wanted) < stageIndex(current) || reachableOf(context)[wanted];
    },
    canRequest: ({ context, event }, params: { parts: readonly ('elements' | 'scenes' | 'videos')[] }) => {
      if (event.type !== 'part.generate' || !params.parts.includes(event.part)) return false;
      const states = statesOf(context);
      if (!states) return false;
      return !requestProblem(context, event.part, requestIds(states, event.part, event.ids));
    },
    canMakeSound: ({ context }) => {
      const states = statesOf(context);
      const audio = context.board?.audio;
      return !!states && !!audio && audio.kind !== 'none' && audio.text.trim() !== '' && states.audio !== 'running';
    },
    canJoin: ({ context }) => concatProblemOf(context) === null,
    partRunning: ({ context, event }) => {
      if (event.type !== 'part.cancel') return false;
      if (event.part === 'concat') return !!context.story?.concat && classifyStatus(context.story.concat.status) === 'processing';
      const states = statesOf(context);
      if (!states) return false;
      if (event.part === 'audio') return states.audio === 'running';
      return Object.values(partRecord(states, event.part)).includes('running');
    },
    /** SPEC §6, before any paid call. */
    canAffordRequest: ({ context }) => canAfford({ user: context.user, cost: context.request?.cost ?? 0, credit: context.credit }),
    noSaveInFlight: ({ context }) => !context.saveInFlight,
    isRetryableSubmit: ({ context }, params: { error: unknown }) => context.retryAttempt < STORY_SUBMIT_RETRIES && isRetryable(params.error),
    concatSucceeded: ({ context }) => !!context.story?.concat && classifyStatus(context.story.concat.status) === 'success',
    concatEnded: ({ context }) => !context.story?.concat || classifyStatus(context.story.concat.status) !== 'processing',
    followedFilmMade: ({ context }) => context.followFilm && !!context.story?.concat && classifyStatus(context.story.concat.status) === 'success',
    canSaveNow: ({ context }) => context.storyId !== null && !context.saveInFlight && !context.sending && saveFieldsOf(context) !== null,
    canPoll: ({ context }) => context.storyId !== null && !context.hidden && !context.pollInFlight && hasLiveJobs(context.story),
    becameVisible: ({ event }) => event.type === 'story.visibility' && !event.hidden,
    jobsEnded: ({ context }, params: { story: Story }) => hasLiveJobs(context.story) && !hasLiveJobs(params.story),
    /** A save refused for a reason other than the network or the server being down is not sent again by itself. */
    saveRetryable: (_, params: { error: unknown }) => isRetryable(params.error),
    staleBoard: (_, params: { error: unknown }) => isStaleBoard(params.error),
    canMerge: ({ context }) => context.storyId !== null && !context.saveInFlight,
  },
  actions: {
    /** A story from the server (loaded or created): its board becomes the draft, everything saved. */
    loadStory: assign(({ context }, params: { story: Story }) => ({
      storyId: params.story.id,
      story: params.story,
      board: params.story.storyboard,
      baseBoard: params.story.storyboard,
      revision: params.story.revision,
      boardVersion: context.boardVersion + 1,
      savedBoardVersion: context.boardVersion + 1,
      savedStep: params.story.step,
      step: params.story.step,
      ideaFields: null,
      error: null,
    })),
    storeStory: assign((_, params: { story: Story }) => ({ story: params.story })),
    /** The answer of a paid call: the board as sent with the new parts' jobs written in, saved. */
    takeGenerated: assign(({ context }, params: { story: Story }) => ({
      story: params.story,
      board: params.story.storyboard,
      baseBoard: params.story.storyboard,
      revision: params.story.revision,
      savedBoardVersion: context.boardVersion,
      error: null,
    })),
    takeRewritten: assign(({ context }, params: { story: Story }) => ({
      story: params.story,
      board: params.story.storyboard,
      baseBoard: params.story.storyboard,
      revision: params.story.revision,
      boardVersion: context.boardVersion + 1,
      savedBoardVersion: context.boardVersion + 1,
      error: null,
    })),
    /** The idea's new settings; a title given with them goes to the board (saved like any edit). */
    takeIdea: assign(({ context }, params: { story: Story }) => {
      const title = context.ideaFields?.title;
      const retitle = context.board !== null && title !== undefined && title !== context.board.title;
      return {
        story: { ...params.story, storyboard: context.story?.storyboard ?? params.story.storyboard, media: params.story.media },
        ...(retitle && context.board ? { board: { ...context.board, title }, boardVersion: context.boardVersion + 1 } : {}),
        ideaFields: null,
        error: null,
      };
    }),
    setIdeaFields: assign(({ event }) => (event.type === 'idea.submit' ? { ideaFields: event.fields, error: null } : {})),
    applyEdit: enqueueActions(({ context, event, enqueue }) => {
      if (!context.board || !(BOARD_EDIT_TYPES as readonly string[]).includes(event.type)) return;
      const next = { board: applyBoardEdit(context.board, event as BoardEditEvent), boardVersion: context.boardVersion + 1 };
      enqueue.assign(next);
      queueSave(enqueue, { ...context, ...next });
    }),
    enterStep: enqueueActions(({ context, enqueue }, params: { step: StoryStage }) => {
      if (context.step === params.step) return;
      enqueue.assign({ step: params.step });
      queueSave(enqueue, { ...context, step: params.step });
    }),
    scheduleSave: enqueueActions(({ context, enqueue }) => queueSave(enqueue, context)),
    cancelSaveTimer: enqueueActions(({ enqueue }) => enqueue.cancel('saveTimer')),
    startSave: enqueueActions(({ context, enqueue }) => {
      const fields = saveFieldsOf(context);
      if (!fields || context.storyId === null) return;
      enqueue.assign({
        saveInFlight: true,
        sendingBoardVersion: fields.storyboard ? context.boardVersion : context.savedBoardVersion,
        sendingStep: fields.step ?? context.savedStep,
      });
      enqueue.spawnChild('saveStory', { id: 'save', input: { id: context.storyId, fields } });
    }),
    markSaved: enqueueActions(({ context, event, enqueue }) => {
      enqueue(stopChild('save'));
      // A save that sent the board: the server has it now, at the revision it answers.
      const sentBoard = context.sendingBoardVersion !== context.savedBoardVersion && event.type === 'xstate.done.actor.save';
      const next = {
        ...(sentBoard ? { baseBoard: event.output.storyboard, revision: event.output.revision } : {}),
        saveInFlight: false,
        savedBoardVersion: context.sendingBoardVersion,
        savedStep: context.sendingStep,
        saveErrors: 0,
        saveError: null,
      };
      enqueue.assign(next);
      queueSave(enqueue, { ...context, ...next });
    }),
    markSaveFailed: enqueueActions(({ context, enqueue }, params: { message: string; retry: boolean }) => {
      enqueue(stopChild('save'));
      enqueue.assign({ saveInFlight: false, saveErrors: context.saveErrors + 1, saveError: params.message });
      enqueue.cancel('saveTimer');
      if (params.retry) enqueue.raise({ type: 'save.flush' }, { id: 'saveTimer', delay: 'saveRetryDelay' });
    }),
    /** The board was saved elsewhere since this draft's revision: the story is read again and the two merged (takeMerged). */
    startMerge: enqueueActions(({ context, enqueue }) => {
      enqueue(stopChild('save'));
      enqueue.cancel('saveTimer');
      if (context.storyId === null) return;
      // Counted as the save on its way: nothing else is saved, and a paid click waits, until the merge is saved.
      enqueue.assign({ saveInFlight: true });
      enqueue.spawnChild('pollStory', { id: 'merge', input: { id: context.storyId } });
    }),
    /** A paid call refused as stale: the story is read again and merged, as after a refused save (once the page is idle). */
    mergeIfStale: enqueueActions(({ enqueue }, params: { error: unknown }) => {
      if (isStaleBoard(params.error)) enqueue.raise({ type: 'story.stale' });
    }),
    /** This tab's edits merged into the newer board (no edit of either is lost), then saved at once from its revision. */
    takeMerged: enqueueActions(({ context, event, enqueue }) => {
      enqueue(stopChild('merge'));
      if (event.type !== 'xstate.done.actor.merge' || !context.board) return;
      const theirs = event.output;
      const merged = mergeBoards(context.baseBoard ?? theirs.storyboard, context.board, theirs.storyboard);
      const unchanged = JSON.stringify(merged.board) === JSON.stringify(theirs.storyboard);
      const next = {
        story: theirs,
        board: unchanged ? theirs.storyboard : merged.board,
        baseBoard: theirs.storyboard,
        revision: theirs.revision,
        boardVersion: context.boardVersion + 1,
        savedBoardVersion: unchanged ? context.boardVersion + 1 : context.savedBoardVersion,
        saveInFlight: false,
        saveErrors: 0,
        saveError: null,
        notice: merged.conflicts > 0 ? STORY_RULE_TEXTS.mergedWithConflicts : STORY_RULE_TEXTS.merged,
      };
      enqueue.assign(next);
      if (!unchanged) enqueue.raise({ type: 'save.flush' }, { id: 'saveTimer' });
      queuePoll(enqueue, { ...context, ...next });
    }),
    mergeFailed: enqueueActions(({ context, event, enqueue }) => {
      enqueue(stopChild('merge'));
      const message = event.type === 'xstate.error.actor.merge' ? errorMessageOf(event.error) : MESSAGES.apiError;
      enqueue.assign({ saveInFlight: false, saveErrors: context.saveErrors + 1, saveError: message });
      enqueue.cancel('saveTimer');
      // The save is sent again: refused again (412), it reads the story again.
      enqueue.raise({ type: 'save.flush' }, { id: 'saveTimer', delay: 'saveRetryDelay' });
    }),
    clearNotice: assign({ notice: null }),
    startSending: assign({ sending: true }),
    stopSending: assign({ sending: false }),
    schedulePoll: enqueueActions(({ context, enqueue }) => queuePoll(enqueue, context)),
    /** After an answer that replaced the story: a poll on its way would bring an older one, so it is dropped. */
    restartPolling: enqueueActions(({ context, enqueue }) => {
      enqueue(stopChild('poll'));
      enqueue.cancel('pollTimeout');
      enqueue.assign({ pollInFlight: false, pollErrors: 0 });
      queuePoll(enqueue, { ...context, pollInFlight: false, pollErrors: 0 });
    }),
    pollNow: enqueueActions(({ context, enqueue }) => {
      enqueue.cancel('pollTimer');
      if (context.storyId !== null && !context.pollInFlight && hasLiveJobs(context.story)) enqueue.raise({ type: 'poll.tick' });
    }),
    stopPollTimer: enqueueActions(({ enqueue }) => enqueue.cancel('pollTimer')),
    startPoll: enqueueActions(({ context, enqueue }) => {
      if (context.storyId === null) return;
      enqueue.assign({ pollInFlight: true });
      enqueue.spawnChild('pollStory', { id: 'poll', input: { id: context.storyId } });
      enqueue.raise({ type: 'poll.timeout' }, { id: 'pollTimeout', delay: 'requestTimeout' });
    }),
    storePolled: enqueueActions(({ context, enqueue }, params: { story: Story }) => {
      enqueue(stopChild('poll'));
      enqueue.cancel('pollTimeout');
      enqueue.assign({ story: params.story, pollInFlight: false, pollErrors: 0 });
      // A followed join that failed: nothing to take the person to, but they are told why (as on the scriptboard).
      const concat = params.story.concat;
      if (context.followFilm && (!concat || !['processing', 'success'].includes(classifyStatus(concat.status)))) {
        enqueue.assign({ followFilm: false, error: concat?.error ?? STORY_RULE_TEXTS.filmFailed });
      }
      queuePoll(enqueue, { ...context, story: params.story, pollInFlight: false, pollErrors: 0 });
    }),
    pollFailed: enqueueActions(({ context, enqueue }) => {
      enqueue(stopChild('poll'));
      enqueue.cancel('pollTimeout');
      enqueue.assign({ pollInFlight: false, pollErrors: context.pollErrors + 1 });
      queuePoll(enqueue, { ...context, pollInFlight: false, pollErrors: context.pollErrors + 1 });
    }),
    setAccount: assign(({ event }) =>
      event.type === 'story.account' ? { user: event.user, credit: event.credit, creditLoading: event.creditLoading } : {},
    ),
    setHidden: assign(({ event }) => (event.type === 'story.visibility' ? { hidden: event.hidden } : {})),
    prepareRequest: assign(({ context, event }) => {
      const states = statesOf(context);
      if (event.type !== 'part.generate' || !states || !context.board) return {};
      const ids = requestIds(states, event.part, event.ids);
      return {
        request: { part: event.part, ids, cost: ids.length * storyPartPrice(context.board, event.part) },
        idempotencyKey: newIdempotencyKey(),
        retryAttempt: 0,
        error: null,
      };
    }),
    prepareSoundRequest: assign(({ context }) => ({
      request: { part: 'audio' as const, ids: [], cost: storyAudioPrice(context.board?.audio.kind ?? 'none') },
      idempotencyKey: newIdempotencyKey(),
      retryAttempt: 0,
      error: null,
    })),
    setDeniedError: assign(({ context }) => ({
      error: context.user?.attributes ? STORY_RULE_TEXTS.notEnoughCredits(context.request?.cost ?? 0, context.credit) : MESSAGES.notAuthenticated,
    })),
    countRetry: assign(({ context }) => ({ retryAttempt: context.retryAttempt + 1 })),
    setCancelPart: assign(({ context, event }) =>
      event.type === 'part.cancel' ? { cancelPart: event.part, error: null, followFilm: context.followFilm && event.part !== 'concat' } : {},
    ),
    startFollowingFilm: assign({ followFilm: true }),
    stopFollowingFilm: assign({ followFilm: false }),
    setError: assign((_, params: { message: string }) => ({ error: params.message })),
    setConcatError: assign(({ context }) => ({ error: context.story?.concat?.error ?? STORY_RULE_TEXTS.filmFailed })),
    clearError: assign({ error: null }),
    reportCreated: emit(({ context }) => ({ type: 'story.created' as const, id: context.storyId ?? '' })),
    reportCreditsChanged: emit({ type: 'story.creditsChanged' } as const),
  },
  delays: {
    saveDelay: STORY_SAVE_DEBOUNCE_MS,
    saveRetryDelay: ({ context }) => backoffCeiling(Math.max(context.saveErrors - 1, 0), JOB_POLL),
    /** Every JOB_POLL base interval while polls answer; doubling (to the cap) while they fail. */
    pollDelay: ({ context }) => backoffCeiling(context.pollErrors, JOB_POLL),
    retryDelay: ({ context }) => fullJitterDelay(Math.max(context.retryAttempt - 1, 0), JOB_POLL),
    /** A poll still unanswered after this is given up (aborted) and asked again. */
    requestTimeout: JOB_REQUEST_TIMEOUT_MS,
  },
}).createMachine({
  id: 'storyWizard',
  context: ({ input }) => ({
    storyId: input.storyId,
    story: null,
    board: null,
    baseBoard: null,
    revision: '',
    boardVersion: 0,
    savedBoardVersion: 0,
    sendingBoardVersion: 0,
    step: 'idea',
    savedStep: 'idea',
    sendingStep: 'idea',
    saveInFlight: false,
    saveErrors: 0,
    saveError: null,
    sending: false,
    pollInFlight: false,
    pollErrors: 0,
    user: input.user,
    credit: input.credit,
    creditLoading: input.creditLoading ?? false,
    hidden: input.hidden ?? false,
    ideaFields: null,
    request: null,
    idempotencyKey: null,
    retryAttempt: 0,
    cancelPart: null,
    followFilm: false,
    error: null,
    notice: null,
  }),
  on: {
    'story.account': { actions: 'setAccount' },
    'story.visibility': [
      { guard: 'becameVisible', actions: ['setHidden', 'pollNow'] },
      { actions: ['setHidden', 'stopPollTimer'] },
    ],
    'error.dismiss': { actions: 'clearError' },
    'save.flush': { guard: 'canSaveNow', actions: 'startSave' },
    'xstate.done.actor.save': { actions: 'markSaved' },
    'xstate.error.actor.save': [
      { guard: { type: 'staleBoard', params: ({ event }) => ({ error: event.error }) }, actions: 'startMerge' },
      {
        guard: { type: 'saveRetryable', params: ({ event }) => ({ error: event.error }) },
        actions: { type: 'markSaveFailed', params: ({ event }) => ({ message: errorMessageOf(event.error), retry: true }) },
      },
      { actions: { type: 'markSaveFailed', params: ({ event }) => ({ message: errorMessageOf(event.error), retry: false }) } },
    ],
    'poll.tick': { guard: 'canPoll', actions: 'startPoll' },
    'poll.timeout': { actions: 'pollFailed' },
    'xstate.done.actor.poll': [
      {
        guard: { type: 'jobsEnded', params: ({ event }) => ({ story: event.output }) },
        actions: [{ type: 'storePolled', params: ({ event }) => ({ story: event.output }) }, 'reportCreditsChanged'],
      },
      { actions: { type: 'storePolled', params: ({ event }) => ({ story: event.output }) } },
    ],
    'xstate.error.actor.poll': { actions: 'pollFailed' },
    'xstate.done.actor.merge': { actions: 'takeMerged' },
    'xstate.error.actor.merge': { actions: 'mergeFailed' },
    'notice.dismiss': { actions: 'clearNotice' },
    'story.stale': { guard: 'canMerge', actions: 'startMerge' },
  },
  initial: 'loading',
  states: {
    loading: {
      always: { guard: 'isNewStory', target: 'idea' },
      invoke: {
        src: 'loadStory',
        input: ({ context }) => ({ id: context.storyId ?? '' }),
        onDone: [
          ...(['concatenating', 'done', ...STORY_STEPS] as const).map((stage) => ({
            guard: { type: 'resumesAt' as const, params: ({ event }: { event: { output: Story } }) => ({ story: event.output, stage }) },
            target: stage === 'concatenating' ? '#storyWizard.concatenating.watching' : `#storyWizard.${stage}`,
            actions: [{ type: 'loadStory' as const, params: storyOf }, 'schedulePoll' as const],
          })),
        ],
        onError: [
          { guard: { type: 'isNotFound', params: ({ event }) => ({ error: event.error }) }, target: 'notFound' },
          { target: 'loadFailed', actions: { type: 'setError', params: errorOf } },
        ],
      },
    },
    notFound: {
      on: { 'story.retry': { target: 'loading', actions: 'clearError' } },
    },
    loadFailed: {
      on: { 'story.retry': { target: 'loading', actions: 'clearError' } },
    },
    idea: {
      entry: { type: 'enterStep', params: { step: 'idea' } },
      initial: 'idle',
      states: {
        idle: {
          always: FOLLOWED_FILM_MADE,
          on: {
            ...nav('idea'),
            'idea.submit': [
              { guard: and(['ideaValid', 'hasStory']), target: 'savingIdea', actions: 'setIdeaFields' },
              { guard: and(['ideaValid', 'isNewStory']), target: 'creating', actions: 'setIdeaFields' },
            ],
            'idea.rewrite': { guard: 'hasStory', target: 'rewriting' },
          },
        },
        creating: {
          invoke: {
            src: 'createStory',
            input: ({ context }) => {
              const fields = context.ideaFields as IdeaFields;
              return {
                idea: fields.idea.trim(),
                duration: fields.duration,
                aspect_ratio: fields.aspect_ratio,
                style: fields.style,
                ...(fields.title ? { title: fields.title } : {}),
                ...(fields.image_urls && fields.image_urls.length > 0 ? { image_urls: fields.image_urls } : {}),
              };
            },
            onDone: {
              target: '#storyWizard.storyboard',
              actions: [{ type: 'loadStory', params: storyOf }, 'reportCreated', 'schedulePoll'],
            },
            onError: { target: 'idle', actions: { type: 'setError', params: errorOf } },
          },
        },
        savingIdea: {
          invoke: {
            src: 'saveStory',
            input: ({ context }) => {
              const fields = context.ideaFields as IdeaFields;
              return {
                id: context.storyId ?? '',
                fields: { idea: fields.idea.trim(), duration: fields.duration, aspect_ratio: fields.aspect_ratio, style: fields.style },
              };
            },
            onDone: { target: '#storyWizard.storyboard', actions: [{ type: 'takeIdea', params: storyOf }, 'scheduleSave'] },
            onError: { target: 'idle', actions: { type: 'setError', params: errorOf } },
          },
        },
        rewriting: rewriting('#storyWizard.storyboard'),
      },
    },
    storyboard: boardStep('storyboard', [], {
      on: { 'idea.rewrite': { target: 'rewriting' } },
      states: { rewriting: rewriting('#storyWizard.storyboard.idle') },
    }),
    elements: boardStep('elements', ['elements']),
    scenes: boardStep('scenes', ['scenes']),
    scriptboard: boardStep('scriptboard', ['videos']),
    concatenating: {
      entry: 'stopFollowingFilm',
      initial: 'submitting',
      states: {
        submitting: {
          invoke: {
            src: 'concat',
            input: ({ context }) => ({
              id: context.storyId ?? '',
              ...(context.story && context.board ? concatInputs(context.story, context.board) : { videoUrls: [], audioUrls: [] }),
            }),
            onDone: { target: 'watching', actions: [{ type: 'storeStory', params: storyOf }, 'restartPolling'] },
            onError: { target: '#storyWizard.scriptboard', actions: { type: 'setError', params: errorOf } },
          },
        },
        watching: {
          always: [
            { guard: 'concatSucceeded', target: '#storyWizard.done' },
            { guard: 'concatEnded', target: '#storyWizard.scriptboard', actions: 'setConcatError' },
          ],
          on: {
            ...navFollowingFilm(),
            'part.cancel': { guard: 'partRunning', target: 'cancelling', actions: 'setCancelPart' },
          },
        },
        cancelling: {
          invoke: {
            src: 'cancelPart',
            input: ({ context }) => ({ id: context.storyId ?? '', part: context.cancelPart ?? 'concat' }),
            onDone: {
              target: '#storyWizard.scriptboard',
              actions: [{ type: 'storeStory', params: storyOf }, 'restartPolling', 'reportCreditsChanged'],
            },
            onError: { target: 'watching', actions: { type: 'setError', params: errorOf } },
          },
        },
      },
    },
    done: boardStep('done', ['videos']),
  },
});
