import type { Database } from '../db/database.ts';
import type { CardProviderName, PaymentRow } from '../db/payments.ts';
import { createCheckoutSession, type CreatedCheckout } from './checkout.ts';
import { paymentSecrets, signPaymentLink } from './tokens.ts';

/**
 * The card provider the routes call (ARCHITECTURE.md §4b "card payments"): the local card page
 * (this file, the embedded default, never on the network) or Stripe (./stripe/provider.ts),
 * chosen by KINORA_PAYMENT_PROVIDER. Auto-refill is not here: a debit sets it off inside its own
 * transaction (db/credit-ledger.ts), and the saved card's provider decides how it is charged.
 */
export interface PaymentProvider {
  readonly name: CardProviderName;
  /**
   * Opens a checkout for one pack (GET credits/purchase/{id}; POST customer/user/purchase with a
   * customerId): the session and the page the browser is sent to. Null when the pack does not exist.
   */
  createCheckout(request: CheckoutRequest): Promise<CreatedCheckout | null>;
  /** The billing portal of the person (POST {payment-provider}/customer-portal). */
  portalUrl(request: { userSub: string; email: string | null; origin: string }): Promise<string>;
  /** The receipt of one of the person's payments (POST {payment-provider}/get-receipt-url). */
  receiptUrl(payment: PaymentRow, origin: string): Promise<string>;
  /** Background work the provider does while the server runs (Stripe: charging auto-refills). */
  start?(): void;
  stop?(): Promise<void>;
}

export interface CheckoutRequest {
  userSub: string;
  /** The person's username (the shared guest account keeps no card) and e-mail (for the provider's customer). */
  username: string;
  email: string | null;
  packId: string;
  customerId?: string | null;
  /** This server's origin as the browser reached it (http://host:port), for the return URLs. */
  origin: string;
}

/** The provider could not be reached or refused the call: the route answers 502. */
export class CardProviderUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CardProviderUnavailableError';
  }
}

/** A webhook delivery whose signature is missing or does not match its body: the route answers 400. */
export class WebhookSignatureError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('The webhook signature is missing or does not match the body.', options);
    this.name = 'WebhookSignatureError';
  }
}

/** The local card provider's billing portal and receipt pages (routes/payments.ts localProviderPages). */
export const localPortalPath = (token: string): string => `/local/billing-portal/${encodeURIComponent(token)}`;
export const localReceiptPath = (token: string): string => `/local/receipts/${encodeURIComponent(token)}`;

/** The local card page: checkouts, portal and receipts are Kinora's own pages, linked root-relative. */
export async function createLocalPaymentProvider(db: Database): Promise<PaymentProvider> {
  const secrets = await paymentSecrets(db);
  return {
    name: 'local',
    createCheckout: (request) =>
      createCheckoutSession(db, { userSub: request.userSub, packId: request.packId, customerId: request.customerId }),
    portalUrl: async ({ userSub }) => localPortalPath(signPaymentLink(secrets.links, { kind: 'portal', sub: userSub })),
    receiptUrl: async (payment) => localReceiptPath(signPaymentLink(secrets.links, { kind: 'receipt', paymentId: payment.id })),
  };
}
