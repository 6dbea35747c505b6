import { formatDateTime } from '@/lib/format';

/**
 * The words of the credits page (/credits). SPEC §8's toasts (buy, auto-refill, history) are in
 * `MESSAGES`; everything else a person reads on this page is here.
 */
export const CREDITS_TEXTS = {
  title: 'Credits and billing',
  intro: 'Buy credits, let them top up on their own, and see every credit you got or spent.',
  signInPrompt: 'Your balance, the credit packs, auto-refill and your credit history show here once you are signed in.',
  signIn: 'Sign in to see your credits',

  balanceHeading: 'Your balance',
  balance: (credits: number): string => `${credits} credits`,
  balanceUnknown: '— credits',
  balanceLoading: 'Loading your balance…',

  packsHeading: 'Buy credits',
  packCredits: (credits: number): string => `${credits} credits`,
  buy: 'Buy',
  buyLabel: (label: string, credits: number, price: string): string => `Buy ${label}: ${credits} credits for ${price}`,
  leaving: 'Opening the checkout…',
  checkoutNote: 'You pay on the card provider’s page and come back here when it is done.',

  checkoutChecking: 'Checking your payment…',
  paymentReceived: (credits: number): string => `Payment received: ${credits} credits were added.`,
  paymentCancelled: 'Payment cancelled: nothing was charged.',
  paymentDeclined: 'Your card was declined: nothing was charged.',
  paymentExpired: 'This checkout expired: nothing was charged.',
  paymentPending: 'We have not received this payment yet. It shows in your history below as soon as it arrives.',
  paymentUnknown: 'We could not check this payment. Your history below lists every purchase.',
  dismiss: 'Dismiss',

  autoRefillHeading: 'Auto-refill',
  autoRefillIntro: 'When a generation leaves your balance under the threshold, the pack is bought with your saved card.',
  autoRefillLabel: 'Auto-refill',
  savedCard: (brand: string, last4: string): string => `Saved card: ${brand} ending in ${last4}`,
  noCard: 'Auto-refill needs a saved card: buy a credit pack once and the card you pay with is kept for auto-refill.',
  autoRefillSaving: 'Saving auto-refill…',
  accountLoading: 'Loading your auto-refill setting…',
  accountFailed: 'We could not load your auto-refill setting.',
  retry: 'Try again',

  portalHeading: 'Billing',
  portalIntro: 'See your saved card and every payment, and remove the card, in the billing portal.',
  portal: 'Billing portal',
  portalFailed: 'We could not open the billing portal. Try again later.',
  receiptFailed: 'We could not open this receipt. Try again later.',
  errorTitle: 'Error',

  historyHeading: 'Credit history',
  historyEmpty: 'No credit activity yet. Buy a pack or make something, and it shows here.',
  historyLoading: 'Loading your credit history…',
  historyFailed: 'Your credit history could not be loaded.',
  historyMoreFailed: 'The next page could not be loaded.',
  loadMore: 'Load more',
  receipt: 'Receipt',
  receiptLabel: (reason: string): string => `Receipt: ${reason}`,
  viewJob: 'The job these credits were for',
  jobReference: (jobId: string): string => `job ${jobId}`,
  columns: { date: 'Date', kind: 'Kind', reason: 'Details', amount: 'Amount', balanceAfter: 'Balance after', actions: 'Actions' },

  comparisonHeading: 'What your credits buy',
  comparisonIntro: 'How many generations a number of credits buys in each price tier.',
  comparisonInput: 'Credits',
  comparisonColumns: { tier: 'Tier', video: 'Videos', image: 'Images', audio: 'Audio' },
  notPriced: '—',
} as const;

/** What each kind of ledger row (`LEDGER_ENTRY_KINDS`) is called in the history table. */
export const LEDGER_KIND_LABELS: Readonly<Record<string, string>> = {
  debit: 'Spent',
  refund: 'Refund',
  purchase: 'Purchase',
  coupon: 'Coupon',
  transfer: 'Transfer',
  grant: 'Grant',
  reset: 'Weekly reset',
};

/** "+100" for a credit, "−20" for a debit (a true minus sign). */
export const formatCreditAmount = (amount: number): string => (amount < 0 ? `−${Math.abs(amount)}` : `+${amount}`);

/** A history row's date and time, or the stored text when it does not parse. */
export const formatHistoryDate = formatDateTime;
