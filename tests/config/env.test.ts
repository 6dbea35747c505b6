import { describe, expect, it } from 'vitest';
import { EnvError, loadEnv, parseEnv } from '@/config/env';

const required = {
  VITE_API_KEY: 'key-1',
  VITE_COGNITO_USER_POOL_ID: 'us-east-1_pool',
  VITE_COGNITO_CLIENT_ID: 'client-1',
};

function envErrorOf(source: Record<string, unknown>): EnvError {
  try {
    parseEnv(source);
  } catch (error) {
    if (error instanceof EnvError) return error;
    throw error;
  }
  throw new Error('parseEnv accepted an invalid environment');
}

describe('parseEnv', () => {
  it('fills every default when only the required variables are given', () => {
    expect(parseEnv(required)).toEqual({
      apiUrl: '/api',
      apiKey: 'key-1',
      cognitoRegion: 'us-east-1',
      cognitoUserPoolId: 'us-east-1_pool',
      cognitoClientId: 'client-1',
      cognitoEndpoint: undefined,
      authFlowType: 'USER_SRP_AUTH',
      sentryDsn: undefined,
      sentryEnvironment: 'production',
      analyticsEndpoint: undefined,
      supportEmail: 'support@kinora.app',
      mediaHost: '',
      paymentProvider: 'stripe',
      localMode: false,
      redirectAllowlist: [],
      guestPassword: undefined,
      oauthDomain: undefined,
      socialProviders: [],
    });
  });

  it('reads the guest password and the social providers, which need a hosted-UI domain', () => {
    const env = parseEnv({
      ...required,
      VITE_GUEST_PASSWORD: 'shared-secret',
      VITE_COGNITO_OAUTH_DOMAIN: 'auth.kinora.app',
      VITE_COGNITO_SOCIAL_PROVIDERS: 'Google, Apple',
    });
    expect(env.guestPassword).toBe('shared-secret');
    expect(env.oauthDomain).toBe('auth.kinora.app');
    expect(env.socialProviders).toEqual(['Google', 'Apple']);
    expect(parseEnv({ ...required, VITE_COGNITO_SOCIAL_PROVIDERS: 'Google' }).socialProviders).toEqual([]);
    expect(envErrorOf({ ...required, VITE_COGNITO_SOCIAL_PROVIDERS: 'Google, MySpace' }).issues).toEqual([
      expect.stringContaining('VITE_COGNITO_SOCIAL_PROVIDERS is invalid'),
    ]);
  });

  it('reads every variable and converts flags and lists', () => {
    const env = parseEnv({
      ...required,
      VITE_API_URL: 'https://api.kinora.app',
      VITE_COGNITO_REGION: 'eu-west-1',
      VITE_COGNITO_ENDPOINT: '/cognito',
      VITE_AUTH_FLOW_TYPE: 'USER_PASSWORD_AUTH',
      VITE_SENTRY_DSN: 'https://abc@o1.ingest.sentry.io/2',
      VITE_SENTRY_ENVIRONMENT: 'staging',
      VITE_ANALYTICS_ENDPOINT: 'https://analytics.kinora.app/collect',
      VITE_SUPPORT_EMAIL: 'help@kinora.app',
      VITE_MEDIA_HOST: 'https://media.kinora.app',
      VITE_PAYMENT_PROVIDER: 'paddle',
      VITE_LOCAL_MODE: 'true',
      VITE_REDIRECT_ALLOWLIST: 'https://a.example, https://b.example,,',
    });
    expect(env.apiUrl).toBe('https://api.kinora.app');
    expect(env.cognitoRegion).toBe('eu-west-1');
    expect(env.cognitoEndpoint).toBe('/cognito');
    expect(env.authFlowType).toBe('USER_PASSWORD_AUTH');
    expect(env.sentryDsn).toBe('https://abc@o1.ingest.sentry.io/2');
    expect(env.sentryEnvironment).toBe('staging');
    expect(env.analyticsEndpoint).toBe('https://analytics.kinora.app/collect');
    expect(env.supportEmail).toBe('help@kinora.app');
    expect(env.mediaHost).toBe('https://media.kinora.app');
    expect(env.paymentProvider).toBe('paddle');
    expect(env.localMode).toBe(true);
    expect(env.redirectAllowlist).toEqual(['https://a.example', 'https://b.example']);
  });

  it('treats blank values as not given', () => {
    const env = parseEnv({ ...required, VITE_API_URL: '', VITE_SENTRY_DSN: '  ', VITE_LOCAL_MODE: '' });
    expect(env.apiUrl).toBe('/api');
    expect(env.sentryDsn).toBeUndefined();
    expect(env.localMode).toBe(false);
  });

  it('lists every missing variable, one per line', () => {
    const error = envErrorOf({ VITE_API_KEY: '' });
    expect(error.issues).toEqual([
      'VITE_API_KEY is missing',
      'VITE_COGNITO_USER_POOL_ID is missing',
      'VITE_COGNITO_CLIENT_ID is missing',
    ]);
    const lines = error.message.split('\n');
    expect(lines).toContain('- VITE_API_KEY is missing');
    expect(lines).toContain('- VITE_COGNITO_USER_POOL_ID is missing');
    expect(lines).toContain('- VITE_COGNITO_CLIENT_ID is missing');
  });

  it('names each invalid variable with the reason', () => {
    const error = envErrorOf({
      ...required,
      VITE_API_URL: 'api',
      VITE_AUTH_FLOW_TYPE: 'PLAIN',
      VITE_SENTRY_DSN: 'not a url',
      VITE_SUPPORT_EMAIL: 'nobody',
      VITE_LOCAL_MODE: 'yes',
    });
    expect(error.issues).toEqual([
      'VITE_API_URL is invalid: must be a URL or a path starting with "/"',
      'VITE_AUTH_FLOW_TYPE is invalid: must be one of USER_SRP_AUTH, USER_PASSWORD_AUTH',
      'VITE_SENTRY_DSN is invalid: must be a URL',
      'VITE_SUPPORT_EMAIL is invalid: must be an e-mail address',
      'VITE_LOCAL_MODE is invalid: must be "true" or "false"',
    ]);
  });
});

describe('loadEnv', () => {
  it('reads the Vite environment the web tests provide', () => {
    const env = loadEnv();
    expect(env.apiUrl).toBe('http://localhost/api');
    expect(env.apiKey).toBe('test-api-key');
    expect(env.cognitoUserPoolId).toBe('local_test');
    expect(env.cognitoClientId).toBe('testclient');
  });
});
