import { CREDIT_HISTORY_PAGE_SIZE } from '../../../src/config/billing.ts';
import type { CreditHistory, CreditHistoryEntry } from '../../../src/services/schemas/payments.ts';
import type { Queryable } from './database.ts';

/** credits/history's cursor: the last ledger id of a page, base64url (opaque to the app). */
const encodeCursor = (ledgerId: string): string => Buffer.from(`ledger:${ledgerId}`).toString('base64url');

/** The ledger id a cursor names; null for no cursor, 'invalid' for one this server did not give out. */
export function decodeHistoryCursor(value: unknown): string | null | 'invalid' {
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string') return 'invalid';
  const match = /^ledger:(\d{1,18})$/.exec(Buffer.from(value, 'base64url').toString('utf8'));
  return match?.[1] ?? 'invalid';
}

interface HistoryRow {
  id: string;
  amount: number;
  kind: CreditHistoryEntry['kind'];
  reason: string;
  job_id: string | null;
  payment_id: string | null;
  balance_after: number;
  created_at: Date;
}

/**
 * One page of the user's ledger, newest first; balance_after is the running sum up to each row
 * (ledger ids only grow, so they order the rows), payment_id the payment a purchase came from.
 */
export async function creditHistoryPage(db: Queryable, userSub: string, before: string | null): Promise<CreditHistory> {
  const { rows } = await db.query<HistoryRow>(
    `WITH ledger AS (
       SELECT id, amount, kind, reason, job_id, created_at,
              SUM(amount) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)::integer AS balance_after
       FROM credit_ledger WHERE user_sub = $1
     )
     SELECT ledger.id::text AS id, ledger.amount, ledger.kind, ledger.reason, ledger.job_id, ledger.balance_after,
            ledger.created_at, p.id AS payment_id
     FROM ledger LEFT JOIN payments p ON p.ledger_id = ledger.id
     WHERE $2::bigint IS NULL OR ledger.id < $2::bigint
     ORDER BY ledger.id DESC
     LIMIT $3`,
    [userSub, before, CREDIT_HISTORY_PAGE_SIZE + 1],
  );
  const page = rows.slice(0, CREDIT_HISTORY_PAGE_SIZE);
  const last = page.at(-1);
  return {
    items: page.map((row) => ({
      id: row.id,
      amount: row.amount,
      kind: row.kind,
      reason: row.reason,
      job_id: row.job_id,
      payment_id: row.payment_id,
      balance_after: row.balance_after,
      created_at: new Date(row.created_at).toISOString(),
    })),
    next_start_keys: rows.length > CREDIT_HISTORY_PAGE_SIZE && last ? encodeCursor(last.id) : null,
  };
}
