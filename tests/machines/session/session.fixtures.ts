import { AMPLIFY_SYMBOL } from '@aws-amplify/core/internals/utils';
import { Hub } from 'aws-amplify/utils';
import { vi } from 'vitest';
import { createActor, fromPromise, matchesState } from 'xstate';
import type { StateValue } from 'xstate';
import { accountMachine } from '@/machines/session/account.machine';
import { authFormsMachine } from '@/machines/session/auth-forms.machine';
import { creditsMachine } from '@/machines/session/credits.machine';
import { emailVerificationMachine } from '@/machines/session/email-verification.machine';
import { sessionMachine } from '@/machines/session/session.machine';
import { selectSessionValue } from '@/machines/session/session.selectors';
import type { SessionSnapshot } from '@/machines/session/session.selectors';
import { tokenRefreshMachine } from '@/machines/session/token-refresh.machine';
import type { CurrentUser, SessionEmitted, SessionInput, SignInStep } from '@/machines/session/session.machine';
import type { SignUpResult } from '@/services/auth';

export const ALLOWED_REDIRECT = 'https://partner.example/oauth/callback';
export const ACCESS_TOKEN = 'header.payload.signature';

/** A signed-in user as loadCurrentUser gives it; verified e-mail and a handle unless overridden. */
export function buildUser(overrides: Partial<Omit<CurrentUser, 'attributes'>> & { attributes?: Partial<CurrentUser['attributes']> } = {}): CurrentUser {
  const { attributes, ...rest } = overrides;
  return {
    username: 'ada@example.com',
    userId: 'sub-ada',
    ...rest,
    attributes: {
      email: 'ada@example.com',
      email_verified: 'true',
      preferred_username: 'ada',
      user_groups: [],
      ...attributes,
    },
  };
}

export const buildInput = (overrides: Partial<SessionInput> = {}): SessionInput => ({
  location: { pathname: '/', search: '' },
  authFlowType: 'USER_PASSWORD_AUTH',
  guestPassword: 'guest-password',
  redirectAllowlist: [ALLOWED_REDIRECT],
  socialProviders: [],
  ...overrides,
});

/** Every service call the session's actors make, as mocks a test can shape and inspect. */
export function createFakes() {
  return {
    loadUser: vi.fn<() => Promise<CurrentUser | null>>(async () => null),
    signInWithPassword: vi.fn<(input: { username: string; password: string; authFlowType: string }) => Promise<SignInStep>>(
      async () => ({ kind: 'done' }),
    ),
    answerChallenge: vi.fn<(input: { response: string }) => Promise<SignInStep>>(async () => ({ kind: 'done' })),
    signInWithProvider: vi.fn<(input: { provider: string }) => Promise<void>>(async () => {}),
    signUp: vi.fn<(input: { email: string; password: string }) => Promise<SignUpResult>>(async () => ({
      needsConfirmation: true,
      destination: 'a***@e***.com',
    })),
    confirmSignUp: vi.fn<(input: { email: string; code: string }) => Promise<void>>(async () => {}),
    resendSignUpCode: vi.fn<(input: { email: string }) => Promise<{ destination?: string }>>(async () => ({
      destination: 'a***@e***.com',
    })),
    requestPasswordReset: vi.fn<(input: { email: string }) => Promise<{ destination?: string }>>(async () => ({
      destination: 'a***@e***.com',
    })),
    confirmPasswordReset: vi.fn<(input: { email: string; code: string; newPassword: string }) => Promise<void>>(async () => {}),
    signOut: vi.fn<() => Promise<void>>(async () => {}),
    refreshSession: vi.fn<() => Promise<boolean>>(async () => true),
    checkHandle: vi.fn<(handle: string) => Promise<boolean>>(async () => true),
    saveHandle: vi.fn<(handle: string) => Promise<void>>(async () => {}),
    deleteAccount: vi.fn<() => Promise<void>>(async () => {}),
    fetchCredits: vi.fn<() => Promise<{ credit: number }>>(async () => ({ credit: 100 })),
    sendVerificationCode: vi.fn<() => Promise<string | null>>(async () => 'a***@e***.com'),
    confirmVerificationCode: vi.fn<(code: string) => Promise<void>>(async () => {}),
  };
}

export type Fakes = ReturnType<typeof createFakes>;

/**
 * The session machine with its Amplify and API calls replaced by `fakes`. The redirect, coupon
 * and local-storage steps keep their real actors (test files mock `getAccessToken` and
 * `redeemCoupon` underneath them with `vi.mock`), the Hub listener stays real (tests dispatch
 * Amplify Hub events with `dispatchAuth`), and the network status comes from window events.
 */
export function provideSession(fakes: Fakes) {
  return sessionMachine.provide({
    actors: {
      account: accountMachine.provide({
        actors: {
          loadUser: fromPromise(() => fakes.loadUser()),
          checkHandle: fromPromise(({ input }) => fakes.checkHandle(input.handle)),
          saveHandle: fromPromise(({ input }) => fakes.saveHandle(input.handle)),
          deleteAccount: fromPromise(() => fakes.deleteAccount()),
        },
      }),
      authForms: authFormsMachine.provide({
        actors: {
          signInWithPassword: fromPromise(({ input }) => fakes.signInWithPassword(input)),
          answerChallenge: fromPromise(({ input }) => fakes.answerChallenge(input)),
          signInWithProvider: fromPromise(({ input }) => fakes.signInWithProvider(input)),
          signUp: fromPromise(({ input }) => fakes.signUp(input)),
          confirmSignUp: fromPromise(({ input }) => fakes.confirmSignUp(input)),
          resendSignUpCode: fromPromise(({ input }) => fakes.resendSignUpCode(input)),
          requestPasswordReset: fromPromise(({ input }) => fakes.requestPasswordReset(input)),
          confirmPasswordReset: fromPromise(({ input }) => fakes.confirmPasswordReset(input)),
        },
      }),
      signOut: fromPromise(() => fakes.signOut()),
      tokenRefresh: tokenRefreshMachine.provide({ actors: { refreshSession: fromPromise(() => fakes.refreshSession()) } }),
      credits: creditsMachine.provide({ actors: { fetchCredits: fromPromise(() => fakes.fetchCredits()) } }),
      emailVerification: emailVerificationMachine.provide({
        actors: {
          sendCode: fromPromise(() => fakes.sendVerificationCode()),
          confirmCode: fromPromise(({ input }) => fakes.confirmVerificationCode(input.code)),
        },
      }),
    },
  });
}

/** Starts the session with `fakes`; `emitted` collects what it asks the app to do. */
export function startSession(options: { fakes?: Fakes; input?: Partial<SessionInput> } = {}) {
  const fakes = options.fakes ?? createFakes();
  const emitted: SessionEmitted[] = [];
  const actor = createActor(provideSession(fakes), { input: buildInput(options.input) });
  actor.on('*', (event) => emitted.push(event));
  actor.start();
  const ofType = <T extends SessionEmitted['type']>(type: T) =>
    emitted.filter((event): event is Extract<SessionEmitted, { type: T }> => event.type === type);
  return { actor, fakes, emitted, ofType };
}

/** A real Amplify Hub event on the protected 'auth' channel, as Amplify itself dispatches it. */
export function dispatchAuth(event: string, data?: unknown) {
  Hub.dispatch('auth', data === undefined ? { event } : ({ event, data } as never), 'Auth', AMPLIFY_SYMBOL);
}

/** `snapshot.matches` for the session with its children: their states stand in for the states that invoke them. */
export const inSession = (snapshot: SessionSnapshot, value: StateValue): boolean => matchesState(value, selectSessionValue(snapshot));
