import type { AnyActorRef } from 'xstate';
import type { PaidRequestSnapshot } from '@/machines/paid-request/paid-request.selectors';

/**
 * The paid-request child a parent invoked as `paidRequest` (the story wizard's and the album's
 * `generating`), from a parent snapshot: its state and context as it was started (a graph walk's
 * child is created but never started, so its credit check is decided and nothing more).
 */
export const paidChildOf = (snapshot: { children: unknown }): PaidRequestSnapshot | undefined =>
  (snapshot.children as Record<string, AnyActorRef | undefined>).paidRequest?.getSnapshot() as PaidRequestSnapshot | undefined;
