import type { SnapshotFrom } from 'xstate';
import type { emailVerificationMachine } from '@/machines/session/email-verification.machine';

export type EmailVerificationSnapshot = SnapshotFrom<typeof emailVerificationMachine>;

/** A code is being sent or checked: disable the buttons, show a loader. */
export const selectVerificationBusy = (snapshot: EmailVerificationSnapshot): boolean =>
  snapshot.matches({ open: 'sending' }) || snapshot.matches({ open: 'verifying' });

/** The modal shows until Cancel or a verified code closes it. */
export const selectVerificationOpen = (snapshot: EmailVerificationSnapshot): boolean => snapshot.matches('open');

/** Put off (Cancel) in this sign-in: the account menu offers to open it again. */
export const selectVerificationClosed = (snapshot: EmailVerificationSnapshot): boolean => snapshot.matches('closed');

export const selectCodeSentTo = (snapshot: EmailVerificationSnapshot): string | null => snapshot.context.codeSentTo;
