import { and, assign, enqueueActions, fromPromise, or, setup } from 'xstate';
import { JOB_POLL } from '@/config/limits';
import { affordability, refusalMessage, type CreditCheckUser, type RefusalReason, type RefusalWording } from '@/lib/affordability';
import { fullJitterDelay } from '@/lib/backoff';
import { newIdempotencyKey } from '@/lib/idempotency-key';
import { errorMessageOf, isRetryable, isRetryableSubmit } from '@/services/api-error';

/**
 * One paid call (issue 18 item 2), the same child in the three machines that pay: a generation
 * job's submit (the job's `submitting`, with no limit on retries, a submit time-out, and the check
 * skipped for a resubmit after a reload), a story step's parts and sound (the story wizard's
 * `generating`, gated until its autosave is held) and an album's "Generate videos" (the batch
 * machine's `generating`).
 *
 * SPEC §6 is checked before anything is sent; then the call is sent with one Idempotency-Key, and
 * sent again with the same key while no answer comes (the server replays the first answer when it
 * had one), at most `maxRetries` times.
 *
 *   checkingCredit → refused (final: SPEC §6 words)
 *                  → (waiting, when gated, until paid.go →) submitting ⇄ retrying
 *                    → done (final: the answer) | failed (final: the error)
 *
 * The call itself is the `submit` actor, which each parent provides (`paidRequestWith`); the
 * parent reads the outcome from `xstate.done.actor.<id>` (`output`). A parent that shows a retry
 * (the job's "Reconnecting…") hears `paid.retrying` and `paid.sending` (PaidRequestParentEvent):
 * a child's own state change makes no new snapshot of its parent.
 */

/** What `submit` is given: the parent's request as it built it, and the key every retry sends again. */
export interface PaidSubmitInput<TRequest = unknown> {
  request: TRequest;
  idempotencyKey: string;
}

export interface PaidRequestInput {
  user: CreditCheckUser | null;
  credit: number | null;
  /** Credits the call costs, as the page showed it. */
  cost: number;
  /** Whatever the parent's `submit` needs (endpoint and fields, the board and ids…). */
  request: unknown;
  /** A key to send again (a resubmit of the same click); a new one otherwise. */
  idempotencyKey?: string;
  /** Sends again after no answer, at most this many times (the first send not counted). */
  maxRetries: number;
  /** A 5xx is sent again too (the story's calls); otherwise only no answer or JOB_SUBMIT_RETRY_STATUSES. */
  retryServerErrors?: boolean;
  /** The words of a shortfall: a tool's or a story step's. */
  wording?: RefusalWording;
  /** An unanswered send is given up and sent again after this long; none when absent. */
  submitTimeoutMs?: number;
  /** The page is hidden: a retry waits until it is shown (or the browser is back online). */
  hidden?: boolean;
  /**
   * The check passed already (a job's request sent once before a reload, whose answer never
   * came): sent without a second one, as the balance may not even be loaded yet.
   */
  checked?: boolean;
  /**
   * Once the check passes, wait for the parent's `paid.go` before sending (the story wizard's save
   * of older edits still on its way must land first); a refusal still comes at once.
   */
  gated?: boolean;
}

export type PaidRequestOutput =
  | { outcome: 'done'; answer: unknown; idempotencyKey: string }
  | { outcome: 'refused'; reason: RefusalReason; message: string }
  | { outcome: 'failed'; error: unknown; message: string };

export interface PaidRequestContext {
  user: CreditCheckUser | null;
  credit: number | null;
  cost: number;
  request: unknown;
  idempotencyKey: string;
  maxRetries: number;
  retryServerErrors: boolean;
  wording: RefusalWording;
  submitTimeoutMs: number | null;
  hidden: boolean;
  gated: boolean;
  checked: boolean;
  /** Sends again so far (0 while the first send is on its way). */
  retryAttempt: number;
  /** Set on reaching a final state. */
  outcome: PaidRequestOutput | null;
}

export type PaidRequestEvent =
  /** The page was hidden or shown: a retry waits while it is hidden. */
  | { type: 'paid.visibility'; hidden: boolean }
  /** The browser is back online: a waiting retry is sent now. */
  | { type: 'paid.online' }
  /** A gated request may be sent now. */
  | { type: 'paid.go' };

/** What the child tells its parent (when it has one) as a retry starts and ends. */
export type PaidRequestParentEvent =
  /** No answer came: the call will be sent again after a wait (the parent may show "reconnecting"). */
  | { type: 'paid.retrying' }
  /** The call is on its way again. */
  | { type: 'paid.sending' };

/** Waits that never end: no submit time-out was asked for. */
const NEVER_MS = 2 ** 31 - 1;

export const paidRequestMachine = setup({
  types: {
    context: {} as PaidRequestContext,
    events: {} as PaidRequestEvent,
    input: {} as PaidRequestInput,
    output: {} as PaidRequestOutput,
  },
  actors: {
    // Each parent provides its call (paidRequestWith); this one says so if it forgot.
    submit: fromPromise<unknown, PaidSubmitInput>(async () => {
      throw new Error('paidRequest: no submit actor was provided');
    }),
  },
  guards: {
    affordable: ({ context }) => affordability({ user: context.user, cost: context.cost, credit: context.credit }).affordable,
    checked: ({ context }) => context.checked,
    retryable: ({ context }, params: { error: unknown }) =>
      context.retryAttempt < context.maxRetries && (context.retryServerErrors ? isRetryable(params.error) : isRetryableSubmit(params.error)),
    hasSubmitTimeout: ({ context }) => context.submitTimeoutMs !== null,
    gated: ({ context }) => context.gated,
    visible: ({ context }) => !context.hidden,
    becameVisible: ({ event }) => event.type === 'paid.visibility' && !event.hidden,
  },
  actions: {
    refuse: assign(({ context }) => {
      const check = affordability({ user: context.user, cost: context.cost, credit: context.credit });
      if (check.affordable) return {};
      return { outcome: { outcome: 'refused' as const, reason: check.reason, message: refusalMessage(check, context.wording) } };
    }),
    countRetry: assign(({ context }) => ({ retryAttempt: context.retryAttempt + 1 })),
    /** Tells the parent, if there is one (a child started alone, in its own tests, has none). */
    tellParent: enqueueActions(({ self, enqueue }, params: PaidRequestParentEvent) => {
      if (self._parent) enqueue.sendParent(params);
    }),
    setHidden: assign(({ event }) => (event.type === 'paid.visibility' ? { hidden: event.hidden } : {})),
    succeed: assign(({ context }, params: { answer: unknown }) => ({
      outcome: { outcome: 'done' as const, answer: params.answer, idempotencyKey: context.idempotencyKey },
    })),
    fail: assign((_, params: { error: unknown }) => ({
      outcome: { outcome: 'failed' as const, error: params.error, message: errorMessageOf(params.error) },
    })),
  },
  delays: {
    retryDelay: ({ context }) => fullJitterDelay(Math.max(context.retryAttempt - 1, 0), JOB_POLL),
    submitTimeout: ({ context }) => context.submitTimeoutMs ?? NEVER_MS,
  },
}).createMachine({
  id: 'paidRequest',
  context: ({ input }) => ({
    user: input.user,
    credit: input.credit,
    cost: input.cost,
    request: input.request,
    idempotencyKey: input.idempotencyKey ?? newIdempotencyKey(),
    maxRetries: input.maxRetries,
    retryServerErrors: input.retryServerErrors ?? false,
    wording: input.wording ?? 'job',
    submitTimeoutMs: input.submitTimeoutMs ?? null,
    hidden: input.hidden ?? false,
    gated: input.gated ?? false,
    checked: input.checked ?? false,
    retryAttempt: 0,
    outcome: null,
  }),
  on: { 'paid.visibility': { actions: 'setHidden' } },
  initial: 'checkingCredit',
  states: {
    /** SPEC §6, before any paid call (once: a resubmit was checked when first sent). */
    checkingCredit: {
      always: [
        { guard: and([or(['checked', 'affordable']), 'gated']), target: 'waiting' },
        { guard: or(['checked', 'affordable']), target: 'submitting' },
        { target: 'refused', actions: 'refuse' },
      ],
    },
    /** Gated: affordable, sent when the parent says so. */
    waiting: { on: { 'paid.go': 'submitting' } },
    submitting: {
      // Leaving the state stops the call's actor, which aborts its fetch (the signal).
      after: { submitTimeout: { guard: 'hasSubmitTimeout', target: 'retrying', actions: 'countRetry' } },
      invoke: {
        src: 'submit',
        input: ({ context }) => ({ request: context.request, idempotencyKey: context.idempotencyKey }),
        onDone: { target: 'done', actions: { type: 'succeed', params: ({ event }) => ({ answer: event.output }) } },
        onError: [
          { guard: { type: 'retryable', params: ({ event }) => ({ error: event.error }) }, target: 'retrying', actions: 'countRetry' },
          { target: 'failed', actions: { type: 'fail', params: ({ event }) => ({ error: event.error }) } },
        ],
      },
    },
    /** The call may or may not have reached the server: only sending it again with the same key tells. */
    retrying: {
      tags: ['reconnecting'],
      entry: { type: 'tellParent', params: { type: 'paid.retrying' } },
      exit: { type: 'tellParent', params: { type: 'paid.sending' } },
      after: { retryDelay: { guard: 'visible', target: 'submitting' } },
      on: {
        'paid.online': 'submitting',
        'paid.visibility': { guard: 'becameVisible', target: 'submitting', actions: 'setHidden' },
      },
    },
    done: { type: 'final' },
    refused: { type: 'final' },
    failed: { type: 'final' },
  },
  output: ({ context }) => context.outcome ?? { outcome: 'failed', error: null, message: errorMessageOf(null) },
});

/** The paid-request machine with the parent's call as its `submit` (typed by the parent). */
export function paidRequestWith<TRequest, TAnswer>(submit: (input: PaidSubmitInput<TRequest>, signal: AbortSignal) => Promise<TAnswer>) {
  return paidRequestMachine.provide({
    actors: { submit: fromPromise<unknown, PaidSubmitInput>(({ input, signal }) => submit(input as PaidSubmitInput<TRequest>, signal)) },
  });
}

/*
 * How a parent reads the outcome (`xstate.done.actor.<id>`'s output), written once here rather
 * than in each parent.
 */

/** The call was answered (not refused by the credit check, not failed): a parent's guard. */
export const isPaidDone = (output: PaidRequestOutput): boolean => output.outcome === 'done';

/** The answer of a done call, as the parent's `submit` returned it (its service's zod schema checked it); read after `isPaidDone`. */
export const paidAnswer = <TAnswer>(output: PaidRequestOutput): TAnswer => (output.outcome === 'done' ? output.answer : null) as TAnswer;

/** What a refused or failed call says (SPEC §6 words, or the error's); empty for a done one. */
export const paidMessage = (output: PaidRequestOutput): string => (output.outcome === 'done' ? '' : output.message);

/** The error of a failed call (null otherwise), for a parent that reacts to particular ones. */
export const paidError = (output: PaidRequestOutput): unknown => (output.outcome === 'failed' ? output.error : null);
