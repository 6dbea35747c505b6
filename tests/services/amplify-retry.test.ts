import { fetchUserAttributes, getCurrentUser, signIn } from 'aws-amplify/auth';
import { jitteredBackoff } from '@aws-amplify/core/internals/aws-client-utils';
import { describe, expect, it } from 'vitest';
import { IDENTITY_RETRY_BACKOFF_CAP_MS } from '@/config/limits';
import { fakePool } from '../msw/cognito';

/**
 * SPEC §8: identity requests are retried on 429 and throttling, on 500/502/503/504 and on
 * time-outs, with back-off capped at 300000 ms. Amplify's own retry middleware does this (up to 3
 * attempts, jittered back-off 2^n × 100 ms capped at 5 minutes); these tests prove the app's
 * configuration keeps it, against the fake user pool.
 */
const signInAlice = () => signIn({ username: 'alice@example.com', password: 'correct-password', options: { authFlowType: 'USER_PASSWORD_AUTH' } });

describe('identity request retries (Amplify)', () => {
  it.each([
    ['503 Service Unavailable', { status: 503 }],
    ['500 Internal Server Error', { status: 500 }],
    ['502 Bad Gateway', { status: 502 }],
    ['504 Gateway Timeout', { status: 504 }],
    ['429 Too Many Requests', { status: 429 }],
    ['a ThrottlingException', { status: 400, name: 'ThrottlingException', message: 'Rate exceeded' }],
    ['a TooManyRequestsException', { status: 400, name: 'TooManyRequestsException', message: 'Too many requests' }],
    ['a RequestTimeout', { status: 408, name: 'RequestTimeout', message: 'Timed out' }],
  ])('signs in when the pool answers %s once', async (_label, failure) => {
    fakePool.addUser({ username: 'alice@example.com' });
    fakePool.failNext('InitiateAuth', failure);
    const result = await signInAlice();
    expect(result.isSignedIn).toBe(true);
    expect(fakePool.calls.filter((call) => call === 'InitiateAuth')).toHaveLength(2);
    expect((await getCurrentUser()).username).toBe('alice@example.com');
  });

  it('retries a 503, then a 429, before succeeding', async () => {
    fakePool.addUser({ username: 'alice@example.com' });
    fakePool.failNext('InitiateAuth', { status: 503 });
    fakePool.failNext('InitiateAuth', { status: 429 });
    expect((await signInAlice()).isSignedIn).toBe(true);
    expect(fakePool.calls.filter((call) => call === 'InitiateAuth')).toHaveLength(3);
  });

  it('retries other identity calls too (fetching the user attributes)', async () => {
    fakePool.addUser({ username: 'alice@example.com' });
    await signInAlice();
    fakePool.failNext('GetUser', { status: 400, name: 'ThrottlingException', message: 'Rate exceeded' });
    expect((await fetchUserAttributes()).email).toBe('alice@example.com');
    expect(fakePool.calls.filter((call) => call === 'GetUser')).toHaveLength(2);
  });

  it('does not retry a wrong password', async () => {
    fakePool.addUser({ username: 'alice@example.com' });
    await expect(signIn({ username: 'alice@example.com', password: 'wrong-password', options: { authFlowType: 'USER_PASSWORD_AUTH' } })).rejects.toThrow(
      'Incorrect username or password.',
    );
    expect(fakePool.calls.filter((call) => call === 'InitiateAuth')).toHaveLength(1);
  });

  it('gives up after three attempts when the pool keeps failing', async () => {
    fakePool.addUser({ username: 'alice@example.com' });
    fakePool.failNext('InitiateAuth', { status: 503 }, 3);
    await expect(signInAlice()).rejects.toThrow();
    expect(fakePool.calls.filter((call) => call === 'InitiateAuth')).toHaveLength(3);
  });

  // The app sets no back-off of its own: it relies on Amplify's, whose cap happens to be SPEC's
  // 300000 ms. This pins Amplify's cap to SPEC's value, so an Amplify upgrade that changes it fails here.
  it("pins Amplify's back-off cap to SPEC's 300000 ms (a guard against an Amplify upgrade)", () => {
    expect(jitteredBackoff(30)).toBe(IDENTITY_RETRY_BACKOFF_CAP_MS);
  });
});
