/** The kinds of credit ledger rows (ARCHITECTURE.md §4); `reset` is the guest account's weekly return to its grant. */
export const LEDGER_ENTRY_KINDS = ['debit', 'refund', 'purchase', 'coupon', 'transfer', 'grant', 'reset'] as const;
