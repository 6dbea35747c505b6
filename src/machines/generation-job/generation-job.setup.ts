import { assign, enqueueActions, fromPromise, sendTo, setup } from 'xstate';
import { defaultAppConfiguration } from '@/config/app-config';
import { JOB_TEXTS } from '@/config/job-texts';
import { JOB_POLL, JOB_REQUEST_TIMEOUT_MS } from '@/config/limits';
import { fullJitterDelay } from '@/lib/backoff';
import { classifyStatus } from '@/lib/job-status';
import type { JobStatusClass } from '@/lib/job-status';
import { isPaidDone, paidRequestWith, type PaidRequestEvent, type PaidRequestOutput } from '@/machines/paid-request/paid-request.machine';
import { isNetworkFailure, isRetryable, statusOf } from '@/services/api-error';
import { submitGeneration } from '@/services/generation';
import { cancelMedia, getMedia, getProcessingStatus } from '@/services/media';
import type { Media, ProcessingStatus } from '@/services/schemas/media';
import { isEditableTool, isWaitingStatus, queueCall, queueFailure, queueRequestOf } from '@/machines/queue-control/queue-call';
import type {
  GenerationJobContext,
  GenerationJobEvent,
  GenerationJobInput,
  GenerationJobParentEvent,
  GenerationJobTag,
  JobOutcome,
  SubmitRequest,
} from '@/machines/generation-job/generation-job.types';

const timeOf = (iso: string): number => {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
};

const DEFAULT_ERRORS: Partial<Record<JobOutcome, string>> = {
  failed: JOB_TEXTS.failed,
  nsfw: JOB_TEXTS.nsfw,
};

/**
 * The generation job's named implementations (its actors wrap one service call each; its guards,
 * actions and delays), apart from its states in generation-job.machine.ts.
 */
export const generationJobSetup = setup({

  types: {
    context: {} as GenerationJobContext,
    events: {} as GenerationJobEvent,
    input: {} as GenerationJobInput,
    emitted: {} as GenerationJobParentEvent,
    tags: {} as GenerationJobTag,
  },
  actors: {
    /**
     * The submit as the paid-request child (the inspector shows it): the SPEC §6 check (skipped
     * for a resubmit), the send, and the same key again after no answer, a time-out, a 409 or a
     * gateway error, for as long as it takes.
     */
    submit: paidRequestWith<SubmitRequest, Media>(({ request, idempotencyKey }, signal) =>
      submitGeneration(request.endpoint, request.fields, { idempotencyKey, assetId: request.assetId, signal }),
    ),
    pollStatus: fromPromise<ProcessingStatus, { mediaId: string }>(({ input, signal }) =>
      getProcessingStatus(input.mediaId, { signal }),
    ),
    fetchMedia: fromPromise<Media, { mediaId: string }>(({ input, signal }) =>
      getMedia(input.mediaId, undefined, { signal }),
    ),
    cancelJob: fromPromise<Media, { mediaId: string }>(({ input, signal }) => cancelMedia(input.mediaId, { signal })),
    /** Issue 21 item 2: hold, resume, run next or edit (one call, queue-call.ts). */
    queueCall,
  },
  guards: {
    isResume: ({ context }) => context.mediaId !== null,
    isHidden: ({ context }) => context.hidden,
    isVisible: ({ context }) => !context.hidden,
    /** The submit was answered (not refused by the credit check, not failed). */
    paidDone: (_, params: { output: PaidRequestOutput }) => isPaidDone(params.output),
    /** The credit check refused it (SPEC §6): nothing was sent. */
    paidRefused: (_, params: { output: PaidRequestOutput }) => params.output.outcome === 'refused',
    cancelRequested: ({ context }) => context.cancelRequested,
    cancelNotRequested: ({ context }) => !context.cancelRequested,
    statusIs: ({ context }, params: { is: JobStatusClass }) => classifyStatus(context.status) === params.is,
    becameHidden: ({ event }) => event.type === 'job.visibility' && event.hidden,
    becameVisible: ({ event }) => event.type === 'job.visibility' && !event.hidden,
    isNetworkError: (_, params: { error: unknown }) => isNetworkFailure(params.error),
    /** Worth trying again: no answer at all, or the server's own failure. */
    isRetryable: (_, params: { error: unknown }) => isRetryable(params.error),
    isConflict: (_, params: { error: unknown }) => statusOf(params.error) === 409,
    isNotFound: (_, params: { error: unknown }) => statusOf(params.error) === 404,
    /** An answer older than the last one applied (it overtook nothing; a newer one got here first). */
    isStale: ({ context }, params: { answer: ProcessingStatus }) =>
      context.lastUpdatedAt !== null && timeOf(params.answer.updated_at) < timeOf(context.lastUpdatedAt),
    answerEnded: (_, params: { answer: ProcessingStatus }) => classifyStatus(params.answer.status) !== 'processing',
    /** Still waiting and not held: it may be held or run next. */
    waitingNotHeld: ({ context }) => context.mediaId !== null && isWaitingStatus(context.status) && !context.held,
    heldJob: ({ context }) => context.mediaId !== null && isWaitingStatus(context.status) && context.held,
    /** An edit starts from the job's request as the server keeps it (its media). */
    editable: ({ context }) =>
      context.mediaId !== null && isWaitingStatus(context.status) && context.media !== null && isEditableTool(context.tool),
  },
  actions: {
    setHidden: assign(({ event }) => (event.type === 'job.visibility' ? { hidden: event.hidden } : {})),
    requestCancel: assign({ cancelRequested: true }),
    /** The page's visibility and the network, for the submit's child (a retry waits while hidden). */
    tellPaidVisibility: sendTo('paidRequest', ({ event }) =>
      ({ type: 'paid.visibility', hidden: event.type === 'job.visibility' && event.hidden }) satisfies PaidRequestEvent,
    ),
    tellPaidOnline: sendTo('paidRequest', { type: 'paid.online' } satisfies PaidRequestEvent),
    /** A media answer (submit, fetch, cancel): the job as the server now has it. */
    storeMedia: assign((_, params: { media: Media }) => ({
      mediaId: params.media.id,
      status: params.media.status,
      progress: params.media.progress,
      media: params.media,
      refunded: params.media.refunded,
      error: params.media.error,
      lastUpdatedAt: params.media.updated_at,
      held: params.media.held,
      // A media answer counts the place only where it is asked for (the queue calls); else the last poll's stays.
      ...(params.media.queue_position === undefined ? {} : { queuePosition: params.media.queue_position }),
      // Once the server has the job, its request is not needed again.
      fields: null,
    })),
    applyStatus: assign((_, params: { answer: ProcessingStatus }) => ({
      status: params.answer.status,
      progress: params.answer.progress,
      lastUpdatedAt: params.answer.updated_at,
      retryAttempt: 0,
      held: params.answer.held,
      queuePosition: params.answer.queue_position,
    })),
    /** An edit may change the model and so the price: the job's row in the panel follows the answer. */
    storeEdit: assign(({ context }, params: { media: Media }) => ({
      cost: params.media.cost,
      option: params.media.option ?? context.option,
      optionLabel:
        params.media.option === null || params.media.option === context.option
          ? context.optionLabel
          : (defaultAppConfiguration.asset_tools.find((model) => model.value === params.media.option)?.label ?? params.media.option),
    })),
    startQueueRequest: assign(({ event }) => ({ queueRequest: queueRequestOf(event), queueError: null })),
    queueDone: assign({ queueRequest: null }),
    setQueueError: assign(({ context }, params: { error: unknown }) => ({ queueError: queueFailure(context.queueRequest, params.error), queueRequest: null })),
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
  },
});
