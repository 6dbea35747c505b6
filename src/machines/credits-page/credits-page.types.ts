import type { SavedCard } from '@/services/schemas/credits';
import type { CreditHistoryEntry } from '@/services/schemas/payments';
import type { SessionRef } from '@/machines/account-link/account-link';

// The credits page machine's public types, apart from its states and implementations.

/** The `?checkout=success|cancelled&session_id=` the card provider sends the person back with. */
export interface CheckoutReturn {
  outcome: 'success' | 'cancelled';
  sessionId: string;
}

/** What became of the checkout the person came back from, as the page tells it. */
export type CheckoutOutcome = 'paid' | 'cancelled' | 'declined' | 'expired' | 'pending' | 'unknown';

export interface CheckoutResult {
  outcome: CheckoutOutcome;
  credits: number;
}

/** The saved card and auto-refill option of GET credits/get (the balance itself is the session's). */
export interface BillingAccount {
  autoRefill: string;
  card: SavedCard | null;
}

export interface CreditsPageInput {
  checkoutReturn: CheckoutReturn | null;
  /** The app's session: the balance refresh goes to its credits actor (`account`). */
  session?: SessionRef | null;
}

export interface CreditsPageContext {
  checkoutReturn: CheckoutReturn | null;
  checkoutResult: CheckoutResult | null;
  /** Checks of an `open` checkout made so far. */
  checkoutChecks: number;
  account: BillingAccount | null;
  /** The option being saved; shown as chosen while the call runs. */
  pendingAutoRefill: string | null;
  history: CreditHistoryEntry[];
  nextStartKeys: string | null;
  /** The last "Load more" failed: the page offers to try it again. */
  historyMoreFailed: boolean;
  buyingPackId: string | null;
  receiptPaymentId: string | null;
  /** What the person typed in the cost comparison; null until they type (the balance is used). */
  comparisonInput: string | null;
  session: SessionRef | null;
}

export type CreditsPageEvent =
  | { type: 'pack.buy'; packId: string }
  | { type: 'portal.open' }
  | { type: 'receipt.open'; paymentId: string }
  | { type: 'autoRefill.set'; option: string }
  | { type: 'account.retry' }
  | { type: 'account.reload' }
  | { type: 'history.more' }
  | { type: 'history.retry' }
  | { type: 'history.reload' }
  | { type: 'checkout.dismiss' }
  | { type: 'comparison.set'; credits: string };

/**
 * What the page is told (`actor.on`): leave for the provider, show a toast, the balance changed
 * (its refresh is also sent to the credits actor), drop the query.
 */
export type CreditsPageEmitted =
  | { type: 'creditsPage.leave'; url: string }
  | { type: 'creditsPage.notify'; tone: 'success' | 'error'; title: string; message: string }
  | { type: 'creditsPage.creditsChanged' }
  | { type: 'creditsPage.returnHandled' };

