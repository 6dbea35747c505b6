import { assign, enqueueActions, fromPromise, setup } from 'xstate';
import { JOB_TEXTS } from '@/config/job-texts';
import { JOB_POLL, JOB_REQUEST_TIMEOUT_MS, JOB_SUBMIT_TIMEOUT_MS } from '@/config/limits';
import { fullJitterDelay } from '@/lib/backoff';
import { affordability, refusalMessage } from '@/lib/affordability';
import { classifyStatus } from '@/lib/job-status';
import type { JobStatusClass } from '@/lib/job-status';
import { isNetworkFailure, isRetryable, isRetryableSubmit, statusOf } from '@/services/api-error';
import { submitGeneration } from '@/services/generation';
import { cancelMedia, getMedia, getProcessingStatus } from '@/services/media';
import type { Media, ProcessingStatus } from '@/services/schemas/media';
import type {
  GenerationJobContext,
  GenerationJobEvent,
  GenerationJobInput,
  GenerationJobParentEvent,
  GenerationJobTag,
  JobOutcome,
  SubmitInput,
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
    canAfford: ({ context }) => affordability({ user: context.user, cost: context.cost, credit: context.credit }).affordable,
    cancelRequested: ({ context }) => context.cancelRequested,
    cancelNotRequested: ({ context }) => !context.cancelRequested,
    statusIs: ({ context }, params: { is: JobStatusClass }) => classifyStatus(context.status) === params.is,
    becameHidden: ({ event }) => event.type === 'job.visibility' && event.hidden,
    becameVisible: ({ event }) => event.type === 'job.visibility' && !event.hidden,
    isNetworkError: (_, params: { error: unknown }) => isNetworkFailure(params.error),
    /** No answer, a time-out, a 409 or a gateway error: sent again with the same key. */
    isRetryableSubmit: (_, params: { error: unknown }) => isRetryableSubmit(params.error),
    /** Worth trying again: no answer at all, or the server's own failure. */
    isRetryable: (_, params: { error: unknown }) => isRetryable(params.error),
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
    setDeniedError: assign(({ context }) => {
      const check = affordability({ user: context.user, cost: context.cost, credit: context.credit });
      return check.affordable ? {} : { error: refusalMessage(check, 'job') };
    }),
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
});
