import { assign, emit, enqueueActions, fromCallback, fromPromise, sendTo, setup } from 'xstate';
import { BATCH_ADDITIONAL_VIDEOS_MAX } from '@/config/batch';
import { JOB_POLL, JOB_REQUEST_TIMEOUT_MS } from '@/config/limits';
import { MESSAGES } from '@/config/messages';
import { fullJitterDelay } from '@/lib/backoff';
import { newIdempotencyKey } from '@/lib/idempotency-key';
import { statusOf } from '@/services/api-error';
import { deleteBatch, editBatch, generateBatchVideos, getBatch, pollBatchJobs, writeScriptBoard } from '@/services/batch';
import type { BatchJobUpdate, EditBatchFields } from '@/services/batch';
import type { Batch, ScriptBoard } from '@/services/schemas/batch';
import { accountLink, watchPage } from '@/machines/account-link/account-link';
import { isPaidDone, paidRequestWith, type PaidRequestOutput } from '@/machines/paid-request/paid-request.machine';
import { projectHoldMachine } from '@/machines/project-hold/project-hold.machine';
import { liveJobIds, moveClip } from '@/machines/batch/batch-board';
import {
  applyUpdates,
  boardProblemOf,
  hasLiveClips,
  joinUrlsOf,
  savedBoardOf,
  videoClipIdsOf,
} from '@/machines/batch/batch-derived';
import type { BatchContext, BatchEmitted, BatchEvent, BatchInput } from '@/machines/batch/batch.types';

/** Sending "Generate videos" again after no answer (same key) at most this many times. */
export const BATCH_SUBMIT_RETRIES = 4;

/** What the paid call sends: the album and its board as it was when Generate was clicked. */
export interface GenerateRequest {
  id: string;
  board: ScriptBoard;
}

/**
 * The album machine's named implementations (its actors wrap one service call each; its guards,
 * actions and delays), apart from its states in batch.machine.ts.
 */
export const batchSetup = setup({
  types: {
    context: {} as BatchContext,
    events: {} as BatchEvent,
    input: {} as BatchInput,
    emitted: {} as BatchEmitted,
    children: {} as { albumHold: 'projectHold' },
  },
  actors: {
    loadBatch: fromPromise<Batch, { id: string }>(({ input, signal }) => getBatch(input.id, undefined, { signal })),
    writeBoard: fromPromise<Batch, { id: string }>(({ input, signal }) => writeScriptBoard(input.id, {}, { signal })),
    saveBoard: fromPromise<Batch, { id: string; board: ScriptBoard }>(({ input, signal }) =>
      editBatch(input.id, { script_board: input.board }, { signal }),
    ),
    /**
     * "Generate videos" as one paid call (paid-request.machine, a child the inspector shows): the
     * SPEC §6 check, the send, the same key again after no answer (at most BATCH_SUBMIT_RETRIES).
     */
    generateVideos: paidRequestWith<GenerateRequest, Batch>(({ request, idempotencyKey }, signal) =>
      generateBatchVideos(request.id, request.board, { idempotencyKey, signal }),
    ),
    pollJobs: fromPromise<BatchJobUpdate[], { ids: string[] }>(({ input, signal }) => pollBatchJobs(input.ids, { signal })),
    saveEdit: fromPromise<Batch, { id: string; fields: EditBatchFields }>(({ input, signal }) =>
      editBatch(input.id, input.fields, { signal }),
    ),
    join: fromPromise<Batch, { id: string; fields: EditBatchFields }>(({ input, signal }) =>
      editBatch(input.id, input.fields, { signal }),
    ),
    deleteAlbum: fromPromise<{ id: string; deleted: true }, { id: string }>(({ input, signal }) =>
      deleteBatch(input.id, { signal }),
    ),
    /** The person and their balance (the credit check), from the session; refreshes the balance. */
    account: accountLink(({ user, credit, creditLoading }) => [{ type: 'batch.account' as const, user, credit, creditLoading }]),
    /** One quote for the whole album (issue 21 item 6): its quote, hold and release, a child the panel renders. */
    projectHold: projectHoldMachine,
    /** Page visibility: polling pauses while the page is hidden. */
    watchPage: fromCallback(({ sendBack }) => watchPage((hidden) => sendBack({ type: 'batch.visibility', hidden }))),
  },
  guards: {
    hasLiveJobs: ({ context }) => liveJobIds(context.batch).length > 0,
    answerHasLiveJobs: (_, params: { batch: Batch }) => liveJobIds(params.batch).length > 0,
    noLiveJobs: ({ context }) => liveJobIds(context.batch).length === 0,
    isHidden: ({ context }) => context.hidden,
    becameVisible: ({ event }) => event.type === 'batch.visibility' && !event.hidden,
    becameHidden: ({ event }) => event.type === 'batch.visibility' && event.hidden,
    /** The board can be sent: valid, and no clip of an earlier generation still running. */
    canGenerate: ({ context }) => boardProblemOf(context) === null && !hasLiveClips(context),
    boardUnsaved: ({ context }) => context.board.length > 0 && context.boardVersion !== context.savedBoardVersion,
    editUnsaved: ({ context }) => context.editVersion !== context.savedEditVersion,
    canJoin: ({ context }) => joinUrlsOf(context).length + context.additionalVideos.length > 0 && liveJobIds(context.batch).length === 0,
    canAddVideo: ({ context }) => context.additionalVideos.length < BATCH_ADDITIONAL_VIDEOS_MAX,
    isNotFound: (_, params: { error: unknown }) => statusOf(params.error) === 404,
    paidDone: (_, params: { output: PaidRequestOutput }) => isPaidDone(params.output),
    /** A hold was placed or released: the balance moved. */
    holdMovedBalance: ({ event }) => event.type === 'hold.quoted' && event.balanceChanged,
  },
  actions: {
    /** A loaded album: its board and edit section become the drafts. */
    loadDrafts: assign(({ context }, params: { batch: Batch }) => ({
      batch: params.batch,
      board: savedBoardOf(params.batch),
      savedBoardVersion: context.boardVersion,
      videoClipIds: videoClipIdsOf(params.batch),
      audioUrl: params.batch.audio_urls[0] ?? null,
      additionalVideos: params.batch.additional_videos,
      savedEditVersion: context.editVersion,
      error: null,
    })),
    storeBatch: assign((_, params: { batch: Batch }) => ({ batch: params.batch, error: null })),
    /** A new board from the server replaces the draft. */
    takeWrittenBoard: assign(({ context }, params: { batch: Batch }) => ({
      board: savedBoardOf(params.batch),
      boardVersion: context.boardVersion + 1,
      savedBoardVersion: context.boardVersion + 1,
    })),
    markSendingBoard: assign(({ context }) => ({ sendingBoardVersion: context.boardVersion, error: null })),
    markBoardSaved: assign(({ context }) => ({ savedBoardVersion: context.sendingBoardVersion })),
    markSendingEdit: assign(({ context }) => ({ sendingEditVersion: context.editVersion, error: null })),
    markEditSaved: assign(({ context }) => ({ savedEditVersion: context.sendingEditVersion })),
    /** The videos just asked for were made from the board as sent, clip by clip. */
    linkVideosToBoard: assign(({ context }) => ({
      videoClipIds: context.board.map((clip) => clip.id),
      savedBoardVersion: context.sendingBoardVersion,
    })),
    changeClip: assign(({ context, event }) => {
      if (event.type !== 'board.change') return {};
      return {
        board: context.board.map((clip) => (clip.id === event.clipId ? { ...clip, ...event.changes } : clip)),
        boardVersion: context.boardVersion + 1,
      };
    }),
    moveClip: assign(({ context, event }) => {
      if (event.type !== 'board.move') return {};
      const board = moveClip(context.board, event.clipId, event.offset);
      return board === context.board ? {} : { board, boardVersion: context.boardVersion + 1 };
    }),
    setAudio: assign(({ context, event }) =>
      event.type === 'edit.setAudio' ? { audioUrl: event.url, editVersion: context.editVersion + 1 } : {},
    ),
    addVideo: assign(({ context, event }) =>
      event.type === 'edit.addVideo'
        ? { additionalVideos: [...context.additionalVideos, event.video], editVersion: context.editVersion + 1 }
        : {},
    ),
    removeVideo: assign(({ context, event }) =>
      event.type === 'edit.removeVideo'
        ? {
            additionalVideos: context.additionalVideos.filter((_, index) => index !== event.index),
            editVersion: context.editVersion + 1,
          }
        : {},
    ),
    setAccount: assign(({ event }) =>
      event.type === 'batch.account' ? { user: event.user, credit: event.credit, creditLoading: event.creditLoading } : {},
    ),
    setHidden: assign(({ event }) => (event.type === 'batch.visibility' ? { hidden: event.hidden } : {})),
    newIdempotencyKey: assign(() => ({ idempotencyKey: newIdempotencyKey(), error: null })),
    setError: assign((_, params: { message: string }) => ({ error: params.message })),
    clearError: assign({ error: null }),
    applyUpdates: assign(({ context }, params: { updates: BatchJobUpdate[] }) =>
      context.batch ? { batch: applyUpdates(context.batch, params.updates) } : {},
    ),
    countPoll: assign(({ context }) => ({ pollAttempt: context.pollAttempt + 1 })),
    resetPolls: assign({ pollAttempt: 0 }),
    /** The album spent or got back credits: the session's balance is fetched again, and what is left to make priced again. */
    reportCreditsChanged: enqueueActions(({ enqueue }) => {
      enqueue.emit({ type: 'batch.creditsChanged' });
      enqueue.sendTo('account', { type: 'credits.refresh' });
      enqueue.sendTo('albumHold', { type: 'hold.refresh' });
    }),
    /** The album is gone (its hold closed with it): only the session's balance is fetched again. */
    reportBalanceChanged: enqueueActions(({ enqueue }) => {
      enqueue.emit({ type: 'batch.creditsChanged' });
      enqueue.sendTo('account', { type: 'credits.refresh' });
    }),
    /** The board or the join changed what is left to make: the album is priced again. */
    refreshHold: sendTo('albumHold', { type: 'hold.refresh' }),
    /** The album's hold answered: what it keeps counts in the credit check. */
    setHeld: assign(({ event }) => (event.type === 'hold.quoted' ? { held: event.held } : {})),
    /** SPEC §8: whatever the reason, a failed delete says the album was not found. */
    notifyBatchNotFound: emit({
      type: 'batch.notify',
      tone: 'error',
      title: MESSAGES.batchNotFound.title,
      message: MESSAGES.batchNotFound.message,
    } as const),
    reportDeleted: emit(({ context }) => ({ type: 'batch.deleted' as const, id: context.batchId })),
  },
  delays: {
    /** Full jitter (JOB_POLL): 0…min(30 s, 2 s × 2^pollAttempt). */
    pollDelay: ({ context }) => fullJitterDelay(context.pollAttempt, JOB_POLL),
    /** A poll still unanswered after this is given up (aborted) and asked again. */
    requestTimeout: JOB_REQUEST_TIMEOUT_MS,
  },
});
