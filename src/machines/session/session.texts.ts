/**
 * What the session shows a person that SPEC does not give word for word (SPEC's own texts live in
 * src/config/messages.ts). Failures otherwise show the error's own message: Amplify's are readable.
 */
export const SESSION_TEXTS = {
  codeSent: (destination: string | undefined): string =>
    destination ? `We sent a code to ${destination}.` : 'We sent you a code.',
  newCodeSent: (destination: string | undefined): string =>
    destination ? `We sent a new code to ${destination}.` : 'We sent you a new code.',
  accountReady: 'Your account is ready. Sign in with your e-mail address and password.',
  signUpConfirmed: 'Your e-mail address is confirmed. Sign in with your password.',
  passwordChanged: 'Your password is changed. Sign in with it.',
  confirmSignUpFirst: 'Your e-mail address is not confirmed yet. Enter the code we sent you, or ask for a new one.',
  passwordResetRequired: 'Your password has to be reset. Send yourself a code to choose a new one.',
  mfaCodeSent: (destination: string | undefined): string =>
    destination ? `Enter the code we sent to ${destination}.` : 'Enter the code from your authenticator app.',
  signInFailed: 'The sign-in failed. Please try again.',
  handleNotSaved: 'Handle not saved',
  handleSaved: 'Handle saved',
  /** The account menu entry that opens Verify Email again after Cancel. */
  verifyEmailLater: 'Verify email',
  handleSavedMessage: (handle: string): string => `Your public profile is now at /@${handle}.`,
  /** The top banner (SPEC §2.9 item 5) once the account is gone and the person signed out. */
  accountDeleted: 'Your account and everything in it have been deleted.',
  accountNotDeleted: 'Account not deleted',
  codeNotSent: 'Code not sent',
} as const;
