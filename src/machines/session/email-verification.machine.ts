import { assertEvent, assign, fromPromise, sendParent, setup } from 'xstate';
import { confirmEmailVerification, errorMessage, sendEmailVerificationCode } from '@/services/auth';

export interface EmailVerificationContext {
  /** Where the last code went (a masked address), null until one was sent. */
  codeSentTo: string | null;
  /** Put off earlier in this sign-in ("Later"): the modal starts closed. */
  startClosed: boolean;
}

export interface EmailVerificationInput {
  startClosed?: boolean;
}

export type EmailVerificationEvent =
  | { type: 'emailVerification.resend' }
  | { type: 'emailVerification.verify'; code: string }
  | { type: 'emailVerification.cancel' }
  /** The account menu's "Verify email": opens the modal again after Cancel. */
  | { type: 'emailVerification.open' };

/** What the verification actor tells the session (its parent), which shows the toasts. */
export type EmailVerificationParentEvent =
  | { type: 'emailVerification.verified' }
  | { type: 'emailVerification.failed'; message: string }
  | { type: 'emailVerification.sendFailed'; message: string }
  /** The person closed the modal: the session remembers it for this sign-in. */
  | { type: 'emailVerification.later' };

/**
 * The Verify Email modal of SPEC §2.9 item 1 and §4 "E-mail verification": Resend asks for a new
 * code, Verify confirms the code for attribute "email" (an empty code is refused), Cancel closes
 * the modal. The session spawns it as `emailVerification` while the signed-in user's e-mail is
 * not verified.
 */
export const emailVerificationMachine = setup({
  types: {
    context: {} as EmailVerificationContext,
    events: {} as EmailVerificationEvent,
    input: {} as EmailVerificationInput,
  },
  actors: {
    sendCode: fromPromise<string | null>(() => sendEmailVerificationCode()),
    confirmCode: fromPromise<void, { code: string }>(({ input }) => confirmEmailVerification(input.code)),
  },
  guards: {
    hasCode: ({ event }) => event.type === 'emailVerification.verify' && event.code.trim() !== '',
    startsClosed: ({ context }) => context.startClosed,
  },
  actions: {
    storeDestination: assign((_, params: { destination: string | null }) => ({ codeSentTo: params.destination })),
    reportVerified: sendParent({ type: 'emailVerification.verified' } satisfies EmailVerificationParentEvent),
    reportLater: sendParent({ type: 'emailVerification.later' } satisfies EmailVerificationParentEvent),
    reportInvalidCode: sendParent(
      (_, params: { error: unknown }) =>
        ({ type: 'emailVerification.failed', message: errorMessage(params.error) }) satisfies EmailVerificationParentEvent,
    ),
    reportSendFailure: sendParent(
      (_, params: { error: unknown }) =>
        ({ type: 'emailVerification.sendFailed', message: errorMessage(params.error) }) satisfies EmailVerificationParentEvent,
    ),
  },
}).createMachine({
  id: 'emailVerification',
  context: ({ input }) => ({ codeSentTo: null, startClosed: input.startClosed ?? false }),
  initial: 'starting',
  states: {
    /** Once per sign-in (issue 17): open, unless the person put it off earlier in this sign-in. */
    starting: {
      always: [{ guard: 'startsClosed', target: 'closed' }, { target: 'open' }],
    },
    open: {
      initial: 'idle',
      on: { 'emailVerification.cancel': { target: 'closed', actions: 'reportLater' } },
      states: {
        idle: {
          on: {
            'emailVerification.resend': 'sending',
            'emailVerification.verify': { guard: 'hasCode', target: 'verifying' },
          },
        },
        sending: {
          invoke: {
            src: 'sendCode',
            onDone: {
              target: 'idle',
              actions: { type: 'storeDestination', params: ({ event }) => ({ destination: event.output }) },
            },
            onError: { target: 'idle', actions: { type: 'reportSendFailure', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        verifying: {
          invoke: {
            src: 'confirmCode',
            input: ({ event }) => {
              assertEvent(event, 'emailVerification.verify');
              return { code: event.code.trim() };
            },
            onDone: { target: '#emailVerification.verified', actions: 'reportVerified' },
            onError: { target: 'idle', actions: { type: 'reportInvalidCode', params: ({ event }) => ({ error: event.error }) } },
          },
        },
      },
    },
    /** Cancelled: the modal stays closed for the rest of this sign-in, until the account menu opens it. */
    closed: {
      on: { 'emailVerification.open': 'open' },
    },
    verified: { type: 'final' },
  },
});
