import type { SnapshotFrom } from 'xstate';
import type { creditsMachine } from '@/machines/session/credits.machine';

export type CreditsSnapshot = SnapshotFrom<typeof creditsMachine>;

/** The balance to show; null before the first answer (or after every attempt failed). */
export const selectCreditBalance = (snapshot: CreditsSnapshot): number | null => snapshot.context.balance;

/** True while a fetch, or the wait before retrying one, is under way. */
export const selectCreditsLoading = (snapshot: CreditsSnapshot): boolean =>
  snapshot.matches('loading') || snapshot.matches('waitingToRetry');

/** For a credits actor that may not exist (signed out): its balance, else null. */
export const selectOptionalCreditBalance = (snapshot: CreditsSnapshot | undefined): number | null =>
  snapshot ? selectCreditBalance(snapshot) : null;

/** For a credits actor that may not exist: whether it is loading, else false. */
export const selectOptionalCreditsLoading = (snapshot: CreditsSnapshot | undefined): boolean =>
  snapshot ? selectCreditsLoading(snapshot) : false;
