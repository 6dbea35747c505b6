import { MESSAGES } from '../../../src/config/messages.ts';

/**
 * The `detail` texts the API answers with. The one SPEC §8 gives word for word comes from the
 * app's messages module so both sides stay identical.
 */
export const NOT_AUTHENTICATED = MESSAGES.notAuthenticated;

export const DETAILS = {
  notFound: 'Not found.',
  internal: 'Something went wrong on the server. Please try again.',
  invalidApiKey: 'The X-Api-Key header is missing or wrong.',
  couponNotFound: 'This coupon code does not exist or is no longer active.',
  couponAlreadyRedeemed: 'You have already redeemed this coupon.',
  couponExhausted: 'This coupon has been redeemed the maximum number of times.',
  userNotFound: 'User not found.',
  accountDeleteFailed: 'The account could not be deleted. Please try again.',
  guestAccountProtected: 'The shared guest account cannot be deleted.',
  badRequest: 'The request could not be read.',
} as const;
