import { and, assign, enqueueActions, fromPromise, setup } from 'xstate';
import { JOB_TEXTS } from '@/config/job-texts';
import {
  JOB_POLL,
  JOB_REQUEST_TIMEOUT_MS,
  JOB_SUBMIT_RETRY_STATUSES,
  JOB_SUBMIT_TIMEOUT_MS,
} from '@/config/limits';
import { MESSAGES } from '@/config/messages';
import { fullJitterDelay } from '@/lib/backoff';
import { canAfford } from '@/lib/credit-check';
import type { CreditCheckUser } from '@/lib/credit-check';
import { classifyStatus } from '@/lib/job-status';
import type { JobStatusClass } from '@/lib/job-status';
import { errorMessageOf, isApiError } from '@/services/api-error';
import { submitGeneration } from '@/services/generation';
import type { MultipartFields } from '@/services/http';
import { cancelMedia, getMedia, getProcessingStatus } from '@/services/media';
import type { Media, ProcessingStatus } from '@/services/schemas/media';

// Screens may not import services; they get these types from here.
export type { Media, MediaResultItem, ProcessingStatus } from '@/services/schemas/media';
export type { MultipartFields } from '@/services/http';

/** How a job ended. `denied`: the credit check refused it before anything was sent. */
export type JobOutcome = 'succeeded' | 'failed' | 'nsfw' | 'cancelled' | 'denied';

/** What the jobs registry starts a job with. */
export interface GenerationJobInput {
  /** The registry's id for the job (and the actor's id), known before the server answers. */
  localId: string;
  /** Tool slug, e.g. `text-to-image`. */
  tool: string;
  toolTitle: string;
  /** The model value sent as `option`, and its label. */
  option: string;
  optionLabel: string;
  /** SPEC §7 call, e.g. `image/text-2-image`. */
  endpoint: string;
  /** Credits the model costs (SPEC §9), for the credit check and the panel. */
  cost: number;
  /** The multipart fields to send; null for a resumed job that was already answered. */
  fields: MultipartFields | null;
  assetId: string | null;
  /** One per user intent; every retry of the submit sends the same key. */
  idempotencyKey: string;
  /** Epoch ms when the person asked for it. */
  createdAt: number;
  /** SPEC §6 credit check inputs. */
  user: CreditCheckUser | null;
  credit: number | null;
  /** Resume: the server's media id of a job already submitted → starts polling, no submit. */
  mediaId?: string | null;
  /**
   * Kinora's addition: a request already sent once before a reload whose answer never came. It is
   * sent again with the same key and fields (the server replays the first answer), without a
   * second credit check: the check passed when it was first sent, and the balance may not be
   * loaded yet.
   */
  resubmit?: boolean;
  /** The page is hidden now (no polling until it is shown). */
  hidden?: boolean;
}

/** The input as given (its optional flags settled), plus what the job learns as it runs. */
export interface GenerationJobContext extends Omit<GenerationJobInput, 'mediaId' | 'resubmit' | 'hidden'> {
  resubmit: boolean;
  /** Epoch ms when a final state was reached. */
  finishedAt: number | null;
  mediaId: string | null;
  /** The server's last status (SPEC §4), null before the first answer. */
  status: string | null;
  /** 0…100. */
  progress: number;
  /** The full media once fetched (the result's files and signed URLs are in its items). */
  media: Media | null;
  error: string | null;
  /** Credits given back (failed, nsfw, cancelled after being charged). */
  refunded: boolean;
  /** Polls answered so far: the exponent of the poll back-off. */
  pollAttempt: number;
  /** Consecutive failed attempts at reaching the server: the exponent of the retry back-off. */
  retryAttempt: number;
  hidden: boolean;
  /** `updated_at` of the last answer applied; an older answer is stale and ignored. */
  lastUpdatedAt: string | null;
  /** Cancel was asked for while the submit had no answer yet: cancelled as soon as it has one. */
  cancelRequested: boolean;
  outcome: JobOutcome | null;
}

export type GenerationJobEvent =
  | { type: 'job.cancel' }
  | { type: 'job.visibility'; hidden: boolean }
  | { type: 'job.online' };

/** What a job tells the registry (its parent); the same events are emitted for `actor.on`. */
export type GenerationJobParentEvent =
  | { type: 'job.submitted'; localId: string; mediaId: string }
  | {
      type: 'job.settled';
      localId: string;
      outcome: JobOutcome;
      media: Media | null;
      error: string | null;
      refunded: boolean;
    };

export type GenerationJobTag = 'reconnecting';

export interface SubmitInput {
  endpoint: string;
  fields: MultipartFields;
  idempotencyKey: string;
  assetId: string | null;
}

const isNetwork = (error: unknown): boolean => isApiError(error) && error.kind === 'network';
const statusOf = (error: unknown): number | undefined => (isApiError(error) ? error.status : undefined);
/** A submit worth sending again with the same key: no answer, or JOB_SUBMIT_RETRY_STATUSES. */
const isRetryableSubmit = (error: unknown): boolean =>
  isNetwork(error) || JOB_SUBMIT_RETRY_STATUSES.includes(statusOf(error) ?? 0);

const timeOf = (iso: string): number => {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
};

const DEFAULT_ERRORS: Partial<Record<JobOutcome, string>> = {
  failed: JOB_TEXTS.failed,
  nsfw: JOB_TEXTS.nsfw,
};

/**
 * One generation job (SPEC §4, §6, §7; ARCHITECTURE §3), spawned by the jobs registry:
 *
 * starting → checkingCredit → denied | submitting (⇄ submitRetrying on no answer, a time-out, a
 * 409 or a gateway error: same Idempotency-Key) → routing → polling { waiting ⇄ checking; paused while the page is hidden;
 * reconnecting after a network error } → fetchingResult → routing → succeeded | failed | nsfw |
 * cancelled. `job.cancel` from any live state: during the submit it is remembered and carried out
 * once the server has named the job; from polling it goes to cancelling (PUT cancel; 409 → the
 * job's real end). A resumed job (input.mediaId) starts polling. `starting`, `checkingCredit` and
 * `routing` are decisions taken at once; the actor never rests in them.
 */
export const generationJobMachine = setup({
  types: {
    context: {} as GenerationJobContext,
    events: {} as GenerationJobEvent,
    input: {} as GenerationJobInput,
    emitted: {} as GenerationJobParentEvent,
    tags: {} as GenerationJobTag,
  },
  actors: {
    submit: fromPromise<Media, SubmitInput>(({ input, signal }) =>
      submitGeneration(input.endpoint, input.fields, {
        idempotencyKey: input.idempotencyKey,
        assetId: input.assetId,
        signal,
      }),
    ),
    pollStatus: fromPromise<ProcessingStatus, { mediaId: string }>(({ input, signal }) =>
      getProcessingStatus(input.mediaId, { signal }),
    ),
    fetchMedia: fromPromise<Media, { mediaId: string }>(({ input, signal }) =>
      getMedia(input.mediaId, undefined, { signal }),
    ),
    cancelJob: fromPromise<Media, { mediaId: string }>(({ input, signal }) => cancelMedia(input.mediaId, { signal })),
  },
  guards: {
    isResume: ({ context }) => context.mediaId !== null,
    isResubmit: ({ context }) => context.resubmit,
    isHidden: ({ context }) => context.hidden,
    isVisible: ({ context }) => !context.hidden,
    /** SPEC §6. */
    canAfford: ({ context }) => canAfford({ user: context.user, cost: context.cost, credit: context.credit }),
    cancelRequested: ({ context }) => context.cancelRequested,
    cancelNotRequested: ({ context }) => !context.cancelRequested,
    statusIs: ({ context }, params: { is: JobStatusClass }) => classifyStatus(context.status) === params.is,
    becameHidden: ({ event }) => event.type === 'job.visibility' && event.hidden,
    becameVisible: ({ event }) => event.type === 'job.visibility' && !event.hidden,
    isNetworkError: (_, params: { error: unknown }) => isNetwork(params.error),
    isRetryableSubmit: (_, params: { error: unknown }) => isRetryableSubmit(params.error),
    /** Worth trying again: no answer at all, or the server's own failure. */
    isRetryable: (_, params: { error: unknown }) => isNetwork(params.error) || (statusOf(params.error) ?? 0) >= 500,
    isConflict: (_, params: { error: unknown }) => statusOf(params.error) === 409,
    isNotFound: (_, params: { error: unknown }) => statusOf(params.error) === 404,
    /** An answer older than the last one applied (it overtook nothing; a newer one got here first). */
    isStale: ({ context }, params: { answer: ProcessingStatus }) =>
      context.lastUpdatedAt !== null && timeOf(params.answer.updated_at) < timeOf(context.lastUpdatedAt),
    answerEnded: (_, params: { answer: ProcessingStatus }) => classifyStatus(params.answer.status) !== 'processing',
  },
  actions: {
    setHidden: assign(({ event }) => (event.type === 'job.visibility' ? { hidden: event.hidden } : {})),
    requestCancel: assign({ cancelRequested: true }),
    setDeniedError: assign(({ context }) => ({
      error: context.user?.attributes
        ? JOB_TEXTS.notEnoughCredits(context.cost, context.credit ?? 0)
        : MESSAGES.notAuthenticated,
    })),
    /** A media answer (submit, fetch, cancel): the job as the server now has it. */
    storeMedia: assign((_, params: { media: Media }) => ({
      mediaId: params.media.id,
      status: params.media.status,
      progress: params.media.progress,
      media: params.media,
      refunded: params.media.refunded,
      error: params.media.error,
      lastUpdatedAt: params.media.updated_at,
      // Once the server has the job, its request is not needed again.
      fields: null,
    })),
    applyStatus: assign((_, params: { answer: ProcessingStatus }) => ({
      status: params.answer.status,
      progress: params.answer.progress,
      lastUpdatedAt: params.answer.updated_at,
      retryAttempt: 0,
    })),
    setError: assign((_, params: { message: string }) => ({ error: params.message })),
    countPoll: assign(({ context }) => ({ pollAttempt: context.pollAttempt + 1 })),
    resetPollAttempt: assign({ pollAttempt: 0 }),
    countRetry: assign(({ context }) => ({ retryAttempt: context.retryAttempt + 1 })),
    resetRetries: assign({ retryAttempt: 0 }),
    /** Tells the registry (and any listener) which media the job became. */
    reportSubmitted: enqueueActions(({ context, self, enqueue }) => {
      if (context.mediaId === null) return;
      const event = { type: 'job.submitted' as const, localId: context.localId, mediaId: context.mediaId };
      if (self._parent) enqueue.sendParent(event);
      enqueue.emit(event);
    }),
    settle: assign(({ context }, params: { outcome: JobOutcome }) => ({
      outcome: params.outcome,
      finishedAt: Date.now(),
      error: params.outcome === 'succeeded' ? null : (context.error ?? DEFAULT_ERRORS[params.outcome] ?? null),
      fields: null,
    })),
    reportSettled: enqueueActions(({ context, self, enqueue }) => {
      if (context.outcome === null) return;
      const event = {
        type: 'job.settled' as const,
        localId: context.localId,
        outcome: context.outcome,
        media: context.media,
        error: context.error,
        refunded: context.refunded,
      };
      if (self._parent) enqueue.sendParent(event);
      enqueue.emit(event);
    }),
  },
  delays: {
    /** Full jitter (JOB_POLL): 0…min(30 s, 2 s × 2^pollAttempt). */
    pollDelay: ({ context }) => fullJitterDelay(context.pollAttempt, JOB_POLL),
    /** The same back-off for reaching the server again after a failure. */
    retryDelay: ({ context }) => fullJitterDelay(Math.max(context.retryAttempt - 1, 0), JOB_POLL),
    /** A poll, fetch or cancel still unanswered after this is given up (its request aborted). */
    requestTimeout: JOB_REQUEST_TIMEOUT_MS,
    /** The same for the submit, which is sent again with its key. */
    submitTimeout: JOB_SUBMIT_TIMEOUT_MS,
  },
}).createMachine({
  id: 'generationJob',
  context: ({ input }) => ({
    localId: input.localId,
    tool: input.tool,
    toolTitle: input.toolTitle,
    option: input.option,
    optionLabel: input.optionLabel,
    endpoint: input.endpoint,
    cost: input.cost,
    fields: input.fields,
    assetId: input.assetId,
    idempotencyKey: input.idempotencyKey,
    createdAt: input.createdAt,
    user: input.user,
    credit: input.credit,
    resubmit: input.resubmit ?? false,
    finishedAt: null,
    mediaId: input.mediaId ?? null,
    status: null,
    progress: 0,
    media: null,
    error: null,
    refunded: false,
    pollAttempt: 0,
    retryAttempt: 0,
    hidden: input.hidden ?? false,
    lastUpdatedAt: null,
    cancelRequested: false,
    outcome: null,
  }),
  on: {
    'job.visibility': { actions: 'setHidden' },
  },
  initial: 'starting',
  states: {
    starting: {
      always: [
        { guard: and(['isResume', 'isHidden']), target: '#generationJob.polling.paused' },
        { guard: 'isResume', target: '#generationJob.polling.checking' },
        { guard: 'isResubmit', target: 'submitting' },
        { target: 'checkingCredit' },
      ],
    },
    checkingCredit: {
      always: [{ guard: 'canAfford', target: 'submitting' }, { target: 'denied', actions: 'setDeniedError' }],
    },
    submitting: {
      // Leaving the state stops the request's actor, which aborts its fetch (the signal).
      after: { submitTimeout: { target: 'submitRetrying', actions: 'countRetry' } },
      invoke: {
        src: 'submit',
        input: ({ context }) => ({
          endpoint: context.endpoint,
          fields: context.fields ?? {},
          idempotencyKey: context.idempotencyKey,
          assetId: context.assetId,
        }),
        onDone: {
          target: 'routing',
          actions: [
            { type: 'storeMedia', params: ({ event }) => ({ media: event.output }) },
            'resetRetries',
            'reportSubmitted',
          ],
        },
        onError: [
          {
            guard: { type: 'isRetryableSubmit', params: ({ event }) => ({ error: event.error }) },
            target: 'submitRetrying',
            actions: 'countRetry',
          },
          // Refused by the server: nothing was created, so there is nothing to cancel or refund.
          { guard: 'cancelRequested', target: 'cancelled' },
          {
            target: 'failed',
            actions: { type: 'setError', params: ({ event }) => ({ message: errorMessageOf(event.error) }) },
          },
        ],
      },
      on: { 'job.cancel': { guard: 'cancelNotRequested', actions: 'requestCancel' } },
    },
    submitRetrying: {
      // The request may or may not have reached the server: only sending it again with the same
      // key tells, so even a cancel waits for that answer (the server replays the first one).
      tags: ['reconnecting'],
      // While the page is hidden the timer's end does nothing: the retry waits for the page to
      // be shown again, as polling does.
      after: { retryDelay: { guard: 'isVisible', target: 'submitting' } },
      on: {
        'job.online': 'submitting',
        'job.visibility': { guard: 'becameVisible', target: 'submitting', actions: 'setHidden' },
        'job.cancel': { guard: 'cancelNotRequested', actions: 'requestCancel' },
      },
    },
    routing: {
      always: [
        { guard: { type: 'statusIs', params: { is: 'success' } }, target: 'succeeded' },
        { guard: { type: 'statusIs', params: { is: 'failed' } }, target: 'failed' },
        { guard: { type: 'statusIs', params: { is: 'nsfw' } }, target: 'nsfw' },
        { guard: { type: 'statusIs', params: { is: 'cancelled' } }, target: 'cancelled' },
        { guard: 'cancelRequested', target: 'cancelling' },
        { target: 'polling' },
      ],
    },
    polling: {
      initial: 'waiting',
      on: {
        'job.cancel': 'cancelling',
        'job.visibility': [
          { guard: 'becameHidden', target: '.paused', actions: 'setHidden' },
          { actions: 'setHidden' },
        ],
      },
      states: {
        waiting: {
          always: { guard: 'isHidden', target: 'paused' },
          after: { pollDelay: 'checking' },
        },
        checking: {
          // A poll that hangs must not freeze the job: given up (and aborted), then reconnecting.
          after: { requestTimeout: { target: 'reconnecting', actions: 'countRetry' } },
          invoke: {
            src: 'pollStatus',
            input: ({ context }) => ({ mediaId: context.mediaId ?? '' }),
            onDone: [
              {
                guard: { type: 'isStale', params: ({ event }) => ({ answer: event.output }) },
                target: 'waiting',
                actions: 'countPoll',
              },
              {
                guard: { type: 'answerEnded', params: ({ event }) => ({ answer: event.output }) },
                target: '#generationJob.fetchingResult',
                actions: { type: 'applyStatus', params: ({ event }) => ({ answer: event.output }) },
              },
              {
                target: 'waiting',
                actions: [{ type: 'applyStatus', params: ({ event }) => ({ answer: event.output }) }, 'countPoll'],
              },
            ],
            onError: [
              {
                guard: { type: 'isNotFound', params: ({ event }) => ({ error: event.error }) },
                target: '#generationJob.failed',
                actions: { type: 'setError', params: { message: JOB_TEXTS.notFound } },
              },
              {
                guard: { type: 'isNetworkError', params: ({ event }) => ({ error: event.error }) },
                target: 'reconnecting',
                actions: 'countRetry',
              },
              // The server's own trouble or an odd answer: keep polling, further apart.
              { target: 'waiting', actions: 'countPoll' },
            ],
          },
        },
        paused: {
          on: {
            'job.visibility': [
              { guard: 'becameVisible', target: 'checking', actions: ['setHidden', 'resetPollAttempt'] },
              { actions: 'setHidden' },
            ],
          },
        },
        reconnecting: {
          tags: ['reconnecting'],
          after: { retryDelay: 'checking' },
          on: { 'job.online': 'checking' },
        },
      },
    },
    fetchingResult: {
      // The job has ended on the server: its media carries the files, the error and the refund.
      initial: 'loading',
      states: {
        loading: {
          after: { requestTimeout: { target: 'retrying', actions: 'countRetry' } },
          invoke: {
            src: 'fetchMedia',
            input: ({ context }) => ({ mediaId: context.mediaId ?? '' }),
            onDone: {
              target: '#generationJob.routing',
              actions: [{ type: 'storeMedia', params: ({ event }) => ({ media: event.output }) }, 'resetRetries'],
            },
            onError: [
              {
                guard: { type: 'isRetryable', params: ({ event }) => ({ error: event.error }) },
                target: 'retrying',
                actions: 'countRetry',
              },
              {
                target: '#generationJob.failed',
                actions: { type: 'setError', params: ({ event }) => ({ message: errorMessageOf(event.error) }) },
              },
            ],
          },
        },
        retrying: {
          tags: ['reconnecting'],
          after: { retryDelay: { guard: 'isVisible', target: 'loading' } },
          on: {
            'job.online': 'loading',
            'job.visibility': { guard: 'becameVisible', target: 'loading', actions: 'setHidden' },
          },
        },
      },
    },
    cancelling: {
      initial: 'requesting',
      states: {
        requesting: {
          after: { requestTimeout: { target: 'retrying', actions: 'countRetry' } },
          invoke: {
            src: 'cancelJob',
            input: ({ context }) => ({ mediaId: context.mediaId ?? '' }),
            onDone: {
              target: '#generationJob.routing',
              actions: [{ type: 'storeMedia', params: ({ event }) => ({ media: event.output }) }, 'resetRetries'],
            },
            onError: [
              // Already ended on the server: find out how.
              {
                guard: { type: 'isConflict', params: ({ event }) => ({ error: event.error }) },
                target: '#generationJob.fetchingResult',
              },
              {
                guard: { type: 'isRetryable', params: ({ event }) => ({ error: event.error }) },
                target: 'retrying',
                actions: 'countRetry',
              },
              {
                target: '#generationJob.failed',
                actions: { type: 'setError', params: ({ event }) => ({ message: errorMessageOf(event.error) }) },
              },
            ],
          },
        },
        retrying: {
          tags: ['reconnecting'],
          after: { retryDelay: { guard: 'isVisible', target: 'requesting' } },
          on: {
            'job.online': 'requesting',
            'job.visibility': { guard: 'becameVisible', target: 'requesting', actions: 'setHidden' },
          },
        },
      },
    },
    succeeded: { type: 'final', entry: [{ type: 'settle', params: { outcome: 'succeeded' } }, 'reportSettled'] },
    failed: { type: 'final', entry: [{ type: 'settle', params: { outcome: 'failed' } }, 'reportSettled'] },
    nsfw: { type: 'final', entry: [{ type: 'settle', params: { outcome: 'nsfw' } }, 'reportSettled'] },
    cancelled: { type: 'final', entry: [{ type: 'settle', params: { outcome: 'cancelled' } }, 'reportSettled'] },
    denied: { type: 'final', entry: [{ type: 'settle', params: { outcome: 'denied' } }, 'reportSettled'] },
  },
});
