import type { Queryable } from './database.ts';
import type { LedgerKind } from './migrations.ts';

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
 */
export async function appendLedgerEntry(tx: Queryable, entry: LedgerEntry): Promise<string> {
  const { rows } = await tx.query<{ id: string }>(
    `INSERT INTO credit_ledger (user_sub, amount, kind, reason, job_id)
     VALUES ($1, $2, $3, $4, $5) RETURNING id::text AS id`,
    [entry.userSub, entry.amount, entry.kind, entry.reason, entry.jobId ?? null],
  );
  const row = rows[0];
  if (!row) throw new Error('INSERT INTO credit_ledger returned no row');
  return row.id;
}

/** The balance is the sum of the user's ledger rows (ARCHITECTURE.md §4). */
export async function creditBalance(db: Queryable, userSub: string): Promise<number> {
  const { rows } = await db.query<{ balance: number }>(
    'SELECT COALESCE(SUM(amount), 0)::integer AS balance FROM credit_ledger WHERE user_sub = $1',
    [userSub],
  );
  return rows[0]?.balance ?? 0;
}
