import { assign, fromPromise, sendParent, setup, stateIn } from 'xstate';
import { MESSAGES } from '@/config/messages';
import { errorMessage, errorName, loadCurrentUser, updateHandle } from '@/services/auth';
import type { CurrentUser } from '@/services/auth';
import { checkUsernameAvailable, deleteAccount } from '@/services/users';
import { SESSION_TEXTS } from '@/machines/session/session.texts';

export interface AccountContext {
  /** The handle being checked or saved. */
  pendingHandle: string | null;
}

/** What the session sends it: load the user, and the account actions of the signed-in person. */
export type AccountEvent =
  | { type: 'account.load' }
  /** Nobody is signed in any more: whatever ran for the last person stops. */
  | { type: 'account.reset' }
  | { type: 'session.setHandle'; handle: string }
  | { type: 'session.deleteAccount' };

/** What it tells the session, which owns the user, the toasts and the navigation. */
export type AccountParentEvent =
  | { type: 'account.loaded'; user: CurrentUser | null }
  | { type: 'account.loadFailed'; error: unknown }
  /** A handle was saved; `user` is the reloaded user, null when it could not be reloaded. */
  | { type: 'account.handleSaved'; handle: string; user: CurrentUser | null }
  /** A handle not saved, or the account not deleted: the toast to show. */
  | { type: 'account.actionFailed'; title: string; message: string }
  | { type: 'account.deleted' };

/**
 * The signed-in person's account (SPEC §4, §8), the session's `account` child: the one place the
 * user is loaded (at boot, after a sign-in, after a coupon, after a handle is saved, on request;
 * the session decides what each answer means), the handle (checked, saved, then the user
 * reloaded) and the deletion. Each actor wraps one service call.
 */
export const accountMachine = setup({
  types: {
    context: {} as AccountContext,
    events: {} as AccountEvent,
    tags: {} as 'handleChecking' | 'handleSaving' | 'accountBusy',
  },
  actors: {
    loadUser: fromPromise<CurrentUser | null>(() => loadCurrentUser()),
    checkHandle: fromPromise<boolean, { handle: string }>(async ({ input }) => (await checkUsernameAvailable(input.handle)).available),
    saveHandle: fromPromise<void, { handle: string }>(({ input }) => updateHandle(input.handle)),
    deleteAccount: fromPromise<void>(async () => {
      await deleteAccount();
    }),
  },
  guards: {
    hasHandleText: ({ event }) => event.type === 'session.setHandle' && event.handle.trim() !== '',
    isTrue: (_, params: { value: boolean }) => params.value,
    /** Cognito refused the handle because another account holds it (the server's claim lost a race). */
    isHandleTaken: (_, params: { error: unknown }) => errorName(params.error) === 'AliasExistsException',
    reloadsAfterHandle: stateIn({ loading: 'afterHandle' }),
  },
  actions: {
    setPendingHandle: assign(({ event }) => (event.type === 'session.setHandle' ? { pendingHandle: event.handle.trim() } : {})),
    /** SPEC §8: the handle is taken (or could not be checked). */
    reportHandleNotAvailable: sendParent({ type: 'account.actionFailed', ...MESSAGES.handleNotAvailable } satisfies AccountParentEvent),
    reportHandleSaved: sendParent(({ context }, params: { user: CurrentUser | null }) => ({
      type: 'account.handleSaved' as const,
      handle: context.pendingHandle ?? '',
      user: params.user,
    })),
    clearPendingHandle: assign({ pendingHandle: null }),
    reportLoaded: sendParent((_, params: { user: CurrentUser | null }) => ({ type: 'account.loaded' as const, user: params.user })),
    reportLoadFailed: sendParent((_, params: { error: unknown }) => ({ type: 'account.loadFailed' as const, error: params.error })),
  },
}).createMachine({
  id: 'account',
  context: { pendingHandle: null },
  initial: 'idle',
  on: { 'account.load': '.loading', 'account.reset': '.idle' },
  states: {
    idle: {
      on: {
        'session.setHandle': { guard: 'hasHandleText', target: 'checkingHandle', actions: 'setPendingHandle' },
        'session.deleteAccount': 'deletingAccount',
      },
    },
    /** The one place the user is loaded. A new request starts it over. */
    loading: {
      initial: 'forSession',
      states: {
        forSession: { on: { 'account.load': { target: '#account.loading', reenter: true } } },
        /** After a handle is saved: to its profile, whether or not the user could be reloaded. */
        afterHandle: { tags: 'handleSaving' },
      },
      invoke: {
        src: 'loadUser',
        onDone: [
          {
            guard: 'reloadsAfterHandle',
            target: 'idle',
            actions: [{ type: 'reportHandleSaved', params: ({ event }) => ({ user: event.output }) }, 'clearPendingHandle'],
          },
          { target: 'idle', actions: { type: 'reportLoaded', params: ({ event }) => ({ user: event.output }) } },
        ],
        onError: [
          {
            guard: 'reloadsAfterHandle',
            target: 'idle',
            actions: [{ type: 'reportHandleSaved', params: { user: null } }, 'clearPendingHandle'],
          },
          { target: 'idle', actions: { type: 'reportLoadFailed', params: ({ event }) => ({ error: event.error }) } },
        ],
      },
    },
    checkingHandle: {
      tags: 'handleChecking',
      invoke: {
        src: 'checkHandle',
        input: ({ context }) => ({ handle: context.pendingHandle ?? '' }),
        onDone: [
          { guard: { type: 'isTrue', params: ({ event }) => ({ value: event.output }) }, target: 'savingHandle' },
          { target: 'idle', actions: ['clearPendingHandle', 'reportHandleNotAvailable'] },
        ],
        // SPEC §8: a failed check shows the same toast and counts as not available.
        onError: { target: 'idle', actions: ['clearPendingHandle', 'reportHandleNotAvailable'] },
      },
    },
    savingHandle: {
      tags: 'handleSaving',
      invoke: {
        src: 'saveHandle',
        input: ({ context }) => ({ handle: context.pendingHandle ?? '' }),
        onDone: 'loading.afterHandle',
        onError: [
          {
            guard: { type: 'isHandleTaken', params: ({ event }) => ({ error: event.error }) },
            target: 'idle',
            actions: ['clearPendingHandle', 'reportHandleNotAvailable'],
          },
          {
            target: 'idle',
            actions: [
              'clearPendingHandle',
              sendParent(({ event }) => ({
                type: 'account.actionFailed' as const,
                title: SESSION_TEXTS.handleNotSaved,
                message: errorMessage(event.error),
              })),
            ],
          },
        ],
      },
    },
    deletingAccount: {
      tags: 'accountBusy',
      invoke: {
        src: 'deleteAccount',
        onDone: { target: 'idle', actions: sendParent({ type: 'account.deleted' } satisfies AccountParentEvent) },
        onError: {
          target: 'idle',
          actions: sendParent(({ event }) => ({
            type: 'account.actionFailed' as const,
            title: SESSION_TEXTS.accountNotDeleted,
            message: errorMessage(event.error),
          })),
        },
      },
    },
  },
});
