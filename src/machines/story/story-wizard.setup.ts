import { assign, emit, enqueueActions, fromPromise, sendTo, setup } from 'xstate';
import type { StoryPart, StoryStage, StoryStep } from '@/config/story';
import { classifyStatus } from '@/lib/job-status';
import { newIdempotencyKey } from '@/lib/idempotency-key';
import { storyAudioPrice, storyPartPrice } from '@/lib/story';
import { statusOf } from '@/services/api-error';
import {
  cancelStoryPart,
  concatStory,
  createStory,
  generateStoryAudio,
  generateStoryPart,
  getStory,
  saveStory,
  selectStoryTake,
  undoStoryTake,
} from '@/services/story';
import type { CreateStoryFields, SaveStoryFields, TakeCallFields } from '@/services/story';
import type { TakePart } from '@/lib/story-takes';
import { canChooseTake } from '@/machines/story/story-takes';
import type { Story, Storyboard } from '@/services/schemas/story';
import { applyBoardEdit, BOARD_EDIT_TYPES, hasLiveJobs, nextStep, partRecord, requestIds, STORY_RULE_TEXTS, type BoardEditEvent } from '@/machines/story/story-board';
import { mergeBoards } from '@/machines/story/story-merge';
import { storyAutosaveMachine, type StoryAutosaveEvent } from '@/machines/story/story-autosave.machine';
import { storyPollerMachine, type StoryPollerEvent } from '@/machines/story/story-poller.machine';
import { storyExportMachine, type StoryExportEvent } from '@/machines/story/story-export.machine';
import { exportFile, exportProblem, storyExportOf, type StoryExport } from '@/machines/story/story-export';
import { saveFile } from '@/lib/save-file';
import { isPaidDone, paidRequestWith, type PaidRequestEvent, type PaidRequestOutput } from '@/machines/paid-request/paid-request.machine';
import {
  concatProblemOf,
  ideaIsValid,
  isDirty,
  isStaleBoard,
  reachableOf,
  requestProblem,
  resumeStageOf,
  saveFieldsOf,
  stageIndex,
  statesOf,
} from '@/machines/story/story-wizard.rules';
import type {
  StoryRequestPart,
  StoryWizardContext,
  StoryWizardEmitted,
  StoryWizardInput,
  StoryWizardMachineEvent,
  TakeChoice,
} from '@/machines/story/story-wizard.types';

/** Sending a paid call again after no answer (same key) at most this many times. */
export const STORY_SUBMIT_RETRIES = 4;

/** What a paid call of the story sends: the part (or the sound), the board as it is, the parts asked for. */
export interface StoryPaidRequest {
  id: string;
  part: StoryRequestPart;
  board: Storyboard;
  ids: string[];
  revision: string;
}

/** The take an event chooses: the one picked, or (undo) the one active before the last regeneration. */
const takeChoiceOf = (event: { type: 'take.select' | 'take.undo'; part: TakePart; partId: string; mediaId?: string }): TakeChoice => ({
  part: event.part,
  partId: event.partId,
  mediaId: event.type === 'take.select' ? (event.mediaId ?? null) : null,
});

/** What the autosave child is told of the draft: whether it has something to save, and whether at once (a new step is, so a reload right after moving on resumes there). */
const draftOf = (context: StoryWizardContext) => ({ dirty: context.storyId !== null && isDirty(context), now: context.step !== context.savedStep });
const autosaveChange = (context: StoryWizardContext): StoryAutosaveEvent => ({ type: 'autosave.change', ...draftOf(context) });

/** What the poller is told of the story (it waits for the next read while a job is live and the page is shown). */
const pollerEvent = (type: 'poll.watch' | 'poll.restart', context: Pick<StoryWizardContext, 'storyId' | 'story'>): StoryPollerEvent => ({
  type,
  storyId: context.storyId ?? '',
  live: context.storyId !== null && hasLiveJobs(context.story),
});

/** The film's export for editing programs, when every part of it exists (else null). */
function exportOf(context: Pick<StoryWizardContext, 'story' | 'board'>): StoryExport | null {
  if (!context.story || !context.board || exportProblem(context.story, context.board, statesOf(context)) !== null) return null;
  return storyExportOf(context.story, context.board);
}

/**
 * The storyWizard machine's named implementations: its actors (each wraps one service call), its
 * guards, its actions and its delays, apart from its states in story-wizard.machine.ts. The
 * poller and the autosave are children of their own (story-poller.machine, story-autosave.machine).
 */
/** A board from the server replaces the draft (loaded, created or written again): a new version, saved as it is. */
const replacedBoard = (context: Pick<StoryWizardContext, 'boardVersion'>, story: Story) => ({
  story,
  board: story.storyboard,
  baseBoard: story.storyboard,
  revision: story.revision,
  boardVersion: context.boardVersion + 1,
  savedBoardVersion: context.boardVersion + 1,
  error: null,
});

export const storyWizardSetup = setup({
  types: {
    context: {} as StoryWizardContext,
    events: {} as StoryWizardMachineEvent,
    input: {} as StoryWizardInput,
    emitted: {} as StoryWizardEmitted,
  },
  actors: {
    loadStory: fromPromise<Story, { id: string }>(({ input, signal }) => getStory(input.id, { signal })),
    storyPoller: storyPollerMachine,
    storyAutosave: storyAutosaveMachine,
    storyExport: storyExportMachine,
    createStory: fromPromise<Story, CreateStoryFields>(({ input, signal }) => createStory(input, { signal })),
    saveStory: fromPromise<Story, { id: string; fields: SaveStoryFields }>(({ input, signal }) => saveStory(input.id, input.fields, { signal })),
    /**
     * A step's parts or the sound, as one paid call (paid-request.machine, a child the inspector
     * shows): the SPEC §6 check, then — once the autosave is held (`paid.go`) — the send, the same
     * key again after no answer or a 5xx (at most STORY_SUBMIT_RETRIES).
     */
    generate: paidRequestWith<StoryPaidRequest, Story>(({ request, idempotencyKey }, signal) =>
      request.part === 'audio'
        ? generateStoryAudio(request.id, request.board, { idempotencyKey, revision: request.revision, signal })
        : generateStoryPart(request.id, request.part, request.board, request.ids, { idempotencyKey, revision: request.revision, signal }),
    ),
    concat: fromPromise<Story, { id: string; videoUrls: string[]; audioUrls: string[] }>(({ input, signal }) =>
      concatStory(input.id, input.videoUrls, input.audioUrls, { signal }),
    ),
    cancelPart: fromPromise<Story, { id: string; part: StoryPart }>(({ input, signal }) => cancelStoryPart(input.id, input.part, { signal })),
    /** A take picked or the last regeneration undone (free), the draft saved with it. */
    chooseTake: fromPromise<Story, { id: string; take: TakeChoice; fields: TakeCallFields }>(({ input: { id, take, fields }, signal }) =>
      take.mediaId === null
        ? undoStoryTake(id, take.part, take.partId, fields, { signal })
        : selectStoryTake(id, take.part, take.partId, take.mediaId, fields, { signal }),
    ),
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
    canChooseTake: ({ context, event }, params: { parts: readonly TakePart[] }) =>
      (event.type === 'take.select' || event.type === 'take.undo') &&
      params.parts.includes(event.part) &&
      canChooseTake(context.story, context.board, takeChoiceOf(event)),
    paidDone: (_, params: { output: PaidRequestOutput }) => isPaidDone(params.output),
    concatSucceeded: ({ context }) => !!context.story?.concat && classifyStatus(context.story.concat.status) === 'success',
    concatEnded: ({ context }) => !context.story?.concat || classifyStatus(context.story.concat.status) !== 'processing',
    followedFilmMade: ({ context }) => context.followFilm && !!context.story?.concat && classifyStatus(context.story.concat.status) === 'success',
    canSaveNow: ({ context }) => context.storyId !== null && saveFieldsOf(context) !== null,
    jobsEnded: ({ context }, params: { story: Story }) => hasLiveJobs(context.story) && !hasLiveJobs(params.story),
    hasStoryId: ({ context }) => context.storyId !== null,
    canExport: ({ context }) => exportOf(context) !== null,
    canExportFile: ({ context, event }) => {
      const exported = exportOf(context);
      return exported !== null && event.type === 'export.file' && (event.format !== 'srt' || exported.cut.sound?.kind === 'speech');
    },
  },
  actions: {
    /** A story from the server (loaded or created): its board becomes the draft, everything saved. */
    loadStory: assign(({ context }, params: { story: Story }) => ({
      ...replacedBoard(context, params.story),
      storyId: params.story.id,
      savedStep: params.story.step,
      step: params.story.step,
      ideaFields: null,
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
    takeRewritten: assign(({ context }, params: { story: Story }) => replacedBoard(context, params.story)),
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
      enqueue.sendTo('storyAutosave', autosaveChange({ ...context, ...next }));
    }),
    enterStep: enqueueActions(({ context, enqueue }, params: { step: StoryStage }) => {
      if (context.step === params.step) return;
      enqueue.assign({ step: params.step });
      enqueue.sendTo('storyAutosave', autosaveChange({ ...context, step: params.step }));
    }),
    /** The draft changed or was saved: the autosave waits to save it (or rests when there is nothing to). */
    tellAutosave: sendTo('storyAutosave', ({ context }) => autosaveChange(context)),
    /** The board is about to be sent or replaced: no save may start or be on its way (answered `autosave.held`). */
    holdAutosave: sendTo('storyAutosave', { type: 'autosave.hold' } satisfies StoryAutosaveEvent),
    releaseAutosave: sendTo('storyAutosave', ({ context }): StoryAutosaveEvent => ({ type: 'autosave.release', ...draftOf(context) })),
    /** The autosave's time has come: what to send is read from the draft now (nothing, when it was sent meanwhile). */
    answerSave: enqueueActions(({ context, enqueue }) => {
      const fields = saveFieldsOf(context);
      if (!fields || context.storyId === null) return;
      enqueue.assign({
        sendingBoardVersion: fields.storyboard ? context.boardVersion : context.savedBoardVersion,
        sendingStep: fields.step ?? context.savedStep,
      });
      enqueue.sendTo('storyAutosave', { type: 'autosave.request', request: { id: context.storyId, fields } } satisfies StoryAutosaveEvent);
    }),
    answerNothing: sendTo('storyAutosave', { type: 'autosave.request', request: null } satisfies StoryAutosaveEvent),
    showSaving: assign({ saving: true }),
    markSaved: enqueueActions(({ context, enqueue }, params: { story: Story }) => {
      // A save that sent the board: the server has it now, at the revision it answers.
      const sentBoard = context.sendingBoardVersion !== context.savedBoardVersion;
      const next = {
        ...(sentBoard ? { baseBoard: params.story.storyboard, revision: params.story.revision } : {}),
        saving: false,
        savedBoardVersion: context.sendingBoardVersion,
        savedStep: context.sendingStep,
        saveErrors: 0,
        saveError: null,
      };
      enqueue.assign(next);
      enqueue.sendTo('storyAutosave', autosaveChange({ ...context, ...next }));
    }),
    markSaveFailed: assign(({ context }, params: { message: string }) => ({ saving: false, saveErrors: context.saveErrors + 1, saveError: params.message })),
    /** A paid call refused as stale: the autosave reads the story again for a merge (takeMerged), as after a refused save. */
    askMerge: sendTo('storyAutosave', ({ context }): StoryAutosaveEvent => ({ type: 'autosave.stale', storyId: context.storyId ?? '' })),
    /** A paid call refused as stale: merged once the page is idle (story.stale). */
    mergeIfStale: enqueueActions(({ enqueue }, params: { error: unknown }) => {
      if (isStaleBoard(params.error)) enqueue.raise({ type: 'story.stale' });
    }),
    /** This tab's edits merged into the newer board (no edit of either is lost), then saved at once from its revision. */
    takeMerged: enqueueActions(({ context, enqueue }, params: { story: Story }) => {
      if (!context.board) return;
      const theirs = params.story;
      const merged = mergeBoards(context.baseBoard ?? theirs.storyboard, context.board, theirs.storyboard);
      const unchanged = JSON.stringify(merged.board) === JSON.stringify(theirs.storyboard);
      const next = {
        story: theirs,
        board: unchanged ? theirs.storyboard : merged.board,
        baseBoard: theirs.storyboard,
        revision: theirs.revision,
        boardVersion: context.boardVersion + 1,
        savedBoardVersion: unchanged ? context.boardVersion + 1 : context.savedBoardVersion,
        saving: false,
        saveErrors: 0,
        saveError: null,
        notice: merged.conflicts > 0 ? STORY_RULE_TEXTS.mergedWithConflicts : STORY_RULE_TEXTS.merged,
      };
      enqueue.assign(next);
      // Merged edits are saved at once, from the newer revision.
      enqueue.sendTo('storyAutosave', { type: 'autosave.change', dirty: isDirty({ ...context, ...next }), now: !unchanged } satisfies StoryAutosaveEvent);
      enqueue.sendTo('storyPoller', pollerEvent('poll.watch', { ...context, ...next }));
    }),
    clearNotice: assign({ notice: null }),
    /** A story loaded or made: the poller waits for its next read while a job of it is live. */
    schedulePoll: sendTo('storyPoller', ({ context }) => pollerEvent('poll.watch', context)),
    /** After an answer that replaced the story: a read on its way would bring an older one, so the poller drops it. */
    restartPolling: sendTo('storyPoller', ({ context }) => pollerEvent('poll.restart', context)),
    tellPollerVisibility: sendTo('storyPoller', ({ event }) => ({ type: 'poll.visibility', hidden: event.type === 'story.visibility' && event.hidden })),
    /** The poller's read: the story as the server has it now (the draft board is the person's). */
    storePolled: enqueueActions(({ context, enqueue }, params: { story: Story }) => {
      enqueue.assign({ story: params.story });
      // A followed join that failed: nothing to take the person to, but they are told why (as on the scriptboard).
      const concat = params.story.concat;
      if (context.followFilm && (!concat || !['processing', 'success'].includes(classifyStatus(concat.status)))) {
        enqueue.assign({ followFilm: false, error: concat?.error ?? STORY_RULE_TEXTS.filmFailed });
      }
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
        error: null,
      };
    }),
    prepareSoundRequest: assign(({ context }) => ({
      request: { part: 'audio' as const, ids: [], cost: storyAudioPrice(context.board?.audio.kind ?? 'none') },
      idempotencyKey: newIdempotencyKey(),
      error: null,
    })),
    prepareTake: assign(({ event }) => (event.type === 'take.select' || event.type === 'take.undo' ? { take: takeChoiceOf(event), error: null } : {})),
    /** The autosave is held (no save on its way): the paid call may send the board now. */
    tellPaidGo: sendTo('paidRequest', { type: 'paid.go' } satisfies PaidRequestEvent),
    setCancelPart: assign(({ context, event }) =>
      event.type === 'part.cancel' ? { cancelPart: event.part, error: null, followFilm: context.followFilm && event.part !== 'concat' } : {},
    ),
    startFollowingFilm: assign({ followFilm: true }),
    stopFollowingFilm: assign({ followFilm: false }),
    setError: assign((_, params: { message: string }) => ({ error: params.message })),
    setConcatError: assign(({ context }) => ({ error: context.story?.concat?.error ?? STORY_RULE_TEXTS.filmFailed })),
    clearError: assign({ error: null }),
    /** One timeline file of the cut, offered as a download at once (it is made from the board alone). */
    saveExportFile: ({ context, event }) => {
      const exported = exportOf(context);
      if (!exported || event.type !== 'export.file') return;
      const file = exportFile(exported, event.format);
      saveFile(file.name, file.text, file.type);
    },
    /** The zip is the storyExport child's: it is given the export with the story's links as they are now. */
    tellExport: sendTo('storyExport', ({ context }, params: { type: 'zip.start' | 'zip.retry' }) => ({ type: params.type, exported: exportOf(context) as StoryExport }) satisfies StoryExportEvent),
    cancelExport: sendTo('storyExport', { type: 'zip.cancel' } satisfies StoryExportEvent),
    reportCreated: emit(({ context }) => ({ type: 'story.created' as const, id: context.storyId ?? '' })),
    reportCreditsChanged: emit({ type: 'story.creditsChanged' } as const),
  },
});
