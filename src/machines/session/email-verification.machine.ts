import { assertEvent, assign, fromPromise, sendParent, setup } from 'xstate';
import { confirmEmailVerification, errorMessage, sendEmailVerificationCode } from '@/services/auth';

export interface EmailVerificationContext {
  /** Where the last code went (a masked address), null until one was sent. */
  codeSentTo: string | null;
}

export type EmailVerificationEvent =
  | { type: 'emailVerification.resend' }
  | { type: 'emailVerification.verify'; code: string }
  | { type: 'emailVerification.cancel' };

/** What the verification actor tells the session (its parent), which shows the toasts. */
export type EmailVerificationParentEvent =
  | { type: 'emailVerification.verified' }
  | { type: 'emailVerification.failed'; message: string }
  | { type: 'emailVerification.sendFailed'; message: string };

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
  },
  actors: {
    sendCode: fromPromise<string | null>(() => sendEmailVerificationCode()),
    confirmCode: fromPromise<void, { code: string }>(({ input }) => confirmEmailVerification(input.code)),
  },
  guards: {
    hasCode: ({ event }) => event.type === 'emailVerification.verify' && event.code.trim() !== '',
  },
  actions: {
    storeDestination: assign((_, params: { destination: string | null }) => ({ codeSentTo: params.destination })),
    reportVerified: sendParent({ type: 'emailVerification.verified' } satisfies EmailVerificationParentEvent),
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
  context: { codeSentTo: null },
  initial: 'open',
  states: {
    open: {
      initial: 'idle',
      on: { 'emailVerification.cancel': 'closed' },
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
    /** Cancelled: the modal stays closed for the rest of this session. */
    closed: {},
    verified: { type: 'final' },
  },
});
