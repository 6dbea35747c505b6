import { and, assign, emit, enqueueActions, fromPromise, not, or, raise, setup, stateIn } from 'xstate';
import { JOB_POLL, JOB_REQUEST_TIMEOUT_MS } from '@/config/limits';
import type { StoryPart, StoryStage, StoryStep } from '@/config/story';
import { affordability, refusalMessage } from '@/lib/affordability';
import { backoffCeiling, fullJitterDelay } from '@/lib/backoff';
import { classifyStatus } from '@/lib/job-status';
import { newIdempotencyKey } from '@/lib/idempotency-key';
import { storyAudioPrice, storyPartPrice } from '@/lib/story';
import { isRetryable, statusOf } from '@/services/api-error';
import { cancelStoryPart, concatStory, createStory, generateStoryAudio, generateStoryPart, getStory, saveStory } from '@/services/story';
import type { CreateStoryFields, SaveStoryFields } from '@/services/story';
import type { Story, Storyboard } from '@/services/schemas/story';
import { applyBoardEdit, BOARD_EDIT_TYPES, hasLiveJobs, nextStep, partRecord, requestIds, STORY_RULE_TEXTS, type BoardEditEvent } from '@/machines/story/story-board';
import { mergeBoards } from '@/machines/story/story-merge';
import { concatProblemOf, ideaIsValid, isDirty, isStaleBoard, reachableOf, requestProblem, resumeStageOf, saveFieldsOf, stageIndex, statesOf } from '@/machines/story/story-wizard.rules';
import { AUTOSAVE_REGION, POLLER_REGION, SENDING_STATES } from '@/machines/story/story-wizard.states';
import { WIZARD_REGION } from '@/machines/story/story-wizard.steps';
import type { StoryRequestPart, StoryWizardContext, StoryWizardEmitted, StoryWizardInput, StoryWizardMachineEvent } from '@/machines/story/story-wizard.types';

// Screens may not import services; they get these types from here.
export type { Story, StoryAsset, StoryAudio, Storyboard, StoryElement, StoryScene, StorySummary } from '@/services/schemas/story';
export type { Media } from '@/services/schemas/media';
export type { CreditCheckUser } from '@/lib/affordability';
export type { StoryPartState, StoryPartStates, StoryCost } from '@/lib/story';
export type * from '@/machines/story/story-wizard.types';
export type { SaveState } from '@/machines/story/story-wizard.rules';
export { concatProblemOf, isDirty, reachableOf, resumeStageOf, saveStateOf, statesOf } from '@/machines/story/story-wizard.rules';

/** Edits are saved this long after the last one (PUT story/{id}). */
export const STORY_SAVE_DEBOUNCE_MS = 800;
/** Sending a paid call again after no answer (same key) at most this many times. */
export const STORY_SUBMIT_RETRIES = 4;

/** SPEC §6 for the paid call being made (the one rule, lib/affordability). */
const affordabilityOf = (context: StoryWizardContext) => affordability({ user: context.user, cost: context.request?.cost ?? 0, credit: context.credit });

/**
 * The AI Story production wizard (issue 6; SPEC §1, §2.7, §3 Story, §7 story calls), three
 * regions side by side (issue 18: each shows in the inspector):
 *
 * - wizard: the steps a person sees: loading → idea | storyboard | elements | scenes |
 *   scriptboard (the step the server's story records) | loadFailed | notFound; concatenating →
 *   done. Each step has its own sub-states (idle, generating { checkingCredit → waitingForSave →
 *   submitting ⇄ retrying }, cancelling, rewriting…).
 * - autosave: idle → debouncing → saving (⇄ retrying, → merging after a 412) (story-wizard.states).
 * - poller: idle → waiting → polling while a job of the story is live and the page shown.
 *
 * Going back never discards anything; parts made from inputs that changed since are derived as
 * stale (storyPartStates), kept and shown.
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
    hasStoryId: ({ context }) => context.storyId !== null,
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
    canAffordRequest: ({ context }) => affordabilityOf(context).affordable,
    /** A save (or the merge after a refused one) is on its way. */
    saveInFlight: or([stateIn({ autosave: 'saving' }), stateIn({ autosave: 'merging' })]),
    noSaveInFlight: not('saveInFlight'),
    /** A call that sends or replaces the board is on its way: saves wait for it. */
    sending: or(SENDING_STATES.map((id) => stateIn(id))),
    isRetryableSubmit: ({ context }, params: { error: unknown }) => context.retryAttempt < STORY_SUBMIT_RETRIES && isRetryable(params.error),
    concatSucceeded: ({ context }) => !!context.story?.concat && classifyStatus(context.story.concat.status) === 'success',
    concatEnded: ({ context }) => !context.story?.concat || classifyStatus(context.story.concat.status) !== 'processing',
    followedFilmMade: ({ context }) => context.followFilm && !!context.story?.concat && classifyStatus(context.story.concat.status) === 'success',
    nothingToSave: ({ context }) => context.storyId === null || !isDirty(context),
    stepChanged: ({ context }) => context.step !== context.savedStep,
    savable: ({ context }) => context.storyId !== null && saveFieldsOf(context) !== null,
    canSaveNow: and(['savable', not('sending')]),
    canMerge: and(['hasStoryId', 'noSaveInFlight']),
    shouldPoll: ({ context }) => context.storyId !== null && !context.hidden && hasLiveJobs(context.story),
    becameVisibleWithLiveJobs: ({ context, event }) =>
      event.type === 'story.visibility' && !event.hidden && context.storyId !== null && hasLiveJobs(context.story),
    jobsEnded: ({ context }, params: { story: Story }) => hasLiveJobs(context.story) && !hasLiveJobs(params.story),
    /** A save refused for a reason other than the network or the server being down is not sent again by itself. */
    saveRetryable: (_, params: { error: unknown }) => isRetryable(params.error),
    staleBoard: (_, params: { error: unknown }) => isStaleBoard(params.error),
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
    applyEdit: assign(({ context, event }) =>
      context.board && (BOARD_EDIT_TYPES as readonly string[]).includes(event.type)
        ? { board: applyBoardEdit(context.board, event as BoardEditEvent), boardVersion: context.boardVersion + 1 }
        : {},
    ),
    enterStep: enqueueActions(({ context, enqueue }, params: { step: StoryStage }) => {
      if (context.step === params.step) return;
      enqueue.assign({ step: params.step });
      enqueue.raise({ type: 'autosave.schedule' });
    }),
    scheduleSave: raise({ type: 'autosave.schedule' }),
    flushSave: raise({ type: 'autosave.flush' }),
    cancelSaveTimer: raise({ type: 'autosave.cancel' }),
    schedulePoll: raise({ type: 'poller.schedule' }),
    restartPolling: raise({ type: 'poller.restart' }),
    markSending: assign(({ context }) => {
      const fields = saveFieldsOf(context);
      return { sendingBoardVersion: fields?.storyboard ? context.boardVersion : context.savedBoardVersion, sendingStep: fields?.step ?? context.savedStep };
    }),
    markSaved: assign(({ context }, params: { story: Story }) => ({
      // A save that sent the board: the server has it now, at the revision it answers.
      ...(context.sendingBoardVersion !== context.savedBoardVersion ? { baseBoard: params.story.storyboard, revision: params.story.revision } : {}),
      savedBoardVersion: context.sendingBoardVersion,
      savedStep: context.sendingStep,
      saveErrors: 0,
      saveError: null,
    })),
    markSaveFailed: assign(({ context }, params: { message: string }) => ({ saveErrors: context.saveErrors + 1, saveError: params.message })),
    /** A paid call refused as stale: the story is read again and merged, as after a refused save (once the page is idle). */
    mergeIfStale: enqueueActions(({ enqueue }, params: { error: unknown }) => {
      if (isStaleBoard(params.error)) enqueue.raise({ type: 'story.stale' });
    }),
    /** This tab's edits merged into the newer board (no edit of either is lost), then saved at once from its revision. */
    takeMerged: enqueueActions(({ context, enqueue }, params: { story: Story }) => {
      if (!context.board) return;
      const theirs = params.story;
      const merged = mergeBoards(context.baseBoard ?? theirs.storyboard, context.board, theirs.storyboard);
      const unchanged = JSON.stringify(merged.board) === JSON.stringify(theirs.storyboard);
      enqueue.assign({
        story: theirs,
        board: unchanged ? theirs.storyboard : merged.board,
        baseBoard: theirs.storyboard,
        revision: theirs.revision,
        boardVersion: context.boardVersion + 1,
        savedBoardVersion: unchanged ? context.boardVersion + 1 : context.savedBoardVersion,
        saveErrors: 0,
        saveError: null,
        notice: merged.conflicts > 0 ? STORY_RULE_TEXTS.mergedWithConflicts : STORY_RULE_TEXTS.merged,
      });
      if (!unchanged) enqueue.raise({ type: 'autosave.flush' });
      enqueue.raise({ type: 'poller.schedule' });
    }),
    clearNotice: assign({ notice: null }),
    storePolled: enqueueActions(({ context, enqueue }, params: { story: Story }) => {
      enqueue.assign({ story: params.story, pollErrors: 0 });
      // A followed join that failed: nothing to take the person to, but they are told why (as on the scriptboard).
      const concat = params.story.concat;
      if (context.followFilm && (!concat || !['processing', 'success'].includes(classifyStatus(concat.status)))) {
        enqueue.assign({ followFilm: false, error: concat?.error ?? STORY_RULE_TEXTS.filmFailed });
      }
    }),
    pollFailed: assign(({ context }) => ({ pollErrors: context.pollErrors + 1 })),
    resetPollErrors: assign({ pollErrors: 0 }),
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
    setDeniedError: assign(({ context }) => {
      const check = affordabilityOf(context);
      return check.affordable ? {} : { error: refusalMessage(check, 'story') };
    }),
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
    saveErrors: 0,
    saveError: null,
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
    'error.dismiss': { actions: 'clearError' },
    'notice.dismiss': { actions: 'clearNotice' },
  },
  type: 'parallel',
  states: {
    wizard: WIZARD_REGION,
    autosave: AUTOSAVE_REGION,
    poller: POLLER_REGION,
  },
});
