import type { SnapshotFrom } from 'xstate';
import { AUTO_REFILL_OFF } from '@/config/billing';
import type { CreditTier } from '@/config/credit-tiers';
import type {
  BillingAccount,
  CheckoutResult,
  creditsPageMachine,
} from '@/machines/credits-page/credits-page.machine';
import { selectCurrentUser, selectSessionStatus } from '@/machines/session/session.selectors';
import type { SessionSnapshot } from '@/machines/session/session.selectors';
import type { CreditHistoryEntry } from '@/services/schemas/payments';

export type CreditsPageSnapshot = SnapshotFrom<typeof creditsPageMachine>;

/**
 * Whether someone is signed in is not known yet (the session is starting, or loading a user it
 * does not have yet): the page shows a placeholder, neither itself nor the sign-in prompt.
 */
export const selectSignInUndecided = (session: SessionSnapshot): boolean => {
  const status = selectSessionStatus(session);
  return status === 'booting' || (status === 'loadingUser' && !selectCurrentUser(session));
};

// The billing account (saved card, auto-refill).
export type AccountStatus = 'loading' | 'ready' | 'saving' | 'failed';
export const selectAccountStatus = (snapshot: CreditsPageSnapshot): AccountStatus => {
  if (snapshot.matches({ account: 'ready' })) return 'ready';
  if (snapshot.matches({ account: 'saving' })) return 'saving';
  if (snapshot.matches({ account: 'failed' })) return 'failed';
  return 'loading';
};
export const selectAccount = (snapshot: CreditsPageSnapshot): BillingAccount | null => snapshot.context.account;
/** The option to show as chosen: the one being saved, else the one in force. */
export const selectAutoRefillValue = (snapshot: CreditsPageSnapshot): string =>
  snapshot.context.pendingAutoRefill ?? snapshot.context.account?.autoRefill ?? AUTO_REFILL_OFF;
export const selectHasSavedCard = (snapshot: CreditsPageSnapshot): boolean => Boolean(snapshot.context.account?.card);

// The checkout the person came back from.
export const selectCheckoutChecking = (snapshot: CreditsPageSnapshot): boolean =>
  snapshot.matches({ checkout: 'checking' }) || snapshot.matches({ checkout: 'waiting' });
export const selectCheckoutResult = (snapshot: CreditsPageSnapshot): CheckoutResult | null =>
  snapshot.context.checkoutResult;

// The credit history.
export type HistoryStatus = 'loading' | 'ready' | 'loadingMore' | 'failed';
export const selectHistoryStatus = (snapshot: CreditsPageSnapshot): HistoryStatus => {
  if (snapshot.matches({ history: 'ready' })) return 'ready';
  if (snapshot.matches({ history: 'loadingMore' })) return 'loadingMore';
  if (snapshot.matches({ history: 'failed' })) return 'failed';
  return 'loading';
};
export const selectHistory = (snapshot: CreditsPageSnapshot): CreditHistoryEntry[] => snapshot.context.history;
export const selectHasMoreHistory = (snapshot: CreditsPageSnapshot): boolean => snapshot.context.nextStartKeys !== null;
export const selectHistoryMoreFailed = (snapshot: CreditsPageSnapshot): boolean => snapshot.context.historyMoreFailed;

// Leaving for the card provider.
/** True while a checkout, the portal or a receipt is being opened: the buttons that leave wait. */
export const selectIsLeaving = (snapshot: CreditsPageSnapshot): boolean => !snapshot.matches({ exit: 'idle' });
export const selectBuyingPackId = (snapshot: CreditsPageSnapshot): string | null => snapshot.context.buyingPackId;
export const selectOpeningPortal = (snapshot: CreditsPageSnapshot): boolean => snapshot.matches({ exit: 'openingPortal' });
export const selectReceiptPaymentId = (snapshot: CreditsPageSnapshot): string | null =>
  snapshot.context.receiptPaymentId;

// The cost comparison.
export const selectComparisonInput = (snapshot: CreditsPageSnapshot): string | null => snapshot.context.comparisonInput;

/**
 * The credit number of the cost comparison (SPEC §3: it defaults to 0): what the person typed,
 * else their balance, else 0. Anything that is not a whole number of at least 0 counts as 0.
 */
export function comparisonCredits(input: string | null, balance: number | null): number {
  if (input === null) return Math.max(0, Math.floor(balance ?? 0));
  const value = Number(input.trim());
  return input.trim() !== '' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

/** How many generations of a kind `credits` buys at `price` each; null when the tier does not price it. */
export const generationsFor = (credits: number, price: number): number | null =>
  price > 0 ? Math.floor(credits / price) : null;

export interface CostComparisonRow {
  id: string;
  label: string;
  video: number | null;
  image: number | null;
  audio: number | null;
}

/** One row per tier of the app configuration: how many videos, images and audio `credits` buys. */
export const costComparison = (tiers: readonly CreditTier[], credits: number): CostComparisonRow[] =>
  tiers.map((tier) => ({
    id: tier.id,
    label: tier.label,
    video: generationsFor(credits, tier.credits.Video),
    image: generationsFor(credits, tier.credits.Image),
    audio: generationsFor(credits, tier.credits.Audio),
  }));
