import { randomBytes } from 'node:crypto';
import { AUTO_REFILL_OFF } from '../../../src/config/billing.ts';
import { GUEST_USERNAME } from '../../../src/config/limits.ts';
import type { SavedCard } from '../../../src/services/schemas/credits.ts';
import type { Database, Queryable } from './database.ts';

/**
 * The card provider's records (migration 8): checkout sessions, payments, the saved card and the
 * auto-refill option. Ledger rows are written by the callers (payments/checkout.ts and the
 * auto-refill hook in credit-ledger.ts), in the same transaction as these rows.
 */

export type CheckoutSessionStatus = 'open' | 'paid' | 'declined' | 'cancelled' | 'expired';
export type PaymentSource = 'checkout' | 'webhook' | 'auto-refill';
/** Who takes the card: the local card page, or Stripe (migration 13). */
export type CardProviderName = 'local' | 'stripe';

export interface CheckoutSessionRow {
  id: string;
  user_sub: string;
  customer_id: string | null;
  pack_id: string;
  credits: number;
  amount_cents: number;
  currency: string;
  status: CheckoutSessionStatus;
  payment_id: string | null;
  last_error: string | null;
  created_at: Date;
  expires_at: Date;
  completed_at: Date | null;
  provider: CardProviderName;
  /** The provider's own id of the checkout (Stripe's cs_…); null for the local page. */
  provider_session_id: string | null;
}

export interface PaymentRow {
  id: string;
  user_sub: string;
  customer_id: string | null;
  checkout_session_id: string | null;
  source: PaymentSource;
  pack_id: string;
  credits: number;
  amount_cents: number;
  currency: string;
  status: 'paid' | 'refunded';
  card_brand: string | null;
  card_last4: string | null;
  ledger_id: string | null;
  /** The provider's id of the payment (Stripe's PaymentIntent pi_…); null for the local page. */
  provider_payment_id: string | null;
  created_at: Date;
}

export interface CardDetails {
  brand: string;
  last4: string;
  expMonth?: number | null;
  expYear?: number | null;
  /** Who keeps the card (default the local page) and its id there (Stripe's pm_…), which auto-refill charges. */
  provider?: CardProviderName;
  providerMethodId?: string | null;
}

export const newCheckoutSessionId = (): string => `cs_${randomBytes(16).toString('base64url')}`;
export const newPaymentId = (): string => `pay_${randomBytes(12).toString('base64url')}`;

const SESSION_COLUMNS = `id, user_sub, customer_id, pack_id, credits, amount_cents, currency, status, payment_id,
  last_error, created_at, expires_at, completed_at, provider, provider_session_id`;
const PAYMENT_COLUMNS = `id, user_sub, customer_id, checkout_session_id, source, pack_id, credits, amount_cents, currency,
  status, card_brand, card_last4, ledger_id::text AS ledger_id, provider_payment_id, created_at`;

// ---- checkout sessions -------------------------------------------------------------------------

export interface NewCheckoutSession {
  userSub: string;
  customerId: string | null;
  packId: string;
  credits: number;
  amountCents: number;
  currency: string;
  /** How long the session can be paid, in minutes. */
  expiresInMinutes: number;
  /** Who takes the payment (default the local card page). */
  provider?: CardProviderName;
}

export async function insertCheckoutSession(db: Queryable, session: NewCheckoutSession): Promise<CheckoutSessionRow> {
  const { rows } = await db.query<CheckoutSessionRow>(
    `INSERT INTO checkout_sessions (id, user_sub, customer_id, pack_id, credits, amount_cents, currency, expires_at, provider)
     VALUES ($1, $2, $3, $4, $5, $6, $7, clock_timestamp() + make_interval(mins => $8), $9)
     RETURNING ${SESSION_COLUMNS}`,
    [
      newCheckoutSessionId(),
      session.userSub,
      session.customerId,
      session.packId,
      session.credits,
      session.amountCents,
      session.currency,
      session.expiresInMinutes,
      session.provider ?? 'local',
    ],
  );
  const row = rows[0];
  if (!row) throw new Error('INSERT INTO checkout_sessions returned no row');
  return row;
}

/** The session, after marking it expired when its time ran out while it was still open. */
export async function findCheckoutSession(db: Queryable, id: string): Promise<CheckoutSessionRow | null> {
  await db.query(
    `UPDATE checkout_sessions SET status = 'expired', completed_at = clock_timestamp()
     WHERE id = $1 AND status = 'open' AND expires_at <= clock_timestamp()`,
    [id],
  );
  const { rows } = await db.query<CheckoutSessionRow>(`SELECT ${SESSION_COLUMNS} FROM checkout_sessions WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/**
 * Flips an open, unexpired session of `provider` to paid and returns it; null when another
 * confirmation got there first (or it was cancelled or expired, or another provider's). The row
 * lock makes exactly one caller the winner. A remote provider's word that the person paid
 * outranks Kinora's own timer: its session is paid even if Kinora marked it expired meanwhile.
 */
export async function claimCheckoutSession(
  tx: Queryable,
  id: string,
  paymentId: string,
  provider: CardProviderName = 'local',
): Promise<CheckoutSessionRow | null> {
  const { rows } = await tx.query<CheckoutSessionRow>(
    `UPDATE checkout_sessions SET status = 'paid', payment_id = $2, last_error = NULL, completed_at = clock_timestamp()
     WHERE id = $1 AND provider = $3
       AND ((status = 'open' AND expires_at > clock_timestamp()) OR ($3 <> 'local' AND status IN ('open', 'expired')))
       AND EXISTS (SELECT 1 FROM users u WHERE u.sub = checkout_sessions.user_sub AND u.deleted_at IS NULL)
     RETURNING ${SESSION_COLUMNS}`,
    [id, paymentId, provider],
  );
  return rows[0] ?? null;
}

/** Notes the provider's own id of a checkout once the provider made it. */
export async function setProviderSessionId(db: Queryable, id: string, providerSessionId: string): Promise<void> {
  await db.query('UPDATE checkout_sessions SET provider_session_id = $2 WHERE id = $1', [id, providerSessionId]);
}

/** Cancels an open session; null when it was not open any more. */
export async function cancelCheckoutSession(db: Queryable, id: string): Promise<CheckoutSessionRow | null> {
  const { rows } = await db.query<CheckoutSessionRow>(
    `UPDATE checkout_sessions SET status = 'cancelled', completed_at = clock_timestamp()
     WHERE id = $1 AND status = 'open' RETURNING ${SESSION_COLUMNS}`,
    [id],
  );
  return rows[0] ?? null;
}

/** Notes a declined attempt; the session stays open so another card can be tried. */
export async function noteCheckoutError(db: Queryable, id: string, error: string): Promise<void> {
  await db.query(`UPDATE checkout_sessions SET last_error = $2 WHERE id = $1 AND status = 'open'`, [id, error]);
}

// ---- payments ----------------------------------------------------------------------------------

export interface NewPayment {
  id?: string;
  userSub: string;
  customerId: string | null;
  checkoutSessionId: string | null;
  source: PaymentSource;
  packId: string;
  credits: number;
  amountCents: number;
  currency: string;
  card: SavedCard | null;
  ledgerId: string | null;
  triggerLedgerId?: string | null;
  providerPaymentId?: string | null;
}

export async function insertPayment(tx: Queryable, payment: NewPayment): Promise<PaymentRow> {
  const { rows } = await tx.query<PaymentRow>(
    `INSERT INTO payments (id, user_sub, customer_id, checkout_session_id, source, pack_id, credits, amount_cents, currency,
       card_brand, card_last4, ledger_id, trigger_ledger_id, provider_payment_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
     RETURNING ${PAYMENT_COLUMNS}`,
    [
      payment.id ?? newPaymentId(),
      payment.userSub,
      payment.customerId,
      payment.checkoutSessionId,
      payment.source,
      payment.packId,
      payment.credits,
      payment.amountCents,
      payment.currency,
      payment.card?.brand ?? null,
      payment.card?.last4 ?? null,
      payment.ledgerId,
      payment.triggerLedgerId ?? null,
      payment.providerPaymentId ?? null,
    ],
  );
  const row = rows[0];
  if (!row) throw new Error('INSERT INTO payments returned no row');
  return row;
}

/** The user's own payment, or null (someone else's payment is as good as unknown). */
export async function findOwnPayment(db: Queryable, id: string, userSub: string): Promise<PaymentRow | null> {
  const { rows } = await db.query<PaymentRow>(`SELECT ${PAYMENT_COLUMNS} FROM payments WHERE id = $1 AND user_sub = $2`, [
    id,
    userSub,
  ]);
  return rows[0] ?? null;
}

/** A payment by id (a signed receipt link names it). */
export async function findPayment(db: Queryable, id: string): Promise<PaymentRow | null> {
  const { rows } = await db.query<PaymentRow>(`SELECT ${PAYMENT_COLUMNS} FROM payments WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/** Every payment the user made, newest first. */
export async function listPayments(db: Queryable, userSub: string): Promise<PaymentRow[]> {
  const { rows } = await db.query<PaymentRow>(
    `SELECT ${PAYMENT_COLUMNS} FROM payments WHERE user_sub = $1 ORDER BY created_at DESC, id DESC`,
    [userSub],
  );
  return rows;
}

// ---- saved card and auto-refill ----------------------------------------------------------------

export async function savedCard(db: Queryable, userSub: string): Promise<SavedCard | null> {
  const { rows } = await db.query<SavedCard>('SELECT brand, last4 FROM payment_methods WHERE user_sub = $1', [userSub]);
  const row = rows[0];
  return row ? { brand: row.brand, last4: row.last4 } : null;
}

/**
 * Keeps the card a payment was made with (replacing an earlier one) for auto-refill. Never for the
 * shared guest account: everyone using it would pay with that card.
 */
export async function saveCard(db: Queryable, userSub: string, card: CardDetails): Promise<void> {
  await db.query(
    `INSERT INTO payment_methods (user_sub, brand, last4, exp_month, exp_year, provider, provider_payment_method_id)
     SELECT sub, $2, $3, $4, $5, $7, $8 FROM users WHERE sub = $1 AND lower(username) <> $6
     ON CONFLICT (user_sub) DO UPDATE SET brand = EXCLUDED.brand, last4 = EXCLUDED.last4,
       exp_month = EXCLUDED.exp_month, exp_year = EXCLUDED.exp_year, provider = EXCLUDED.provider,
       provider_payment_method_id = EXCLUDED.provider_payment_method_id, updated_at = clock_timestamp()`,
    [
      userSub,
      card.brand,
      card.last4,
      card.expMonth ?? null,
      card.expYear ?? null,
      GUEST_USERNAME,
      card.provider ?? 'local',
      card.providerMethodId ?? null,
    ],
  );
}

/** Forgets the saved card and turns auto-refill off (it has nothing to pay with any more). */
export async function removeCard(db: Database, userSub: string): Promise<boolean> {
  return db.transaction((tx) => forgetCard(tx, userSub));
}

/**
 * The same inside a caller's transaction (account deletion), which also cancels the person's open
 * checkouts so none can be paid into a deleted account or organisation; true when a card was saved.
 */
export async function forgetCard(tx: Queryable, userSub: string): Promise<boolean> {
  await tx.query(
    `UPDATE checkout_sessions SET status = 'cancelled', completed_at = clock_timestamp() WHERE user_sub = $1 AND status = 'open'`,
    [userSub],
  );
  const { rowCount } = await tx.query('DELETE FROM payment_methods WHERE user_sub = $1', [userSub]);
  await tx.query('DELETE FROM auto_refill_settings WHERE user_sub = $1', [userSub]);
  return rowCount > 0;
}

/**
 * Forgets a card its provider no longer keeps (removed in Stripe's billing portal) and turns the
 * owner's auto-refill off, as removing it on the local portal does.
 */
export async function forgetProviderCard(db: Database, provider: CardProviderName, providerMethodId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ user_sub: string }>(
      'DELETE FROM payment_methods WHERE provider = $1 AND provider_payment_method_id = $2 RETURNING user_sub',
      [provider, providerMethodId],
    );
    for (const row of rows) await tx.query('DELETE FROM auto_refill_settings WHERE user_sub = $1', [row.user_sub]);
  });
}

/** The auto-refill option in force (`off` when never set). */
export async function autoRefillOption(db: Queryable, userSub: string): Promise<string> {
  const { rows } = await db.query<{ option: string }>('SELECT option FROM auto_refill_settings WHERE user_sub = $1', [userSub]);
  return rows[0]?.option ?? AUTO_REFILL_OFF;
}

export async function setAutoRefillOption(db: Queryable, userSub: string, option: string): Promise<void> {
  if (option === AUTO_REFILL_OFF) {
    await db.query('DELETE FROM auto_refill_settings WHERE user_sub = $1', [userSub]);
    return;
  }
  await db.query(
    `INSERT INTO auto_refill_settings (user_sub, option) VALUES ($1, $2)
     ON CONFLICT (user_sub) DO UPDATE SET option = EXCLUDED.option, updated_at = clock_timestamp()`,
    [userSub, option],
  );
}

/** The card an auto-refill pays with, and who keeps it (a provider's card is charged by that provider). */
export interface RefillCard extends SavedCard {
  provider: CardProviderName;
  providerMethodId: string | null;
}

/** What an auto-refill would pay with: the option in force and the saved card, or null when off or no card. */
export async function autoRefillPlan(db: Queryable, userSub: string): Promise<{ option: string; card: RefillCard } | null> {
  const { rows } = await db.query<{
    option: string;
    brand: string;
    last4: string;
    provider: CardProviderName;
    provider_payment_method_id: string | null;
  }>(
    `SELECT s.option, m.brand, m.last4, m.provider, m.provider_payment_method_id
     FROM auto_refill_settings s JOIN payment_methods m ON m.user_sub = s.user_sub
     WHERE s.user_sub = $1`,
    [userSub],
  );
  const row = rows[0];
  if (!row || row.option === AUTO_REFILL_OFF) return null;
  return {
    option: row.option,
    card: { brand: row.brand, last4: row.last4, provider: row.provider, providerMethodId: row.provider_payment_method_id },
  };
}
