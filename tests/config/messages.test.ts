import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@/config/messages';

describe('messages of SPEC §2.9 and §4', () => {
  it('has the Verify Email modal texts', () => {
    expect(MESSAGES.verifyEmail).toEqual({
      title: 'Verify Email',
      text: 'Please confirm your email address',
      codePlaceholder: 'Please input email confirmation code.',
      resend: 'Resend',
      verify: 'Verify',
      cancel: 'Cancel',
    });
    expect(MESSAGES.emailVerified).toEqual({ title: 'Verified', message: 'Thank you for verifying your email.' });
    expect(MESSAGES.invalidCode.title).toBe('Invalid Code');
  });

  it('has the guest welcome modal with each point SPEC lists', () => {
    expect(MESSAGES.guestWelcome.title).toBe('Welcome our dear guest!');
    expect(MESSAGES.guestWelcome.confirm).toBe('Confirm');
    const text = MESSAGES.guestWelcome.points.join(' ');
    expect(text).toMatch(/visible to other guests/);
    expect(text).toMatch(/deleted every week/);
    expect(text).toMatch(/logo/);
    expect(text).toMatch(/not for heavy orders/);
    expect(text).toMatch(/Sign up/);
  });

  it('builds the coupon success text with the credits', () => {
    expect(MESSAGES.couponSuccess.title).toBe('Congratulations!');
    expect(MESSAGES.couponSuccess.message(150)).toBe('You got 150 credits from this coupon. Please check your credits.');
    expect(MESSAGES.couponSuccess.confirm).toBe('Confirm');
  });

  it('has the error fallback', () => {
    expect(MESSAGES.errorFallback).toEqual({ title: 'Oops, there is an error!', retry: 'Try again?' });
  });
});

describe('error catalogue of SPEC §8, word for word', () => {
  it.each([
    ['creditsFetchFailed', 'Error', 'Failed to fetch user credits'],
    ['batchNotFound', 'Batch Not Found', 'Failed to find a Batch with this id'],
    ['replaceBackgroundVideoFailed', 'Failed to create a new content', 'API Error'],
    ['handleNotAvailable', 'Handle not Available', 'Your handle is not available Please choose another.'],
    ['buyCreditsFailed', 'Error', 'Failed to buy credits. Try again later or contact us'],
    ['autoRefillSet', 'Success', 'You set auto-refill for credits.'],
    ['autoRefillFailed', 'Error', 'Failed to set auto-refill. Try again later or contact us'],
    ['creditHistoryFailed', 'Error', 'Failed to get credit history. Try again later or contact us'],
  ] as const)('%s shows "%s" / "%s"', (key, title, message) => {
    expect(MESSAGES[key]).toEqual({ title, message });
  });

  it('has the single-line texts', () => {
    expect(MESSAGES.apiError).toBe('api error');
    expect(MESSAGES.noUploadFile).toBe('No upload file');
    expect(MESSAGES.notAuthenticated).toBe('User needs to be authenticated to call this API.');
    expect(MESSAGES.noSession).toBe('Auth session was not found.');
  });
});
