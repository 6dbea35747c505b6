import { CHECK_VIOLATION } from './credit-ledger.ts';
import type { Queryable } from './database.ts';

/** Kinds of an organisation's ledger rows: credits bought in, credits handed to a member out. */
export type CustomerLedgerKind = 'purchase' | 'transfer';

export interface CustomerLedgerEntry {
  customerId: string;
  /** Positive for a purchase, negative for a transfer to a member. */
  amount: number;
  kind: CustomerLedgerKind;
  reason: string;
  paymentId?: string | null;
  memberSub?: string | null;
  transferId?: string | null;
}

export function isNegativeCustomerBalance(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    error.code === CHECK_VIOLATION &&
    'constraint' in error &&
    error.constraint === 'customer_ledger_balance_not_negative'
  );
}

/**
 * Appends one row to the organisation's ledger and returns its id. Call it inside the transaction
 * that does what the credits are for (a confirmed payment, a transfer); the database refuses a row
 * that would take the organisation's balance below zero.
 */
export async function creditCustomerAccount(tx: Queryable, entry: CustomerLedgerEntry): Promise<string> {
  const { rows } = await tx.query<{ id: string }>(
    `INSERT INTO customer_ledger (customer_id, amount, kind, reason, payment_id, member_sub, transfer_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id::text AS id`,
    [
      entry.customerId,
      entry.amount,
      entry.kind,
      entry.reason,
      entry.paymentId ?? null,
      entry.memberSub ?? null,
      entry.transferId ?? null,
    ],
  );
  const row = rows[0];
  if (!row) throw new Error('INSERT INTO customer_ledger returned no row');
  return row.id;
}

/** The organisation's credits: the sum of its ledger rows. */
export async function customerBalance(db: Queryable, customerId: string): Promise<number> {
  const { rows } = await db.query<{ balance: number }>(
    'SELECT COALESCE(SUM(amount), 0)::integer AS balance FROM customer_ledger WHERE customer_id = $1',
    [customerId],
  );
  return rows[0]?.balance ?? 0;
}
