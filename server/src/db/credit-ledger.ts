import { CURRENCY, findAutoRefillOption, findCreditPack } from '../../../src/config/billing.ts';
import type { Queryable } from './database.ts';
import type { LedgerKind } from './migrations.ts';
import { autoRefillPlan, insertPayment } from './payments.ts';
import { requestRefillCharge } from './provider-payments.ts';

export interface LedgerEntry {
  userSub: string;
  amount: number;
  kind: LedgerKind;
  reason: string;
  jobId?: string | null;
}

/** SQLSTATE the balance guard raises when a row would take a balance below zero. */
export const CHECK_VIOLATION = '23514';

export function isNegativeBalance(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    error.code === CHECK_VIOLATION &&
    'constraint' in error &&
    error.constraint === 'credit_ledger_balance_not_negative'
  );
}

/**
 * Appends one ledger row and returns its id. Call it inside the transaction that does the thing
 * the credits pay for; the database refuses a row that would make the balance negative.
 * A debit may set off the user's auto-refill (see autoRefillAfterDebit), in the same transaction.
 */
export async function appendLedgerEntry(tx: Queryable, entry: LedgerEntry): Promise<string> {
  const id = await insertLedgerRow(tx, entry);
  if (entry.kind === 'debit') await autoRefillAfterDebit(tx, entry.userSub, id);
  return id;
}

async function insertLedgerRow(tx: Queryable, entry: LedgerEntry): Promise<string> {
  const { rows } = await tx.query<{ id: string }>(
    `INSERT INTO credit_ledger (user_sub, amount, kind, reason, job_id)
     VALUES ($1, $2, $3, $4, $5) RETURNING id::text AS id`,
    [entry.userSub, entry.amount, entry.kind, entry.reason, entry.jobId ?? null],
  );
  const row = rows[0];
  if (!row) throw new Error('INSERT INTO credit_ledger returned no row');
  return row.id;
}

export const autoRefillReason = (credits: number, packLabel: string): string =>
  `Auto-refill: bought ${credits} credits (${packLabel})`;

/**
 * Auto-refill: after a debit, when the user's option is on, a card is saved and the balance is now
 * below the option's threshold, the saved card pays for the option's pack (a `payments` row,
 * source auto-refill) and a `purchase` row adds its credits. The debit's transaction holds the
 * user's row lock (the balance guard takes it), so the balance read here is the settled one; the
 * payment's UNIQUE trigger_ledger_id makes it at most one refill per debit.
 *
 * A card a remote provider keeps (Stripe) cannot be charged inside this transaction: the refill is
 * only recorded here (auto_refill_charges, also at most one per debit) and the provider charges it
 * after commit, crediting when the charge succeeds (server/src/payments/stripe/refills.ts).
 */
async function autoRefillAfterDebit(tx: Queryable, userSub: string, debitLedgerId: string): Promise<void> {
  const plan = await autoRefillPlan(tx, userSub);
  if (!plan) return;
  const option = findAutoRefillOption(plan.option);
  const pack = option?.packId ? findCreditPack(option.packId) : undefined;
  if (!option || option.threshold === null || !pack) return;
  if ((await creditBalance(tx, userSub)) >= option.threshold) return;
  if (plan.card.provider !== 'local') {
    if (!plan.card.providerMethodId) return;
    await requestRefillCharge(tx, {
      userSub,
      triggerLedgerId: debitLedgerId,
      provider: plan.card.provider,
      providerMethodId: plan.card.providerMethodId,
      card: { brand: plan.card.brand, last4: plan.card.last4 },
      packId: pack.id,
      credits: pack.credits,
      amountCents: pack.priceCents,
      currency: CURRENCY,
    });
    return;
  }
  const ledgerId = await insertLedgerRow(tx, {
    userSub,
    amount: pack.credits,
    kind: 'purchase',
    reason: autoRefillReason(pack.credits, pack.label),
  });
  await insertPayment(tx, {
    userSub,
    customerId: null,
    checkoutSessionId: null,
    source: 'auto-refill',
    packId: pack.id,
    credits: pack.credits,
    amountCents: pack.priceCents,
    currency: CURRENCY,
    card: { brand: plan.card.brand, last4: plan.card.last4 },
    ledgerId,
    triggerLedgerId: debitLedgerId,
  });
}

/**
 * The balance a person can spend: the sum of their ledger rows (ARCHITECTURE.md §4) minus what
 * their open holds still keep for a project (migration 20; equal to the sum when none is open).
 */
export async function creditBalance(db: Queryable, userSub: string): Promise<number> {
  const { rows } = await db.query<{ balance: number }>('SELECT credit_free_balance($1)::integer AS balance', [userSub]);
  return rows[0]?.balance ?? 0;
}
