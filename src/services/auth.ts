import type { ResourcesConfig } from 'aws-amplify';
import type { SignInOutput } from 'aws-amplify/auth';
import type * as AmplifyAuthModule from 'aws-amplify/auth';
import { Hub } from 'aws-amplify/utils';
import type { AuthFlowType, Env, SocialProvider } from '@/config/env';
import { MESSAGES } from '@/config/messages';
import { isChunkLoadError } from '@/lib/chunk-load';
import { ApiError, isApiError } from '@/services/api-error';

/**
 * A path such as "/cognito" (the local emulator front, served by the API server) becomes an
 * absolute URL on the page's own origin, because Amplify needs a full URL for its endpoint.
 */
export const resolveCognitoEndpoint = (endpoint: string, origin: string): string =>
  new URL(endpoint, origin).toString().replace(/\/$/, '');

/** SPEC §7: OAuth with scopes admin, email, openid, phone, profile and response type code. */
export const OAUTH_SCOPES = ['aws.cognito.signin.user.admin', 'email', 'openid', 'phone', 'profile'];

/** Where the hosted UI sends the browser back to (the sign-in page) and after a sign-out (home). */
export const oauthRedirects = (origin: string) => ({
  redirectSignIn: [`${origin}/authentication`],
  redirectSignOut: [`${origin}/`],
});

export const buildAuthConfig = (env: Env, origin: string): ResourcesConfig => ({
  Auth: {
    Cognito: {
      userPoolId: env.cognitoUserPoolId,
      userPoolClientId: env.cognitoClientId,
      ...(env.cognitoEndpoint ? { userPoolEndpoint: resolveCognitoEndpoint(env.cognitoEndpoint, origin) } : {}),
      // Social sign-in goes through the pool's hosted UI, so it exists only with a domain.
      ...(env.oauthDomain
        ? {
            loginWith: {
              oauth: {
                domain: env.oauthDomain,
                scopes: OAUTH_SCOPES,
                ...oauthRedirects(origin),
                responseType: 'code' as const,
                providers: [...env.socialProviders],
              },
            },
          }
        : {}),
    },
  },
});

type AmplifyAuth = typeof AmplifyAuthModule;

/**
 * Amplify's auth code is a large share of the app's JavaScript, so it is loaded beside the first
 * render instead of before it — and for a visitor with no stored session, not until they sign in:
 * `configureAuth` starts loading and configuring it when a session may exist, and every function
 * below waits for that (or starts it). A failed download (offline) is tried again on the next call.
 */
let authConfig: ResourcesConfig | null = null;
let amplifyAuthLoading: Promise<AmplifyAuth> | null = null;

const amplifyAuth = (): Promise<AmplifyAuth> => {
  const config = authConfig;
  if (!config) return Promise.reject(new Error('configureAuth(env) must run before any sign-in call'));
  amplifyAuthLoading ??= Promise.all([import('aws-amplify'), import('aws-amplify/auth')]).then(
    ([{ Amplify }, auth]) => {
      Amplify.configure(config);
      return auth;
    },
    (error: unknown) => {
      amplifyAuthLoading = null;
      throw error;
    },
  );
  return amplifyAuthLoading;
};

/**
 * Whether Amplify may hold a signed-in session on this page: its token store (localStorage, where
 * Amplify keeps it) names this client's last user, or the page is the return from a social sign-in
 * (the code to exchange is in the URL). Without either nobody is signed in, so a visitor's page need
 * not load Amplify at all until they start to sign in (issue 19: nothing that is not drawn waits).
 */
export const mayHaveSessionAt = (clientId: string | undefined, search: string): boolean => {
  try {
    if (clientId && window.localStorage.getItem(`CognitoIdentityServiceProvider.${clientId}.LastAuthUser`) !== null) return true;
  } catch {
    // Storage that cannot be read: Amplify answers for itself.
    return true;
  }
  const query = new URLSearchParams(search);
  return query.has('state') && (query.has('code') || query.has('error'));
};

const mayHaveSession = (config: ResourcesConfig): boolean =>
  mayHaveSessionAt(config.Auth?.Cognito.userPoolClientId, window.location.search);

/** Nobody can be signed in and Amplify has not been loaded: answered without loading it. */
const surelySignedOut = (): boolean => authConfig !== null && amplifyAuthLoading === null && !mayHaveSession(authConfig);

/**
 * Configures Amplify for this environment. When a session may be stored (or a social sign-in is
 * returning), Amplify is loaded and configured now and this resolves once it is; otherwise it is
 * loaded on the first sign-in call.
 */
export const configureAuth = async (env: Env): Promise<void> => {
  authConfig = buildAuthConfig(env, window.location.origin);
  amplifyAuthLoading = null;
  if (mayHaveSession(authConfig)) await amplifyAuth();
};

/**
 * The raw access token of the signed-in user, or null when nobody is signed in. Amplify refreshes
 * an expired token here; when it cannot fetch the session at all the caller gets the
 * "Auth session was not found." error of SPEC §8.
 */
export const getAccessToken = async (): Promise<string | null> => {
  if (surelySignedOut()) return null;
  let session: Awaited<ReturnType<AmplifyAuth['fetchAuthSession']>>;
  try {
    const { fetchAuthSession } = await amplifyAuth();
    session = await fetchAuthSession();
  } catch (error) {
    throw new ApiError(MESSAGES.noSession, { kind: 'auth', cause: error });
  }
  return session.tokens?.accessToken.toString() ?? null;
};

// ---------------------------------------------------------------------------------------------
// The signed-in user (SPEC §3 "Current user")

/** Defined here (not in the session machine) because services may not import machines. */
export interface CurrentUser {
  /** "guest" marks the shared guest account. */
  username: string;
  /** The user's sub. */
  userId: string;
  signInDetails?: { loginId?: string; authFlowType?: string };
  attributes: {
    preferred_username?: string;
    email?: string;
    email_verified?: string;
    /** From the ID token's cognito:groups claim; [] when the claim is absent. */
    user_groups: string[];
    [name: string]: string | string[] | undefined;
  };
}

export const GROUPS_CLAIM = 'cognito:groups';

/** The groups of an ID token's payload: only string entries of an array claim count. */
export const readGroupsClaim = (payload: Record<string, unknown> | undefined | null): string[] => {
  const claim = payload?.[GROUPS_CLAIM];
  return Array.isArray(claim) ? claim.filter((group): group is string => typeof group === 'string') : [];
};

/** The `name` of an error (Amplify's errors name the Cognito exception), if it has one. */
export const errorName = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'name' in error && typeof error.name === 'string'
    ? error.name
    : undefined;

/** Amplify's answer when no user is signed in (no tokens at all). */
export const isSignedOutError = (error: unknown): boolean => errorName(error) === 'UserUnAuthenticatedException';

/**
 * True when the failure means the network could not be reached (Amplify's NetworkError, a
 * network ApiError, a fetch TypeError), looking through wrapped causes; then the user stays
 * signed in and the app tries again when the network is back (SPEC §4 "Session tokens").
 */
export const isNetworkError = (error: unknown): boolean => {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth += 1) {
    if (errorName(current) === 'NetworkError') return true;
    if (isApiError(current) && current.kind === 'network') return true;
    if (current instanceof TypeError && /fetch|network/i.test(current.message)) return true;
    // Amplify's own code arrives as a lazy chunk; not getting it is being offline too.
    if (isChunkLoadError(current)) return true;
    current = current instanceof Error ? current.cause : undefined;
  }
  return false;
};

/** The readable text of a failure (Amplify errors carry readable messages). */
export const errorMessage = (error: unknown, fallback: string = MESSAGES.apiError): string =>
  error instanceof Error && error.message.trim() !== '' ? error.message : fallback;

/**
 * Who is signed in, with attributes and groups; null when nobody is. Other failures (network,
 * a revoked session) are thrown for the caller to tell apart with `isNetworkError`.
 */
export const loadCurrentUser = async (): Promise<CurrentUser | null> => {
  if (surelySignedOut()) return null;
  const { fetchAuthSession, fetchUserAttributes, getCurrentUser } = await amplifyAuth();
  let user: Awaited<ReturnType<AmplifyAuth['getCurrentUser']>>;
  try {
    user = await getCurrentUser();
  } catch (error) {
    if (isSignedOutError(error)) return null;
    throw error;
  }
  const session = await fetchAuthSession();
  if (!session.tokens) return null;
  const attributes = await fetchUserAttributes();
  return {
    username: user.username,
    userId: user.userId,
    ...(user.signInDetails ? { signInDetails: { ...user.signInDetails } } : {}),
    attributes: { ...attributes, user_groups: readGroupsClaim(session.tokens.idToken?.payload) },
  };
};

// ---------------------------------------------------------------------------------------------
// Sign-in and its steps

export type MfaMethod = 'SMS' | 'TOTP';

/** What Cognito asks for next, in the few shapes the app handles. */
export type SignInStep =
  | { kind: 'done' }
  | { kind: 'mfaSelection'; options: MfaMethod[] }
  | { kind: 'mfaCode'; method: MfaMethod; destination?: string }
  | { kind: 'newPassword' }
  | { kind: 'confirmSignUp' }
  | { kind: 'resetPassword' };

const isMfaMethod = (value: string): value is MfaMethod => value === 'SMS' || value === 'TOTP';

/** Thrown for a step the app does not offer (e-mail MFA, TOTP set-up, custom challenges). */
export class UnsupportedSignInStepError extends Error {
  constructor(readonly step: string) {
    super(`This sign-in needs a step Kinora does not support yet (${step}). Please contact support.`);
    this.name = 'UnsupportedSignInStepError';
  }
}

export const mapSignInStep = (nextStep: SignInOutput['nextStep']): SignInStep => {
  switch (nextStep.signInStep) {
    case 'DONE':
      return { kind: 'done' };
    case 'CONTINUE_SIGN_IN_WITH_MFA_SELECTION': {
      const options = (nextStep.allowedMFATypes ?? ['SMS', 'TOTP']).filter(isMfaMethod);
      if (options.length === 0) throw new UnsupportedSignInStepError(nextStep.signInStep);
      return { kind: 'mfaSelection', options };
    }
    case 'CONFIRM_SIGN_IN_WITH_SMS_CODE': {
      const destination = nextStep.codeDeliveryDetails?.destination;
      return destination ? { kind: 'mfaCode', method: 'SMS', destination } : { kind: 'mfaCode', method: 'SMS' };
    }
    case 'CONFIRM_SIGN_IN_WITH_TOTP_CODE':
      return { kind: 'mfaCode', method: 'TOTP' };
    case 'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED':
      return { kind: 'newPassword' };
    case 'CONFIRM_SIGN_UP':
      return { kind: 'confirmSignUp' };
    case 'RESET_PASSWORD':
      return { kind: 'resetPassword' };
    default:
      throw new UnsupportedSignInStepError(nextStep.signInStep);
  }
};

export const signInWithPassword = async (input: {
  username: string;
  password: string;
  authFlowType: AuthFlowType;
}): Promise<SignInStep> => {
  const { signIn } = await amplifyAuth();
  const { nextStep } = await signIn({
    username: input.username,
    password: input.password,
    options: { authFlowType: input.authFlowType },
  });
  return mapSignInStep(nextStep);
};

/** Answers the step Cognito asked for: an MFA method, an MFA code or a new password. */
export const confirmSignIn = async (challengeResponse: string): Promise<SignInStep> => {
  const { confirmSignIn: amplifyConfirmSignIn } = await amplifyAuth();
  const { nextStep } = await amplifyConfirmSignIn({ challengeResponse });
  return mapSignInStep(nextStep);
};

/** Leaves the page for the pool's hosted UI; Hub `signedIn` follows when the browser comes back. */
export const signInWithRedirect = async (input: { provider: SocialProvider }): Promise<void> => {
  const { signInWithRedirect: amplifySignInWithRedirect } = await amplifyAuth();
  await amplifySignInWithRedirect({ provider: input.provider });
};

export const signOut = async (): Promise<void> => {
  const { signOut: amplifySignOut } = await amplifyAuth();
  await amplifySignOut();
};

// ---------------------------------------------------------------------------------------------
// Sign-up and password reset (the pool's username is the e-mail address)

export interface SignUpResult {
  /** False when the pool confirmed the account by itself. */
  needsConfirmation: boolean;
  destination?: string;
}

export const signUp = async (input: { email: string; password: string }): Promise<SignUpResult> => {
  const { signUp: amplifySignUp } = await amplifyAuth();
  const { nextStep } = await amplifySignUp({
    username: input.email,
    password: input.password,
    options: { userAttributes: { email: input.email } },
  });
  if (nextStep.signUpStep !== 'CONFIRM_SIGN_UP') return { needsConfirmation: false };
  const destination = nextStep.codeDeliveryDetails.destination;
  return destination ? { needsConfirmation: true, destination } : { needsConfirmation: true };
};

export const confirmSignUp = async (input: { email: string; code: string }): Promise<void> => {
  const { confirmSignUp: amplifyConfirmSignUp } = await amplifyAuth();
  await amplifyConfirmSignUp({ username: input.email, confirmationCode: input.code });
};

/** Sends a new sign-up code; resolves to where it went (a masked address), when Cognito says. */
export const resendSignUpCode = async (email: string): Promise<{ destination?: string }> => {
  const { resendSignUpCode: amplifyResendSignUpCode } = await amplifyAuth();
  const { destination } = await amplifyResendSignUpCode({ username: email });
  return destination ? { destination } : {};
};

export const resetPassword = async (email: string): Promise<{ destination?: string }> => {
  const { resetPassword: amplifyResetPassword } = await amplifyAuth();
  const { nextStep } = await amplifyResetPassword({ username: email });
  const destination = nextStep.codeDeliveryDetails.destination;
  return destination ? { destination } : {};
};

export const confirmResetPassword = async (input: { email: string; code: string; newPassword: string }): Promise<void> => {
  const { confirmResetPassword: amplifyConfirmResetPassword } = await amplifyAuth();
  await amplifyConfirmResetPassword({
    username: input.email,
    confirmationCode: input.code,
    newPassword: input.newPassword,
  });
};

// ---------------------------------------------------------------------------------------------
// The signed-in user's session and attributes

/**
 * Fetches the session again with fresh tokens (SPEC §4: identity credentials refreshed after 50
 * minutes). True while tokens remain; false when Cognito refused the refresh token (Amplify then
 * clears the tokens itself). Network and service failures are thrown.
 */
export const refreshSession = async (): Promise<boolean> => {
  const { fetchAuthSession } = await amplifyAuth();
  const session = await fetchAuthSession({ forceRefresh: true });
  return session.tokens !== undefined;
};

/** Sets the public handle (Cognito's preferred_username). */
export const updateHandle = async (handle: string): Promise<void> => {
  const { updateUserAttributes } = await amplifyAuth();
  await updateUserAttributes({ userAttributes: { preferred_username: handle } });
};

/** Sends a code to the user's e-mail address; resolves to the masked address, when given. */
export const sendEmailVerificationCode = async (): Promise<string | null> => {
  const { sendUserAttributeVerificationCode } = await amplifyAuth();
  const details = await sendUserAttributeVerificationCode({ userAttributeKey: 'email' });
  return details.destination ?? null;
};

export const confirmEmailVerification = async (code: string): Promise<void> => {
  const { confirmUserAttribute } = await amplifyAuth();
  await confirmUserAttribute({ userAttributeKey: 'email', confirmationCode: code });
};

// ---------------------------------------------------------------------------------------------
// Hub events (SPEC §4 "Auth events")

/**
 * The Hub events the app reacts to, named as the session machine receives them (services do not
 * import machines, so the names live here and the machine takes them as they are).
 */
export type AuthEvent =
  | { type: 'auth.signedIn' }
  | { type: 'auth.signedOut' }
  | { type: 'auth.tokenRefreshed' }
  | { type: 'auth.tokenRefreshFailed'; networkError: boolean }
  | { type: 'auth.redirectFailed'; message: string };

/** The Hub payloads the app reacts to, mapped to plain events; others give null. */
export const mapAuthHubPayload = (payload: { event: string; data?: unknown }): AuthEvent | null => {
  const error = (payload.data as { error?: unknown } | undefined)?.error;
  switch (payload.event) {
    case 'signedIn':
      return { type: 'auth.signedIn' };
    case 'signedOut':
      return { type: 'auth.signedOut' };
    case 'tokenRefresh':
      return { type: 'auth.tokenRefreshed' };
    case 'tokenRefresh_failure':
      return { type: 'auth.tokenRefreshFailed', networkError: isNetworkError(error) };
    case 'signInWithRedirect_failure':
      return { type: 'auth.redirectFailed', message: errorMessage(error, 'The sign-in with that provider failed.') };
    default:
      return null;
  }
};

/** Listens to Amplify's 'auth' channel; returns the function that stops listening. */
export const listenToAuthEvents = (callback: (event: AuthEvent) => void): (() => void) =>
  Hub.listen('auth', ({ payload }) => {
    const event = mapAuthHubPayload(payload);
    if (event) callback(event);
  });
