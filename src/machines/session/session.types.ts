import type { AuthFlowType, SocialProvider } from '@/config/env';
import type { AuthEvent, CurrentUser } from '@/services/auth';
import type { AuthFormsEvent, AuthFormsTag } from '@/machines/session/auth-forms.types';
import type { CreditsParentEvent } from '@/machines/session/credits.machine';
import type { EmailVerificationParentEvent } from '@/machines/session/email-verification.machine';
import type { AccountParentEvent } from '@/machines/session/account.machine';
import type { PostLoadParentEvent, SessionModal } from '@/machines/session/post-load.machine';

export interface SessionInput {
  /** Where the app started. */
  location: { pathname: string; search: string };
  authFlowType: AuthFlowType;
  /** The guest account's published password; undefined → guest sign-in unavailable. */
  guestPassword?: string;
  redirectAllowlist: readonly string[];
  socialProviders: readonly SocialProvider[];
  /**
   * Nothing in this browser says someone is signed in (no session stored, no sign-in answer in the
   * address; see `mayHaveSessionAt`): signed out from the first snapshot, without loading the user,
   * so the first render (and the page prerendered for visitors) already shows the sign-in choices.
   */
  visitor?: boolean;
}

/** The modals the post-load steps raise; defined beside them so that child imports nothing of its parent. */
export type { SessionModal } from '@/machines/session/post-load.machine';

export interface SessionContext {
  location: { pathname: string; search: string };
  authFlowType: AuthFlowType;
  guestPassword: string | undefined;
  redirectAllowlist: readonly string[];
  socialProviders: readonly SocialProvider[];
  /** See `SessionInput.visitor`. */
  visitor: boolean;
  currentUser: CurrentUser | null;
  /** The last failure's message, shown on /authentication (handed to the `authForms` child). */
  authError: string | null;
  /** Modals shown over any page; the last one is on top. */
  modals: SessionModal[];
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
  /** The sign-in forms' events, for the `authForms` child. */
  | Exclude<AuthFormsEvent, { type: 'auth.redirectFailed' | 'signIn.step' }>
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
  | AccountParentEvent
  | PostLoadParentEvent
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

/** The session's tags and its children's (the selectors read both). */
export type SessionTag = 'accountBusy' | 'handleChecking' | 'handleSaving' | 'offline' | AuthFormsTag;
