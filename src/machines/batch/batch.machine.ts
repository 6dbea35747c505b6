import { not } from 'xstate';
import { errorMessageOf } from '@/services/api-error';
import { liveJobIds } from '@/machines/batch/batch-board';
import { boardToSend, editFields, generateCostOf, joinUrlsOf, spendableOf } from '@/machines/batch/batch-derived';
import { BATCH_SUBMIT_RETRIES, batchSetup, type GenerateRequest } from '@/machines/batch/batch.setup';
import { paidAnswer, paidMessage } from '@/machines/paid-request/paid-request.machine';
import type { Batch } from '@/services/schemas/batch';

// Screens may not import services; they get these types from here.
export type { AdditionalVideo, Batch, ScriptBoardClip } from '@/services/schemas/batch';
export type { Media } from '@/services/schemas/media';
export type { CreditCheckUser } from '@/lib/affordability';
export type { BatchContext, BatchEmitted, BatchEvent, BatchInput, ClipChanges } from '@/machines/batch/batch.types';
export { boardProblemOf, generateCostOf, hasLiveClips, joinUrlsOf, spendableOf } from '@/machines/batch/batch-derived';
export { BATCH_SUBMIT_RETRIES } from '@/machines/batch/batch.setup';
export type { GenerateRequest } from '@/machines/batch/batch.setup';

/** Changes to the board draft, taken in every state where the board is not being written or sent. */
const BOARD_CHANGES = {
  'board.change': { actions: 'changeClip' },
  'board.move': { actions: 'moveClip' },
} as const;

/** Changes to the edit section's draft (audio, extra videos). */
const EDIT_CHANGES = {
  'edit.setAudio': { actions: 'setAudio' },
  'edit.addVideo': { guard: 'canAddVideo', actions: 'addVideo' },
  'edit.removeVideo': { actions: 'removeVideo' },
} as const;

/**
 * One batch album (SPEC §3 Batch, §7 batch calls; issue 5), owned by the album page:
 *
 * loading → ready | notFound | loadFailed; from ready: writingBoard (POST script-board),
 * savingBoard (PUT edit with the board), generating (the paid-request child: SPEC §6 credit check
 * first, then POST videos with an Idempotency-Key, sent again after no answer) → polling the clips'
 * processing-status until every one has ended (paused while the page is hidden); editing (PUT edit:
 * audio and extra videos); joining (PUT edit with concat) → polling the joined video; deleting →
 * deleted, or back with SPEC §8's "Batch Not Found" toast. A loaded album with running jobs
 * starts polling them. The board and the edit section are drafts in the context, changed by
 * events at any time. The person, their balance and the page's visibility come from its own
 * actors (`account`, `watchPage`), not from React effects.
 */
export const batchMachine = batchSetup.createMachine({
  id: 'batch',
  context: ({ input }) => ({
    batchId: input.batchId,
    batch: null,
    board: [],
    boardVersion: 0,
    savedBoardVersion: 0,
    sendingBoardVersion: 0,
    videoClipIds: [],
    audioUrl: null,
    additionalVideos: [],
    editVersion: 0,
    savedEditVersion: 0,
    sendingEditVersion: 0,
    user: input.user ?? null,
    credit: input.credit ?? null,
    held: 0,
    creditLoading: input.creditLoading ?? false,
    hidden: input.hidden ?? false,
    session: input.session ?? null,
    idempotencyKey: null,
    error: null,
    pollAttempt: 0,
  }),
  invoke: [
    { id: 'account', src: 'account', input: ({ context }) => ({ session: context.session }) },
    { id: 'watchPage', src: 'watchPage' },
    { id: 'albumHold', src: 'projectHold', input: ({ context }) => ({ project: { kind: 'album' as const, id: context.batchId }, tellParent: true }) },
  ],
  on: {
    'batch.account': { actions: 'setAccount' },
    'hold.quoted': [{ guard: 'holdMovedBalance', actions: ['setHeld', 'reportBalanceChanged'] }, { actions: 'setHeld' }],
    'batch.visibility': { actions: 'setHidden' },
  },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadBatch',
        input: ({ context }) => ({ id: context.batchId }),
        onDone: [
          {
            guard: { type: 'answerHasLiveJobs', params: ({ event }) => ({ batch: event.output }) },
            target: 'polling',
            actions: { type: 'loadDrafts', params: ({ event }) => ({ batch: event.output }) },
          },
          { target: 'ready', actions: { type: 'loadDrafts', params: ({ event }) => ({ batch: event.output }) } },
        ],
        onError: [
          { guard: { type: 'isNotFound', params: ({ event }) => ({ error: event.error }) }, target: 'notFound' },
          {
            target: 'loadFailed',
            actions: { type: 'setError', params: ({ event }) => ({ message: errorMessageOf(event.error) }) },
          },
        ],
      },
    },
    notFound: {
      on: { 'batch.reload': 'loading' },
    },
    loadFailed: {
      on: { 'batch.reload': { target: 'loading', actions: 'clearError' } },
    },
    ready: {
      on: {
        ...BOARD_CHANGES,
        ...EDIT_CHANGES,
        // A new board would replace unsaved edits: save them (or undo them) first.
        'board.write': { guard: not('boardUnsaved'), target: 'writingBoard', actions: 'clearError' },
        'board.save': { guard: 'boardUnsaved', target: 'savingBoard', actions: 'markSendingBoard' },
        'batch.generate': {
          guard: 'canGenerate',
          target: 'generating',
          actions: ['newIdempotencyKey', 'markSendingBoard'],
        },
        'edit.save': { guard: 'editUnsaved', target: 'editing', actions: 'markSendingEdit' },
        'edit.join': { guard: 'canJoin', target: 'joining', actions: 'markSendingEdit' },
        'batch.delete': { target: 'deleting', actions: 'clearError' },
        'batch.reload': { target: 'loading', actions: 'clearError' },
      },
    },
    writingBoard: {
      invoke: {
        src: 'writeBoard',
        input: ({ context }) => ({ id: context.batchId }),
        onDone: {
          target: 'ready',
          actions: [
            { type: 'storeBatch', params: ({ event }) => ({ batch: event.output }) },
            { type: 'takeWrittenBoard', params: ({ event }) => ({ batch: event.output }) },
            'refreshHold',
          ],
        },
        onError: {
          target: 'ready',
          actions: { type: 'setError', params: ({ event }) => ({ message: errorMessageOf(event.error) }) },
        },
      },
    },
    savingBoard: {
      on: { ...BOARD_CHANGES, ...EDIT_CHANGES },
      invoke: {
        src: 'saveBoard',
        input: ({ context }) => ({ id: context.batchId, board: boardToSend(context) }),
        onDone: {
          target: 'ready',
          actions: [{ type: 'storeBatch', params: ({ event }) => ({ batch: event.output }) }, 'markBoardSaved', 'refreshHold'],
        },
        onError: {
          target: 'ready',
          actions: { type: 'setError', params: ({ event }) => ({ message: errorMessageOf(event.error) }) },
        },
      },
    },
    generating: {
      // The board being sent stays as it is (the videos are matched to its clips); the edit section may change.
      on: EDIT_CHANGES,
      invoke: {
        id: 'paidRequest',
        src: 'generateVideos',
        input: ({ context }) => ({
          user: context.user,
          // What the album holds pays first: the check counts it with the free balance.
          credit: spendableOf(context),
          cost: generateCostOf(context),
          request: { id: context.batchId, board: boardToSend(context) } satisfies GenerateRequest,
          idempotencyKey: context.idempotencyKey ?? undefined,
          maxRetries: BATCH_SUBMIT_RETRIES,
          wording: 'job' as const,
        }),
        onDone: [
          {
            guard: { type: 'paidDone', params: ({ event }) => ({ output: event.output }) },
            target: '#batch.polling',
            actions: [
              { type: 'storeBatch', params: ({ event }) => ({ batch: paidAnswer<Batch>(event.output) }) },
              'linkVideosToBoard',
              'resetPolls',
              // The clips were paid for: the balance in the header follows.
              'reportCreditsChanged',
            ],
          },
          // Refused by the credit check (SPEC §6 words) or failed: nothing was made.
          {
            target: '#batch.ready',
            actions: { type: 'setError', params: ({ event }) => ({ message: paidMessage(event.output) }) },
          },
        ],
      },
    },
    polling: {
      initial: 'waiting',
      on: {
        ...BOARD_CHANGES,
        ...EDIT_CHANGES,
        'batch.delete': { target: 'deleting', actions: 'clearError' },
      },
      states: {
        waiting: {
          always: { guard: 'isHidden', target: 'paused' },
          after: { pollDelay: 'checking' },
          on: { 'batch.visibility': { guard: 'becameHidden', target: 'paused', actions: 'setHidden' } },
        },
        checking: {
          after: { requestTimeout: { target: 'waiting', actions: 'countPoll' } },
          invoke: {
            src: 'pollJobs',
            input: ({ context }) => ({ ids: liveJobIds(context.batch) }),
            onDone: {
              target: 'deciding',
              actions: [{ type: 'applyUpdates', params: ({ event }) => ({ updates: event.output }) }, 'countPoll'],
            },
            // pollBatchJobs answers every job's failure in its update; this is an abort or a bug.
            onError: { target: 'waiting', actions: 'countPoll' },
          },
        },
        deciding: {
          always: [
            // Every job has ended: refunds of failed clips show in the balance.
            { guard: 'noLiveJobs', target: '#batch.ready', actions: ['resetPolls', 'reportCreditsChanged'] },
            { guard: 'isHidden', target: 'paused' },
            { target: 'waiting' },
          ],
        },
        paused: {
          on: {
            'batch.visibility': { guard: 'becameVisible', target: 'checking', actions: ['setHidden', 'resetPolls'] },
          },
        },
      },
    },
    editing: {
      on: { ...BOARD_CHANGES, ...EDIT_CHANGES },
      invoke: {
        src: 'saveEdit',
        input: ({ context }) => ({ id: context.batchId, fields: editFields(context) }),
        onDone: {
          target: 'ready',
          actions: [{ type: 'storeBatch', params: ({ event }) => ({ batch: event.output }) }, 'markEditSaved'],
        },
        onError: {
          target: 'ready',
          actions: { type: 'setError', params: ({ event }) => ({ message: errorMessageOf(event.error) }) },
        },
      },
    },
    joining: {
      on: { ...BOARD_CHANGES, ...EDIT_CHANGES },
      invoke: {
        src: 'join',
        input: ({ context }) => ({
          id: context.batchId,
          fields: { ...editFields(context), concat_video_urls: joinUrlsOf(context), concat: true },
        }),
        onDone: [
          {
            guard: { type: 'answerHasLiveJobs', params: ({ event }) => ({ batch: event.output }) },
            target: 'polling',
            // The join ended the album's hold: priced again (nothing left, nothing held).
            actions: [{ type: 'storeBatch', params: ({ event }) => ({ batch: event.output }) }, 'markEditSaved', 'resetPolls', 'refreshHold'],
          },
          {
            target: 'ready',
            actions: [{ type: 'storeBatch', params: ({ event }) => ({ batch: event.output }) }, 'markEditSaved', 'refreshHold'],
          },
        ],
        onError: {
          target: 'ready',
          actions: { type: 'setError', params: ({ event }) => ({ message: errorMessageOf(event.error) }) },
        },
      },
    },
    deleting: {
      invoke: {
        src: 'deleteAlbum',
        input: ({ context }) => ({ id: context.batchId }),
        onDone: { target: 'deleted' },
        onError: [
          // Clips still running when the delete was asked for: keep following them.
          { guard: 'hasLiveJobs', target: 'polling', actions: 'notifyBatchNotFound' },
          { target: 'ready', actions: 'notifyBatchNotFound' },
        ],
      },
    },
    deleted: {
      type: 'final',
      entry: ['reportDeleted', 'reportBalanceChanged'],
    },
  },
});
