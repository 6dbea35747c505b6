import { AMPLIFY_SYMBOL } from '@aws-amplify/core/internals/utils';
import { Amplify } from 'aws-amplify';
import type { SignInOutput } from 'aws-amplify/auth';
import { Hub } from 'aws-amplify/utils';
import { http, HttpResponse } from 'msw';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { parseEnv } from '@/config/env';
import { ApiError } from '@/services/api-error';
import {
  buildAuthConfig,
  configureAuth,
  getAccessToken,
  isNetworkError,
  listenToAuthEvents,
  mapAuthHubPayload,
  mapSignInStep,
  readGroupsClaim,
  resolveCognitoEndpoint,
  UnsupportedSignInStepError,
} from '@/services/auth';
import type { AuthEvent } from '@/services/auth';
import type * as AmplifyAuth from 'aws-amplify/auth';
import type * as AuthService from '@/services/auth';
import { server } from '../msw/server';

/**
 * Amplify's functions, each still calling the real one unless a test shapes one answer with
 * `mockResolvedValueOnce`/`mockRejectedValueOnce` (the tests above run against real Amplify).
 */
vi.mock('aws-amplify/auth', async (importOriginal) => {
  const real = await importOriginal<typeof AmplifyAuth>();
  const passThrough = <K extends keyof typeof AmplifyAuth>(name: K) =>
    vi.fn((...args: unknown[]) => (real[name] as (...a: unknown[]) => unknown)(...args));
  return {
    ...real,
    confirmResetPassword: passThrough('confirmResetPassword'),
    confirmSignIn: passThrough('confirmSignIn'),
    confirmSignUp: passThrough('confirmSignUp'),
    confirmUserAttribute: passThrough('confirmUserAttribute'),
    fetchAuthSession: passThrough('fetchAuthSession'),
    fetchUserAttributes: passThrough('fetchUserAttributes'),
    getCurrentUser: passThrough('getCurrentUser'),
    resendSignUpCode: passThrough('resendSignUpCode'),
    resetPassword: passThrough('resetPassword'),
    sendUserAttributeVerificationCode: passThrough('sendUserAttributeVerificationCode'),
    signIn: passThrough('signIn'),
    signInWithRedirect: passThrough('signInWithRedirect'),
    signUp: passThrough('signUp'),
    updateUserAttributes: passThrough('updateUserAttributes'),
  };
});

const baseVars = {
  VITE_API_KEY: 'test-api-key',
  VITE_COGNITO_USER_POOL_ID: 'local_test',
  VITE_COGNITO_CLIENT_ID: 'testclient',
};
const envWith = (vars: Record<string, string> = {}) => parseEnv({ ...baseVars, ...vars });

const base64Url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (payload: object) => `${base64Url({ alg: 'RS256', kid: 'k1' })}.${base64Url(payload)}.signature`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** What Amplify itself leaves in local storage after a sign-in (its token store's keys). */
/** Amplify's token store names a last user of the test client: a session may exist, so Amplify is asked. */
const markStoredSession = () => localStorage.setItem('CognitoIdentityServiceProvider.testclient.LastAuthUser', 'ada');

function storeSignedInTokens(accessToken: string, idToken: string) {
  const prefix = 'CognitoIdentityServiceProvider.testclient';
  localStorage.setItem(`${prefix}.LastAuthUser`, 'ada');
  localStorage.setItem(`${prefix}.ada.accessToken`, accessToken);
  localStorage.setItem(`${prefix}.ada.idToken`, idToken);
  localStorage.setItem(`${prefix}.ada.refreshToken`, 'refresh-token');
  localStorage.setItem(`${prefix}.ada.clockDrift`, '0');
}

describe('buildAuthConfig', () => {
  it('points Amplify at the pool and client of the environment', () => {
    expect(buildAuthConfig(envWith(), 'https://app.example')).toEqual({
      Auth: { Cognito: { userPoolId: 'local_test', userPoolClientId: 'testclient' } },
    });
  });

  it('resolves a path endpoint (the local emulator front) against the page origin', () => {
    const config = buildAuthConfig(envWith({ VITE_COGNITO_ENDPOINT: '/cognito' }), 'http://localhost:8787');
    expect(config.Auth?.Cognito.userPoolEndpoint).toBe('http://localhost:8787/cognito');
  });

  it('keeps an absolute endpoint as given', () => {
    expect(resolveCognitoEndpoint('https://cognito.example/', 'http://localhost:8787')).toBe('https://cognito.example');
  });
});

describe('getAccessToken (real Amplify, tokens in local storage)', () => {
  it('configures Amplify with the resolved endpoint (at once when a session may be stored)', async () => {
    markStoredSession();
    await configureAuth(envWith({ VITE_COGNITO_ENDPOINT: '/cognito' }));
    expect(Amplify.getConfig().Auth?.Cognito.userPoolEndpoint).toBe(`${window.location.origin}/cognito`);
  });

  it('is null when nobody is signed in', async () => {
    await configureAuth(envWith({ VITE_COGNITO_ENDPOINT: '/cognito' }));
    await expect(getAccessToken()).resolves.toBeNull();
  });

  it('is the raw access token when signed in', async () => {
    await configureAuth(envWith({ VITE_COGNITO_ENDPOINT: '/cognito' }));
    const accessToken = jwt({ sub: 'sub-1', username: 'ada', exp: nowSeconds() + 3600, token_use: 'access' });
    storeSignedInTokens(accessToken, jwt({ sub: 'sub-1', exp: nowSeconds() + 3600, token_use: 'id' }));

    await expect(getAccessToken()).resolves.toBe(accessToken);
  });

  it('fails with "Auth session was not found." when the session cannot be fetched', async () => {
    await configureAuth(envWith({ VITE_COGNITO_ENDPOINT: '/cognito' }));
    const expired = nowSeconds() - 60;
    storeSignedInTokens(
      jwt({ sub: 'sub-1', username: 'ada', exp: expired, token_use: 'access' }),
      jwt({ sub: 'sub-1', exp: expired, token_use: 'id' }),
    );
    // The refresh Amplify attempts for the expired token is answered with a non-retryable failure.
    let refreshAttempts = 0;
    server.use(
      http.post(/\/cognito\/?$/, () => {
        refreshAttempts += 1;
        return HttpResponse.json(
          { __type: 'ResourceNotFoundException', message: 'User pool client testclient does not exist.' },
          { status: 400, headers: { 'x-amzn-errortype': 'ResourceNotFoundException' } },
        );
      }),
    );

    const error = await getAccessToken().catch((reason: unknown) => reason);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: 'Auth session was not found.', kind: 'auth' });
    expect(refreshAttempts).toBe(1);
  });
});

// ---------------------------------------------------------------------------------------------
// The wrapper functions the session machine's actors call. Amplify's functions stay real unless a
// test shapes one answer with `mockResolvedValueOnce` / `mockRejectedValueOnce`.

describe('buildAuthConfig with a hosted-UI domain (social sign-in)', () => {
  it('adds the OAuth settings of SPEC §7', () => {
    const config = buildAuthConfig(
      envWith({ VITE_COGNITO_OAUTH_DOMAIN: 'kinora.auth.us-east-1.amazoncognito.com', VITE_COGNITO_SOCIAL_PROVIDERS: 'Google,Apple' }),
      'https://app.example',
    );
    expect(config.Auth?.Cognito.loginWith?.oauth).toEqual({
      domain: 'kinora.auth.us-east-1.amazoncognito.com',
      scopes: ['aws.cognito.signin.user.admin', 'email', 'openid', 'phone', 'profile'],
      redirectSignIn: ['https://app.example/authentication'],
      redirectSignOut: ['https://app.example/'],
      responseType: 'code',
      providers: ['Google', 'Apple'],
    });
  });

  it('has no OAuth settings without a domain', () => {
    expect(buildAuthConfig(envWith({ VITE_COGNITO_SOCIAL_PROVIDERS: 'Google' }), 'https://app.example').Auth?.Cognito.loginWith).toBeUndefined();
  });
});

describe('mapSignInStep', () => {
  it.each([
    [{ signInStep: 'DONE' }, { kind: 'done' }],
    [{ signInStep: 'CONTINUE_SIGN_IN_WITH_MFA_SELECTION', allowedMFATypes: ['SMS', 'TOTP'] }, { kind: 'mfaSelection', options: ['SMS', 'TOTP'] }],
    [{ signInStep: 'CONTINUE_SIGN_IN_WITH_MFA_SELECTION', allowedMFATypes: ['EMAIL', 'TOTP'] }, { kind: 'mfaSelection', options: ['TOTP'] }],
    [
      { signInStep: 'CONFIRM_SIGN_IN_WITH_SMS_CODE', codeDeliveryDetails: { destination: '+*******1234', deliveryMedium: 'SMS' } },
      { kind: 'mfaCode', method: 'SMS', destination: '+*******1234' },
    ],
    [{ signInStep: 'CONFIRM_SIGN_IN_WITH_SMS_CODE' }, { kind: 'mfaCode', method: 'SMS' }],
    [{ signInStep: 'CONFIRM_SIGN_IN_WITH_TOTP_CODE' }, { kind: 'mfaCode', method: 'TOTP' }],
    [{ signInStep: 'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED', missingAttributes: [] }, { kind: 'newPassword' }],
    [{ signInStep: 'CONFIRM_SIGN_UP' }, { kind: 'confirmSignUp' }],
    [{ signInStep: 'RESET_PASSWORD' }, { kind: 'resetPassword' }],
  ] as const)('maps %j', (nextStep, expected) => {
    expect(mapSignInStep(nextStep as SignInOutput['nextStep'])).toEqual(expected);
  });

  it.each([
    'CONFIRM_SIGN_IN_WITH_EMAIL_CODE',
    'CONTINUE_SIGN_IN_WITH_TOTP_SETUP',
    'CONFIRM_SIGN_IN_WITH_CUSTOM_CHALLENGE',
    'CONTINUE_SIGN_IN_WITH_FIRST_FACTOR_SELECTION',
  ])('refuses %s, which Kinora does not offer, with a readable error', (signInStep) => {
    expect(() => mapSignInStep({ signInStep } as SignInOutput['nextStep'])).toThrow(UnsupportedSignInStepError);
    expect(() => mapSignInStep({ signInStep } as SignInOutput['nextStep'])).toThrow(/not support/);
  });

  it('refuses an MFA selection that offers neither SMS nor TOTP', () => {
    expect(() =>
      mapSignInStep({ signInStep: 'CONTINUE_SIGN_IN_WITH_MFA_SELECTION', allowedMFATypes: ['EMAIL'] } as SignInOutput['nextStep']),
    ).toThrow(UnsupportedSignInStepError);
  });
});

describe('readGroupsClaim', () => {
  it('reads the cognito:groups claim of the ID token', () => {
    expect(readGroupsClaim({ sub: 's', 'cognito:groups': ['Developer', 'Beta'] })).toEqual(['Developer', 'Beta']);
  });

  it('is [] without the claim, with a claim that is not a list, or without a payload', () => {
    expect(readGroupsClaim({ sub: 's' })).toEqual([]);
    expect(readGroupsClaim({ 'cognito:groups': 'Developer' })).toEqual([]);
    expect(readGroupsClaim(undefined)).toEqual([]);
  });

  it('keeps only the string entries', () => {
    expect(readGroupsClaim({ 'cognito:groups': ['Developer', 3, null] })).toEqual(['Developer']);
  });
});

describe('isNetworkError', () => {
  it('recognises the failures that mean "no network"', () => {
    expect(isNetworkError(Object.assign(new Error('Network error'), { name: 'NetworkError' }))).toBe(true);
    expect(isNetworkError(new ApiError('Network error on GET credits/get', { kind: 'network' }))).toBe(true);
    expect(isNetworkError(new TypeError('Failed to fetch'))).toBe(true);
    const wrapped = new ApiError('Auth session was not found.', {
      kind: 'auth',
      cause: Object.assign(new Error('Network error'), { name: 'NetworkError' }),
    });
    expect(isNetworkError(wrapped)).toBe(true);
  });

  it('is false for everything else', () => {
    expect(isNetworkError(Object.assign(new Error('Refresh Token has expired'), { name: 'NotAuthorizedException' }))).toBe(false);
    expect(isNetworkError(new ApiError('api error', { kind: 'http', status: 500 }))).toBe(false);
    expect(isNetworkError(undefined)).toBe(false);
    expect(isNetworkError('NetworkError')).toBe(false);
  });
});

describe('Hub auth events', () => {
  it('maps the payloads the session reacts to', () => {
    expect(mapAuthHubPayload({ event: 'signedIn', data: {} })).toEqual({ type: 'auth.signedIn' });
    expect(mapAuthHubPayload({ event: 'signedOut' })).toEqual({ type: 'auth.signedOut' });
    expect(mapAuthHubPayload({ event: 'tokenRefresh' })).toEqual({ type: 'auth.tokenRefreshed' });
    expect(
      mapAuthHubPayload({ event: 'tokenRefresh_failure', data: { error: Object.assign(new Error('x'), { name: 'NetworkError' }) } }),
    ).toEqual({ type: 'auth.tokenRefreshFailed', networkError: true });
    expect(
      mapAuthHubPayload({ event: 'tokenRefresh_failure', data: { error: Object.assign(new Error('x'), { name: 'NotAuthorizedException' }) } }),
    ).toEqual({ type: 'auth.tokenRefreshFailed', networkError: false });
    expect(mapAuthHubPayload({ event: 'signInWithRedirect_failure', data: { error: new Error('access_denied') } })).toEqual({
      type: 'auth.redirectFailed',
      message: 'access_denied',
    });
    expect(mapAuthHubPayload({ event: 'customOAuthState', data: 'x' })).toBeNull();
  });

  it('listens to the real Hub until unsubscribed', () => {
    const events: AuthEvent[] = [];
    const unsubscribe = listenToAuthEvents((event) => events.push(event));
    Hub.dispatch('auth', { event: 'signedIn', data: {} as never }, 'Auth', AMPLIFY_SYMBOL);
    Hub.dispatch('auth', { event: 'customOAuthState', data: 'state' }, 'Auth', AMPLIFY_SYMBOL);
    unsubscribe();
    Hub.dispatch('auth', { event: 'signedOut' }, 'Auth', AMPLIFY_SYMBOL);
    expect(events).toEqual([{ type: 'auth.signedIn' }]);
  });
});

/**
 * setup.ts loaded the real services/auth before this file's `vi.mock` existed, so the wrapper
 * tests below load it afresh: its Amplify functions are then the pass-through mocks.
 */
let auth: typeof AuthService;
let amp: typeof AmplifyAuth;
beforeAll(async () => {
  vi.resetModules();
  amp = await import('aws-amplify/auth');
  auth = await import('@/services/auth');
});

describe('loadCurrentUser', () => {
  it('is null when nobody is signed in (real Amplify, empty token store)', async () => {
    auth.configureAuth(envWith({ VITE_COGNITO_ENDPOINT: '/cognito' }));
    await expect(auth.loadCurrentUser()).resolves.toBeNull();
  });

  it('answers a visitor with no stored session without loading Amplify, and loads it for a stored one', async () => {
    vi.mocked(amp.getCurrentUser).mockClear();
    vi.mocked(amp.fetchAuthSession).mockClear();
    await auth.configureAuth(envWith());
    await expect(auth.loadCurrentUser()).resolves.toBeNull();
    await expect(auth.getAccessToken()).resolves.toBeNull();
    expect(amp.getCurrentUser).not.toHaveBeenCalled();
    expect(amp.fetchAuthSession).not.toHaveBeenCalled();

    markStoredSession();
    await auth.configureAuth(envWith());
    // Asked of Amplify now (its real token store has no tokens for that user: still nobody).
    await expect(auth.loadCurrentUser()).resolves.toBeNull();
    expect(amp.getCurrentUser).toHaveBeenCalled();
  });

  it('joins the user, the attributes and the ID token groups', async () => {
    markStoredSession();
    vi.mocked(amp.getCurrentUser).mockResolvedValueOnce({
      username: 'ada',
      userId: 'sub-1',
      signInDetails: { loginId: 'ada@example.com', authFlowType: 'USER_PASSWORD_AUTH' },
    });
    vi.mocked(amp.fetchAuthSession).mockResolvedValueOnce({
      tokens: {
        accessToken: { payload: {}, toString: () => 'access' },
        idToken: { payload: { 'cognito:groups': ['Developer'] }, toString: () => 'id' },
      },
    });
    vi.mocked(amp.fetchUserAttributes).mockResolvedValueOnce({
      email: 'ada@example.com',
      email_verified: 'true',
      preferred_username: 'ada',
      sub: 'sub-1',
    });

    await expect(auth.loadCurrentUser()).resolves.toEqual({
      username: 'ada',
      userId: 'sub-1',
      signInDetails: { loginId: 'ada@example.com', authFlowType: 'USER_PASSWORD_AUTH' },
      attributes: {
        email: 'ada@example.com',
        email_verified: 'true',
        preferred_username: 'ada',
        sub: 'sub-1',
        user_groups: ['Developer'],
      },
    });
  });

  it('gives [] groups when the ID token has no groups claim', async () => {
    markStoredSession();
    vi.mocked(amp.getCurrentUser).mockResolvedValueOnce({ username: 'guest', userId: 'sub-g' });
    vi.mocked(amp.fetchAuthSession).mockResolvedValueOnce({
      tokens: { accessToken: { payload: {}, toString: () => 'a' }, idToken: { payload: {}, toString: () => 'i' } },
    });
    vi.mocked(amp.fetchUserAttributes).mockResolvedValueOnce({ email: 'guest@kinora.app' });
    const user = await auth.loadCurrentUser();
    expect(user?.attributes.user_groups).toEqual([]);
    expect(user).not.toHaveProperty('signInDetails');
  });

  it('passes on other failures for the caller to judge', async () => {
    markStoredSession();
    const offline = Object.assign(new Error('Network error'), { name: 'NetworkError' });
    vi.mocked(amp.getCurrentUser).mockRejectedValueOnce(offline);
    await expect(auth.loadCurrentUser()).rejects.toBe(offline);
  });
});

describe('sign-in, sign-up, reset and attribute calls', () => {
  it('signs in with the auth flow it is given and maps the next step', async () => {
    vi.mocked(amp.signIn).mockResolvedValueOnce({
      isSignedIn: false,
      nextStep: { signInStep: 'CONFIRM_SIGN_IN_WITH_TOTP_CODE' },
    });
    await expect(
      auth.signInWithPassword({ username: 'ada@example.com', password: 'secret1', authFlowType: 'USER_PASSWORD_AUTH' }),
    ).resolves.toEqual({ kind: 'mfaCode', method: 'TOTP' });
    expect(amp.signIn).toHaveBeenLastCalledWith({
      username: 'ada@example.com',
      password: 'secret1',
      options: { authFlowType: 'USER_PASSWORD_AUTH' },
    });
  });

  it('answers a challenge and maps what follows', async () => {
    vi.mocked(amp.confirmSignIn).mockResolvedValueOnce({ isSignedIn: true, nextStep: { signInStep: 'DONE' } });
    await expect(auth.confirmSignIn('123456')).resolves.toEqual({ kind: 'done' });
    expect(amp.confirmSignIn).toHaveBeenLastCalledWith({ challengeResponse: '123456' });
  });

  it('signs up with the e-mail address as username and attribute', async () => {
    vi.mocked(amp.signUp).mockResolvedValueOnce({
      isSignUpComplete: false,
      nextStep: { signUpStep: 'CONFIRM_SIGN_UP', codeDeliveryDetails: { destination: 'a***@e***.com', deliveryMedium: 'EMAIL' } },
    });
    await expect(auth.signUp({ email: 'ada@example.com', password: 'secret1' })).resolves.toEqual({
      needsConfirmation: true,
      destination: 'a***@e***.com',
    });
    expect(amp.signUp).toHaveBeenLastCalledWith({
      username: 'ada@example.com',
      password: 'secret1',
      options: { userAttributes: { email: 'ada@example.com' } },
    });

    vi.mocked(amp.signUp).mockResolvedValueOnce({ isSignUpComplete: true, nextStep: { signUpStep: 'DONE' } });
    await expect(auth.signUp({ email: 'bo@example.com', password: 'secret1' })).resolves.toEqual({ needsConfirmation: false });
  });

  it('confirms a sign-up, resends its code, and resets a password', async () => {
    vi.mocked(amp.confirmSignUp).mockResolvedValueOnce({ isSignUpComplete: true, nextStep: { signUpStep: 'DONE' } });
    await auth.confirmSignUp({ email: 'ada@example.com', code: '123456' });
    expect(amp.confirmSignUp).toHaveBeenLastCalledWith({ username: 'ada@example.com', confirmationCode: '123456' });

    vi.mocked(amp.resendSignUpCode).mockResolvedValueOnce({ destination: 'a***@e***.com', deliveryMedium: 'EMAIL' });
    await expect(auth.resendSignUpCode('ada@example.com')).resolves.toEqual({ destination: 'a***@e***.com' });

    vi.mocked(amp.resetPassword).mockResolvedValueOnce({
      isPasswordReset: false,
      nextStep: { resetPasswordStep: 'CONFIRM_RESET_PASSWORD_WITH_CODE', codeDeliveryDetails: { destination: 'a***@e***.com' } },
    });
    await expect(auth.resetPassword('ada@example.com')).resolves.toEqual({ destination: 'a***@e***.com' });

    vi.mocked(amp.confirmResetPassword).mockResolvedValueOnce();
    await auth.confirmResetPassword({ email: 'ada@example.com', code: '123456', newPassword: 'brand-new' });
    expect(amp.confirmResetPassword).toHaveBeenLastCalledWith({
      username: 'ada@example.com',
      confirmationCode: '123456',
      newPassword: 'brand-new',
    });
  });

  it('refreshes the session with forceRefresh and tells whether tokens remain', async () => {
    vi.mocked(amp.fetchAuthSession).mockResolvedValueOnce({
      tokens: { accessToken: { payload: {}, toString: () => 'a' } },
    });
    await expect(auth.refreshSession()).resolves.toBe(true);
    expect(amp.fetchAuthSession).toHaveBeenLastCalledWith({ forceRefresh: true });
    vi.mocked(amp.fetchAuthSession).mockResolvedValueOnce({});
    await expect(auth.refreshSession()).resolves.toBe(false);
  });

  it('sets the handle as preferred_username and verifies the e-mail attribute', async () => {
    // Amplify's output type lists every standard attribute; the answer names the one updated.
    const updated = { preferred_username: { isUpdated: true, nextStep: { updateAttributeStep: 'DONE' } } };
    vi.mocked(amp.updateUserAttributes).mockResolvedValueOnce(updated as unknown as AmplifyAuth.UpdateUserAttributesOutput);
    await auth.updateHandle('ada');
    expect(amp.updateUserAttributes).toHaveBeenLastCalledWith({ userAttributes: { preferred_username: 'ada' } });

    vi.mocked(amp.sendUserAttributeVerificationCode).mockResolvedValueOnce({
      destination: 'a***@e***.com',
      deliveryMedium: 'EMAIL',
      attributeName: 'email',
    });
    await expect(auth.sendEmailVerificationCode()).resolves.toBe('a***@e***.com');
    expect(amp.sendUserAttributeVerificationCode).toHaveBeenLastCalledWith({ userAttributeKey: 'email' });

    vi.mocked(amp.confirmUserAttribute).mockResolvedValueOnce();
    await auth.confirmEmailVerification('123456');
    expect(amp.confirmUserAttribute).toHaveBeenLastCalledWith({ userAttributeKey: 'email', confirmationCode: '123456' });
  });

  it('starts a social sign-in with the provider', async () => {
    vi.mocked(amp.signInWithRedirect).mockResolvedValueOnce();
    await auth.signInWithRedirect({ provider: 'Google' });
    expect(amp.signInWithRedirect).toHaveBeenLastCalledWith({ provider: 'Google' });
  });
});

describe('tokens never reach the console', () => {
  it('loading the user and reading the access token log nothing that holds a token', async () => {
    auth.configureAuth(envWith({ VITE_COGNITO_ENDPOINT: '/cognito' }));
    const accessToken = jwt({ sub: 'sub-1', username: 'ada', exp: nowSeconds() + 3600, token_use: 'access' });
    const idToken = jwt({ sub: 'sub-1', exp: nowSeconds() + 3600, token_use: 'id', 'cognito:groups': ['Developer'] });
    storeSignedInTokens(accessToken, idToken);
    vi.mocked(amp.fetchUserAttributes).mockResolvedValueOnce({ email: 'ada@example.com' });
    const logged: unknown[] = [];
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((method) =>
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void logged.push(...args)),
    );

    await expect(auth.getAccessToken()).resolves.toBe(accessToken);
    const user = await auth.loadCurrentUser();
    expect(user?.attributes.user_groups).toEqual(['Developer']);

    spies.forEach((spy) => spy.mockRestore());
    const text = logged.map((item) => (typeof item === 'string' ? item : JSON.stringify(item) ?? String(item))).join('\n');
    expect(text).not.toContain(accessToken);
    expect(text).not.toContain(idToken);
  });
});
