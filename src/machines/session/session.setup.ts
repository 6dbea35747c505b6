import { assertEvent, assign, emit, enqueueActions, fromCallback, fromPromise, raise, sendTo, setup } from 'xstate';
import { STORAGE_KEYS } from '@/config/limits';
import { ROUTES } from '@/config/routes';
import { isNetworkError, listenToAuthEvents, signOut } from '@/services/auth';
import type { CurrentUser } from '@/services/auth';
import { removeStored } from '@/services/storage';
import { accountMachine } from '@/machines/session/account.machine';
import type { AccountEvent } from '@/machines/session/account.machine';
import { authFormsMachine } from '@/machines/session/auth-forms.machine';
import type { AuthFormsEvent } from '@/machines/session/auth-forms.types';
import { creditsMachine } from '@/machines/session/credits.machine';
import { emailVerificationMachine } from '@/machines/session/email-verification.machine';
import { hasHandoffParams, routeAfterLoad, storeHandoff, stripHandoffParams } from '@/machines/session/handoff';
import { networkRetryDelay } from '@/machines/session/network-backoff';
import { overlaysSeen, rememberOverlaySeen } from '@/machines/session/overlays-seen';
import type { OnceOverlay } from '@/machines/session/overlays-seen';
import { postLoadMachine } from '@/machines/session/post-load.machine';
import type { PostLoadEvent, PostLoadOutput } from '@/machines/session/post-load.machine';
import { SESSION_TEXTS } from '@/machines/session/session.texts';
import type { SessionContext, SessionEmitted, SessionEvent, SessionInput, SessionModal, SessionTag } from '@/machines/session/session.types';
import { tokenRefreshMachine } from '@/machines/session/token-refresh.machine';
import type { TokenRefreshEvent } from '@/machines/session/token-refresh.machine';

/**
 * The session root's implementations (its machine is in session.machine.ts): the Hub and network
 * listeners, the children, and the actions on what the root owns (the user, the modals, the
 * failure shown on /authentication, the emitted navigation and toasts).
 */
export const sessionSetup = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
    emitted: {} as SessionEmitted,
    tags: {} as SessionTag,
    children: {} as {
      account: 'account';
      authForms: 'authForms';
      credits: 'credits';
      emailVerification: 'emailVerification';
      postLoad: 'postLoad';
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
    signOut: fromPromise<void>(() => signOut()),
    account: accountMachine,
    authForms: authFormsMachine,
    postLoad: postLoadMachine,
    credits: creditsMachine,
    tokenRefresh: tokenRefreshMachine,
    emailVerification: emailVerificationMachine,
  },
  guards: {
    hasHandleText: ({ event }) => event.type === 'session.setHandle' && event.handle.trim() !== '',
    isUser: (_, params: { user: CurrentUser | null }) => params.user !== null,
    isNetworkError: (_, params: { error: unknown }) => isNetworkError(params.error),
    userReloadDue: ({ context }) => context.userReloadDue,
    isVisitor: ({ context }) => context.visitor,
    postLoadEnds: (_, params: { output: PostLoadOutput | undefined; next: PostLoadOutput['next'] }) => params.output?.next === params.next,
  },
  actions: {
    setLocation: assign(({ event }) => {
      assertEvent(event, 'location.changed');
      return { location: { pathname: event.pathname, search: event.search } };
    }),
    /** SPEC §4: what a URL hands over while nobody is signed in is kept until the user is known. */
    storeHandoff: ({ context }) => storeHandoff(context.location.search),
    setUser: assign((_, params: { user: CurrentUser | null }) => ({ currentUser: params.user })),
    clearSignedIn: assign({ currentUser: null, modals: [], userReloadDue: false }),
    clearAuthError: assign({ authError: null }),
    /** The failure that ends a sign-in (or a provider's refusal), shown on /authentication. */
    setAuthErrorText: assign((_, params: { message: string }) => ({ authError: params.message })),
    forwardToAuthForms: sendTo('authForms', ({ event }) => event as AuthFormsEvent),
    forwardToPostLoad: sendTo('postLoad', ({ event }) => event as PostLoadEvent),
    forwardToAccount: sendTo('account', ({ event }) => event as AccountEvent),
    forwardToTokenRefresh: sendTo('tokenRefresh', ({ event }) => event as TokenRefreshEvent),
    /** The one way the user is loaded: the `account` child answers with `account.loaded` or `account.loadFailed`. */
    loadUser: sendTo('account', { type: 'account.load' } satisfies AccountEvent),
    resetAccount: sendTo('account', { type: 'account.reset' } satisfies AccountEvent),
    pushModal: assign(({ context }, params: { modal: SessionModal }) => ({ modals: [...context.modals, params.modal] })),
    popModal: assign(({ context }) => ({ modals: context.modals.slice(0, -1) })),
    emitRedirect: emit((_, params: { url: string }) => ({ type: 'session.redirect' as const, url: params.url })),
    navigate: emit((_, params: { to: string; replace: boolean }) => ({ type: 'session.navigate' as const, ...params })),
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
    rememberOverlaySeen: enqueueActions(({ context }, params: { overlay: OnceOverlay }) => {
      rememberOverlaySeen(context.currentUser?.userId, params.overlay);
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
    /** After a handle is saved: to its profile, whether or not the user could be reloaded. */
    navigateToSavedHandle: enqueueActions(({ enqueue }, params: { handle: string }) => {
      enqueue.emit({ type: 'session.navigate', to: ROUTES.profile(encodeURIComponent(params.handle)), replace: false });
      // Issue 17: saving a handle says so (the profile it moved to is not confirmation enough).
      enqueue.emit({
        type: 'session.notify',
        tone: 'success',
        title: SESSION_TEXTS.handleSaved,
        message: SESSION_TEXTS.handleSavedMessage(params.handle),
      });
    }),
    countNetworkRetry: assign(({ context }) => ({ networkRetries: context.networkRetries + 1 })),
    resetNetworkRetries: assign({ networkRetries: 0 }),
    markUserReloadDue: assign({ userReloadDue: true }),
    clearUserReloadDue: assign({ userReloadDue: false }),
    /**
     * A child moved: that is a new session snapshot, so what reads the children through the
     * session's selectors (React's useSelector, waitFor) sees it.
     */
    noteChildSnapshot: assign(({ context }) => ({ childSnapshots: context.childSnapshots + 1 })),
  },
  delays: {
    /** 2 s, 4 s, 8 s, … up to a minute between attempts to load the user while the network seems down. */
    networkRetry: ({ context }) => networkRetryDelay(context.networkRetries),
  },
});

/** What the `on` of a state that forwards `types` to a child holds. */
export const forwardAll = <TType extends string, TAction extends string>(types: readonly TType[], action: TAction) =>
  Object.fromEntries(types.map((type) => [type, { actions: action }])) as Record<TType, { actions: TAction }>;

/** The session's context at start: what its input says, and no one signed in yet. */
export const initialSessionContext = ({ input }: { input: SessionInput }): SessionContext => ({
  location: { pathname: input.location.pathname, search: input.location.search },
  authFlowType: input.authFlowType,
  guestPassword: input.guestPassword,
  redirectAllowlist: input.redirectAllowlist,
  socialProviders: input.socialProviders,
  visitor: input.visitor ?? false,
  currentUser: null,
  authError: null,
  modals: [],
  emailVerificationSpawned: false,
  networkRetries: 0,
  userReloadDue: false,
  childSnapshots: 0,
});
