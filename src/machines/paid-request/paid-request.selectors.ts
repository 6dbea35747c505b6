import type { SnapshotFrom } from 'xstate';
import type { PaidRequestOutput, paidRequestMachine } from '@/machines/paid-request/paid-request.machine';

export type PaidRequestSnapshot = SnapshotFrom<typeof paidRequestMachine>;

export type PaidRequestStage = 'checkingCredit' | 'waiting' | 'submitting' | 'retrying' | 'done' | 'refused' | 'failed';

/** Where the paid call is (a parent shows "reconnecting" while it is retrying). */
export const selectPaidRequestStage = (snapshot: PaidRequestSnapshot): PaidRequestStage => snapshot.value as PaidRequestStage;

/** No answer came: the call is sent again with the same key after a wait. */
export const selectPaidRequestReconnecting = (snapshot: PaidRequestSnapshot): boolean => snapshot.hasTag('reconnecting');

/** Sends again so far. */
export const selectPaidRequestRetries = (snapshot: PaidRequestSnapshot): number => snapshot.context.retryAttempt;

/** The key every send of this click carries. */
export const selectPaidRequestKey = (snapshot: PaidRequestSnapshot): string => snapshot.context.idempotencyKey;

/** How it ended; null while it runs. */
export const selectPaidRequestOutcome = (snapshot: PaidRequestSnapshot): PaidRequestOutput | null => snapshot.context.outcome;
