/**
 * Every text SPEC gives word for word (§2.9 overlays, §4 states, §8 error catalogue), in one place.
 * Change a text here only when SPEC changes.
 */

export interface Notice {
  title: string;
  message: string;
}

export const MESSAGES = {
  // §2.9 overlays
  verifyEmail: {
    title: 'Verify Email',
    text: 'Please confirm your email address',
    codePlaceholder: 'Please input email confirmation code.',
    resend: 'Resend',
    verify: 'Verify',
    cancel: 'Cancel',
  },
  guestWelcome: {
    title: 'Welcome our dear guest!',
    // SPEC gives the points of this text, not its wording.
    points: [
      'With the guest account, everything you submit is visible to other guests.',
      'Guest content is deleted every week.',
      'All videos generated with the guest account carry the Kinora logo.',
      'The guest account is for exploring Kinora, not for heavy orders.',
      'Sign up to keep your content private and get videos without the logo.',
    ],
    confirm: 'Confirm',
  },
  couponSuccess: {
    title: 'Congratulations!',
    message: (credits: number): string => `You got ${credits} credits from this coupon. Please check your credits.`,
    confirm: 'Confirm',
  },
  errorFallback: { title: 'Oops, there is an error!', retry: 'Try again?' },

  // §4 e-mail verification
  emailVerified: { title: 'Verified', message: 'Thank you for verifying your email.' } satisfies Notice,
  /** The toast's message is the server's message. */
  invalidCode: { title: 'Invalid Code' },

  // §8 error catalogue
  creditsFetchFailed: { title: 'Error', message: 'Failed to fetch user credits' } satisfies Notice,
  apiError: 'api error',
  batchNotFound: { title: 'Batch Not Found', message: 'Failed to find a Batch with this id' } satisfies Notice,
  replaceBackgroundVideoFailed: { title: 'Failed to create a new content', message: 'API Error' } satisfies Notice,
  handleNotAvailable: {
    title: 'Handle not Available',
    message: 'Your handle is not available Please choose another.',
  } satisfies Notice,
  buyCreditsFailed: {
    title: 'Error',
    message: 'Failed to buy credits. Try again later or contact us',
  } satisfies Notice,
  autoRefillSet: { title: 'Success', message: 'You set auto-refill for credits.' } satisfies Notice,
  autoRefillFailed: {
    title: 'Error',
    message: 'Failed to set auto-refill. Try again later or contact us',
  } satisfies Notice,
  creditHistoryFailed: {
    title: 'Error',
    message: 'Failed to get credit history. Try again later or contact us',
  } satisfies Notice,
  noUploadFile: 'No upload file',
  notAuthenticated: 'User needs to be authenticated to call this API.',
  noSession: 'Auth session was not found.',
} as const;
