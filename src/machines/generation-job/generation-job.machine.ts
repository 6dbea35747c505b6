import { and } from 'xstate';
import { JOB_TEXTS } from '@/config/job-texts';
import { errorMessageOf } from '@/services/api-error';
import { generationJobSetup } from '@/machines/generation-job/generation-job.setup';

// Screens may not import services; they get these types from here.
export type { Media, MediaResultItem, ProcessingStatus } from '@/services/schemas/media';
export type { MultipartFields } from '@/services/http';
export type {
  GenerationJobContext,
  GenerationJobEvent,
  GenerationJobInput,
  GenerationJobParentEvent,
  GenerationJobTag,
  JobOutcome,
  SubmitInput,
} from '@/machines/generation-job/generation-job.types';

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
export const generationJobMachine = generationJobSetup.createMachine({

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
