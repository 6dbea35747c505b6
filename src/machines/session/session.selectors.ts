import { createSelector } from 'reselect';
import { matchesState } from 'xstate';
import type { AnyActorRef, SnapshotFrom, StateValue } from 'xstate';
import { SOCIAL_PROVIDERS } from '@/config/env';
import type { SocialProvider } from '@/config/env';
import { GUEST_USERNAME } from '@/config/limits';
import type { CurrentUser, MfaMethod, SessionModal, SessionTag, sessionMachine } from '@/machines/session/session.machine';

export type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;

export type SessionStatus = 'booting' | 'signedOut' | 'signingIn' | 'loadingUser' | 'postLoad' | 'ready' | 'signingOut';

export type AuthView =
  | 'signIn'
  | 'signUp'
  | 'confirmSignUp'
  | 'forgotPassword'
  | 'resetPassword'
  | 'mfaSelection'
  | 'mfaCode'
  | 'newPassword';

const AUTH_VIEWS: readonly AuthView[] = [
  'signUp',
  'confirmSignUp',
  'forgotPassword',
  'resetPassword',
  'mfaSelection',
  'mfaCode',
  'newPassword',
];

/**
 * Where each child machine sits in the session's state: its states stand in for the state that
 * invokes it in `selectSessionValue`.
 */
const CHILD_PLACES: Readonly<Record<string, readonly string[]>> = {
  // The forms' own top states (signedOut ⇄ signingIn) stand in for the root's signedOut.
  authForms: [],
  postLoad: ['signedIn', 'flow', 'postLoad'],
  tokenRefresh: ['signedIn', 'tokens'],
};

/** The children whose tags the session's tag selectors read too. */
const TAGGED_CHILDREN = ['account', 'authForms', 'tokenRefresh'] as const;

/** A tag of the session or of one of its running children. */
const hasTag = (snapshot: SessionSnapshot, tag: SessionTag): boolean =>
  snapshot.hasTag(tag) ||
  TAGGED_CHILDREN.some((id) => (snapshot.children[id]?.getSnapshot() as { hasTag?: (tag: string) => boolean } | undefined)?.hasTag?.(tag) ?? false);

/** The sign-in forms' context while they run (nobody signed in), else undefined. */
const formsContext = (snapshot: SessionSnapshot) => snapshot.children.authForms?.getSnapshot().context;

const NO_MFA_OPTIONS: MfaMethod[] = [];

/** A child's state value, when it is a running machine. */
const childValue = (ref: AnyActorRef | undefined): StateValue | undefined => {
  const child = ref?.getSnapshot() as { status?: string; value?: StateValue } | undefined;
  return child?.status === 'active' ? child.value : undefined;
};

const graft = (value: StateValue, path: readonly string[], child: StateValue): StateValue => {
  const [head, ...rest] = path;
  if (head === undefined) return child;
  if (typeof value === 'string' || !(head in value)) return value;
  return { ...value, [head]: graft(value[head] ?? {}, rest, child) };
};

/**
 * The session's state as one value, as when it was one machine: the root's, with each running
 * child's states in place of the state that invokes it ({ signedIn: { tokens: 'offline' } }).
 * For tests and the inspector's reading; screens use the selectors below.
 */
export const selectSessionValue = (snapshot: SessionSnapshot): StateValue =>
  Object.entries(CHILD_PLACES).reduce<StateValue>((value, [id, path]) => {
    const child = childValue((snapshot.children as Record<string, AnyActorRef | undefined>)[id]);
    return child === undefined ? value : graft(value, path, child);
  }, snapshot.value);

export const selectSessionStatus = (snapshot: SessionSnapshot): SessionStatus => {
  const value = selectSessionValue(snapshot);
  const is = (state: StateValue) => matchesState(state, value);
  if (is('booting')) return 'booting';
  if (is('signedOut')) return 'signedOut';
  if (is('signingIn')) return 'signingIn';
  if (is('signingOut')) return 'signingOut';
  if (is({ signedIn: { flow: 'postLoad' } })) return 'postLoad';
  if (is({ signedIn: { flow: 'ready' } })) return 'ready';
  // Loading the user, or waiting for the network to load it.
  return 'loadingUser';
};

export const selectCurrentUser = (snapshot: SessionSnapshot): CurrentUser | null => snapshot.context.currentUser;

/** The signed-in user's id, or null (keys per-user state such as a tool's history). */
export const selectCurrentUserId = (snapshot: SessionSnapshot): string | null => snapshot.context.currentUser?.userId ?? null;

export const selectIsSignedIn = (snapshot: SessionSnapshot): boolean =>
  snapshot.matches('signedIn') && snapshot.context.currentUser !== null;

export const selectIsGuest = (snapshot: SessionSnapshot): boolean =>
  snapshot.context.currentUser?.username === GUEST_USERNAME;

export const selectHandle = (snapshot: SessionSnapshot): string | null =>
  snapshot.context.currentUser?.attributes.preferred_username || null;

/** What /authentication shows while signed out or signing in. */
export const selectAuthView = (snapshot: SessionSnapshot): AuthView =>
  AUTH_VIEWS.find((view) => hasTag(snapshot, `view.${view}`)) ?? 'signIn';

/** A sign-in, sign-up or reset request is running. */
export const selectAuthBusy = (snapshot: SessionSnapshot): boolean => hasTag(snapshot, 'authBusy');

/** The forms' failure while they run; else the one the session keeps for them (a provider's refusal, a failed load). */
export const selectAuthError = (snapshot: SessionSnapshot): string | null => {
  const forms = formsContext(snapshot);
  return forms ? forms.authError : snapshot.context.authError;
};

export const selectAuthNotice = (snapshot: SessionSnapshot): string | null => formsContext(snapshot)?.authNotice ?? null;

export const selectPendingEmail = (snapshot: SessionSnapshot): string | null => formsContext(snapshot)?.pendingEmail ?? null;

export const selectMfaMethod = (snapshot: SessionSnapshot): MfaMethod | null => formsContext(snapshot)?.mfaMethod ?? null;

export const selectMfaOptions = (snapshot: SessionSnapshot): MfaMethod[] => formsContext(snapshot)?.mfaOptions ?? NO_MFA_OPTIONS;

export const selectGuestSignInAvailable = (snapshot: SessionSnapshot): boolean => Boolean(snapshot.context.guestPassword);

export interface SocialProviderOption {
  provider: SocialProvider;
  available: boolean;
}

/**
 * Always the three providers of SPEC §1, each `available` when the pool has it. Memoised on the
 * configured list, so a component re-renders only when it changes (a shallow comparison alone
 * would not do: each call would build new option objects).
 */
export const selectSocialProviders = createSelector(
  [(snapshot: SessionSnapshot) => snapshot.context.socialProviders],
  (configured): SocialProviderOption[] =>
    SOCIAL_PROVIDERS.map((provider) => ({ provider, available: configured.includes(provider) })),
);

/** The modal on top, if any. */
export const selectModal = (snapshot: SessionSnapshot): SessionModal | null => snapshot.context.modals.at(-1) ?? null;

export const selectHandleStatus = (snapshot: SessionSnapshot): 'idle' | 'checking' | 'saving' => {
  if (hasTag(snapshot, 'handleChecking')) return 'checking';
  if (hasTag(snapshot, 'handleSaving')) return 'saving';
  return 'idle';
};

/** Deleting the account or signing out. */
export const selectAccountBusy = (snapshot: SessionSnapshot): boolean => hasTag(snapshot, 'accountBusy');

/** Signed in, but the network is down: the user stays signed in. */
export const selectIsOffline = (snapshot: SessionSnapshot): boolean =>
  snapshot.matches('signedIn') && hasTag(snapshot, 'offline');

export const selectCreditsRef = (snapshot: SessionSnapshot) => snapshot.children.credits;

export const selectEmailVerificationRef = (snapshot: SessionSnapshot) => snapshot.children.emailVerification;
