import { z } from 'zod';
import { savedCardSchema } from './credits';
import { LEDGER_ENTRY_KINDS } from './ledger-kinds';

/**
 * Buying credits, auto-refill, the credit history and the card provider's pages (SPEC §7
 * credits/purchase, credits/auto-refill, credits/history, {payment-provider}/…). Apart from
 * credits/get (./credits), so the first page does not load what only the credits page needs.
 */

/** GET credits/purchase/{id} and POST customer/user/purchase: where the card provider takes the payment. */
export const checkoutSchema = z.object({
  session_id: z.string(),
  checkout_url: z.string(),
});
export type Checkout = z.infer<typeof checkoutSchema>;

/** GET credits/checkout/{sessionId} (Kinora's): what became of a checkout the person came back from. */
export const checkoutStatusSchema = z.object({
  session_id: z.string(),
  status: z.enum(['open', 'paid', 'declined', 'cancelled', 'expired']),
  pack_id: z.string(),
  credits: z.number(),
  amount_cents: z.number(),
  currency: z.string(),
  /** Set when the credits went to an organisation (customer/user/purchase). */
  customer_id: z.string().nullable().default(null),
  payment_id: z.string().nullable().default(null),
});
export type CheckoutStatus = z.infer<typeof checkoutStatusSchema>;

/** GET credits/auto-refill/{option}: the option now in force. */
export const autoRefillSchema = z.object({
  auto_refill: z.string(),
  threshold: z.number().nullable(),
  pack_id: z.string().nullable(),
  card: z.nullable(savedCardSchema),
});
export type AutoRefill = z.infer<typeof autoRefillSchema>;

/** One ledger row as credits/history answers it: every debit, refund, purchase, coupon and transfer. */
export const creditHistoryEntrySchema = z.object({
  id: z.string(),
  amount: z.number(),
  kind: z.enum(LEDGER_ENTRY_KINDS),
  reason: z.string(),
  /** The job a debit or refund was for. */
  job_id: z.string().nullable().default(null),
  /** The payment a purchase came from (its receipt). */
  payment_id: z.string().nullable().default(null),
  balance_after: z.number(),
  created_at: z.string(),
});
export type CreditHistoryEntry = z.infer<typeof creditHistoryEntrySchema>;

/** GET credits/history?next_start_keys=: newest first, CREDIT_HISTORY_PAGE_SIZE per page. */
export const creditHistorySchema = z.object({
  items: z.array(creditHistoryEntrySchema),
  next_start_keys: z.string().nullable().default(null),
});
export type CreditHistory = z.infer<typeof creditHistorySchema>;

/** POST {payment-provider}/customer-portal and /get-receipt-url: a page to open. */
export const providerUrlSchema = z.object({ url: z.string() });
export type ProviderUrl = z.infer<typeof providerUrlSchema>;

/** POST {payment-provider}/get-receipt-url body (SPEC §7 does not show it). */
export const receiptRequestSchema = z.object({ payment_id: z.string().min(1).max(100) });
export type ReceiptRequest = z.infer<typeof receiptRequestSchema>;
