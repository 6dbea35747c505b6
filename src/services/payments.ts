import { autoRefillSchema, checkoutSchema, checkoutStatusSchema, creditHistorySchema, providerUrlSchema } from '@/services/schemas/payments';
import type { AutoRefill, Checkout, CheckoutStatus, CreditHistory, ProviderUrl, ReceiptRequest } from '@/services/schemas/payments';
import { apiGet, apiPostJson } from '@/services/http';
import { loadEnv } from '@/config/env';

/** GET credits/purchase/{id}: a checkout of the card provider for one pack; the page opens its URL. */
export const purchaseCredits = (packId: string): Promise<Checkout> =>
  apiGet(`credits/purchase/${encodeURIComponent(packId)}`, checkoutSchema);

/** GET credits/checkout/{sessionId} (Kinora's): the outcome of a checkout the person came back from. */
export const getCheckoutStatus = (sessionId: string): Promise<CheckoutStatus> =>
  apiGet(`credits/checkout/${encodeURIComponent(sessionId)}`, checkoutStatusSchema);

/** GET credits/auto-refill/{option}: sets (or, with `off`, stops) auto-refill. */
export const setAutoRefill = (option: string): Promise<AutoRefill> =>
  apiGet(`credits/auto-refill/${encodeURIComponent(option)}`, autoRefillSchema);

/** GET credits/history: newest first; pass `next_start_keys` of a page to get the next. */
export const getCreditHistory = (nextStartKeys: string | null = null): Promise<CreditHistory> =>
  apiGet('credits/history', creditHistorySchema, { query: { next_start_keys: nextStartKeys ?? undefined } });

/** The `{payment-provider}` path segment of SPEC §7 (the environment names the provider). */
const provider = (): string => encodeURIComponent(loadEnv().paymentProvider);

/** POST {payment-provider}/customer-portal: the provider's billing portal for the signed-in user. */
export const openCustomerPortal = (): Promise<ProviderUrl> =>
  apiPostJson(`${provider()}/customer-portal`, {}, providerUrlSchema);

/** POST {payment-provider}/get-receipt-url: the receipt of one payment. */
export const getReceiptUrl = (paymentId: string): Promise<ProviderUrl> => {
  const body: ReceiptRequest = { payment_id: paymentId };
  return apiPostJson(`${provider()}/get-receipt-url`, body, providerUrlSchema);
};
