import { MESSAGES } from '@/config/messages';
import { ROUTES } from '@/config/routes';
import { errorMessage } from '@/services/auth';
import { AUTH_FORMS_EVENT_TYPES } from '@/machines/session/auth-forms.types';
import { forwardAll, initialSessionContext, sessionSetup } from '@/machines/session/session.setup';
import { SESSION_TEXTS } from '@/machines/session/session.texts';

export type { CurrentUser, MfaMethod, SignInStep } from '@/services/auth';
export type { RedirectRequest } from '@/machines/session/handoff';
export type * from '@/machines/session/session.types';

const toHome = { type: 'navigate', params: { to: ROUTES.home, replace: false } } as const;

/**
 * Who is signed in, and what follows from it (SPEC §1, §2.1, §2.2, §3, §4, §8): booting →
 * signedOut (child `authForms`) → signedIn (flow: loadingUser → postLoad (child `postLoad`) →
 * ready, beside `tokens`, child `tokenRefresh`) → signingOut → signedOut. Child `account`, for the
 * whole session, is the one place the user is loaded and runs the account actions; `credits` and
 * `emailVerification` live while someone is signed in. Navigation and toasts are emitted events.
 */
export const sessionMachine = sessionSetup.createMachine({
  id: 'session',
  context: initialSessionContext,
  invoke: [
    { src: 'authEvents', id: 'authEvents' },
    { src: 'networkStatus', id: 'networkStatus' },
    { src: 'account', id: 'account', systemId: 'account', onSnapshot: { actions: 'noteChildSnapshot' } },
  ],
  on: {
    'location.changed': { actions: 'setLocation' },
    'modal.confirm': { actions: 'popModal' },
    'auth.redirectFailed': { actions: { type: 'setAuthErrorText', params: ({ event }) => ({ message: event.message }) } },
    'credits.fetchFailed': { actions: { type: 'notify', params: { tone: 'error', ...MESSAGES.creditsFetchFailed } } },
    'emailVerification.verified': {
      actions: [
        { type: 'notify', params: { tone: 'success', ...MESSAGES.emailVerified } },
        'markEmailVerified',
        // The child has reached its final state and goes away.
        'stopEmailVerification',
        'requestUserReload',
      ],
    },
    'emailVerification.later': { actions: { type: 'rememberOverlaySeen', params: { overlay: 'verifyEmailLater' } } },
    'emailVerification.failed': {
      actions: { type: 'notify', params: ({ event }) => ({ tone: 'error' as const, title: MESSAGES.invalidCode.title, message: event.message }) },
    },
    'emailVerification.sendFailed': {
      actions: { type: 'notify', params: ({ event }) => ({ tone: 'error' as const, title: SESSION_TEXTS.codeNotSent, message: event.message }) },
    },
  },
  initial: 'booting',
  states: {
    booting: {
      initial: 'starting',
      exit: 'resetNetworkRetries',
      on: { 'auth.signedIn': '#session.signedIn' },
      states: {
        /** A visitor is signed out at once (resolved in the first snapshot); anyone else is looked up. */
        starting: { always: [{ guard: 'isVisitor', target: '#session.signedOut' }, { target: 'loading' }] },
        loading: {
          entry: 'loadUser',
          on: {
            'account.loaded': [
              {
                guard: { type: 'isUser', params: ({ event }) => ({ user: event.user }) },
                target: '#session.signedIn.flow.postLoad',
                actions: [{ type: 'setUser', params: ({ event }) => ({ user: event.user }) }, 'syncEmailVerification'],
              },
              { target: '#session.signedOut' },
            ],
            'account.loadFailed': [
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
        clearingTokens: { invoke: { src: 'signOut', onDone: '#session.signedOut', onError: '#session.signedOut' } },
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
        ...forwardAll(AUTH_FORMS_EVENT_TYPES, 'forwardToAuthForms'),
      },
    },

    signedIn: {
      type: 'parallel',
      entry: ['clearAuthError', 'resetNetworkRetries'],
      exit: ['stopEmailVerification', 'forgetOverlaysSeen', 'resetAccount'],
      // Reached through the actor system by other machines (the jobs registry), by this systemId.
      invoke: { src: 'credits', id: 'credits', systemId: 'credits' },
      on: {
        // SPEC §4 auth events: signedOut goes to "/" (signedIn is handled by `flow`).
        'auth.signedOut': { target: 'signedOut', actions: toHome },
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
              entry: 'loadUser',
              on: {
                'auth.signedIn': { target: 'loadingUser', reenter: true, actions: 'refreshCredits' },
                'account.loaded': [
                  {
                    guard: { type: 'isUser', params: ({ event }) => ({ user: event.user }) },
                    target: 'postLoad',
                    actions: [{ type: 'setUser', params: ({ event }) => ({ user: event.user }) }, 'syncEmailVerification'],
                  },
                  { target: '#session.signedOut' },
                ],
                'account.loadFailed': [
                  { guard: { type: 'isNetworkError', params: ({ event }) => ({ error: event.error }) }, target: 'waitingForNetwork' },
                  {
                    target: '#session.signingOut',
                    actions: { type: 'setAuthErrorText', params: ({ event }) => ({ message: errorMessage(event.error, SESSION_TEXTS.signInFailed) }) },
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
            /** SPEC §4 "After a user is loaded": the `postLoad` child, then the user reloaded after a coupon. */
            postLoad: {
              entry: 'resetNetworkRetries',
              initial: 'steps',
              on: {
                'postLoad.showModal': { actions: { type: 'pushModal', params: ({ event }) => ({ modal: event.modal }) } },
                'postLoad.redirect': { actions: { type: 'emitRedirect', params: ({ event }) => ({ url: event.url }) } },
                'postLoad.couponRedeemed': {
                  actions: ['refreshCredits', { type: 'pushModal', params: ({ event }) => ({ modal: { kind: 'coupon' as const, credits: event.credits } }) }],
                },
              },
              states: {
                steps: {
                  invoke: {
                    src: 'postLoad',
                    id: 'postLoad',
                    systemId: 'postLoad',
                    input: ({ context }) => ({
                      user: context.currentUser!,
                      search: context.location.search,
                      redirectAllowlist: context.redirectAllowlist,
                    }),
                    onDone: [
                      { guard: { type: 'postLoadEnds', params: ({ event }) => ({ output: event.output, next: 'reloadUser' }) }, target: 'reloadingUser' },
                      { guard: { type: 'postLoadEnds', params: ({ event }) => ({ output: event.output, next: 'redirected' }) }, target: '#session.signedIn.flow.ready' },
                      { target: '#session.signedIn.flow.ready', actions: 'finishPostLoad' },
                    ],
                    onSnapshot: { actions: 'noteChildSnapshot' },
                  },
                  on: {
                    'modal.confirm': { actions: ['popModal', 'forwardToPostLoad'] },
                    'location.changed': { actions: ['setLocation', 'forwardToPostLoad'] },
                  },
                },
                reloadingUser: {
                  entry: 'loadUser',
                  on: {
                    'account.loaded': [
                      {
                        guard: { type: 'isUser', params: ({ event }) => ({ user: event.user }) },
                        target: '#session.signedIn.flow.ready',
                        actions: [{ type: 'setUser', params: ({ event }) => ({ user: event.user }) }, 'syncEmailVerification', 'finishPostLoad'],
                      },
                      { target: '#session.signedOut' },
                    ],
                    'account.loadFailed': { target: '#session.signedIn.flow.ready', actions: 'finishPostLoad' },
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
                    'session.setHandle': { guard: 'hasHandleText', target: 'accountAction', actions: 'forwardToAccount' },
                    'session.deleteAccount': { target: 'accountAction', actions: 'forwardToAccount' },
                    'session.refreshUser': 'reloadingUser',
                  },
                },
                /** The `account` child saves a handle or deletes the account. */
                accountAction: {
                  on: {
                    'account.handleSaved': {
                      target: 'idle',
                      actions: [
                        { type: 'setUser', params: ({ context, event }) => ({ user: event.user ?? context.currentUser }) },
                        { type: 'navigateToSavedHandle', params: ({ event }) => ({ handle: event.handle }) },
                      ],
                    },
                    'account.actionFailed': {
                      target: 'idle',
                      actions: { type: 'notify', params: ({ event }) => ({ tone: 'error' as const, title: event.title, message: event.message }) },
                    },
                    'account.deleted': { target: '#session.signingOut', actions: 'announceAccountDeleted' },
                  },
                },
                reloadingUser: {
                  entry: ['clearUserReloadDue', 'loadUser'],
                  on: {
                    'account.loaded': [
                      {
                        guard: { type: 'isUser', params: ({ event }) => ({ user: event.user }) },
                        target: 'idle',
                        actions: [{ type: 'setUser', params: ({ event }) => ({ user: event.user }) }, 'syncEmailVerification'],
                      },
                      { target: '#session.signedOut' },
                    ],
                    'account.loadFailed': 'idle',
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
          on: forwardAll(['network.online', 'network.offline', 'auth.tokenRefreshed', 'auth.tokenRefreshFailed'], 'forwardToTokenRefresh'),
        },
      },
    },

    signingOut: {
      tags: 'accountBusy',
      on: { 'auth.signedOut': { target: 'signedOut', actions: toHome } },
      invoke: {
        src: 'signOut',
        // Amplify clears the local tokens even when it cannot reach Cognito, so both end signed out.
        onDone: { target: 'signedOut', actions: toHome },
        onError: { target: 'signedOut', actions: toHome },
      },
    },
  },
});
