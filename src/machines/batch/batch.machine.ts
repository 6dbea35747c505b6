import { assign, emit, fromPromise, not, setup } from 'xstate';
import type { BatchType } from '@/config/batch';
import { BATCH_ADDITIONAL_VIDEOS_MAX } from '@/config/batch';
import { JOB_TEXTS } from '@/config/job-texts';
import { JOB_POLL, JOB_REQUEST_TIMEOUT_MS, JOB_SUBMIT_RETRY_STATUSES } from '@/config/limits';
import { MESSAGES } from '@/config/messages';
import { fullJitterDelay } from '@/lib/backoff';
import { canAfford } from '@/lib/credit-check';
import type { CreditCheckUser } from '@/lib/credit-check';
import { newIdempotencyKey } from '@/lib/idempotency-key';
import { errorMessageOf, isApiError } from '@/services/api-error';
import { deleteBatch, editBatch, generateBatchVideos, getBatch, pollBatchJobs, writeScriptBoard } from '@/services/batch';
import type { BatchJobUpdate, EditBatchFields } from '@/services/batch';
import type { AdditionalVideo, Batch, ScriptBoard, ScriptBoardClip } from '@/services/schemas/batch';
import type { Media } from '@/services/schemas/media';
import {
  boardCost,
  boardProblem,
  isLive,
  joinVideoUrls,
  liveJobIds,
  moveClip,
  normalisedClip,
} from '@/machines/batch/batch-board';

// Screens may not import services; they get these types from here.
export type { AdditionalVideo, Batch, ScriptBoardClip } from '@/services/schemas/batch';
export type { Media } from '@/services/schemas/media';
export type { CreditCheckUser } from '@/lib/credit-check';

/** Sending "Generate videos" again after no answer (same key) at most this many times. */
export const BATCH_SUBMIT_RETRIES = 4;

export interface BatchInput {
  batchId: string;
  /** SPEC §6 credit check inputs; kept current with `batch.account`. */
  user: CreditCheckUser | null;
  credit: number | null;
  /** The balance is being fetched (a null credit then means "not known yet", not 0). */
  creditLoading?: boolean;
  /** The page is hidden now (no polling until it is shown). */
  hidden?: boolean;
}

/** The fields of a clip the person changes on the board. */
export type ClipChanges = Partial<Pick<ScriptBoardClip, 'prompt' | 'motion_type' | 'model' | 'camera_path' | 'motion_length' | 'motion_amount'>>;

export interface BatchContext {
  batchId: string;
  /** The album as the server last answered; null before the first answer. */
  batch: Batch | null;
  /** The script board being edited (the saved one until the person changes it). */
  board: ScriptBoardClip[];
  /** Bumped on every board change; equal to savedBoardVersion when the server has this board. */
  boardVersion: number;
  savedBoardVersion: number;
  /** The board version a running save sends. */
  sendingBoardVersion: number;
  /** The board clip each video was made from, parallel to batch.videos ([] when not known). */
  videoClipIds: string[];
  /** The edit section: the sound under the joined video and the extra videos after the clips. */
  audioUrl: string | null;
  additionalVideos: AdditionalVideo[];
  editVersion: number;
  savedEditVersion: number;
  sendingEditVersion: number;
  user: CreditCheckUser | null;
  credit: number | null;
  creditLoading: boolean;
  hidden: boolean;
  /** One per click on "Generate videos"; every retry of that click sends it again. */
  idempotencyKey: string | null;
  /** What the last action that failed says (shown on the page); null when nothing failed. */
  error: string | null;
  pollAttempt: number;
  retryAttempt: number;
}

export type BatchEvent =
  | { type: 'batch.reload' }
  | { type: 'batch.account'; user: CreditCheckUser | null; credit: number | null; creditLoading: boolean }
  | { type: 'batch.visibility'; hidden: boolean }
  | { type: 'batch.generate' }
  | { type: 'batch.delete' }
  | { type: 'board.write' }
  | { type: 'board.save' }
  | { type: 'board.change'; clipId: string; changes: ClipChanges }
  | { type: 'board.move'; clipId: string; offset: number }
  | { type: 'edit.setAudio'; url: string | null }
  | { type: 'edit.addVideo'; video: AdditionalVideo }
  | { type: 'edit.removeVideo'; index: number }
  | { type: 'edit.save' }
  | { type: 'edit.join' };

/** What the album tells the page (`actor.on`): a credits refresh, a toast, leaving a deleted album. */
export type BatchEmitted =
  | { type: 'batch.creditsChanged' }
  | { type: 'batch.notify'; tone: 'error'; title: string; message: string }
  | { type: 'batch.deleted'; id: string };

const statusOf = (error: unknown): number | undefined => (isApiError(error) ? error.status : undefined);
const isNetwork = (error: unknown): boolean => isApiError(error) && error.kind === 'network';

const timeOf = (iso: string): number => {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
};

/** One poll's answer for one job, applied to that job (an older status never overwrites a newer one). */
function applyUpdate(media: Media, update: BatchJobUpdate): Media {
  if (media.id !== update.id) return media;
  switch (update.kind) {
    case 'ended':
      return update.media;
    case 'status':
      if (timeOf(update.status.updated_at) < timeOf(media.updated_at)) return media;
      return { ...media, status: update.status.status, progress: update.status.progress, updated_at: update.status.updated_at };
    case 'error':
      // Gone from the server: it will never end, so it ends here.
      return statusOf(update.error) === 404 ? { ...media, status: 'failed', error: JOB_TEXTS.notFound } : media;
  }
}

const applyUpdates = (batch: Batch, updates: readonly BatchJobUpdate[]): Batch => {
  const apply = (media: Media): Media => updates.reduce(applyUpdate, media);
  return { ...batch, videos: batch.videos.map(apply), concat: batch.concat ? apply(batch.concat) : null };
};

/** The board the album was saved with; a parallax board's clips carry no model, an AI one's no path. */
const savedBoardOf = (batch: Batch): ScriptBoardClip[] => batch.script_board?.clips ?? [];

/** Which clip each video was made from, when the saved board lines up with the videos. */
const videoClipIdsOf = (batch: Batch): string[] => {
  const clips = savedBoardOf(batch);
  return clips.length === batch.videos.length ? clips.map((clip) => clip.id) : [];
};

const batchTypeOf = (context: BatchContext): BatchType => (context.batch?.batch_type === 'parallax' ? 'parallax' : 'ai');

/** The board as it is sent: each clip in the shape its album type asks for. */
const boardToSend = (context: BatchContext): ScriptBoard => ({
  clips: context.board.map((clip) => normalisedClip(batchTypeOf(context), clip)),
});

const editFields = (context: BatchContext): EditBatchFields => ({
  audio_urls: context.audioUrl ? [context.audioUrl] : [],
  additional_videos: context.additionalVideos,
});

/** `concat_video_urls` of a join: the finished clips in the board's order. */
export const joinUrlsOf = (context: BatchContext): string[] =>
  joinVideoUrls(context.batch?.videos ?? [], context.videoClipIds, context.board);

/** What "Generate videos" costs now. */
export const generateCostOf = (context: BatchContext): number => boardCost(batchTypeOf(context), context.board);

/** Why the board cannot be generated now (not counting credits), or null. */
export const boardProblemOf = (context: BatchContext): string | null => boardProblem(batchTypeOf(context), context.board);

/** Clips (not the joined video) still being made. */
export const hasLiveClips = (context: BatchContext): boolean => (context.batch?.videos ?? []).some(isLive);

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
 * savingBoard (PUT edit with the board), generating { checkingCredit → submitting ⇄ retrying }
 * (SPEC §6 credit check first; POST videos with an Idempotency-Key) → polling the clips'
 * processing-status until every one has ended (paused while the page is hidden); editing (PUT edit:
 * audio and extra videos); joining (PUT edit with concat) → polling the joined video; deleting →
 * deleted, or back with SPEC §8's "Batch Not Found" toast. A loaded album with running jobs
 * starts polling them. The board and the edit section are drafts in the context, changed by
 * events at any time.
 */
export const batchMachine = setup({
  types: {
    context: {} as BatchContext,
    events: {} as BatchEvent,
    input: {} as BatchInput,
    emitted: {} as BatchEmitted,
  },
  actors: {
    loadBatch: fromPromise<Batch, { id: string }>(({ input, signal }) => getBatch(input.id, undefined, { signal })),
    writeBoard: fromPromise<Batch, { id: string }>(({ input, signal }) => writeScriptBoard(input.id, {}, { signal })),
    saveBoard: fromPromise<Batch, { id: string; board: ScriptBoard }>(({ input, signal }) =>
      editBatch(input.id, { script_board: input.board }, { signal }),
    ),
    generateVideos: fromPromise<Batch, { id: string; board: ScriptBoard; idempotencyKey: string }>(({ input, signal }) =>
      generateBatchVideos(input.id, input.board, { idempotencyKey: input.idempotencyKey, signal }),
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
    /** SPEC §6. */
    canAfford: ({ context }) => canAfford({ user: context.user, cost: generateCostOf(context), credit: context.credit }),
    boardUnsaved: ({ context }) => context.board.length > 0 && context.boardVersion !== context.savedBoardVersion,
    editUnsaved: ({ context }) => context.editVersion !== context.savedEditVersion,
    canJoin: ({ context }) => joinUrlsOf(context).length + context.additionalVideos.length > 0 && liveJobIds(context.batch).length === 0,
    canAddVideo: ({ context }) => context.additionalVideos.length < BATCH_ADDITIONAL_VIDEOS_MAX,
    isNotFound: (_, params: { error: unknown }) => statusOf(params.error) === 404,
    /** No answer, or a conflict / gateway failure: the same request (same key) is worth sending again. */
    isRetryableSubmit: ({ context }, params: { error: unknown }) =>
      context.retryAttempt < BATCH_SUBMIT_RETRIES &&
      (isNetwork(params.error) || JOB_SUBMIT_RETRY_STATUSES.includes(statusOf(params.error) ?? 0)),
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
    newIdempotencyKey: assign(() => ({ idempotencyKey: newIdempotencyKey(), retryAttempt: 0, error: null })),
    setDeniedError: assign(({ context }) => ({
      error: context.user?.attributes
        ? JOB_TEXTS.notEnoughCredits(generateCostOf(context), context.credit ?? 0)
        : MESSAGES.notAuthenticated,
    })),
    setError: assign((_, params: { message: string }) => ({ error: params.message })),
    clearError: assign({ error: null }),
    applyUpdates: assign(({ context }, params: { updates: BatchJobUpdate[] }) =>
      context.batch ? { batch: applyUpdates(context.batch, params.updates) } : {},
    ),
    countPoll: assign(({ context }) => ({ pollAttempt: context.pollAttempt + 1 })),
    resetPolls: assign({ pollAttempt: 0 }),
    countRetry: assign(({ context }) => ({ retryAttempt: context.retryAttempt + 1 })),
    reportCreditsChanged: emit({ type: 'batch.creditsChanged' } as const),
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
    retryDelay: ({ context }) => fullJitterDelay(Math.max(context.retryAttempt - 1, 0), JOB_POLL),
    /** A poll still unanswered after this is given up (aborted) and asked again. */
    requestTimeout: JOB_REQUEST_TIMEOUT_MS,
  },
}).createMachine({
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
    user: input.user,
    credit: input.credit,
    creditLoading: input.creditLoading ?? false,
    hidden: input.hidden ?? false,
    idempotencyKey: null,
    error: null,
    pollAttempt: 0,
    retryAttempt: 0,
  }),
  on: {
    'batch.account': { actions: 'setAccount' },
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
          actions: [{ type: 'storeBatch', params: ({ event }) => ({ batch: event.output }) }, 'markBoardSaved'],
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
      initial: 'checkingCredit',
      states: {
        checkingCredit: {
          always: [
            { guard: 'canAfford', target: 'submitting' },
            { target: '#batch.ready', actions: 'setDeniedError' },
          ],
        },
        submitting: {
          invoke: {
            src: 'generateVideos',
            input: ({ context }) => ({
              id: context.batchId,
              board: boardToSend(context),
              idempotencyKey: context.idempotencyKey ?? '',
            }),
            onDone: {
              target: '#batch.polling',
              actions: [
                { type: 'storeBatch', params: ({ event }) => ({ batch: event.output }) },
                'linkVideosToBoard',
                'resetPolls',
                // The clips were paid for: the balance in the header follows.
                'reportCreditsChanged',
              ],
            },
            onError: [
              {
                guard: { type: 'isRetryableSubmit', params: ({ event }) => ({ error: event.error }) },
                target: 'retrying',
                actions: 'countRetry',
              },
              {
                target: '#batch.ready',
                actions: { type: 'setError', params: ({ event }) => ({ message: errorMessageOf(event.error) }) },
              },
            ],
          },
        },
        retrying: {
          after: { retryDelay: 'submitting' },
        },
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
            actions: [{ type: 'storeBatch', params: ({ event }) => ({ batch: event.output }) }, 'markEditSaved', 'resetPolls'],
          },
          {
            target: 'ready',
            actions: [{ type: 'storeBatch', params: ({ event }) => ({ batch: event.output }) }, 'markEditSaved'],
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
      entry: ['reportDeleted', 'reportCreditsChanged'],
    },
  },
});
