import type { AuthFlowType, SocialProvider } from '@/config/env';
import type { MfaMethod, SignInStep } from '@/services/auth';

export interface AuthFormsInput {
  authFlowType: AuthFlowType;
  /** The guest account's published password; undefined → guest sign-in unavailable. */
  guestPassword: string | undefined;
  socialProviders: readonly SocialProvider[];
  /** A failure that ended the last sign-in (or a provider's refusal), shown on the first form. */
  authError: string | null;
}

export interface AuthFormsContext extends AuthFormsInput {
  /** A hint for the current sign-in step ("We sent a code to …"). */
  authNotice: string | null;
  /** The address being signed in, confirmed or reset, to prefill forms. */
  pendingEmail: string | null;
  mfaOptions: MfaMethod[];
  mfaMethod: MfaMethod | null;
}

/** The forms' events, as the session forwards them from the screens (and a provider's refusal). */
export type AuthFormsEvent =
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
  | { type: 'auth.redirectFailed'; message: string }
  /** Raised after each sign-in request with what Cognito asks for next. */
  | { type: 'signIn.step'; step: SignInStep };

export const AUTH_FORMS_EVENT_TYPES = [
  'session.signIn',
  'session.signInAsGuest',
  'session.signInWithProvider',
  'session.selectMfa',
  'session.confirmSignIn',
  'session.setNewPassword',
  'session.cancelSignIn',
  'session.showSignIn',
  'session.showSignUp',
  'session.showForgotPassword',
  'session.signUp',
  'session.confirmSignUp',
  'session.resendSignUpCode',
  'session.requestPasswordReset',
  'session.confirmPasswordReset',
] as const satisfies readonly AuthFormsEvent['type'][];

export type AuthFormsTag =
  | 'authBusy'
  | 'view.signIn'
  | 'view.signUp'
  | 'view.confirmSignUp'
  | 'view.forgotPassword'
  | 'view.resetPassword'
  | 'view.mfaSelection'
  | 'view.mfaCode'
  | 'view.newPassword';
