import { Amplify } from 'aws-amplify';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { parseEnv } from '@/config/env';
import { ApiError } from '@/services/api-error';
import { buildAuthConfig, configureAuth, getAccessToken, resolveCognitoEndpoint, signInOptionsFor } from '@/services/auth';
import { server } from '../msw/server';

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

  it('hands the auth flow of the environment to sign-in', () => {
    expect(signInOptionsFor(envWith())).toEqual({ authFlowType: 'USER_SRP_AUTH' });
    expect(signInOptionsFor(envWith({ VITE_AUTH_FLOW_TYPE: 'USER_PASSWORD_AUTH' }))).toEqual({
      authFlowType: 'USER_PASSWORD_AUTH',
    });
  });
});

describe('getAccessToken (real Amplify, tokens in local storage)', () => {
  it('configures Amplify with the resolved endpoint', () => {
    configureAuth(envWith({ VITE_COGNITO_ENDPOINT: '/cognito' }));
    expect(Amplify.getConfig().Auth?.Cognito.userPoolEndpoint).toBe(`${window.location.origin}/cognito`);
  });

  it('is null when nobody is signed in', async () => {
    configureAuth(envWith({ VITE_COGNITO_ENDPOINT: '/cognito' }));
    await expect(getAccessToken()).resolves.toBeNull();
  });

  it('is the raw access token when signed in', async () => {
    configureAuth(envWith({ VITE_COGNITO_ENDPOINT: '/cognito' }));
    const accessToken = jwt({ sub: 'sub-1', username: 'ada', exp: nowSeconds() + 3600, token_use: 'access' });
    storeSignedInTokens(accessToken, jwt({ sub: 'sub-1', exp: nowSeconds() + 3600, token_use: 'id' }));

    await expect(getAccessToken()).resolves.toBe(accessToken);
  });

  it('fails with "Auth session was not found." when the session cannot be fetched', async () => {
    configureAuth(envWith({ VITE_COGNITO_ENDPOINT: '/cognito' }));
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
