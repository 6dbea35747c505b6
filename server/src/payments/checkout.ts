import { CURRENCY, findCreditPack, type CreditPack } from '../../../src/config/billing.ts';
import { ROUTES } from '../../../src/config/routes.ts';
import type { SavedCard } from '../../../src/services/schemas/credits.ts';
import type { CheckoutStatus } from '../../../src/services/schemas/payments.ts';
import { appendLedgerEntry } from '../db/credit-ledger.ts';
import { creditCustomerAccount } from '../db/customer-ledger.ts';
import { lockCustomer } from '../db/customers.ts';
import type { Database } from '../db/database.ts';
import {
  claimCheckoutSession,
  findCheckoutSession,
  insertCheckoutSession,
  insertPayment,
  newPaymentId,
  saveCard,
  type CardDetails,
  type CardProviderName,
  type CheckoutSessionRow,
  type NewCheckoutSession,
  type PaymentRow,
} from '../db/payments.ts';

/** How long a checkout can be paid. */
export const CHECKOUT_TTL_MINUTES = 30;

/** The local provider's checkout page for a session (root-relative: the browser is sent there). */
export const checkoutUrl = (sessionId: string): string => `/local/checkout/${encodeURIComponent(sessionId)}`;

/** The ledger reason of a bought pack: "Bought 100 credits (Starter)". */
export const purchaseReason = (pack: Pick<CreditPack, 'credits' | 'label'>): string =>
  `Bought ${pack.credits} credits (${pack.label})`;

/** A checkout of the card provider: the session and the page that takes the payment. */
export interface CreatedCheckout {
  session: CheckoutSessionRow;
  checkoutUrl: string;
}

/**
 * Opens a checkout for one pack (GET credits/purchase/{id}; POST customer/user/purchase with a
 * customerId). Null when the pack does not exist. The caller checks the person may buy for the
 * organisation.
 */
export async function createCheckoutSession(
  db: Database,
  request: { userSub: string; packId: string; customerId?: string | null },
): Promise<CreatedCheckout | null> {
  const opened = await insertPackCheckout(db, request, { expiresInMinutes: CHECKOUT_TTL_MINUTES });
  return opened && { session: opened.session, checkoutUrl: checkoutUrl(opened.session.id) };
}

/**
 * The checkout_sessions row of a pack bought by a person (or for their organisation), whichever
 * card provider takes the payment; null when the pack does not exist.
 */
export async function insertPackCheckout(
  db: Database,
  request: { userSub: string; packId: string; customerId?: string | null },
  options: { expiresInMinutes: number; provider?: NewCheckoutSession['provider'] },
): Promise<{ pack: CreditPack; session: CheckoutSessionRow } | null> {
  const pack = findCreditPack(request.packId);
  if (!pack) return null;
  const session = await insertCheckoutSession(db, {
    userSub: request.userSub,
    customerId: request.customerId ?? null,
    packId: pack.id,
    credits: pack.credits,
    amountCents: pack.priceCents,
    currency: CURRENCY,
    ...options,
  });
  return { pack, session };
}

export type ConfirmSource = 'checkout' | 'webhook';

/** Which provider confirms (only its own sessions), and its id of the payment (Stripe's pi_…). */
export interface ConfirmProvider {
  provider: CardProviderName;
  providerPaymentId: string | null;
}

const LOCAL_CONFIRMATION: ConfirmProvider = { provider: 'local', providerPaymentId: null };

export type ConfirmResult =
  | { outcome: 'confirmed'; session: CheckoutSessionRow; payment: PaymentRow }
  /** Paid already (by an earlier confirmation), cancelled or expired: nothing was written. */
  | { outcome: 'not-open'; session: CheckoutSessionRow }
  | { outcome: 'not-found' };

/**
 * Confirms a checkout exactly once, whichever way the confirmation arrives (the checkout page's
 * POST, the provider's webhook, either twice): one transaction flips the session from open to
 * paid, and only that winner writes the payment and the credits — the person's `purchase` ledger
 * row, or the organisation's ledger row for an organisation's purchase. The card it was paid with
 * (if the page or the provider named one) is kept for auto-refill. A provider confirms only the
 * sessions it opened.
 */
export async function confirmCheckout(
  db: Database,
  sessionId: string,
  source: ConfirmSource,
  card: CardDetails | null = null,
  by: ConfirmProvider = LOCAL_CONFIRMATION,
): Promise<ConfirmResult> {
  const confirmed = await db.transaction(async (tx) => {
    const paymentId = newPaymentId();
    const session = await claimCheckoutSession(tx, sessionId, paymentId, by.provider);
    if (!session) return null;
    const reason = purchaseReason({ credits: session.credits, label: findCreditPack(session.pack_id)?.label ?? session.pack_id });
    const savedCard: SavedCard | null = card ? { brand: card.brand, last4: card.last4 } : null;
    const paymentFields = {
      id: paymentId,
      userSub: session.user_sub,
      customerId: session.customer_id,
      checkoutSessionId: session.id,
      source,
      packId: session.pack_id,
      credits: session.credits,
      amountCents: session.amount_cents,
      currency: session.currency,
      card: savedCard,
      providerPaymentId: by.providerPaymentId,
    };
    let payment: PaymentRow;
    if (session.customer_id) {
      // The organisation's row lock is taken before anything is written: one deleted meanwhile
      // rolls the whole confirmation back (the session stays open, nothing is credited).
      if (!(await lockCustomer(tx, session.customer_id))) throw new Error(`organisation ${session.customer_id} no longer exists`);
      payment = await insertPayment(tx, { ...paymentFields, ledgerId: null });
      await creditCustomerAccount(tx, {
        customerId: session.customer_id,
        amount: session.credits,
        kind: 'purchase',
        reason,
        paymentId,
      });
    } else {
      const ledgerId = await appendLedgerEntry(tx, { userSub: session.user_sub, amount: session.credits, kind: 'purchase', reason });
      payment = await insertPayment(tx, { ...paymentFields, ledgerId });
    }
    if (card) await saveCard(tx, session.user_sub, card);
    return { session, payment };
  });
  if (confirmed) return { outcome: 'confirmed', ...confirmed };
  const session = await findCheckoutSession(db, sessionId);
  return session ? { outcome: 'not-open', session } : { outcome: 'not-found' };
}

/** Where the person goes back to after a checkout: the credits page, or the organisation's page. */
export function checkoutReturnUrl(session: Pick<CheckoutSessionRow, 'id' | 'customer_id'>, outcome: 'success' | 'cancelled'): string {
  const page = session.customer_id ? ROUTES.organisationDetail(session.customer_id) : ROUTES.credits;
  const query = new URLSearchParams({ checkout: outcome, session_id: session.id });
  return `${page}?${query.toString()}`;
}

/** GET credits/checkout/{sessionId}'s answer. */
export const checkoutStatusOf = (session: CheckoutSessionRow): CheckoutStatus => ({
  session_id: session.id,
  status: session.status,
  pack_id: session.pack_id,
  credits: session.credits,
  amount_cents: session.amount_cents,
  currency: session.currency,
  customer_id: session.customer_id,
  payment_id: session.payment_id,
});
