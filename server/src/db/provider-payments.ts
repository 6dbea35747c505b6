import { randomBytes } from 'node:crypto';
import type { Queryable } from './database.ts';
import type { CardProviderName } from './payments.ts';

/**
 * A remote card provider's records (migration 13): the person's customer there, and the
 * auto-refills a debit set off that the provider charges after the debit's transaction committed.
 * The credits of a charged refill are written by payments/stripe/refills.ts.
 */

// ---- the person's customer at the provider -----------------------------------------------------

export async function findProviderCustomer(db: Queryable, userSub: string, provider: CardProviderName): Promise<string | null> {
  const { rows } = await db.query<{ provider_customer_id: string }>(
    'SELECT provider_customer_id FROM provider_customers WHERE user_sub = $1 AND provider = $2',
    [userSub, provider],
  );
  return rows[0]?.provider_customer_id ?? null;
}

/** Keeps the provider's customer of a person; the first one kept wins (two purchases at once make one). */
export async function keepProviderCustomer(
  db: Queryable,
  userSub: string,
  provider: CardProviderName,
  providerCustomerId: string,
): Promise<string> {
  await db.query(
    `INSERT INTO provider_customers (user_sub, provider, provider_customer_id) VALUES ($1, $2, $3)
     ON CONFLICT (user_sub, provider) DO NOTHING`,
    [userSub, provider, providerCustomerId],
  );
  return (await findProviderCustomer(db, userSub, provider)) ?? providerCustomerId;
}

// ---- auto-refills charged after commit ---------------------------------------------------------

export type RefillChargeStatus = 'pending' | 'charging' | 'paid' | 'failed';

export interface RefillChargeRow {
  id: string;
  user_sub: string;
  trigger_ledger_id: string;
  provider: CardProviderName;
  provider_payment_method_id: string;
  card_brand: string;
  card_last4: string;
  pack_id: string;
  credits: number;
  amount_cents: number;
  currency: string;
  status: RefillChargeStatus;
  attempts: number;
  provider_payment_id: string | null;
  payment_id: string | null;
  last_error: string | null;
  created_at: Date;
}

const REFILL_COLUMNS = `id, user_sub, trigger_ledger_id::text AS trigger_ledger_id, provider, provider_payment_method_id,
  card_brand, card_last4, pack_id, credits, amount_cents, currency, status, attempts, provider_payment_id, payment_id,
  last_error, created_at`;

export const newRefillChargeId = (): string => `arf_${randomBytes(12).toString('base64url')}`;

export interface NewRefillCharge {
  userSub: string;
  triggerLedgerId: string;
  provider: CardProviderName;
  providerMethodId: string;
  card: { brand: string; last4: string };
  packId: string;
  credits: number;
  amountCents: number;
  currency: string;
}

/**
 * Records the refill a debit set off, inside the debit's transaction. Nothing is recorded while
 * another refill of the person is still on its way (it will lift the balance), nor when the last
 * refill with this very card was declined: a declined card is not charged again on every debit,
 * only once the person saves a card again. True when one was recorded.
 */
export async function requestRefillCharge(tx: Queryable, refill: NewRefillCharge): Promise<boolean> {
  const { rowCount } = await tx.query(
    `INSERT INTO auto_refill_charges (id, user_sub, trigger_ledger_id, provider, provider_payment_method_id, card_brand,
       card_last4, pack_id, credits, amount_cents, currency)
     SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11
     WHERE NOT EXISTS (
       SELECT 1 FROM auto_refill_charges last
       WHERE last.user_sub = $2 AND last.status = 'failed' AND last.provider_payment_method_id = $5
         AND NOT EXISTS (SELECT 1 FROM auto_refill_charges later WHERE later.user_sub = $2 AND later.created_at > last.created_at)
     )
     ON CONFLICT DO NOTHING`,
    [
      newRefillChargeId(),
      refill.userSub,
      refill.triggerLedgerId,
      refill.provider,
      refill.providerMethodId,
      refill.card.brand,
      refill.card.last4,
      refill.packId,
      refill.credits,
      refill.amountCents,
      refill.currency,
    ],
  );
  return rowCount > 0;
}

/**
 * Takes one refill to charge: a pending one, or one whose charger went quiet for `staleSeconds`
 * (a process that stopped mid-charge; the provider's idempotency key makes charging it again
 * safe). SKIP LOCKED lets several processes charge side by side.
 */
export async function claimRefillCharge(db: Queryable, provider: CardProviderName, staleSeconds: number): Promise<RefillChargeRow | null> {
  const { rows } = await db.query<RefillChargeRow>(
    `UPDATE auto_refill_charges SET status = 'charging', attempts = attempts + 1, claimed_at = clock_timestamp(),
       updated_at = clock_timestamp()
     WHERE id = (
       SELECT id FROM auto_refill_charges
       WHERE provider = $1 AND (status = 'pending'
         OR (status = 'charging' AND claimed_at < clock_timestamp() - make_interval(secs => $2)))
       ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED
     )
     RETURNING ${REFILL_COLUMNS}`,
    [provider, staleSeconds],
  );
  return rows[0] ?? null;
}

export async function findRefillCharge(db: Queryable, id: string): Promise<RefillChargeRow | null> {
  const { rows } = await db.query<RefillChargeRow>(`SELECT ${REFILL_COLUMNS} FROM auto_refill_charges WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/** Flips a refill to paid, once: the winner (and only it) gets the row back and writes the credits. */
export async function claimRefillPaid(tx: Queryable, id: string, providerPaymentId: string, paymentId: string): Promise<RefillChargeRow | null> {
  const { rows } = await tx.query<RefillChargeRow>(
    `UPDATE auto_refill_charges SET status = 'paid', provider_payment_id = $2, payment_id = $3, last_error = NULL,
       updated_at = clock_timestamp()
     WHERE id = $1 AND status <> 'paid' RETURNING ${REFILL_COLUMNS}`,
    [id, providerPaymentId, paymentId],
  );
  return rows[0] ?? null;
}

/** The provider refused the charge (a declined card): nothing is credited. */
export async function markRefillFailed(db: Queryable, id: string, error: string, providerPaymentId: string | null): Promise<void> {
  await db.query(
    `UPDATE auto_refill_charges SET status = 'failed', last_error = $2,
       provider_payment_id = COALESCE($3, provider_payment_id), updated_at = clock_timestamp()
     WHERE id = $1 AND status <> 'paid'`,
    [id, error, providerPaymentId],
  );
}

/**
 * The charge is with the provider but not settled (or the provider could not be reached): the
 * refill waits for the provider's webhook or the next try. `providerPaymentId` when one is known.
 */
export async function releaseRefillCharge(db: Queryable, id: string, error: string, providerPaymentId: string | null): Promise<void> {
  await db.query(
    `UPDATE auto_refill_charges SET status = 'pending', last_error = $2,
       provider_payment_id = COALESCE($3, provider_payment_id), updated_at = clock_timestamp()
     WHERE id = $1 AND status = 'charging'`,
    [id, error, providerPaymentId],
  );
}

/** The person's refills, newest first (the tests and the logs read them). */
export async function listRefillCharges(db: Queryable, userSub: string): Promise<RefillChargeRow[]> {
  const { rows } = await db.query<RefillChargeRow>(
    `SELECT ${REFILL_COLUMNS} FROM auto_refill_charges WHERE user_sub = $1 ORDER BY created_at DESC, id DESC`,
    [userSub],
  );
  return rows;
}
