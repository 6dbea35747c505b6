import { assertEvent, assign, emit, enqueueActions, fromCallback, fromPromise, raise, sendTo, setup } from 'xstate';
import type { AuthFlowType, SocialProvider } from '@/config/env';
import { GUEST_USERNAME, STORAGE_KEYS } from '@/config/limits';
import { MESSAGES } from '@/config/messages';
import { ROUTES } from '@/config/routes';
import { buildRedirectUrl, isAllowedRedirect } from '@/lib/redirect-target';
import {
  confirmResetPassword,
  confirmSignIn,
  confirmSignUp,
  errorMessage,
  errorName,
  getAccessToken,
  isNetworkError,
  listenToAuthEvents,
  loadCurrentUser,
  resendSignUpCode,
  resetPassword,
  signInWithPassword,
  signInWithRedirect,
  signOut,
  signUp,
  updateHandle,
} from '@/services/auth';
import type { AuthEvent, CurrentUser, MfaMethod, SignInStep, SignUpResult } from '@/services/auth';
import { redeemCoupon } from '@/services/coupon';
import { readStored, removeStored, writeStored } from '@/services/storage';
import { checkUsernameAvailable, deleteAccount } from '@/services/users';
import { creditsMachine } from '@/machines/session/credits.machine';
import type { CreditsParentEvent } from '@/machines/session/credits.machine';
import { emailVerificationMachine } from '@/machines/session/email-verification.machine';
import type { EmailVerificationParentEvent } from '@/machines/session/email-verification.machine';
import { routeAfterLoad, hasHandoffParams, storeHandoff, stripHandoffParams, takeCouponCode, takeRedirectRequest } from '@/machines/session/handoff';
import type { RedirectRequest } from '@/machines/session/handoff';
import { networkRetryDelay } from '@/machines/session/network-backoff';
import { SESSION_TEXTS } from '@/machines/session/session.texts';
import { tokenRefreshMachine } from '@/machines/session/token-refresh.machine';
import type { TokenRefreshEvent } from '@/machines/session/token-refresh.machine';

export type { CurrentUser, MfaMethod, SignInStep } from '@/services/auth';
export type { RedirectRequest } from '@/machines/session/handoff';

export interface SessionInput {
  /** Where the app started. */
  location: { pathname: string; search: string };
  authFlowType: AuthFlowType;
  /** The guest account's published password; undefined → guest sign-in unavailable. */
  guestPassword?: string;
  redirectAllowlist: readonly string[];
  socialProviders: readonly SocialProvider[];
}

export type SessionModal =
  | { kind: 'guestWelcome' }
  | { kind: 'coupon'; credits: number }
  | { kind: 'redirectRefused'; redirectUri: string };

export interface SessionContext {
  location: { pathname: string; search: string };
  authFlowType: AuthFlowType;
  guestPassword: string | undefined;
  redirectAllowlist: readonly string[];
  socialProviders: readonly SocialProvider[];
  currentUser: CurrentUser | null;
  /** The last failure's message, shown on /authentication. */
  authError: string | null;
  /** A hint for the current sign-in step ("We sent a code to …"). */
  authNotice: string | null;
  /** The address being signed in, confirmed or reset, to prefill forms. */
  pendingEmail: string | null;
  mfaOptions: MfaMethod[];
  mfaMethod: MfaMethod | null;
  /** Modals shown over any page; the last one is on top. */
  modals: SessionModal[];
  /** An allowlisted redirect waiting for its access token. */
  pendingRedirect: RedirectRequest | null;
  /** The handle being checked or saved. */
  pendingHandle: string | null;
  /** The `emailVerification` child exists (it stays, closed, after Cancel). */
  emailVerificationSpawned: boolean;
  /** Attempts at loading the user since the network was last seen failing (sets the back-off). */
  networkRetries: number;
  /** Hub `signedIn` arrived while the user could not be reloaded at once: reload when idle. */
  userReloadDue: boolean;
  /** Snapshots the children have reported (see the `noteChildSnapshot` action). */
  childSnapshots: number;
}

/** Events the app and the screens send. */
export type SessionUiEvent =
  | { type: 'location.changed'; pathname: string; search: string }
  | { type: 'session.signIn'; username: string; password: string }
  | { type: 'session.signInAsGuest' }
  | { type: 'session.signInWithProvider'; provider: SocialProvider }
  | { type: 'session.selectMfa'; method: MfaMethod }
  | { type: 'session.confirmSignIn'; code: string }
  | { type: 'session.setNewPassword'; password: string }
  | { type: 'session.cancelSignIn' }
  | { type: 'session.showSignIn' }
  | { type: 'session.showSignUp' }
  | { type: 'session.showForgotPassword' }
  | { type: 'session.signUp'; email: string; password: string }
  | { type: 'session.confirmSignUp'; code: string }
  | { type: 'session.resendSignUpCode' }
  | { type: 'session.requestPasswordReset'; email: string }
  | { type: 'session.confirmPasswordReset'; code: string; newPassword: string }
  | { type: 'session.signOut' }
  | { type: 'session.deleteAccount' }
  | { type: 'session.setHandle'; handle: string }
  | { type: 'session.refreshUser' }
  | { type: 'modal.confirm' };

/** Events the machine produces for itself: Amplify's Hub, the browser's network status, its children. */
export type SessionInternalEvent =
  | { type: 'network.online' }
  | { type: 'network.offline' }
  /** Amplify's Hub, as services/auth maps it. */
  | AuthEvent
  /** Raised after each sign-in request with what Cognito asks for next. */
  | { type: 'signIn.step'; step: SignInStep }
  | CreditsParentEvent
  | EmailVerificationParentEvent;

export type SessionEvent = SessionUiEvent | SessionInternalEvent;

/** What the app carries out: the machine owns the decisions, the browser the side effects. */
export type SessionEmitted =
  | { type: 'session.navigate'; to: string; replace: boolean }
  | { type: 'session.redirect'; url: string }
  | { type: 'session.notify'; tone: 'success' | 'error'; title: string; message: string }
  /** An account-level event for the top banner (SPEC §2.9 item 5), not a passing toast. */
  | { type: 'session.banner'; kind: 'success' | 'error'; message: string };

export type SessionTag =
  | 'authBusy'
  | 'accountBusy'
  | 'handleChecking'
  | 'handleSaving'
  | 'offline'
  | 'view.signIn'
  | 'view.signUp'
  | 'view.confirmSignUp'
  | 'view.forgotPassword'
  | 'view.resetPassword'
  | 'view.mfaSelection'
  | 'view.mfaCode'
  | 'view.newPassword';

/**
 * Who is signed in, and everything that follows from it (SPEC §1, §2.1, §2.2, §3, §4, §8).
 *
 * booting → signedOut ⇄ signingIn (MFA selection, MFA code, new password) → signedIn
 * (loadingUser → postLoad → ready, next to a `tokens` region that refreshes the session every 50
 * minutes and survives a lost network) → signingOut → signedOut. Sign-up, its confirmation and
 * the password reset are views of signedOut. Navigation, leaving the page and toasts go out as
 * emitted events; the children `credits` and `emailVerification` live while someone is signed in.
 */
/** What this person has already seen in this sign-in (nothing for another person's record). */
const overlaysSeen = (userId: string): { userId: string; guestWelcome: boolean; verifyEmailLater: boolean } => {
  const stored = readStored(STORAGE_KEYS.overlaysSeen);
  return stored?.userId === userId ? stored : { userId, guestWelcome: false, verifyEmailLater: false };
};

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
    emitted: {} as SessionEmitted,
    tags: {} as SessionTag,
    children: {} as { credits: 'credits'; emailVerification: 'emailVerification'; tokenRefresh: 'tokenRefresh' },
  },
  actors: {
    authEvents: fromCallback(({ sendBack }) => listenToAuthEvents(sendBack)),
    networkStatus: fromCallback(({ sendBack }) => {
      const online = () => sendBack({ type: 'network.online' });
      const offline = () => sendBack({ type: 'network.offline' });
      window.addEventListener('online', online);
      window.addEventListener('offline', offline);
      return () => {
        window.removeEventListener('online', online);
        window.removeEventListener('offline', offline);
      };
    }),
    loadUser: fromPromise<CurrentUser | null>(() => loadCurrentUser()),
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
    signOut: fromPromise<void>(() => signOut()),
    takeRedirectRequest: fromPromise<RedirectRequest | null, { search: string }>(async ({ input }) =>
      takeRedirectRequest(input.search),
    ),
    buildRedirect: fromPromise<string, { uri: string; state: string }>(async ({ input }) => {
      const token = await getAccessToken();
      if (!token) throw new Error(MESSAGES.notAuthenticated);
      return buildRedirectUrl(input.uri, token, input.state);
    }),
    redeemPendingCoupon: fromPromise<{ credits: number } | null, { search: string }>(async ({ input }) => {
      const code = takeCouponCode(input.search);
      if (!code) return null;
      const { credits } = await redeemCoupon(code);
      return { credits };
    }),
    checkHandle: fromPromise<boolean, { handle: string }>(
      async ({ input }) => (await checkUsernameAvailable(input.handle)).available,
    ),
    saveHandle: fromPromise<void, { handle: string }>(({ input }) => updateHandle(input.handle)),
    deleteAccount: fromPromise<void>(async () => {
      await deleteAccount();
    }),
    credits: creditsMachine,
    tokenRefresh: tokenRefreshMachine,
    emailVerification: emailVerificationMachine,
  },
  guards: {
    guestAvailable: ({ context }) => Boolean(context.guestPassword),
    providerAvailable: ({ context, event }) =>
      event.type === 'session.signInWithProvider' && context.socialProviders.includes(event.provider),
    mfaMethodOffered: ({ context, event }) =>
      event.type === 'session.selectMfa' && context.mfaOptions.includes(event.method),
    hasPendingEmail: ({ context }) => context.pendingEmail !== null,
    hasHandleText: ({ event }) => event.type === 'session.setHandle' && event.handle.trim() !== '',
    signInStepIs: ({ event }, params: { kind: SignInStep['kind'] }) =>
      event.type === 'signIn.step' && event.step.kind === params.kind,
    isUser: (_, params: { user: CurrentUser | null }) => params.user !== null,
    isNetworkError: (_, params: { error: unknown }) => isNetworkError(params.error),
    isAlreadySignedIn: (_, params: { error: unknown }) => errorName(params.error) === 'UserAlreadyAuthenticatedException',
    /** Cognito refused the handle because another account holds it (the server's claim lost a race). */
    isHandleTaken: (_, params: { error: unknown }) => errorName(params.error) === 'AliasExistsException',
    userReloadDue: ({ context }) => context.userReloadDue,
    redirectAllowed: ({ context }, params: { request: RedirectRequest | null }) =>
      params.request !== null && isAllowedRedirect(params.request.uri, context.redirectAllowlist),
    isGuest: ({ context }) => context.currentUser?.username === GUEST_USERNAME,
    /** The guest welcome comes once per sign-in (issue 17), not on every reload or deep link. */
    welcomesGuest: ({ context }) =>
      context.currentUser?.username === GUEST_USERNAME && !overlaysSeen(context.currentUser.userId).guestWelcome,
    couponRedeemed: (_, params: { result: { credits: number } | null }) => params.result !== null,
    isTrue: (_, params: { value: boolean }) => params.value,
  },
  actions: {
    setLocation: assign(({ event }) => {
      assertEvent(event, 'location.changed');
      return { location: { pathname: event.pathname, search: event.search } };
    }),
    /** SPEC §4: what a URL hands over while nobody is signed in is kept until the user is known. */
    storeHandoff: ({ context }) => storeHandoff(context.location.search),
    setUser: assign((_, params: { user: CurrentUser | null }) => ({ currentUser: params.user })),
    clearSignedIn: assign({
      currentUser: null,
      modals: [],
      pendingRedirect: null,
      pendingHandle: null,
      mfaOptions: [],
      mfaMethod: null,
      userReloadDue: false,
    }),
    /**
     * What the previous person typed (the address of their sign-in) goes with them, so a shared
     * device does not prefill the next person's forms. Run when a signed-in session ends.
     */
    forgetPreviousUser: assign({ pendingEmail: null, authNotice: null }),
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
    pushModal: assign(({ context }, params: { modal: SessionModal }) => ({ modals: [...context.modals, params.modal] })),
    popModal: assign(({ context }) => ({ modals: context.modals.slice(0, -1) })),
    noteRefusedRedirect: assign(({ context }, params: { request: RedirectRequest | null }) =>
      params.request ? { modals: [...context.modals, { kind: 'redirectRefused' as const, redirectUri: params.request.uri }] } : {},
    ),
    setPendingRedirect: assign((_, params: { request: RedirectRequest | null }) => ({ pendingRedirect: params.request })),
    emitRedirect: emit((_, params: { url: string }) => ({ type: 'session.redirect' as const, url: params.url })),
    navigate: emit((_, params: { to: string; replace: boolean }) => ({
      type: 'session.navigate' as const,
      to: params.to,
      replace: params.replace,
    })),
    notify: emit((_, params: { tone: 'success' | 'error'; title: string; message: string }) => ({
      type: 'session.notify' as const,
      ...params,
    })),
    /**
     * The end of the post-load steps: the routing of SPEC §2.1, or, for a person who stays on the
     * page, the handoff parameters taken off the address so a reload does not use them again.
     */
    finishPostLoad: enqueueActions(({ context, enqueue }) => {
      const { pathname, search } = context.location;
      const to = context.currentUser ? routeAfterLoad(context.currentUser, pathname) : null;
      if (to !== null) {
        // The sign-in page does not stay behind in the history.
        enqueue.emit({ type: 'session.navigate', to, replace: pathname.startsWith(ROUTES.authentication) });
      } else if (hasHandoffParams(search)) {
        enqueue.emit({ type: 'session.navigate', to: `${pathname}${stripHandoffParams(search)}`, replace: true });
      }
    }),
    /** The Verify Email modal exists while the signed-in user's e-mail is not verified. */
    syncEmailVerification: enqueueActions(({ context, enqueue }) => {
      const user = context.currentUser;
      const needsVerification = user !== null && user.attributes.email_verified !== 'true';
      if (needsVerification && !context.emailVerificationSpawned) {
        const startClosed = overlaysSeen(user.userId).verifyEmailLater;
        enqueue.spawnChild('emailVerification', { id: 'emailVerification', input: { startClosed } });
        enqueue.assign({ emailVerificationSpawned: true });
      } else if (!needsVerification && context.emailVerificationSpawned) {
        enqueue.stopChild('emailVerification');
        enqueue.assign({ emailVerificationSpawned: false });
      }
    }),
    rememberOverlaySeen: enqueueActions(({ context }, params: { overlay: 'guestWelcome' | 'verifyEmailLater' }) => {
      const userId = context.currentUser?.userId;
      if (userId) writeStored(STORAGE_KEYS.overlaysSeen, { ...overlaysSeen(userId), [params.overlay]: true });
    }),
    /** An account-level event: the top banner says it on the page the person lands on (README "Top banner"). */
    announceAccountDeleted: emit({ type: 'session.banner' as const, kind: 'success' as const, message: SESSION_TEXTS.accountDeleted }),
    /** Signing out ends the sign-in: the next one shows its overlays again. */
    forgetOverlaysSeen: enqueueActions(() => {
      removeStored(STORAGE_KEYS.overlaysSeen);
    }),
    stopEmailVerification: enqueueActions(({ enqueue }) => {
      enqueue.stopChild('emailVerification');
      enqueue.assign({ emailVerificationSpawned: false });
    }),
    markEmailVerified: assign(({ context }) =>
      context.currentUser
        ? { currentUser: { ...context.currentUser, attributes: { ...context.currentUser.attributes, email_verified: 'true' } } }
        : {},
    ),
    refreshCredits: sendTo('credits', { type: 'credits.refresh' }),
    requestUserReload: raise({ type: 'session.refreshUser' }),
    setPendingHandle: assign(({ event }) => {
      assertEvent(event, 'session.setHandle');
      return { pendingHandle: event.handle.trim() };
    }),
    clearPendingHandle: assign({ pendingHandle: null }),
    /** SPEC §8: the handle is taken (or could not be checked). */
    notifyHandleNotAvailable: enqueueActions(({ enqueue }) => {
      enqueue.assign({ pendingHandle: null });
      enqueue.emit({ type: 'session.notify', tone: 'error', ...MESSAGES.handleNotAvailable });
    }),
    /** After a handle is saved: to its profile, whether or not the user could be reloaded. */
    navigateToSavedHandle: enqueueActions(({ context, enqueue }) => {
      enqueue.emit({
        type: 'session.navigate',
        to: ROUTES.profile(encodeURIComponent(context.pendingHandle ?? '')),
        replace: false,
      });
      // Issue 17: saving a handle says so (the profile it moved to is not confirmation enough).
      enqueue.emit({
        type: 'session.notify',
        tone: 'success',
        title: SESSION_TEXTS.handleSaved,
        message: SESSION_TEXTS.handleSavedMessage(context.pendingHandle ?? ''),
      });
      enqueue.assign({ pendingHandle: null });
    }),
    countNetworkRetry: assign(({ context }) => ({ networkRetries: context.networkRetries + 1 })),
    resetNetworkRetries: assign({ networkRetries: 0 }),
    markUserReloadDue: assign({ userReloadDue: true }),
    forwardToTokenRefresh: sendTo('tokenRefresh', ({ event }) => event as TokenRefreshEvent),
    /**
     * A child moved: that is a new session snapshot, so what reads the children through the
     * session's selectors (React's useSelector, waitFor) sees it.
     */
    noteChildSnapshot: assign(({ context }) => ({ childSnapshots: context.childSnapshots + 1 })),
    clearUserReloadDue: assign({ userReloadDue: false }),
  },
  delays: {
    /** 2 s, 4 s, 8 s, … up to a minute between attempts while the network seems down. */
    networkRetry: ({ context }) => networkRetryDelay(context.networkRetries),
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({
    location: { pathname: input.location.pathname, search: input.location.search },
    authFlowType: input.authFlowType,
    guestPassword: input.guestPassword,
    redirectAllowlist: input.redirectAllowlist,
    socialProviders: input.socialProviders,
    currentUser: null,
    authError: null,
    authNotice: null,
    pendingEmail: null,
    mfaOptions: [],
    mfaMethod: null,
    modals: [],
    pendingRedirect: null,
    pendingHandle: null,
    emailVerificationSpawned: false,
    networkRetries: 0,
    userReloadDue: false,
    childSnapshots: 0,
  }),
  invoke: [
    { src: 'authEvents', id: 'authEvents' },
    { src: 'networkStatus', id: 'networkStatus' },
  ],
  on: {
    'location.changed': { actions: 'setLocation' },
    'modal.confirm': { actions: 'popModal' },
    'auth.redirectFailed': {
      actions: { type: 'setAuthErrorText', params: ({ event }) => ({ message: event.message }) },
    },
    'credits.fetchFailed': {
      actions: { type: 'notify', params: { tone: 'error', ...MESSAGES.creditsFetchFailed } },
    },
    'emailVerification.verified': {
      actions: [
        { type: 'notify', params: { tone: 'success', ...MESSAGES.emailVerified } },
        'markEmailVerified',
        // The child has reached its final state and goes away.
        'stopEmailVerification',
        'requestUserReload',
      ],
    },
    'emailVerification.later': {
      actions: { type: 'rememberOverlaySeen', params: { overlay: 'verifyEmailLater' } },
    },
    'emailVerification.failed': {
      actions: {
        type: 'notify',
        params: ({ event }) => ({ tone: 'error' as const, title: MESSAGES.invalidCode.title, message: event.message }),
      },
    },
    'emailVerification.sendFailed': {
      actions: {
        type: 'notify',
        params: ({ event }) => ({ tone: 'error' as const, title: SESSION_TEXTS.codeNotSent, message: event.message }),
      },
    },
  },
  initial: 'booting',
  states: {
    booting: {
      initial: 'loading',
      exit: 'resetNetworkRetries',
      on: { 'auth.signedIn': '#session.signedIn' },
      states: {
        loading: {
          invoke: {
            src: 'loadUser',
            onDone: [
              {
                guard: { type: 'isUser', params: ({ event }) => ({ user: event.output }) },
                target: '#session.signedIn.flow.postLoad',
                actions: [{ type: 'setUser', params: ({ event }) => ({ user: event.output }) }, 'syncEmailVerification'],
              },
              { target: '#session.signedOut' },
            ],
            onError: [
              { guard: { type: 'isNetworkError', params: ({ event }) => ({ error: event.error }) }, target: 'waitingForNetwork' },
              // A revoked token or a deleted user: Amplify still holds tokens, so clear them.
              { target: 'clearingTokens' },
            ],
          },
        },
        /**
         * Offline at start: who is signed in is known once the network is back, or, when the
         * browser thinks it is online but the server cannot be reached, after a back-off.
         */
        waitingForNetwork: {
          after: { networkRetry: { target: 'loading', actions: 'countNetworkRetry' } },
          on: { 'network.online': { target: 'loading', actions: 'resetNetworkRetries' } },
        },
        /** Signing out at boot; the person stays on the page they opened, signed out. */
        clearingTokens: {
          invoke: {
            src: 'signOut',
            onDone: '#session.signedOut',
            onError: '#session.signedOut',
          },
        },
      },
    },

    signedOut: {
      entry: ['clearSignedIn', 'storeHandoff'],
      initial: 'signIn',
      on: {
        'location.changed': { actions: ['setLocation', 'storeHandoff'] },
        'auth.signedIn': '#session.signedIn',
        'session.showSignIn': { target: '.signIn', actions: 'clearAuthMessages' },
        'session.showSignUp': { target: '.signUp', actions: 'clearAuthMessages' },
        'session.showForgotPassword': { target: '.forgotPassword', actions: 'clearAuthMessages' },
      },
      states: {
        signIn: {
          tags: 'view.signIn',
          on: {
            'session.signIn': {
              target: '#session.signingIn.submittingPassword',
              actions: ['clearAuthMessages', { type: 'setPendingEmail', params: ({ event }) => ({ email: event.username }) }],
            },
            'session.signInAsGuest': {
              guard: 'guestAvailable',
              target: '#session.signingIn.submittingPassword',
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
        'location.changed': { actions: ['setLocation', 'storeHandoff'] },
        // Amplify's own signal that the sign-in completed (it fires before the request resolves).
        'auth.signedIn': { target: '#session.signedIn', actions: 'clearMfa' },
        'session.cancelSignIn': { target: '#session.signedOut.signIn', actions: ['clearAuthMessages', 'clearMfa'] },
        'session.showSignIn': { target: '#session.signedOut.signIn', actions: ['clearAuthMessages', 'clearMfa'] },
        'session.showSignUp': { target: '#session.signedOut.signUp', actions: ['clearAuthMessages', 'clearMfa'] },
        'session.showForgotPassword': {
          target: '#session.signedOut.forgotPassword',
          actions: ['clearAuthMessages', 'clearMfa'],
        },
        'signIn.step': [
          { guard: { type: 'signInStepIs', params: { kind: 'done' } }, target: '#session.signedIn', actions: 'clearMfa' },
          { guard: { type: 'signInStepIs', params: { kind: 'mfaSelection' } }, target: '.mfaSelection', actions: 'storeMfaStep' },
          { guard: { type: 'signInStepIs', params: { kind: 'mfaCode' } }, target: '.mfaCode', actions: 'storeMfaStep' },
          { guard: { type: 'signInStepIs', params: { kind: 'newPassword' } }, target: '.newPassword' },
          {
            guard: { type: 'signInStepIs', params: { kind: 'confirmSignUp' } },
            target: '#session.signedOut.confirmSignUp',
            actions: { type: 'setAuthNotice', params: { notice: SESSION_TEXTS.confirmSignUpFirst } },
          },
          {
            guard: { type: 'signInStepIs', params: { kind: 'resetPassword' } },
            target: '#session.signedOut.forgotPassword',
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
                target: '#session.signedIn',
              },
              {
                target: '#session.signedOut.signIn',
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

    signedIn: {
      type: 'parallel',
      entry: ['clearAuthMessages', 'resetNetworkRetries'],
      exit: ['stopEmailVerification', 'forgetPreviousUser', 'forgetOverlaysSeen'],
      // Reached through the actor system by other machines (the jobs registry), by this systemId.
      invoke: { src: 'credits', id: 'credits', systemId: 'credits' },
      on: {
        // SPEC §4 auth events: signedOut goes to "/" (signedIn is handled by `flow`).
        'auth.signedOut': {
          target: 'signedOut',
          actions: { type: 'navigate', params: { to: ROUTES.home, replace: false } },
        },
        'session.signOut': 'signingOut',
      },
      states: {
        flow: {
          initial: 'loadingUser',
          on: {
            // SPEC §4 auth events: signedIn reloads the user and the credits, and only those:
            // the post-load steps and an account action in progress carry on; the user is
            // reloaded once `ready` is idle.
            'auth.signedIn': { actions: ['refreshCredits', 'markUserReloadDue'] },
          },
          states: {
            loadingUser: {
              on: { 'auth.signedIn': { target: 'loadingUser', reenter: true, actions: 'refreshCredits' } },
              invoke: {
                src: 'loadUser',
                onDone: [
                  {
                    guard: { type: 'isUser', params: ({ event }) => ({ user: event.output }) },
                    target: 'postLoad',
                    actions: [{ type: 'setUser', params: ({ event }) => ({ user: event.output }) }, 'syncEmailVerification'],
                  },
                  { target: '#session.signedOut' },
                ],
                onError: [
                  { guard: { type: 'isNetworkError', params: ({ event }) => ({ error: event.error }) }, target: 'waitingForNetwork' },
                  {
                    target: '#session.signingOut',
                    actions: 'setAuthError',
                  },
                ],
              },
            },
            /** Signed in, but the user could not be loaded for want of a network (see booting). */
            waitingForNetwork: {
              tags: 'offline',
              after: { networkRetry: { target: 'loadingUser', actions: 'countNetworkRetry' } },
              on: {
                'network.online': { target: 'loadingUser', actions: 'resetNetworkRetries' },
                'auth.signedIn': { target: 'loadingUser', actions: ['resetNetworkRetries', 'refreshCredits'] },
              },
            },
            /** SPEC §4 "After a user is loaded", in its order. */
            postLoad: {
              entry: 'resetNetworkRetries',
              initial: 'checkingRedirect',
              states: {
                checkingRedirect: {
                  invoke: {
                    src: 'takeRedirectRequest',
                    input: ({ context }) => ({ search: context.location.search }),
                    onDone: [
                      {
                        guard: { type: 'redirectAllowed', params: ({ event }) => ({ request: event.output }) },
                        target: 'redirecting',
                        actions: { type: 'setPendingRedirect', params: ({ event }) => ({ request: event.output }) },
                      },
                      // A refused redirect is reported, and the person carries on signed in.
                      {
                        guard: 'welcomesGuest',
                        target: 'guestWelcome',
                        actions: [
                          { type: 'noteRefusedRedirect', params: ({ event }) => ({ request: event.output }) },
                          { type: 'pushModal', params: { modal: { kind: 'guestWelcome' } } },
                        ],
                      },
                      {
                        target: 'redeemingCoupon',
                        actions: { type: 'noteRefusedRedirect', params: ({ event }) => ({ request: event.output }) },
                      },
                    ],
                    onError: [
                      {
                        guard: 'welcomesGuest',
                        target: 'guestWelcome',
                        actions: { type: 'pushModal', params: { modal: { kind: 'guestWelcome' } } },
                      },
                      { target: 'redeemingCoupon' },
                    ],
                  },
                },
                redirecting: {
                  invoke: {
                    src: 'buildRedirect',
                    input: ({ context }) => ({
                      uri: context.pendingRedirect?.uri ?? '',
                      state: context.pendingRedirect?.state ?? '',
                    }),
                    onDone: {
                      target: '#session.signedIn.flow.ready',
                      actions: [
                        { type: 'emitRedirect', params: ({ event }) => ({ url: event.output }) },
                        { type: 'setPendingRedirect', params: { request: null } },
                      ],
                    },
                    onError: {
                      target: '#session.signedIn.flow.ready',
                      actions: [{ type: 'setPendingRedirect', params: { request: null } }, 'finishPostLoad'],
                    },
                  },
                },
                guestWelcome: {
                  on: {
                    'modal.confirm': {
                      target: 'redeemingCoupon',
                      actions: ['popModal', { type: 'rememberOverlaySeen', params: { overlay: 'guestWelcome' } }],
                    },
                  },
                },
                redeemingCoupon: {
                  invoke: {
                    src: 'redeemPendingCoupon',
                    input: ({ context }) => ({ search: context.location.search }),
                    onDone: [
                      {
                        guard: { type: 'couponRedeemed', params: ({ event }) => ({ result: event.output }) },
                        target: 'reloadingUser',
                        actions: [
                          'refreshCredits',
                          {
                            type: 'pushModal',
                            params: ({ event }) => ({ modal: { kind: 'coupon' as const, credits: event.output?.credits ?? 0 } }),
                          },
                        ],
                      },
                      { target: '#session.signedIn.flow.ready', actions: 'finishPostLoad' },
                    ],
                    // SPEC §4/§8: a failed redemption is ignored silently.
                    onError: { target: '#session.signedIn.flow.ready', actions: 'finishPostLoad' },
                  },
                },
                reloadingUser: {
                  invoke: {
                    src: 'loadUser',
                    onDone: [
                      {
                        guard: { type: 'isUser', params: ({ event }) => ({ user: event.output }) },
                        target: '#session.signedIn.flow.ready',
                        actions: [
                          { type: 'setUser', params: ({ event }) => ({ user: event.output }) },
                          'syncEmailVerification',
                          'finishPostLoad',
                        ],
                      },
                      { target: '#session.signedOut' },
                    ],
                    onError: { target: '#session.signedIn.flow.ready', actions: 'finishPostLoad' },
                  },
                },
              },
            },
            ready: {
              initial: 'idle',
              states: {
                idle: {
                  always: { guard: 'userReloadDue', target: 'reloadingUser' },
                  on: {
                    'session.setHandle': { guard: 'hasHandleText', target: 'checkingHandle', actions: 'setPendingHandle' },
                    'session.deleteAccount': 'deletingAccount',
                    'session.refreshUser': 'reloadingUser',
                  },
                },
                checkingHandle: {
                  tags: 'handleChecking',
                  invoke: {
                    src: 'checkHandle',
                    input: ({ context }) => ({ handle: context.pendingHandle ?? '' }),
                    onDone: [
                      { guard: { type: 'isTrue', params: ({ event }) => ({ value: event.output }) }, target: 'savingHandle' },
                      { target: 'idle', actions: 'notifyHandleNotAvailable' },
                    ],
                    // SPEC §8: a failed check shows the same toast and counts as not available.
                    onError: { target: 'idle', actions: 'notifyHandleNotAvailable' },
                  },
                },
                savingHandle: {
                  tags: 'handleSaving',
                  invoke: {
                    src: 'saveHandle',
                    input: ({ context }) => ({ handle: context.pendingHandle ?? '' }),
                    onDone: 'reloadingAfterHandle',
                    onError: [
                      {
                        guard: { type: 'isHandleTaken', params: ({ event }) => ({ error: event.error }) },
                        target: 'idle',
                        actions: 'notifyHandleNotAvailable',
                      },
                      {
                        target: 'idle',
                        actions: [
                          'clearPendingHandle',
                          {
                            type: 'notify',
                            params: ({ event }) => ({
                              tone: 'error' as const,
                              title: SESSION_TEXTS.handleNotSaved,
                              message: errorMessage(event.error),
                            }),
                          },
                        ],
                      },
                    ],
                  },
                },
                reloadingAfterHandle: {
                  tags: 'handleSaving',
                  invoke: {
                    src: 'loadUser',
                    onDone: {
                      target: 'idle',
                      actions: [
                        { type: 'setUser', params: ({ event, context }) => ({ user: event.output ?? context.currentUser }) },
                        'navigateToSavedHandle',
                      ],
                    },
                    onError: { target: 'idle', actions: 'navigateToSavedHandle' },
                  },
                },
                deletingAccount: {
                  tags: 'accountBusy',
                  invoke: {
                    src: 'deleteAccount',
                    onDone: {
                      target: '#session.signingOut',
                      actions: 'announceAccountDeleted',
                    },
                    onError: {
                      target: 'idle',
                      actions: {
                        type: 'notify',
                        params: ({ event }) => ({
                          tone: 'error' as const,
                          title: SESSION_TEXTS.accountNotDeleted,
                          message: errorMessage(event.error),
                        }),
                      },
                    },
                  },
                },
                reloadingUser: {
                  entry: 'clearUserReloadDue',
                  invoke: {
                    src: 'loadUser',
                    onDone: [
                      {
                        guard: { type: 'isUser', params: ({ event }) => ({ user: event.output }) },
                        target: 'idle',
                        actions: [{ type: 'setUser', params: ({ event }) => ({ user: event.output }) }, 'syncEmailVerification'],
                      },
                      { target: '#session.signedOut' },
                    ],
                    onError: 'idle',
                  },
                },
              },
            },
          },
        },

        /** SPEC §4 "Session tokens": the `tokenRefresh` child, told what the browser and Amplify say. */
        tokens: {
          invoke: {
            src: 'tokenRefresh',
            id: 'tokenRefresh',
            systemId: 'tokenRefresh',
            onDone: '#session.signingOut',
            onSnapshot: { actions: 'noteChildSnapshot' },
          },
          on: {
            'network.online': { actions: 'forwardToTokenRefresh' },
            'network.offline': { actions: 'forwardToTokenRefresh' },
            'auth.tokenRefreshed': { actions: 'forwardToTokenRefresh' },
            'auth.tokenRefreshFailed': { actions: 'forwardToTokenRefresh' },
          },
        },
      },
    },

    signingOut: {
      tags: 'accountBusy',
      on: {
        'auth.signedOut': {
          target: 'signedOut',
          actions: { type: 'navigate', params: { to: ROUTES.home, replace: false } },
        },
      },
      invoke: {
        src: 'signOut',
        // Amplify clears the local tokens even when it cannot reach Cognito, so both end signed out.
        onDone: { target: 'signedOut', actions: { type: 'navigate', params: { to: ROUTES.home, replace: false } } },
        onError: { target: 'signedOut', actions: { type: 'navigate', params: { to: ROUTES.home, replace: false } } },
      },
    },
  },
});
