import { NETWORK_RETRY_BASE_MS } from '@/config/limits';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { waitFor } from 'xstate';
import { getAccessToken } from '@/services/auth';
import type * as AuthService from '@/services/auth';
import { redeemCoupon } from '@/services/coupon';
import type { SessionSnapshot } from '@/machines/session/session.selectors';
import {
  selectAccountBusy,
  selectAuthBusy,
  selectAuthError,
  selectAuthNotice,
  selectAuthView,
  selectCreditsRef,
  selectCurrentUser,
  selectEmailVerificationRef,
  selectGuestSignInAvailable,
  selectHandle,
  selectHandleStatus,
  selectIsGuest,
  selectIsOffline,
  selectIsSignedIn,
  selectMfaMethod,
  selectMfaOptions,
  selectModal,
  selectPendingEmail,
  selectSessionStatus,
  selectSocialProviders,
} from '@/machines/session/session.selectors';
import { selectCreditBalance } from '@/machines/session/credits.selectors';
import {
  selectCodeSentTo,
  selectVerificationBusy,
  selectVerificationClosed,
  selectVerificationOpen,
} from '@/machines/session/email-verification.selectors';
import { ACCESS_TOKEN, ALLOWED_REDIRECT, buildUser, createFakes, dispatchAuth, inSession, startSession } from './session.fixtures';

vi.mock('@/services/coupon', () => ({ redeemCoupon: vi.fn() }));
vi.mock('@/services/auth', async (importOriginal) => ({
  ...(await importOriginal<typeof AuthService>()),
  getAccessToken: vi.fn(),
}));

const MINUTE = 60_000;
const encodedToken = btoa(ACCESS_TOKEN);

const isReady = (s: SessionSnapshot) => selectSessionStatus(s) === 'ready';
const isSignedOut = (s: SessionSnapshot) => selectSessionStatus(s) === 'signedOut';

beforeEach(() => {
  vi.mocked(getAccessToken).mockResolvedValue(ACCESS_TOKEN);
  vi.mocked(redeemCoupon).mockResolvedValue({ credits: 50 });
});

afterEach(() => {
  vi.useRealTimers();
  vi.clearAllMocks();
});

const freshFakes = () => createFakes();

/** A session whose boot finds `user` already signed in. */
function bootWith(user: ReturnType<typeof buildUser> | null, options: Parameters<typeof startSession>[0] = {}) {
  const fakes = options.fakes ?? freshFakes();
  fakes.loadUser.mockResolvedValue(user);
  return startSession({ ...options, fakes });
}

describe('booting', () => {
  it('is signed out when nobody is signed in, with the sign-in view', async () => {
    const { actor } = startSession();
    expect(selectSessionStatus(actor.getSnapshot())).toBe('booting');
    const snapshot = await waitFor(actor, isSignedOut);
    expect(selectAuthView(snapshot)).toBe('signIn');
    expect(selectIsSignedIn(snapshot)).toBe(false);
    expect(selectCurrentUser(snapshot)).toBeNull();
    expect(selectCreditsRef(snapshot)).toBeUndefined();
    actor.stop();
  });

  it('is signed out from its first snapshot for a visitor, without loading the user', () => {
    const { actor, fakes } = startSession({ input: { visitor: true } });
    const snapshot = actor.getSnapshot();
    expect(selectSessionStatus(snapshot)).toBe('signedOut');
    expect(selectAuthView(snapshot)).toBe('signIn');
    expect(fakes.loadUser).not.toHaveBeenCalled();
    actor.stop();
  });

  it('signs a visitor in as it signs in anyone signed out', async () => {
    const { actor, fakes } = startSession({ input: { visitor: true } });
    fakes.loadUser.mockResolvedValue(buildUser());
    dispatchAuth('signedIn');
    await waitFor(actor, isReady);
    expect(fakes.loadUser).toHaveBeenCalledTimes(1);
    actor.stop();
  });

  it('finds a signed-in user, runs the post-load steps and is ready', async () => {
    const { actor, fakes } = bootWith(buildUser({ attributes: { preferred_username: 'ada' } }), {
      input: { location: { pathname: '/ai-image/text-to-image', search: '' } },
    });
    const snapshot = await waitFor(actor, isReady);
    expect(selectIsSignedIn(snapshot)).toBe(true);
    expect(selectHandle(snapshot)).toBe('ada');
    expect(fakes.loadUser).toHaveBeenCalledTimes(1);
    await waitFor(actor, (s) => selectCreditBalance(selectCreditsRef(s)!.getSnapshot()) === 100);
    actor.stop();
  });

  it('waits for the network when it cannot tell who is signed in, then tries again', async () => {
    const fakes = freshFakes();
    fakes.loadUser.mockRejectedValueOnce(Object.assign(new Error('Network error'), { name: 'NetworkError' }));
    fakes.loadUser.mockResolvedValueOnce(buildUser());
    const { actor } = startSession({ fakes });
    await waitFor(actor, (s) => inSession(s, { booting: 'waitingForNetwork' }));
    window.dispatchEvent(new Event('online'));
    await waitFor(actor, isReady);
    expect(fakes.loadUser).toHaveBeenCalledTimes(2);
    actor.stop();
  });

  it('tries again with a doubling back-off, capped at a minute, while the browser says online but the server is unreachable', async () => {
    vi.useFakeTimers();
    const fakes = freshFakes();
    fakes.loadUser.mockRejectedValue(Object.assign(new Error('Network error'), { name: 'NetworkError' }));
    const { actor } = startSession({ fakes });
    const waiting = (s: SessionSnapshot) => inSession(s, { booting: 'waitingForNetwork' });
    await waitFor(actor, waiting);
    expect(fakes.loadUser).toHaveBeenCalledTimes(1);

    for (const [attempt, wait] of [2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000].entries()) {
      vi.advanceTimersByTime(wait - 1);
      expect(fakes.loadUser).toHaveBeenCalledTimes(attempt + 1);
      vi.advanceTimersByTime(1);
      expect(fakes.loadUser).toHaveBeenCalledTimes(attempt + 2);
      await waitFor(actor, waiting);
    }

    fakes.loadUser.mockResolvedValue(buildUser());
    vi.advanceTimersByTime(60_000);
    await waitFor(actor, isReady);
    actor.stop();
  });

  it('clears the tokens Amplify holds when the boot fails for another reason, then is signed out where it was', async () => {
    const fakes = freshFakes();
    fakes.loadUser.mockRejectedValueOnce(Object.assign(new Error('Access Token has been revoked'), { name: 'NotAuthorizedException' }));
    const { actor, ofType } = startSession({ fakes, input: { location: { pathname: '/ai-image/text-to-image', search: '' } } });
    await waitFor(actor, isSignedOut);
    expect(fakes.signOut).toHaveBeenCalledTimes(1);
    expect(ofType('session.navigate')).toEqual([]);
    actor.stop();
  });
});

describe('signing in', () => {
  it('signs in with e-mail and password using the configured auth flow, then loads the user', async () => {
    const { actor, fakes, ofType } = startSession({ input: { location: { pathname: '/authentication', search: '' } } });
    await waitFor(actor, isSignedOut);
    fakes.loadUser.mockResolvedValue(buildUser());

    actor.send({ type: 'session.signIn', username: ' ada@example.com ', password: 'secret1' });
    expect(selectSessionStatus(actor.getSnapshot())).toBe('signingIn');
    expect(selectAuthBusy(actor.getSnapshot())).toBe(true);
    expect(selectPendingEmail(actor.getSnapshot())).toBe('ada@example.com');
    await waitFor(actor, isReady);

    expect(fakes.signInWithPassword).toHaveBeenCalledWith({
      username: 'ada@example.com',
      password: 'secret1',
      authFlowType: 'USER_PASSWORD_AUTH',
    });
    // On /authentication with a handle: to the profile, without leaving the sign-in page in history.
    expect(ofType('session.navigate')).toEqual([{ type: 'session.navigate', to: '/@ada', replace: true }]);
    actor.stop();
  });

  it('loads the user after sign-in with a back-off when the server cannot be reached', async () => {
    vi.useFakeTimers();
    const { actor, fakes } = startSession();
    await waitFor(actor, isSignedOut);
    fakes.loadUser
      .mockRejectedValueOnce(Object.assign(new Error('Network error'), { name: 'NetworkError' }))
      .mockResolvedValue(buildUser());
    actor.send({ type: 'session.signIn', username: 'ada@example.com', password: 'secret1' });
    await waitFor(actor, (s) => inSession(s, { signedIn: { flow: 'waitingForNetwork' } }));
    expect(selectIsOffline(actor.getSnapshot())).toBe(true);
    vi.advanceTimersByTime(2000);
    await waitFor(actor, isReady);
    // At boot (nobody), after the sign-in (no network), after the back-off.
    expect(fakes.loadUser).toHaveBeenCalledTimes(3);
    actor.stop();
  });

  it('shows the error message Cognito gives and stays on the sign-in view', async () => {
    const { actor, fakes } = startSession();
    await waitFor(actor, isSignedOut);
    fakes.signInWithPassword.mockRejectedValueOnce(
      Object.assign(new Error('Incorrect username or password.'), { name: 'NotAuthorizedException' }),
    );
    actor.send({ type: 'session.signIn', username: 'ada@example.com', password: 'wrong1' });
    const snapshot = await waitFor(actor, (s) => selectAuthError(s) !== null);
    expect(selectAuthError(snapshot)).toBe('Incorrect username or password.');
    expect(selectAuthView(snapshot)).toBe('signIn');
    expect(selectAuthBusy(snapshot)).toBe(false);
    expect(isSignedOut(snapshot)).toBe(true);
    actor.stop();
  });

  it('loads the user when Amplify already holds one', async () => {
    const { actor, fakes } = startSession();
    await waitFor(actor, isSignedOut);
    fakes.signInWithPassword.mockRejectedValueOnce(
      Object.assign(new Error('There is already a signed in user.'), { name: 'UserAlreadyAuthenticatedException' }),
    );
    fakes.loadUser.mockResolvedValue(buildUser());
    actor.send({ type: 'session.signIn', username: 'ada@example.com', password: 'secret1' });
    await waitFor(actor, isReady);
    actor.stop();
  });

  it('asks which MFA method to use, then for the TOTP code', async () => {
    const { actor, fakes } = startSession();
    await waitFor(actor, isSignedOut);
    fakes.signInWithPassword.mockResolvedValueOnce({ kind: 'mfaSelection', options: ['SMS', 'TOTP'] });
    fakes.answerChallenge.mockResolvedValueOnce({ kind: 'mfaCode', method: 'TOTP' });
    fakes.answerChallenge.mockResolvedValueOnce({ kind: 'done' });
    fakes.loadUser.mockResolvedValue(buildUser());

    actor.send({ type: 'session.signIn', username: 'ada@example.com', password: 'secret1' });
    let snapshot = await waitFor(actor, (s) => selectAuthView(s) === 'mfaSelection' && !selectAuthBusy(s));
    expect(selectMfaOptions(snapshot)).toEqual(['SMS', 'TOTP']);

    actor.send({ type: 'session.selectMfa', method: 'TOTP' });
    snapshot = await waitFor(actor, (s) => selectAuthView(s) === 'mfaCode' && !selectAuthBusy(s));
    expect(fakes.answerChallenge).toHaveBeenLastCalledWith({ response: 'TOTP' });
    expect(selectMfaMethod(snapshot)).toBe('TOTP');

    actor.send({ type: 'session.confirmSignIn', code: ' 123456 ' });
    await waitFor(actor, isReady);
    expect(fakes.answerChallenge).toHaveBeenLastCalledWith({ response: '123456' });
    actor.stop();
  });

  it('refuses an MFA method that was not offered', async () => {
    const { actor, fakes } = startSession();
    await waitFor(actor, isSignedOut);
    fakes.signInWithPassword.mockResolvedValueOnce({ kind: 'mfaSelection', options: ['TOTP'] });
    actor.send({ type: 'session.signIn', username: 'ada@example.com', password: 'secret1' });
    await waitFor(actor, (s) => inSession(s, { signingIn: 'mfaSelection' }));
    actor.send({ type: 'session.selectMfa', method: 'SMS' });
    expect(inSession(actor.getSnapshot(), { signingIn: 'mfaSelection' })).toBe(true);
    expect(fakes.answerChallenge).not.toHaveBeenCalled();
    actor.stop();
  });

  it('says where the SMS code went and keeps the code step after a wrong code', async () => {
    const { actor, fakes } = startSession();
    await waitFor(actor, isSignedOut);
    fakes.signInWithPassword.mockResolvedValueOnce({ kind: 'mfaCode', method: 'SMS', destination: '+*******1234' });
    fakes.answerChallenge.mockRejectedValueOnce(
      Object.assign(new Error('Invalid code received for user'), { name: 'CodeMismatchException' }),
    );
    actor.send({ type: 'session.signIn', username: 'ada@example.com', password: 'secret1' });
    let snapshot = await waitFor(actor, (s) => inSession(s, { signingIn: 'mfaCode' }));
    expect(selectMfaMethod(snapshot)).toBe('SMS');
    expect(selectAuthNotice(snapshot)).toContain('+*******1234');

    actor.send({ type: 'session.confirmSignIn', code: '000000' });
    snapshot = await waitFor(actor, (s) => selectAuthError(s) !== null);
    expect(selectAuthView(snapshot)).toBe('mfaCode');
    expect(selectAuthError(snapshot)).toBe('Invalid code received for user');
    actor.stop();
  });

  it('asks for a new password when Cognito requires one', async () => {
    const { actor, fakes } = startSession();
    await waitFor(actor, isSignedOut);
    fakes.signInWithPassword.mockResolvedValueOnce({ kind: 'newPassword' });
    fakes.loadUser.mockResolvedValue(buildUser());
    actor.send({ type: 'session.signIn', username: 'ada@example.com', password: 'temporary' });
    await waitFor(actor, (s) => selectAuthView(s) === 'newPassword' && !selectAuthBusy(s));
    actor.send({ type: 'session.setNewPassword', password: 'brand-new' });
    await waitFor(actor, isReady);
    expect(fakes.answerChallenge).toHaveBeenCalledWith({ response: 'brand-new' });
    actor.stop();
  });

  it('sends an unconfirmed account to the confirm step, and a reset one to the reset view', async () => {
    const { actor, fakes } = startSession();
    await waitFor(actor, isSignedOut);
    fakes.signInWithPassword.mockResolvedValueOnce({ kind: 'confirmSignUp' });
    actor.send({ type: 'session.signIn', username: 'new@example.com', password: 'secret1' });
    let snapshot = await waitFor(actor, (s) => selectAuthView(s) === 'confirmSignUp');
    expect(selectPendingEmail(snapshot)).toBe('new@example.com');
    expect(selectAuthNotice(snapshot)).toMatch(/not confirmed/);

    actor.send({ type: 'session.showSignIn' });
    fakes.signInWithPassword.mockResolvedValueOnce({ kind: 'resetPassword' });
    actor.send({ type: 'session.signIn', username: 'old@example.com', password: 'secret1' });
    snapshot = await waitFor(actor, (s) => selectAuthView(s) === 'forgotPassword');
    expect(selectPendingEmail(snapshot)).toBe('old@example.com');
    actor.stop();
  });

  it('cancels a sign-in in progress back to the sign-in view', async () => {
    const { actor, fakes } = startSession();
    await waitFor(actor, isSignedOut);
    fakes.signInWithPassword.mockResolvedValueOnce({ kind: 'mfaCode', method: 'TOTP' });
    actor.send({ type: 'session.signIn', username: 'ada@example.com', password: 'secret1' });
    await waitFor(actor, (s) => inSession(s, { signingIn: 'mfaCode' }));
    actor.send({ type: 'session.cancelSignIn' });
    expect(inSession(actor.getSnapshot(), { signedOut: 'signIn' })).toBe(true);
    expect(selectMfaMethod(actor.getSnapshot())).toBeNull();
    actor.stop();
  });

  it('signs in as the guest with the configured password', async () => {
    const { actor, fakes } = startSession();
    await waitFor(actor, isSignedOut);
    expect(selectGuestSignInAvailable(actor.getSnapshot())).toBe(true);
    fakes.loadUser.mockResolvedValue(buildUser({ username: 'guest', attributes: { preferred_username: 'guest' } }));
    actor.send({ type: 'session.signInAsGuest' });
    await waitFor(actor, (s) => selectIsGuest(s));
    expect(fakes.signInWithPassword).toHaveBeenCalledWith({
      username: 'guest',
      password: 'guest-password',
      authFlowType: 'USER_PASSWORD_AUTH',
    });
    actor.stop();
  });

  it('offers no guest sign-in without a guest password', async () => {
    const { actor, fakes } = startSession({ input: { guestPassword: undefined } });
    await waitFor(actor, isSignedOut);
    expect(selectGuestSignInAvailable(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'session.signInAsGuest' });
    expect(isSignedOut(actor.getSnapshot())).toBe(true);
    expect(fakes.signInWithPassword).not.toHaveBeenCalled();
    actor.stop();
  });

  it('lists all three social providers and only starts the ones the pool has', async () => {
    const { actor, fakes } = startSession({ input: { socialProviders: ['Google'] } });
    await waitFor(actor, isSignedOut);
    expect(selectSocialProviders(actor.getSnapshot())).toEqual([
      { provider: 'Google', available: true },
      { provider: 'Facebook', available: false },
      { provider: 'Apple', available: false },
    ]);
    // The same array while the configuration is the same (no needless re-render).
    expect(selectSocialProviders(actor.getSnapshot())).toBe(selectSocialProviders(actor.getSnapshot()));

    actor.send({ type: 'session.signInWithProvider', provider: 'Apple' });
    expect(fakes.signInWithProvider).not.toHaveBeenCalled();

    fakes.signInWithProvider.mockRejectedValueOnce(new Error('The hosted UI is not reachable.'));
    actor.send({ type: 'session.signInWithProvider', provider: 'Google' });
    expect(selectAuthBusy(actor.getSnapshot())).toBe(true);
    const snapshot = await waitFor(actor, (s) => selectAuthError(s) !== null);
    expect(fakes.signInWithProvider).toHaveBeenCalledWith({ provider: 'Google' });
    expect(selectAuthError(snapshot)).toBe('The hosted UI is not reachable.');
    actor.stop();
  });

  it('shows a failed social sign-in reported by the Hub', async () => {
    const { actor } = startSession();
    await waitFor(actor, isSignedOut);
    dispatchAuth('signInWithRedirect_failure', { error: new Error('access_denied') });
    expect(selectAuthError(actor.getSnapshot())).toBe('access_denied');
    actor.stop();
  });
});

describe('sign-up and password reset', () => {
  it('signs up, confirms with the code and returns to sign-in with the address kept', async () => {
    const { actor, fakes } = startSession();
    await waitFor(actor, isSignedOut);
    actor.send({ type: 'session.showSignUp' });
    expect(selectAuthView(actor.getSnapshot())).toBe('signUp');

    actor.send({ type: 'session.signUp', email: 'new@example.com', password: 'secret1' });
    expect(selectAuthBusy(actor.getSnapshot())).toBe(true);
    let snapshot = await waitFor(actor, (s) => inSession(s, { signedOut: 'confirmSignUp' }));
    expect(fakes.signUp).toHaveBeenCalledWith({ email: 'new@example.com', password: 'secret1' });
    expect(selectAuthNotice(snapshot)).toBe('We sent a code to a***@e***.com.');

    fakes.resendSignUpCode.mockResolvedValueOnce({ destination: 'n***@e***.com' });
    actor.send({ type: 'session.resendSignUpCode' });
    snapshot = await waitFor(actor, (s) => inSession(s, { signedOut: 'confirmSignUp' }) && !selectAuthBusy(s));
    expect(fakes.resendSignUpCode).toHaveBeenCalledWith({ email: 'new@example.com' });
    expect(selectAuthNotice(snapshot)).toBe('We sent a new code to n***@e***.com.');

    fakes.confirmSignUp.mockRejectedValueOnce(new Error('Invalid verification code provided, please try again.'));
    actor.send({ type: 'session.confirmSignUp', code: '111111' });
    snapshot = await waitFor(actor, (s) => selectAuthError(s) !== null);
    expect(selectAuthView(snapshot)).toBe('confirmSignUp');
    expect(selectAuthError(snapshot)).toBe('Invalid verification code provided, please try again.');

    actor.send({ type: 'session.confirmSignUp', code: ' 123456 ' });
    snapshot = await waitFor(actor, (s) => inSession(s, { signedOut: 'signIn' }));
    expect(fakes.confirmSignUp).toHaveBeenLastCalledWith({ email: 'new@example.com', code: '123456' });
    expect(selectAuthNotice(snapshot)).toMatch(/confirmed/);
    expect(selectPendingEmail(snapshot)).toBe('new@example.com');
    actor.stop();
  });

  it('shows a failed sign-up on the sign-up view', async () => {
    const { actor, fakes } = startSession();
    await waitFor(actor, isSignedOut);
    actor.send({ type: 'session.showSignUp' });
    fakes.signUp.mockRejectedValueOnce(Object.assign(new Error('User already exists'), { name: 'UsernameExistsException' }));
    actor.send({ type: 'session.signUp', email: 'ada@example.com', password: 'secret1' });
    const snapshot = await waitFor(actor, (s) => selectAuthError(s) !== null);
    expect(selectAuthView(snapshot)).toBe('signUp');
    expect(selectAuthError(snapshot)).toBe('User already exists');
    actor.stop();
  });

  it('goes straight back to sign-in when the pool confirmed the account by itself', async () => {
    const { actor, fakes } = startSession();
    await waitFor(actor, isSignedOut);
    actor.send({ type: 'session.showSignUp' });
    fakes.signUp.mockResolvedValueOnce({ needsConfirmation: false });
    actor.send({ type: 'session.signUp', email: 'new@example.com', password: 'secret1' });
    const snapshot = await waitFor(actor, (s) => inSession(s, { signedOut: 'signIn' }));
    expect(selectAuthNotice(snapshot)).toMatch(/ready/);
    actor.stop();
  });

  it('resets a forgotten password with the mailed code', async () => {
    const { actor, fakes } = startSession();
    await waitFor(actor, isSignedOut);
    actor.send({ type: 'session.showForgotPassword' });
    expect(selectAuthView(actor.getSnapshot())).toBe('forgotPassword');

    actor.send({ type: 'session.requestPasswordReset', email: 'ada@example.com' });
    let snapshot = await waitFor(actor, (s) => selectAuthView(s) === 'resetPassword');
    expect(fakes.requestPasswordReset).toHaveBeenCalledWith({ email: 'ada@example.com' });
    expect(selectAuthNotice(snapshot)).toBe('We sent a code to a***@e***.com.');

    fakes.confirmPasswordReset.mockRejectedValueOnce(new Error('Invalid code provided, please request a code again.'));
    actor.send({ type: 'session.confirmPasswordReset', code: '1', newPassword: 'brand-new' });
    snapshot = await waitFor(actor, (s) => selectAuthError(s) !== null);
    expect(selectAuthView(snapshot)).toBe('resetPassword');

    actor.send({ type: 'session.confirmPasswordReset', code: '123456', newPassword: 'brand-new' });
    snapshot = await waitFor(actor, (s) => inSession(s, { signedOut: 'signIn' }));
    expect(fakes.confirmPasswordReset).toHaveBeenLastCalledWith({
      email: 'ada@example.com',
      code: '123456',
      newPassword: 'brand-new',
    });
    expect(selectAuthNotice(snapshot)).toBe('Your password is changed. Sign in with it.');
    actor.stop();
  });

  it('shows a failed reset request on the forgot-password view', async () => {
    const { actor, fakes } = startSession();
    await waitFor(actor, isSignedOut);
    actor.send({ type: 'session.showForgotPassword' });
    fakes.requestPasswordReset.mockRejectedValueOnce(new Error('Attempt limit exceeded, please try after some time.'));
    actor.send({ type: 'session.requestPasswordReset', email: 'ada@example.com' });
    const snapshot = await waitFor(actor, (s) => selectAuthError(s) !== null);
    expect(selectAuthView(snapshot)).toBe('forgotPassword');
    actor.stop();
  });
});

describe('what a URL hands over while signed out (SPEC §2.2, §4 "Coupon")', () => {
  it('stores coupon_code and redirect_uri with its state from the first address and from later ones', async () => {
    const { actor } = startSession({ input: { location: { pathname: '/', search: '?coupon_code=WELCOME50' } } });
    await waitFor(actor, isSignedOut);
    expect(JSON.parse(localStorage.getItem('coupon_code')!)).toBe('WELCOME50');

    actor.send({
      type: 'location.changed',
      pathname: '/authentication',
      search: `?redirect_uri=${encodeURIComponent(ALLOWED_REDIRECT)}&state=xyz`,
    });
    expect(JSON.parse(localStorage.getItem('redirect_uri')!)).toBe(ALLOWED_REDIRECT);
    expect(JSON.parse(localStorage.getItem('redirect_state')!)).toBe('xyz');
    expect(JSON.parse(localStorage.getItem('coupon_code')!)).toBe('WELCOME50');
    actor.stop();
  });

  it('does not store what the address holds once a user is signed in', async () => {
    const { actor } = bootWith(buildUser());
    await waitFor(actor, isReady);
    actor.send({ type: 'location.changed', pathname: '/', search: '?coupon_code=LATER' });
    expect(localStorage.getItem('coupon_code')).toBeNull();
    actor.stop();
  });
});

describe('after a user is loaded (SPEC §4, in order)', () => {
  it('1. takes the stored redirect first, clears it, and sends the browser there with code and state', async () => {
    localStorage.setItem('redirect_uri', JSON.stringify(ALLOWED_REDIRECT));
    localStorage.setItem('redirect_state', JSON.stringify('stored-state'));
    localStorage.setItem('coupon_code', JSON.stringify('KEEP'));
    const { actor, ofType } = bootWith(buildUser(), {
      input: {
        location: { pathname: '/', search: `?redirect_uri=${encodeURIComponent(ALLOWED_REDIRECT + '?x=1')}&state=query` },
      },
    });
    await waitFor(actor, isReady);

    expect(ofType('session.redirect')).toEqual([
      { type: 'session.redirect', url: `${ALLOWED_REDIRECT}?code=${encodeURIComponent(encodedToken)}&state=stored-state` },
    ]);
    expect(localStorage.getItem('redirect_uri')).toBeNull();
    expect(localStorage.getItem('redirect_state')).toBeNull();
    // Nothing of step 3 happens: no coupon, no routing.
    expect(redeemCoupon).not.toHaveBeenCalled();
    expect(localStorage.getItem('coupon_code')).not.toBeNull();
    expect(ofType('session.navigate')).toEqual([]);
    actor.stop();
  });

  it('2. otherwise uses the redirect_uri and state of the query', async () => {
    const search = `?redirect_uri=${encodeURIComponent(ALLOWED_REDIRECT)}&state=abc%20def`;
    const { actor, ofType } = bootWith(buildUser(), { input: { location: { pathname: '/authentication', search } } });
    await waitFor(actor, isReady);
    const [redirect] = ofType('session.redirect');
    const url = new URL(redirect!.url);
    expect(`${url.origin}${url.pathname}`).toBe(ALLOWED_REDIRECT);
    expect(atob(url.searchParams.get('code')!)).toBe(ACCESS_TOKEN);
    expect(url.searchParams.get('state')).toBe('abc def');
    actor.stop();
  });

  it('refuses a redirect_uri that is not allowlisted: a modal, no redirect, still signed in', async () => {
    const { actor, ofType } = bootWith(buildUser(), {
      input: { location: { pathname: '/authentication', search: '?redirect_uri=https%3A%2F%2Fevil.example%2F&state=s' } },
    });
    const snapshot = await waitFor(actor, isReady);
    expect(ofType('session.redirect')).toEqual([]);
    expect(getAccessToken).not.toHaveBeenCalled();
    expect(selectModal(snapshot)).toEqual({ kind: 'redirectRefused', redirectUri: 'https://evil.example/' });
    expect(selectIsSignedIn(snapshot)).toBe(true);
    // The person carries on: routed from the sign-in page to the profile.
    expect(ofType('session.navigate')).toEqual([{ type: 'session.navigate', to: '/@ada', replace: true }]);

    actor.send({ type: 'modal.confirm' });
    expect(selectModal(actor.getSnapshot())).toBeNull();
    actor.stop();
  });

  it('refuses a stored redirect that is not allowlisted, and clears it as well', async () => {
    localStorage.setItem('redirect_uri', JSON.stringify('https://partner.example/oauth/callback/'));
    localStorage.setItem('redirect_state', JSON.stringify('s'));
    const { actor, ofType } = bootWith(buildUser());
    const snapshot = await waitFor(actor, isReady);
    expect(ofType('session.redirect')).toEqual([]);
    expect(selectModal(snapshot)).toMatchObject({ kind: 'redirectRefused' });
    expect(localStorage.getItem('redirect_uri')).toBeNull();
    expect(localStorage.getItem('redirect_state')).toBeNull();
    actor.stop();
  });

  it('does not redirect when no access token can be had, and routes instead', async () => {
    vi.mocked(getAccessToken).mockResolvedValueOnce(null);
    const { actor, ofType } = bootWith(buildUser(), {
      input: { location: { pathname: '/', search: `?redirect_uri=${encodeURIComponent(ALLOWED_REDIRECT)}` } },
    });
    await waitFor(actor, isReady);
    expect(ofType('session.redirect')).toEqual([]);
    expect(ofType('session.navigate')).toEqual([{ type: 'session.navigate', to: '/@ada', replace: false }]);
    actor.stop();
  });

  it('3a. welcomes the guest, and continues once the welcome is confirmed', async () => {
    const guest = buildUser({ username: 'guest', attributes: { preferred_username: 'guest' } });
    const { actor, ofType } = bootWith(guest, { input: { location: { pathname: '/', search: '?coupon_code=WELCOME50' } } });
    let snapshot = await waitFor(actor, (s) => inSession(s, { signedIn: { flow: { postLoad: 'guestWelcome' } } }));
    expect(selectModal(snapshot)).toEqual({ kind: 'guestWelcome' });
    expect(selectSessionStatus(snapshot)).toBe('postLoad');
    expect(redeemCoupon).not.toHaveBeenCalled();

    actor.send({ type: 'modal.confirm' });
    snapshot = await waitFor(actor, isReady);
    expect(redeemCoupon).toHaveBeenCalledWith('WELCOME50');
    expect(selectModal(snapshot)).toEqual({ kind: 'coupon', credits: 50 });
    expect(ofType('session.navigate').at(-1)).toEqual({ type: 'session.navigate', to: '/@guest', replace: false });
    actor.stop();
  });

  it('welcomes the guest once per sign-in: not again on a reload, again after signing out', async () => {
    const guest = buildUser({ username: 'guest', attributes: { preferred_username: 'guest' } });
    const first = bootWith(guest);
    await waitFor(first.actor, (s) => inSession(s, { signedIn: { flow: { postLoad: 'guestWelcome' } } }));
    first.actor.send({ type: 'modal.confirm' });
    await waitFor(first.actor, isReady);
    first.actor.stop();

    // A reload (or a deep link) boots a new session with the same sign-in.
    const reloaded = bootWith(guest);
    const snapshot = await waitFor(reloaded.actor, isReady);
    expect(selectModal(snapshot)).toBeNull();
    reloaded.actor.send({ type: 'session.signOut' });
    await waitFor(reloaded.actor, (s) => inSession(s, 'signedOut'));
    reloaded.actor.stop();

    const signedInAgain = bootWith(guest);
    await waitFor(signedInAgain.actor, (s) => inSession(s, { signedIn: { flow: { postLoad: 'guestWelcome' } } }));
    signedInAgain.actor.stop();
  });

  it('does not welcome a registered user', async () => {
    const { actor } = bootWith(buildUser());
    const snapshot = await waitFor(actor, isReady);
    expect(selectModal(snapshot)).toBeNull();
    actor.stop();
  });

  it('3b. removes a stored coupon and redeems it rather than the query one', async () => {
    localStorage.setItem('coupon_code', JSON.stringify('STORED'));
    const { actor } = bootWith(buildUser(), { input: { location: { pathname: '/', search: '?coupon_code=QUERY' } } });
    await waitFor(actor, isReady);
    expect(redeemCoupon).toHaveBeenCalledTimes(1);
    expect(redeemCoupon).toHaveBeenCalledWith('STORED');
    expect(localStorage.getItem('coupon_code')).toBeNull();
    actor.stop();
  });

  it('3b. otherwise redeems the query coupon; success refreshes credits and user and shows the modal', async () => {
    const fakes = freshFakes();
    fakes.loadUser.mockResolvedValue(buildUser());
    fakes.fetchCredits.mockResolvedValueOnce({ credit: 10 }).mockResolvedValue({ credit: 60 });
    vi.mocked(redeemCoupon).mockResolvedValueOnce({ credits: 50 });
    const { actor, ofType } = startSession({
      fakes,
      input: { location: { pathname: '/ai-video/ai-motion', search: '?coupon_code=WELCOME50&tab=2' } },
    });
    const snapshot = await waitFor(actor, isReady);

    expect(redeemCoupon).toHaveBeenCalledWith('WELCOME50');
    expect(selectModal(snapshot)).toEqual({ kind: 'coupon', credits: 50 });
    // The user is loaded at boot and again after the coupon.
    expect(fakes.loadUser).toHaveBeenCalledTimes(2);
    await waitFor(actor, (s) => selectCreditBalance(selectCreditsRef(s)!.getSnapshot()) === 60);
    expect(fakes.fetchCredits).toHaveBeenCalledTimes(2);
    // The person stays on the page; the handoff parameters leave the address.
    expect(ofType('session.navigate')).toEqual([{ type: 'session.navigate', to: '/ai-video/ai-motion?tab=2', replace: true }]);
    actor.stop();
  });

  it('ignores a failed redemption silently', async () => {
    vi.mocked(redeemCoupon).mockRejectedValueOnce(new Error('Coupon already used'));
    const { actor, ofType, fakes } = bootWith(buildUser(), { input: { location: { pathname: '/', search: '?coupon_code=USED' } } });
    const snapshot = await waitFor(actor, isReady);
    expect(selectModal(snapshot)).toBeNull();
    expect(ofType('session.notify')).toEqual([]);
    expect(fakes.loadUser).toHaveBeenCalledTimes(1);
    actor.stop();
  });

  it('3c. sends a user without a handle to /account', async () => {
    const { actor, ofType } = bootWith(buildUser({ attributes: { preferred_username: undefined } }), {
      input: { location: { pathname: '/ai-image/text-to-image', search: '' } },
    });
    await waitFor(actor, isReady);
    expect(ofType('session.navigate')).toEqual([{ type: 'session.navigate', to: '/account', replace: false }]);
    actor.stop();
  });

  it('3c. sends a user with a handle on / or /authentication to the profile, and leaves other pages alone', async () => {
    for (const [pathname, expected] of [
      ['/', [{ type: 'session.navigate', to: '/@ada', replace: false }]],
      ['/authentication', [{ type: 'session.navigate', to: '/@ada', replace: true }]],
      ['/account', []],
      ['/ai-audio/text-to-speech', []],
    ] as const) {
      const { actor, ofType } = bootWith(buildUser(), { input: { location: { pathname, search: '' } } });
      await waitFor(actor, isReady);
      expect(ofType('session.navigate')).toEqual(expected);
      actor.stop();
    }
  });

  it('uses the address the app reports last', async () => {
    const fakes = freshFakes();
    let finishLoading: (user: ReturnType<typeof buildUser>) => void = () => {};
    fakes.loadUser.mockImplementationOnce(() => new Promise((resolve) => (finishLoading = resolve)));
    const { actor, ofType } = startSession({ fakes, input: { location: { pathname: '/', search: '' } } });
    actor.send({ type: 'location.changed', pathname: '/ai-video/ai-motion', search: '' });
    finishLoading(buildUser());
    await waitFor(actor, isReady);
    expect(ofType('session.navigate')).toEqual([]);
    actor.stop();
  });
});

describe('auth events from the Hub (SPEC §4)', () => {
  it('signedIn (e.g. back from a social provider) loads the user and the credits', async () => {
    const { actor, fakes } = startSession({ input: { location: { pathname: '/authentication', search: '' } } });
    await waitFor(actor, isSignedOut);
    fakes.loadUser.mockResolvedValue(buildUser());
    dispatchAuth('signedIn', { username: 'ada', userId: 'sub-ada' });
    const snapshot = await waitFor(actor, isReady);
    expect(selectCurrentUser(snapshot)?.userId).toBe('sub-ada');
    await waitFor(actor, (s) => selectCreditBalance(selectCreditsRef(s)!.getSnapshot()) === 100);
    actor.stop();
  });

  it('signedIn while signed in reloads the user and refreshes the credits', async () => {
    const { actor, fakes } = bootWith(buildUser());
    await waitFor(actor, (s) => isReady(s) && selectCreditBalance(selectCreditsRef(s)!.getSnapshot()) === 100);
    fakes.loadUser.mockResolvedValue(buildUser({ attributes: { preferred_username: 'ada2' } }));
    fakes.fetchCredits.mockResolvedValue({ credit: 7 });
    dispatchAuth('signedIn');
    await waitFor(actor, (s) => isReady(s) && selectHandle(s) === 'ada2');
    await waitFor(actor, (s) => selectCreditBalance(selectCreditsRef(s)!.getSnapshot()) === 7);
    expect(fakes.loadUser).toHaveBeenCalledTimes(2);
    actor.stop();
  });

  it('signedIn while signed in does not run the post-load steps again', async () => {
    const guest = buildUser({ username: 'guest', attributes: { preferred_username: 'guest' } });
    const { actor, fakes, ofType } = bootWith(guest, { input: { location: { pathname: '/', search: '?coupon_code=WELCOME50' } } });
    await waitFor(actor, (s) => inSession(s, { signedIn: { flow: { postLoad: 'guestWelcome' } } }));
    // During the post-load steps: they carry on, the user is reloaded afterwards.
    dispatchAuth('signedIn');
    expect(actor.getSnapshot().context.modals).toEqual([{ kind: 'guestWelcome' }]);
    actor.send({ type: 'modal.confirm' });
    await waitFor(actor, (s) => isReady(s) && inSession(s, { signedIn: { flow: { ready: 'idle' } } }) && fakes.loadUser.mock.calls.length === 3);
    expect(actor.getSnapshot().context.modals).toEqual([{ kind: 'coupon', credits: 50 }]);
    actor.send({ type: 'modal.confirm' });

    // Once ready: only the user and the credits.
    const navigations = ofType('session.navigate').length;
    const credits = fakes.fetchCredits.mock.calls.length;
    dispatchAuth('signedIn');
    await waitFor(actor, (s) => inSession(s, { signedIn: { flow: { ready: 'idle' } } }) && fakes.loadUser.mock.calls.length === 4);
    await waitFor(actor, () => fakes.fetchCredits.mock.calls.length === credits + 1);
    expect(selectModal(actor.getSnapshot())).toBeNull();
    expect(redeemCoupon).toHaveBeenCalledTimes(1);
    expect(ofType('session.navigate')).toHaveLength(navigations);
    actor.stop();
  });

  it('signedIn during a handle save lets the save finish, then reloads the user', async () => {
    const { actor, fakes, ofType } = bootWith(buildUser());
    await waitFor(actor, isReady);
    actor.send({ type: 'session.setHandle', handle: 'ada_l' });
    dispatchAuth('signedIn');
    expect(selectHandleStatus(actor.getSnapshot())).toBe('checking');
    await waitFor(actor, (s) => selectHandleStatus(s) === 'idle' && inSession(s, { signedIn: { flow: { ready: 'idle' } } }));
    expect(fakes.saveHandle).toHaveBeenCalledWith('ada_l');
    expect(ofType('session.navigate').at(-1)).toEqual({ type: 'session.navigate', to: '/@ada_l', replace: false });
    // Boot, after the save, and the reload Hub signedIn asked for.
    expect(fakes.loadUser).toHaveBeenCalledTimes(3);
    actor.stop();
  });

  it('signedOut signs the session out and goes to /', async () => {
    const { actor, ofType, fakes } = bootWith(buildUser({ attributes: { email_verified: 'false' } }));
    await waitFor(actor, isReady);
    expect(selectEmailVerificationRef(actor.getSnapshot())).toBeDefined();
    dispatchAuth('signedOut');
    const snapshot = actor.getSnapshot();
    expect(isSignedOut(snapshot)).toBe(true);
    expect(selectCurrentUser(snapshot)).toBeNull();
    expect(selectCreditsRef(snapshot)).toBeUndefined();
    expect(selectEmailVerificationRef(snapshot)).toBeUndefined();
    expect(ofType('session.navigate').at(-1)).toEqual({ type: 'session.navigate', to: '/', replace: false });
    expect(fakes.signOut).not.toHaveBeenCalled();
    actor.stop();
  });
});

describe('session tokens (SPEC §4)', () => {
  it('a refresh failure for want of a network keeps the user signed in, and refreshes when it is back', async () => {
    const { actor, fakes } = bootWith(buildUser());
    await waitFor(actor, isReady);
    dispatchAuth('tokenRefresh_failure', { error: Object.assign(new Error('Network error'), { name: 'NetworkError' }) });
    let snapshot = actor.getSnapshot();
    expect(selectIsOffline(snapshot)).toBe(true);
    expect(selectIsSignedIn(snapshot)).toBe(true);
    expect(fakes.signOut).not.toHaveBeenCalled();

    window.dispatchEvent(new Event('online'));
    snapshot = await waitFor(actor, (s) => !selectIsOffline(s) && inSession(s, { signedIn: { tokens: 'fresh' } }));
    expect(fakes.refreshSession).toHaveBeenCalledTimes(1);
    expect(selectIsSignedIn(snapshot)).toBe(true);
    actor.stop();
  });

  it('retries an offline refresh after a growing wait when the browser never reports "online"', async () => {
    vi.useFakeTimers();
    const fakes = freshFakes();
    const networkError = () => Object.assign(new Error('Network error'), { name: 'NetworkError' });
    fakes.refreshSession.mockRejectedValueOnce(networkError()).mockResolvedValueOnce(true);
    const { actor } = bootWith(buildUser(), { fakes });
    await waitFor(actor, isReady);
    dispatchAuth('tokenRefresh_failure', { error: networkError() });
    expect(selectIsOffline(actor.getSnapshot())).toBe(true);

    vi.advanceTimersByTime(NETWORK_RETRY_BASE_MS);
    expect(fakes.refreshSession).toHaveBeenCalledTimes(1);
    await waitFor(actor, (s) => selectIsOffline(s));
    // The second wait is twice the first.
    vi.advanceTimersByTime(2 * NETWORK_RETRY_BASE_MS - 1);
    expect(fakes.refreshSession).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(fakes.refreshSession).toHaveBeenCalledTimes(2);
    const snapshot = await waitFor(actor, (s) => inSession(s, { signedIn: { tokens: 'fresh' } }));
    expect(selectIsSignedIn(snapshot)).toBe(true);
    actor.stop();
  });

  it('goes offline with the browser and back when Amplify refreshes the tokens by itself', async () => {
    const { actor } = bootWith(buildUser());
    await waitFor(actor, isReady);
    window.dispatchEvent(new Event('offline'));
    expect(selectIsOffline(actor.getSnapshot())).toBe(true);
    dispatchAuth('tokenRefresh');
    expect(selectIsOffline(actor.getSnapshot())).toBe(false);
    actor.stop();
  });

  it('any other refresh failure clears the session: signed out and sent to /', async () => {
    const { actor, fakes, ofType } = bootWith(buildUser());
    await waitFor(actor, isReady);
    dispatchAuth('tokenRefresh_failure', {
      error: Object.assign(new Error('Refresh Token has expired'), { name: 'NotAuthorizedException' }),
    });
    expect(selectSessionStatus(actor.getSnapshot())).toBe('signingOut');
    await waitFor(actor, isSignedOut);
    expect(fakes.signOut).toHaveBeenCalledTimes(1);
    expect(ofType('session.navigate').at(-1)).toEqual({ type: 'session.navigate', to: '/', replace: false });
    actor.stop();
  });

  it('fetches the session again every 50 minutes', async () => {
    vi.useFakeTimers();
    const { actor, fakes } = bootWith(buildUser());
    await waitFor(actor, isReady);

    vi.advanceTimersByTime(50 * MINUTE - 1);
    expect(fakes.refreshSession).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fakes.refreshSession).toHaveBeenCalledTimes(1);
    await waitFor(actor, (s) => inSession(s, { signedIn: { tokens: 'fresh' } }));

    vi.advanceTimersByTime(50 * MINUTE);
    expect(fakes.refreshSession).toHaveBeenCalledTimes(2);
    actor.stop();
  });

  it('signs out when the 50-minute refresh finds the tokens gone, and stays on a network error', async () => {
    vi.useFakeTimers();
    const fakes = freshFakes();
    fakes.refreshSession
      .mockRejectedValueOnce(Object.assign(new Error('offline'), { name: 'NetworkError' }))
      .mockResolvedValueOnce(false);
    const { actor } = bootWith(buildUser(), { fakes });
    await waitFor(actor, isReady);

    vi.advanceTimersByTime(50 * MINUTE);
    await waitFor(actor, (s) => selectIsOffline(s));
    expect(selectIsSignedIn(actor.getSnapshot())).toBe(true);

    window.dispatchEvent(new Event('online'));
    await waitFor(actor, isSignedOut);
    expect(fakes.refreshSession).toHaveBeenCalledTimes(2);
    actor.stop();
  });
});

describe('account actions', () => {
  it('saves a free handle, reloads the user and goes to the profile', async () => {
    const fakes = freshFakes();
    fakes.loadUser
      .mockResolvedValueOnce(buildUser({ attributes: { preferred_username: undefined } }))
      .mockResolvedValue(buildUser({ attributes: { preferred_username: 'ada_l' } }));
    const { actor, ofType } = startSession({ fakes, input: { location: { pathname: '/account', search: '' } } });
    await waitFor(actor, isReady);

    actor.send({ type: 'session.setHandle', handle: ' ada_l ' });
    expect(selectHandleStatus(actor.getSnapshot())).toBe('checking');
    await waitFor(actor, (s) => selectHandleStatus(s) === 'saving');
    const snapshot = await waitFor(actor, (s) => selectHandleStatus(s) === 'idle');

    expect(fakes.checkHandle).toHaveBeenCalledWith('ada_l');
    expect(fakes.saveHandle).toHaveBeenCalledWith('ada_l');
    expect(selectHandle(snapshot)).toBe('ada_l');
    expect(ofType('session.navigate').at(-1)).toEqual({ type: 'session.navigate', to: '/@ada_l', replace: false });
    actor.stop();
  });

  it('says a taken handle is not available and saves nothing', async () => {
    const { actor, fakes, ofType } = bootWith(buildUser());
    await waitFor(actor, isReady);
    fakes.checkHandle.mockResolvedValueOnce(false);
    actor.send({ type: 'session.setHandle', handle: 'taken' });
    await waitFor(actor, (s) => selectHandleStatus(s) === 'idle');
    expect(fakes.saveHandle).not.toHaveBeenCalled();
    expect(ofType('session.notify')).toEqual([
      { type: 'session.notify', tone: 'error', title: 'Handle not Available', message: 'Your handle is not available Please choose another.' },
    ]);
    actor.stop();
  });

  it('treats a failed handle check as not available (SPEC §8)', async () => {
    const { actor, fakes, ofType } = bootWith(buildUser());
    await waitFor(actor, isReady);
    fakes.checkHandle.mockRejectedValueOnce(new Error('api error'));
    actor.send({ type: 'session.setHandle', handle: 'anything' });
    await waitFor(actor, (s) => ofType('session.notify').length === 1 && selectHandleStatus(s) === 'idle');
    expect(ofType('session.notify')[0]).toMatchObject({ title: 'Handle not Available' });
    expect(fakes.saveHandle).not.toHaveBeenCalled();
    actor.stop();
  });

  it('shows why a handle could not be saved', async () => {
    const { actor, fakes, ofType } = bootWith(buildUser());
    await waitFor(actor, isReady);
    fakes.saveHandle.mockRejectedValueOnce(new Error('preferred_username is invalid'));
    actor.send({ type: 'session.setHandle', handle: 'bad' });
    await waitFor(actor, () => ofType('session.notify').length === 1);
    expect(ofType('session.notify')[0]).toMatchObject({ tone: 'error', message: 'preferred_username is invalid' });
    actor.stop();
  });

  it('says a handle is not available when Cognito finds it taken at save time (the claim lost a race)', async () => {
    const { actor, fakes, ofType } = bootWith(buildUser());
    await waitFor(actor, isReady);
    fakes.saveHandle.mockRejectedValueOnce(
      Object.assign(new Error('An account with the given preferred_username already exists.'), { name: 'AliasExistsException' }),
    );
    actor.send({ type: 'session.setHandle', handle: 'raced' });
    await waitFor(actor, (s) => ofType('session.notify').length === 1 && selectHandleStatus(s) === 'idle');
    expect(ofType('session.notify')).toEqual([
      { type: 'session.notify', tone: 'error', title: 'Handle not Available', message: 'Your handle is not available Please choose another.' },
    ]);
    expect(actor.getSnapshot().children.account?.getSnapshot().context.pendingHandle).toBeNull();
    actor.stop();
  });

  it('ignores an empty handle', async () => {
    const { actor, fakes } = bootWith(buildUser());
    await waitFor(actor, isReady);
    actor.send({ type: 'session.setHandle', handle: '   ' });
    expect(selectHandleStatus(actor.getSnapshot())).toBe('idle');
    expect(fakes.checkHandle).not.toHaveBeenCalled();
    actor.stop();
  });

  it('deletes the account, then signs out and goes to /', async () => {
    const { actor, fakes, ofType } = bootWith(buildUser());
    await waitFor(actor, isReady);
    actor.send({ type: 'session.deleteAccount' });
    expect(selectAccountBusy(actor.getSnapshot())).toBe(true);
    await waitFor(actor, isSignedOut);
    expect(fakes.deleteAccount).toHaveBeenCalledTimes(1);
    expect(fakes.signOut).toHaveBeenCalledTimes(1);
    expect(fakes.deleteAccount.mock.invocationCallOrder[0]).toBeLessThan(fakes.signOut.mock.invocationCallOrder[0]!);
    expect(ofType('session.navigate').at(-1)).toEqual({ type: 'session.navigate', to: '/', replace: false });
    actor.stop();
  });

  it('stays signed in and says so when the deletion fails', async () => {
    const { actor, fakes, ofType } = bootWith(buildUser());
    await waitFor(actor, isReady);
    fakes.deleteAccount.mockRejectedValueOnce(new Error('api error'));
    actor.send({ type: 'session.deleteAccount' });
    await waitFor(actor, () => ofType('session.notify').length === 1);
    expect(selectIsSignedIn(actor.getSnapshot())).toBe(true);
    expect(fakes.signOut).not.toHaveBeenCalled();
    actor.stop();
  });

  it('signs out to / (also when Cognito cannot be reached)', async () => {
    for (const outcome of ['ok', 'fails'] as const) {
      const { actor, fakes, ofType } = bootWith(buildUser());
      await waitFor(actor, isReady);
      if (outcome === 'fails') fakes.signOut.mockRejectedValueOnce(new Error('offline'));
      actor.send({ type: 'session.signOut' });
      expect(selectSessionStatus(actor.getSnapshot())).toBe('signingOut');
      expect(selectAccountBusy(actor.getSnapshot())).toBe(true);
      await waitFor(actor, isSignedOut);
      expect(ofType('session.navigate').at(-1)).toEqual({ type: 'session.navigate', to: '/', replace: false });
      actor.stop();
    }
  });

  it('forgets the address the previous person signed in with, so a shared device does not prefill it', async () => {
    const { actor, fakes } = startSession();
    await waitFor(actor, isSignedOut);
    fakes.loadUser.mockResolvedValue(buildUser());
    actor.send({ type: 'session.signIn', username: 'ada@example.com', password: 'secret1' });
    await waitFor(actor, isReady);
    actor.send({ type: 'session.signOut' });
    const snapshot = await waitFor(actor, isSignedOut);
    expect(selectPendingEmail(snapshot)).toBeNull();
    expect(selectAuthNotice(snapshot)).toBeNull();
    actor.stop();
  });

  it('reloads the user on request', async () => {
    const { actor, fakes } = bootWith(buildUser());
    await waitFor(actor, isReady);
    fakes.loadUser.mockResolvedValue(buildUser({ attributes: { user_groups: ['Developer'] } }));
    actor.send({ type: 'session.refreshUser' });
    await waitFor(actor, (s) => selectCurrentUser(s)?.attributes.user_groups[0] === 'Developer');
    actor.stop();
  });
});

describe('credits child', () => {
  it('makes the session show "Error" / "Failed to fetch user credits" after 2 retries', async () => {
    vi.useFakeTimers();
    const fakes = freshFakes();
    fakes.fetchCredits.mockRejectedValue(new Error('api error'));
    const { actor, ofType } = bootWith(buildUser(), { fakes });
    await waitFor(actor, isReady);
    await vi.advanceTimersByTimeAsync(5_000);
    await waitFor(actor, () => ofType('session.notify').length === 1);
    expect(fakes.fetchCredits).toHaveBeenCalledTimes(3);
    expect(ofType('session.notify')).toEqual([
      { type: 'session.notify', tone: 'error', title: 'Error', message: 'Failed to fetch user credits' },
    ]);
    actor.stop();
  });
});

describe('e-mail verification child', () => {
  it('exists only while the e-mail is not verified', async () => {
    const verified = bootWith(buildUser());
    await waitFor(verified.actor, isReady);
    expect(selectEmailVerificationRef(verified.actor.getSnapshot())).toBeUndefined();
    verified.actor.stop();

    const unverified = bootWith(buildUser({ attributes: { email_verified: 'false' } }));
    const snapshot = await waitFor(unverified.actor, isReady);
    const verification = selectEmailVerificationRef(snapshot)!;
    expect(selectVerificationOpen(verification.getSnapshot())).toBe(true);
    unverified.actor.stop();
  });

  it('refuses an empty code, resends, and on success toasts, closes and reloads the user', async () => {
    const fakes = freshFakes();
    fakes.loadUser
      .mockResolvedValueOnce(buildUser({ attributes: { email_verified: 'false' } }))
      .mockResolvedValue(buildUser({ attributes: { email_verified: 'true' } }));
    const { actor, ofType } = startSession({ fakes, input: { location: { pathname: '/account', search: '' } } });
    await waitFor(actor, isReady);
    const verification = selectEmailVerificationRef(actor.getSnapshot())!;

    verification.send({ type: 'emailVerification.verify', code: '  ' });
    expect(selectVerificationBusy(verification.getSnapshot())).toBe(false);
    expect(fakes.confirmVerificationCode).not.toHaveBeenCalled();

    verification.send({ type: 'emailVerification.resend' });
    expect(selectVerificationBusy(verification.getSnapshot())).toBe(true);
    await waitFor(verification, (s) => selectCodeSentTo(s) === 'a***@e***.com');

    verification.send({ type: 'emailVerification.verify', code: '123456' });
    await waitFor(actor, (s) => selectEmailVerificationRef(s) === undefined);
    expect(fakes.confirmVerificationCode).toHaveBeenCalledWith('123456');
    expect(ofType('session.notify')).toEqual([
      { type: 'session.notify', tone: 'success', title: 'Verified', message: 'Thank you for verifying your email.' },
    ]);
    await waitFor(actor, () => fakes.loadUser.mock.calls.length === 2);
    const snapshot = await waitFor(actor, (s) => inSession(s, { signedIn: { flow: { ready: 'idle' } } }));
    expect(selectCurrentUser(snapshot)?.attributes.email_verified).toBe('true');
    expect(selectEmailVerificationRef(snapshot)).toBeUndefined();
    actor.stop();
  });

  it('toasts "Invalid Code" with the server message and stays open', async () => {
    const fakes = freshFakes();
    fakes.confirmVerificationCode.mockRejectedValueOnce(new Error('Invalid verification code provided, please try again.'));
    const { actor, ofType } = bootWith(buildUser({ attributes: { email_verified: 'false' } }), { fakes });
    await waitFor(actor, isReady);
    const verification = selectEmailVerificationRef(actor.getSnapshot())!;
    verification.send({ type: 'emailVerification.verify', code: '000000' });
    await waitFor(actor, () => ofType('session.notify').length === 1);
    expect(ofType('session.notify')[0]).toEqual({
      type: 'session.notify',
      tone: 'error',
      title: 'Invalid Code',
      message: 'Invalid verification code provided, please try again.',
    });
    expect(selectVerificationOpen(verification.getSnapshot())).toBe(true);
    expect(selectVerificationBusy(verification.getSnapshot())).toBe(false);
    actor.stop();
  });

  it('comes once per sign-in: after Cancel a reload keeps it closed, the account menu opens it again', async () => {
    const unverified = buildUser({ attributes: { email_verified: 'false' } });
    const first = bootWith(unverified);
    await waitFor(first.actor, isReady);
    selectEmailVerificationRef(first.actor.getSnapshot())!.send({ type: 'emailVerification.cancel' });
    first.actor.stop();

    const reloaded = bootWith(unverified);
    await waitFor(reloaded.actor, isReady);
    const verification = selectEmailVerificationRef(reloaded.actor.getSnapshot())!;
    expect(selectVerificationOpen(verification.getSnapshot())).toBe(false);
    expect(selectVerificationClosed(verification.getSnapshot())).toBe(true);
    // "Verify email" in the account menu.
    verification.send({ type: 'emailVerification.open' });
    expect(selectVerificationOpen(verification.getSnapshot())).toBe(true);
    reloaded.actor.send({ type: 'session.signOut' });
    await waitFor(reloaded.actor, (s) => inSession(s, 'signedOut'));
    reloaded.actor.stop();

    // A new sign-in shows it again.
    const next = bootWith(unverified);
    await waitFor(next.actor, isReady);
    expect(selectVerificationOpen(selectEmailVerificationRef(next.actor.getSnapshot())!.getSnapshot())).toBe(true);
    next.actor.stop();
  });

  it('stays closed after Cancel, also when the user reloads', async () => {
    const { actor } = bootWith(buildUser({ attributes: { email_verified: 'false' } }));
    await waitFor(actor, isReady);
    const verification = selectEmailVerificationRef(actor.getSnapshot())!;
    verification.send({ type: 'emailVerification.cancel' });
    expect(selectVerificationOpen(verification.getSnapshot())).toBe(false);
    actor.send({ type: 'session.refreshUser' });
    const snapshot = await waitFor(actor, (s) => inSession(s, { signedIn: { flow: { ready: 'idle' } } }));
    expect(selectVerificationOpen(selectEmailVerificationRef(snapshot)!.getSnapshot())).toBe(false);
    actor.stop();
  });
});
