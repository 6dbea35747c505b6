import type { SnapshotFrom } from 'xstate';
import { SOCIAL_PROVIDERS } from '@/config/env';
import type { SocialProvider } from '@/config/env';
import { GUEST_USERNAME } from '@/config/limits';
import type { CurrentUser, MfaMethod, SessionModal, sessionMachine } from '@/machines/session/session.machine';

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

export const selectSessionStatus = (snapshot: SessionSnapshot): SessionStatus => {
  if (snapshot.matches('booting')) return 'booting';
  if (snapshot.matches('signedOut')) return 'signedOut';
  if (snapshot.matches('signingIn')) return 'signingIn';
  if (snapshot.matches('signingOut')) return 'signingOut';
  if (snapshot.matches({ signedIn: { flow: 'postLoad' } })) return 'postLoad';
  if (snapshot.matches({ signedIn: { flow: 'ready' } })) return 'ready';
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
  AUTH_VIEWS.find((view) => snapshot.hasTag(`view.${view}`)) ?? 'signIn';

/** A sign-in, sign-up or reset request is running. */
export const selectAuthBusy = (snapshot: SessionSnapshot): boolean => snapshot.hasTag('authBusy');

export const selectAuthError = (snapshot: SessionSnapshot): string | null => snapshot.context.authError;

export const selectAuthNotice = (snapshot: SessionSnapshot): string | null => snapshot.context.authNotice;

export const selectPendingEmail = (snapshot: SessionSnapshot): string | null => snapshot.context.pendingEmail;

export const selectMfaMethod = (snapshot: SessionSnapshot): MfaMethod | null => snapshot.context.mfaMethod;

export const selectMfaOptions = (snapshot: SessionSnapshot): MfaMethod[] => snapshot.context.mfaOptions;

export const selectGuestSignInAvailable = (snapshot: SessionSnapshot): boolean => Boolean(snapshot.context.guestPassword);

export interface SocialProviderOption {
  provider: SocialProvider;
  available: boolean;
}

// One array per set of configured providers, so a component re-renders only when it changes
// (a shallow comparison alone would not do: each call would build new option objects).
const providerOptionsCache = new WeakMap<readonly SocialProvider[], SocialProviderOption[]>();

/** Always the three providers of SPEC §1, each `available` when the pool has it. */
export const selectSocialProviders = (snapshot: SessionSnapshot): SocialProviderOption[] => {
  const configured = snapshot.context.socialProviders;
  let options = providerOptionsCache.get(configured);
  if (!options) {
    options = SOCIAL_PROVIDERS.map((provider) => ({ provider, available: configured.includes(provider) }));
    providerOptionsCache.set(configured, options);
  }
  return options;
};

/** The modal on top, if any. */
export const selectModal = (snapshot: SessionSnapshot): SessionModal | null => snapshot.context.modals.at(-1) ?? null;

export const selectHandleStatus = (snapshot: SessionSnapshot): 'idle' | 'checking' | 'saving' => {
  if (snapshot.hasTag('handleChecking')) return 'checking';
  if (snapshot.hasTag('handleSaving')) return 'saving';
  return 'idle';
};

/** Deleting the account or signing out. */
export const selectAccountBusy = (snapshot: SessionSnapshot): boolean => snapshot.hasTag('accountBusy');

/** Signed in, but the network is down: the user stays signed in. */
export const selectIsOffline = (snapshot: SessionSnapshot): boolean => snapshot.matches('signedIn') && snapshot.hasTag('offline');

export const selectCreditsRef = (snapshot: SessionSnapshot) => snapshot.children.credits;

export const selectEmailVerificationRef = (snapshot: SessionSnapshot) => snapshot.children.emailVerification;
