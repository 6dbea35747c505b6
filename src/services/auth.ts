import { Amplify } from 'aws-amplify';
import type { ResourcesConfig } from 'aws-amplify';
import { fetchAuthSession } from 'aws-amplify/auth';
import type { Env } from '@/config/env';
import { MESSAGES } from '@/config/messages';
import { ApiError } from '@/services/api-error';

/**
 * A path such as "/cognito" (the local emulator front, served by the API server) becomes an
 * absolute URL on the page's own origin, because Amplify needs a full URL for its endpoint.
 */
export const resolveCognitoEndpoint = (endpoint: string, origin: string): string =>
  new URL(endpoint, origin).toString().replace(/\/$/, '');

export const buildAuthConfig = (env: Env, origin: string): ResourcesConfig => ({
  Auth: {
    Cognito: {
      userPoolId: env.cognitoUserPoolId,
      userPoolClientId: env.cognitoClientId,
      ...(env.cognitoEndpoint ? { userPoolEndpoint: resolveCognitoEndpoint(env.cognitoEndpoint, origin) } : {}),
    },
  },
});

/**
 * Amplify takes the auth flow per sign-in call, not in its configuration; the sign-in actor
 * passes these options (the local emulator only speaks USER_PASSWORD_AUTH).
 */
export const signInOptionsFor = (env: Env) => ({ authFlowType: env.authFlowType });

export const configureAuth = (env: Env): void => {
  Amplify.configure(buildAuthConfig(env, window.location.origin));
};

/**
 * The raw access token of the signed-in user, or null when nobody is signed in. Amplify refreshes
 * an expired token here; when it cannot fetch the session at all the caller gets the
 * "Auth session was not found." error of SPEC §8.
 */
export const getAccessToken = async (): Promise<string | null> => {
  let session: Awaited<ReturnType<typeof fetchAuthSession>>;
  try {
    session = await fetchAuthSession();
  } catch (error) {
    throw new ApiError(MESSAGES.noSession, { kind: 'auth', cause: error });
  }
  return session.tokens?.accessToken.toString() ?? null;
};
