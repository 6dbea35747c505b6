import { and } from 'xstate';
import { JOB_TEXTS } from '@/config/job-texts';
import { JOB_SUBMIT_TIMEOUT_MS } from '@/config/limits';
import { paidAnswer, paidMessage } from '@/machines/paid-request/paid-request.machine';
import { errorMessageOf } from '@/services/api-error';
import type { Media } from '@/services/schemas/media';
import { generationJobSetup } from '@/machines/generation-job/generation-job.setup';
import type { SubmitRequest } from '@/machines/generation-job/generation-job.types';

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
  SubmitRequest,
} from '@/machines/generation-job/generation-job.types';

/**
 * One generation job (SPEC §4, §6, §7; ARCHITECTURE §3), spawned by the jobs registry:
 *
 * starting → submitting { sending ⇄ retrying } (the paid-request child: the credit check, then the
 * send, again with the same Idempotency-Key on no answer, a time-out, a 409 or a gateway error) →
 * denied (refused by the check) | routing → polling { waiting ⇄ checking; paused while the page is
 * hidden; reconnecting after a network error } → fetchingResult → routing → succeeded | failed |
 * nsfw | cancelled. While it waits, its owner's `job.hold`, `job.resume`, `job.runNext` and `job.edit`
 * go from polling to controlling (one queue call, issue 21 item 2) and back. `job.cancel` from any live state: during the submit it is remembered and
 * carried out once the server has named the job; from polling it goes to cancelling (PUT cancel;
 * 409 → the job's real end). A resumed job (input.mediaId) starts polling. `starting` and
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
    held: false,
    queuePosition: null,
    queueRequest: null,
    queueError: null,
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
        { target: 'submitting' },
      ],
    },
    submitting: {
      // The paid-request child checks the credit (SPEC §6; not again for a resubmit), sends, and
      // sends again with the same key after no answer, a time-out, a 409 or a gateway error: the
      // request may or may not have reached the server, and only the same key tells (the server
      // replays the first answer). Its retries show here as `retrying` (Reconnecting…).
      invoke: {
        id: 'paidRequest',
        src: 'submit',
        input: ({ context }) => ({
          user: context.user,
          credit: context.credit,
          cost: context.cost,
          request: { endpoint: context.endpoint, fields: context.fields ?? {}, assetId: context.assetId } satisfies SubmitRequest,
          idempotencyKey: context.idempotencyKey,
          checked: context.resubmit,
          maxRetries: Number.POSITIVE_INFINITY,
          submitTimeoutMs: JOB_SUBMIT_TIMEOUT_MS,
          hidden: context.hidden,
          wording: 'job' as const,
        }),
        onDone: [
          {
            guard: { type: 'paidDone', params: ({ event }) => ({ output: event.output }) },
            target: 'routing',
            actions: [{ type: 'storeMedia', params: ({ event }) => ({ media: paidAnswer<Media>(event.output) }) }, 'reportSubmitted'],
          },
          {
            guard: { type: 'paidRefused', params: ({ event }) => ({ output: event.output }) },
            target: 'denied',
            actions: { type: 'setError', params: ({ event }) => ({ message: paidMessage(event.output) }) },
          },
          // Refused by the server: nothing was created, so there is nothing to cancel or refund.
          { guard: 'cancelRequested', target: 'cancelled' },
          { target: 'failed', actions: { type: 'setError', params: ({ event }) => ({ message: paidMessage(event.output) }) } },
        ],
      },
      // Even a cancel waits for the answer: it is carried out once the server has named the job.
      on: {
        'job.cancel': { guard: 'cancelNotRequested', actions: 'requestCancel' },
        'job.online': { actions: 'tellPaidOnline' },
        'job.visibility': { actions: ['setHidden', 'tellPaidVisibility'] },
      },
      initial: 'sending',
      states: {
        sending: { on: { 'paid.retrying': 'retrying' } },
        retrying: { tags: ['reconnecting'], on: { 'paid.sending': 'sending' } },
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
        // Issue 21 item 2: the owner's hold, resume, run next and edit, while the job waits.
        'job.hold': { guard: 'waitingNotHeld', target: 'controlling', actions: 'startQueueRequest' },
        'job.runNext': { guard: 'waitingNotHeld', target: 'controlling', actions: 'startQueueRequest' },
        'job.resume': { guard: 'heldJob', target: 'controlling', actions: 'startQueueRequest' },
        'job.edit': { guard: 'editable', target: 'controlling', actions: 'startQueueRequest' },
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
    controlling: {
      // One queue call; then the job is polled again at once (a resumed job may start now). A 409
      // (it started meanwhile) says so, and the next poll shows what it does now. A cancel asked
      // for meanwhile is carried out once the call has answered.
      on: { 'job.cancel': { guard: 'cancelNotRequested', actions: 'requestCancel' } },
      invoke: {
        src: 'queueCall',
        input: ({ context }) => ({ mediaId: context.mediaId ?? '', request: context.queueRequest ?? { kind: 'hold' } }),
        onDone: {
          target: 'routing',
          actions: [
            { type: 'storeMedia', params: ({ event }) => ({ media: event.output }) },
            { type: 'storeEdit', params: ({ event }) => ({ media: event.output }) },
            'queueDone',
            'resetPollAttempt',
          ],
        },
        onError: {
          target: 'routing',
          actions: [{ type: 'setQueueError', params: ({ event }) => ({ error: event.error }) }, 'resetPollAttempt'],
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
