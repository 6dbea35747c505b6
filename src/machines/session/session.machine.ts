import { assertEvent, assign, emit, enqueueActions, fromCallback, fromPromise, raise, sendTo, setup } from 'xstate';
import { GUEST_USERNAME, STORAGE_KEYS } from '@/config/limits';
import { MESSAGES } from '@/config/messages';
import { ROUTES } from '@/config/routes';
import { buildRedirectUrl, isAllowedRedirect } from '@/lib/redirect-target';
import { errorMessage, errorName, getAccessToken, isNetworkError, listenToAuthEvents, loadCurrentUser, signOut, updateHandle } from '@/services/auth';
import type { CurrentUser } from '@/services/auth';
import { redeemCoupon } from '@/services/coupon';
import { readStored, removeStored, writeStored } from '@/services/storage';
import { checkUsernameAvailable, deleteAccount } from '@/services/users';
import { authFormsMachine } from '@/machines/session/auth-forms.machine';
import { AUTH_FORMS_EVENT_TYPES } from '@/machines/session/auth-forms.types';
import type { AuthFormsEvent } from '@/machines/session/auth-forms.types';
import { creditsMachine } from '@/machines/session/credits.machine';
import { emailVerificationMachine } from '@/machines/session/email-verification.machine';
import { routeAfterLoad, hasHandoffParams, storeHandoff, stripHandoffParams, takeCouponCode, takeRedirectRequest } from '@/machines/session/handoff';
import type { RedirectRequest } from '@/machines/session/handoff';
import { networkRetryDelay } from '@/machines/session/network-backoff';
import { SESSION_TEXTS } from '@/machines/session/session.texts';
import { tokenRefreshMachine } from '@/machines/session/token-refresh.machine';
import type { TokenRefreshEvent } from '@/machines/session/token-refresh.machine';
import type { SessionContext, SessionEmitted, SessionEvent, SessionInput, SessionModal, SessionTag } from '@/machines/session/session.types';

export type { CurrentUser, MfaMethod, SignInStep } from '@/services/auth';
export type { RedirectRequest } from '@/machines/session/handoff';

export type {
  SessionContext,
  SessionEmitted,
  SessionEvent,
  SessionInput,
  SessionInternalEvent,
  SessionModal,
  SessionTag,
  SessionUiEvent,
} from '@/machines/session/session.types';

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

/** The forms' events, forwarded to the `authForms` child while it runs. */
const forwardToAuthForms = Object.fromEntries(AUTH_FORMS_EVENT_TYPES.map((type) => [type, { actions: 'forwardToAuthForms' }])) as Record<
  (typeof AUTH_FORMS_EVENT_TYPES)[number],
  { actions: 'forwardToAuthForms' }
>;

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
    emitted: {} as SessionEmitted,
    tags: {} as SessionTag,
    children: {} as {
      authForms: 'authForms';
      credits: 'credits';
      emailVerification: 'emailVerification';
      tokenRefresh: 'tokenRefresh';
    },
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
    authForms: authFormsMachine,
    credits: creditsMachine,
    tokenRefresh: tokenRefreshMachine,
    emailVerification: emailVerificationMachine,
  },
  guards: {
    hasHandleText: ({ event }) => event.type === 'session.setHandle' && event.handle.trim() !== '',
    isUser: (_, params: { user: CurrentUser | null }) => params.user !== null,
    isNetworkError: (_, params: { error: unknown }) => isNetworkError(params.error),
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
      userReloadDue: false,
    }),
    clearAuthError: assign({ authError: null }),
    /** The failure of the actor whose error event is being handled, shown on /authentication. */
    setAuthError: assign(({ event }) => ({
      authError: errorMessage('error' in event ? event.error : undefined, SESSION_TEXTS.signInFailed),
    })),
    setAuthErrorText: assign((_, params: { message: string }) => ({ authError: params.message })),
    forwardToAuthForms: sendTo('authForms', ({ event }) => event as AuthFormsEvent),
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

    /** Nobody is signed in: the `authForms` child runs the forms of /authentication until someone is. */
    signedOut: {
      entry: ['clearSignedIn', 'storeHandoff'],
      invoke: {
        src: 'authForms',
        id: 'authForms',
        systemId: 'authForms',
        input: ({ context }) => ({
          authFlowType: context.authFlowType,
          guestPassword: context.guestPassword,
          socialProviders: context.socialProviders,
          authError: context.authError,
        }),
        onDone: 'signedIn',
        onSnapshot: { actions: 'noteChildSnapshot' },
      },
      on: {
        'location.changed': { actions: ['setLocation', 'storeHandoff'] },
        'auth.signedIn': 'signedIn',
        'auth.redirectFailed': { actions: 'forwardToAuthForms' },
        ...forwardToAuthForms,
      },
    },

    signedIn: {
      type: 'parallel',
      entry: ['clearAuthError', 'resetNetworkRetries'],
      exit: ['stopEmailVerification', 'forgetOverlaysSeen'],
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
