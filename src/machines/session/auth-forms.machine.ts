import { assertEvent, assign, fromPromise, raise, setup } from 'xstate';
import type { AuthFlowType, SocialProvider } from '@/config/env';
import { GUEST_USERNAME } from '@/config/limits';
import {
  confirmResetPassword,
  confirmSignIn,
  confirmSignUp,
  errorMessage,
  errorName,
  resendSignUpCode,
  resetPassword,
  signInWithPassword,
  signInWithRedirect,
  signUp,
} from '@/services/auth';
import type { SignInStep, SignUpResult } from '@/services/auth';
import type { AuthFormsContext, AuthFormsEvent, AuthFormsInput, AuthFormsTag } from '@/machines/session/auth-forms.types';
import { SESSION_TEXTS } from '@/machines/session/session.texts';

/**
 * The sign-in forms of /authentication (SPEC §1, §2.2, §4), the session's `authForms` child while
 * nobody is signed in: signedOut (sign in, sign up and its confirmation, the password reset) ⇄
 * signingIn (MFA selection, MFA code, new password) → signedIn, where it ends and the session loads
 * the user. Each actor wraps one Amplify call.
 */
export const authFormsMachine = setup({
  types: {
    context: {} as AuthFormsContext,
    events: {} as AuthFormsEvent,
    input: {} as AuthFormsInput,
    tags: {} as AuthFormsTag,
  },
  actors: {
    signInWithPassword: fromPromise<SignInStep, { username: string; password: string; authFlowType: AuthFlowType }>(
      ({ input }) => signInWithPassword(input),
    ),
    answerChallenge: fromPromise<SignInStep, { response: string }>(({ input }) => confirmSignIn(input.response)),
    signInWithProvider: fromPromise<void, { provider: SocialProvider }>(({ input }) => signInWithRedirect(input)),
    signUp: fromPromise<SignUpResult, { email: string; password: string }>(({ input }) => signUp(input)),
    confirmSignUp: fromPromise<void, { email: string; code: string }>(({ input }) => confirmSignUp(input)),
    resendSignUpCode: fromPromise<{ destination?: string }, { email: string }>(({ input }) => resendSignUpCode(input.email)),
    requestPasswordReset: fromPromise<{ destination?: string }, { email: string }>(({ input }) => resetPassword(input.email)),
    confirmPasswordReset: fromPromise<void, { email: string; code: string; newPassword: string }>(({ input }) =>
      confirmResetPassword(input),
    ),
  },
  guards: {
    guestAvailable: ({ context }) => Boolean(context.guestPassword),
    providerAvailable: ({ context, event }) =>
      event.type === 'session.signInWithProvider' && context.socialProviders.includes(event.provider),
    mfaMethodOffered: ({ context, event }) =>
      event.type === 'session.selectMfa' && context.mfaOptions.includes(event.method),
    hasPendingEmail: ({ context }) => context.pendingEmail !== null,
    signInStepIs: ({ event }, params: { kind: SignInStep['kind'] }) =>
      event.type === 'signIn.step' && event.step.kind === params.kind,
    isAlreadySignedIn: (_, params: { error: unknown }) => errorName(params.error) === 'UserAlreadyAuthenticatedException',
    isTrue: (_, params: { value: boolean }) => params.value,
  },
  actions: {
    clearAuthMessages: assign({ authError: null, authNotice: null }),
    /** The failure of the actor whose error event is being handled, shown on /authentication. */
    setAuthError: assign(({ event }) => ({
      authError: errorMessage('error' in event ? event.error : undefined, SESSION_TEXTS.signInFailed),
      authNotice: null,
    })),
    setAuthErrorText: assign((_, params: { message: string }) => ({ authError: params.message, authNotice: null })),
    setAuthNotice: assign((_, params: { notice: string }) => ({ authNotice: params.notice, authError: null })),
    setPendingEmail: assign((_, params: { email: string }) => ({ pendingEmail: params.email.trim() })),
    followSignInStep: raise((_, params: { step: SignInStep }) => ({ type: 'signIn.step' as const, step: params.step })),
    storeMfaStep: assign(({ event }) => {
      assertEvent(event, 'signIn.step');
      if (event.step.kind === 'mfaSelection') return { mfaOptions: event.step.options, mfaMethod: null };
      if (event.step.kind === 'mfaCode') {
        return { mfaMethod: event.step.method, authNotice: SESSION_TEXTS.mfaCodeSent(event.step.destination), authError: null };
      }
      return {};
    }),
    clearMfa: assign({ mfaOptions: [], mfaMethod: null }),
  },
}).createMachine({
  id: 'authForms',
  context: ({ input }) => ({ ...input, authNotice: null, pendingEmail: null, mfaOptions: [], mfaMethod: null }),
  on: {
    'auth.redirectFailed': {
      actions: { type: 'setAuthErrorText', params: ({ event }) => ({ message: event.message }) },
    },
  },
  initial: 'signedOut',
  states: {
    signedOut: {
      initial: 'signIn',
      on: {
        'session.showSignIn': { target: '.signIn', actions: 'clearAuthMessages' },
        'session.showSignUp': { target: '.signUp', actions: 'clearAuthMessages' },
        'session.showForgotPassword': { target: '.forgotPassword', actions: 'clearAuthMessages' },
      },
      states: {
        signIn: {
          tags: 'view.signIn',
          on: {
            'session.signIn': {
              target: '#authForms.signingIn.submittingPassword',
              actions: ['clearAuthMessages', { type: 'setPendingEmail', params: ({ event }) => ({ email: event.username }) }],
            },
            'session.signInAsGuest': {
              guard: 'guestAvailable',
              target: '#authForms.signingIn.submittingPassword',
              actions: 'clearAuthMessages',
            },
            'session.signInWithProvider': {
              guard: 'providerAvailable',
              target: 'redirectingToProvider',
              actions: 'clearAuthMessages',
            },
          },
        },
        /** The browser leaves for the provider; Hub `signedIn` follows when it comes back. */
        redirectingToProvider: {
          tags: ['view.signIn', 'authBusy'],
          invoke: {
            src: 'signInWithProvider',
            input: ({ event }) => {
              assertEvent(event, 'session.signInWithProvider');
              return { provider: event.provider };
            },
            onError: { target: 'signIn', actions: 'setAuthError' },
          },
        },
        signUp: {
          tags: 'view.signUp',
          on: {
            'session.signUp': {
              target: 'signingUp',
              actions: ['clearAuthMessages', { type: 'setPendingEmail', params: ({ event }) => ({ email: event.email }) }],
            },
          },
        },
        signingUp: {
          tags: ['view.signUp', 'authBusy'],
          invoke: {
            src: 'signUp',
            input: ({ event }) => {
              assertEvent(event, 'session.signUp');
              return { email: event.email.trim(), password: event.password };
            },
            onDone: [
              {
                guard: { type: 'isTrue', params: ({ event }) => ({ value: event.output.needsConfirmation }) },
                target: 'confirmSignUp',
                actions: {
                  type: 'setAuthNotice',
                  params: ({ event }) => ({ notice: SESSION_TEXTS.codeSent(event.output.destination) }),
                },
              },
              { target: 'signIn', actions: { type: 'setAuthNotice', params: { notice: SESSION_TEXTS.accountReady } } },
            ],
            onError: { target: 'signUp', actions: 'setAuthError' },
          },
        },
        confirmSignUp: {
          tags: 'view.confirmSignUp',
          on: {
            'session.confirmSignUp': { guard: 'hasPendingEmail', target: 'confirmingSignUp', actions: 'clearAuthMessages' },
            'session.resendSignUpCode': { guard: 'hasPendingEmail', target: 'resendingSignUpCode', actions: 'clearAuthMessages' },
          },
        },
        confirmingSignUp: {
          tags: ['view.confirmSignUp', 'authBusy'],
          invoke: {
            src: 'confirmSignUp',
            input: ({ context, event }) => {
              assertEvent(event, 'session.confirmSignUp');
              return { email: context.pendingEmail ?? '', code: event.code.trim() };
            },
            onDone: { target: 'signIn', actions: { type: 'setAuthNotice', params: { notice: SESSION_TEXTS.signUpConfirmed } } },
            onError: {
              target: 'confirmSignUp',
              actions: 'setAuthError',
            },
          },
        },
        resendingSignUpCode: {
          tags: ['view.confirmSignUp', 'authBusy'],
          invoke: {
            src: 'resendSignUpCode',
            input: ({ context }) => ({ email: context.pendingEmail ?? '' }),
            onDone: {
              target: 'confirmSignUp',
              actions: {
                type: 'setAuthNotice',
                params: ({ event }) => ({ notice: SESSION_TEXTS.newCodeSent(event.output.destination) }),
              },
            },
            onError: {
              target: 'confirmSignUp',
              actions: 'setAuthError',
            },
          },
        },
        forgotPassword: {
          tags: 'view.forgotPassword',
          on: {
            'session.requestPasswordReset': {
              target: 'requestingPasswordReset',
              actions: ['clearAuthMessages', { type: 'setPendingEmail', params: ({ event }) => ({ email: event.email }) }],
            },
          },
        },
        requestingPasswordReset: {
          tags: ['view.forgotPassword', 'authBusy'],
          invoke: {
            src: 'requestPasswordReset',
            input: ({ context }) => ({ email: context.pendingEmail ?? '' }),
            onDone: {
              target: 'resetPassword',
              actions: {
                type: 'setAuthNotice',
                params: ({ event }) => ({ notice: SESSION_TEXTS.codeSent(event.output.destination) }),
              },
            },
            onError: {
              target: 'forgotPassword',
              actions: 'setAuthError',
            },
          },
        },
        resetPassword: {
          tags: 'view.resetPassword',
          on: {
            'session.confirmPasswordReset': {
              guard: 'hasPendingEmail',
              target: 'confirmingPasswordReset',
              actions: 'clearAuthMessages',
            },
          },
        },
        confirmingPasswordReset: {
          tags: ['view.resetPassword', 'authBusy'],
          invoke: {
            src: 'confirmPasswordReset',
            input: ({ context, event }) => {
              assertEvent(event, 'session.confirmPasswordReset');
              return { email: context.pendingEmail ?? '', code: event.code.trim(), newPassword: event.newPassword };
            },
            onDone: { target: 'signIn', actions: { type: 'setAuthNotice', params: { notice: SESSION_TEXTS.passwordChanged } } },
            onError: {
              target: 'resetPassword',
              actions: 'setAuthError',
            },
          },
        },
      },
    },

    signingIn: {
      on: {
        'session.cancelSignIn': { target: '#authForms.signedOut.signIn', actions: ['clearAuthMessages', 'clearMfa'] },
        'session.showSignIn': { target: '#authForms.signedOut.signIn', actions: ['clearAuthMessages', 'clearMfa'] },
        'session.showSignUp': { target: '#authForms.signedOut.signUp', actions: ['clearAuthMessages', 'clearMfa'] },
        'session.showForgotPassword': {
          target: '#authForms.signedOut.forgotPassword',
          actions: ['clearAuthMessages', 'clearMfa'],
        },
        'signIn.step': [
          { guard: { type: 'signInStepIs', params: { kind: 'done' } }, target: '#authForms.signedIn', actions: 'clearMfa' },
          { guard: { type: 'signInStepIs', params: { kind: 'mfaSelection' } }, target: '.mfaSelection', actions: 'storeMfaStep' },
          { guard: { type: 'signInStepIs', params: { kind: 'mfaCode' } }, target: '.mfaCode', actions: 'storeMfaStep' },
          { guard: { type: 'signInStepIs', params: { kind: 'newPassword' } }, target: '.newPassword' },
          {
            guard: { type: 'signInStepIs', params: { kind: 'confirmSignUp' } },
            target: '#authForms.signedOut.confirmSignUp',
            actions: { type: 'setAuthNotice', params: { notice: SESSION_TEXTS.confirmSignUpFirst } },
          },
          {
            guard: { type: 'signInStepIs', params: { kind: 'resetPassword' } },
            target: '#authForms.signedOut.forgotPassword',
            actions: { type: 'setAuthNotice', params: { notice: SESSION_TEXTS.passwordResetRequired } },
          },
        ],
      },
      initial: 'submittingPassword',
      states: {
        submittingPassword: {
          tags: ['view.signIn', 'authBusy'],
          invoke: {
            src: 'signInWithPassword',
            input: ({ context, event }) =>
              event.type === 'session.signIn'
                ? { username: event.username.trim(), password: event.password, authFlowType: context.authFlowType }
                : { username: GUEST_USERNAME, password: context.guestPassword ?? '', authFlowType: context.authFlowType },
            onDone: { actions: { type: 'followSignInStep', params: ({ event }) => ({ step: event.output }) } },
            onError: [
              {
                // The session thought nobody was signed in, but Amplify holds a user: load it.
                guard: { type: 'isAlreadySignedIn', params: ({ event }) => ({ error: event.error }) },
                target: '#authForms.signedIn',
              },
              {
                target: '#authForms.signedOut.signIn',
                actions: 'setAuthError',
              },
            ],
          },
        },
        mfaSelection: {
          tags: 'view.mfaSelection',
          on: { 'session.selectMfa': { guard: 'mfaMethodOffered', target: 'submittingMfaSelection', actions: 'clearAuthMessages' } },
        },
        submittingMfaSelection: {
          tags: ['view.mfaSelection', 'authBusy'],
          invoke: {
            src: 'answerChallenge',
            input: ({ event }) => {
              assertEvent(event, 'session.selectMfa');
              return { response: event.method };
            },
            onDone: { actions: { type: 'followSignInStep', params: ({ event }) => ({ step: event.output }) } },
            onError: { target: 'mfaSelection', actions: 'setAuthError' },
          },
        },
        mfaCode: {
          tags: 'view.mfaCode',
          on: { 'session.confirmSignIn': { target: 'submittingMfaCode' } },
        },
        submittingMfaCode: {
          tags: ['view.mfaCode', 'authBusy'],
          invoke: {
            src: 'answerChallenge',
            input: ({ event }) => {
              assertEvent(event, 'session.confirmSignIn');
              return { response: event.code.trim() };
            },
            onDone: { actions: { type: 'followSignInStep', params: ({ event }) => ({ step: event.output }) } },
            onError: { target: 'mfaCode', actions: 'setAuthError' },
          },
        },
        newPassword: {
          tags: 'view.newPassword',
          on: { 'session.setNewPassword': { target: 'submittingNewPassword', actions: 'clearAuthMessages' } },
        },
        submittingNewPassword: {
          tags: ['view.newPassword', 'authBusy'],
          invoke: {
            src: 'answerChallenge',
            input: ({ event }) => {
              assertEvent(event, 'session.setNewPassword');
              return { response: event.password };
            },
            onDone: { actions: { type: 'followSignInStep', params: ({ event }) => ({ step: event.output }) } },
            onError: { target: 'newPassword', actions: 'setAuthError' },
          },
        },
      },
    },

    /** Signed in: the session takes over (it loads the user). */
    signedIn: { type: 'final' },
  },
});
