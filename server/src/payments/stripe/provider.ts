import type Stripe from 'stripe';
import { CURRENCY, findCreditPack } from '../../../../src/config/billing.ts';
import { GUEST_USERNAME } from '../../../../src/config/limits.ts';
import { ROUTES } from '../../../../src/config/routes.ts';
import type { Database } from '../../db/database.ts';
import {
  cancelCheckoutSession,
  findCheckoutSession,
  forgetProviderCard,
  setProviderSessionId,
  type CardDetails,
} from '../../db/payments.ts';
import { findProviderCustomer, findRefillCharge, keepProviderCustomer } from '../../db/provider-payments.ts';
import { checkoutReturnUrl, confirmCheckout, insertPackCheckout } from '../checkout.ts';
import { CardProviderUnavailableError, WebhookSignatureError, type CheckoutRequest, type PaymentProvider } from '../provider.ts';
import { askStripe, createStripeClient } from './client.ts';
import type { StripeApiAddress } from './environment.ts';
import { createRefillCharger, REFILL_METADATA_KEY, settleRefill } from './refills.ts';

/**
 * Stripe as Kinora's card provider (KINORA_PAYMENT_PROVIDER=stripe), through the official
 * `stripe` client. The mapping, call by call, and the Stripe documentation it follows:
 * - credits/purchase/{id}: a Checkout Session in payment mode for the pack
 *   (https://docs.stripe.com/api/checkout/sessions/create: mode, customer, client_reference_id,
 *   line_items[].price_data, payment_intent_data.setup_future_usage, success_url, cancel_url,
 *   expires_at); the browser goes to its `url`. The person's Stripe customer is made once
 *   (https://docs.stripe.com/api/customers/create) so the card is saved to them.
 * - the webhook (POST /api/stripe/webhook): verified with the client's
 *   `webhooks.constructEvent` and the endpoint's signing secret (https://docs.stripe.com/webhooks,
 *   "Verify webhook signatures with official libraries"); `checkout.session.completed` with
 *   payment_status `paid` credits the pack once (https://docs.stripe.com/checkout/fulfillment:
 *   deliveries repeat and come in any order); the card is read from the PaymentIntent's
 *   payment_method (https://docs.stripe.com/api/payment_intents/retrieve, expand[]).
 * - {payment-provider}/customer-portal: a billing portal session
 *   (https://docs.stripe.com/api/customer_portal/sessions/create: customer, return_url).
 * - {payment-provider}/get-receipt-url: the receipt_url of the payment's charge
 *   (https://docs.stripe.com/api/charges/object#charge_object-receipt_url), found through the
 *   PaymentIntent's latest_charge.
 * - auto-refill: an off-session PaymentIntent with the saved card (./refills.ts).
 */

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Another address for Stripe's API (KINORA_STRIPE_API_URL: a stand-in). */
  api?: StripeApiAddress;
  /** Where the browser reaches Kinora (KINORA_PUBLIC_URL); else the address each request came to. */
  publicUrl?: string;
  /** The client's own retries of a failed call (default 2). */
  maxNetworkRetries?: number;
  /** How often recorded auto-refills are looked for (default 2 s). */
  refillPollMs?: number;
}

/** What the webhook did with one event. */
export type StripeWebhookOutcome = 'credited' | 'already-credited' | 'ignored';

export interface StripePaymentProvider extends PaymentProvider {
  /** Verifies and acts on one webhook delivery; throws WebhookSignatureError when unsigned. */
  handleWebhook(rawBody: string, signature: string | undefined): Promise<{ type: string; outcome: StripeWebhookOutcome }>;
}

/**
 * A Stripe checkout can be paid for an hour (Stripe takes 30 minutes to 24 hours); Kinora's own
 * row lives as long, and the webhook of a paid session is honoured even after that.
 */
const STRIPE_CHECKOUT_TTL_MINUTES = 60;

/** The metadata key naming Kinora's checkout on Stripe's session (client_reference_id says it too). */
const CHECKOUT_METADATA_KEY = 'kinora_checkout_id';

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  typeof value === 'string' ? value : (value?.id ?? null);

export function createStripePaymentProvider(options: {
  db: Database;
  settings: StripeSettings;
  /** The local card page's provider: receipts of payments it took before Stripe was turned on. */
  local: PaymentProvider;
  onError: (error: unknown, what: string) => void;
}): StripePaymentProvider {
  const { db, settings, local } = options;
  const stripe = createStripeClient(settings);
  const refills = createRefillCharger({ db, stripe, pollMs: settings.refillPollMs, onError: options.onError });
  const baseUrl = (origin: string): string => settings.publicUrl ?? origin;

  /** The person's Stripe customer, made on first need; the idempotency key makes two racing calls one customer. */
  async function customerFor(userSub: string, email: string | null): Promise<string> {
    const known = await findProviderCustomer(db, userSub, 'stripe');
    if (known) return known;
    const customer = await askStripe('creating the customer', () =>
      stripe.customers.create(
        { ...(email ? { email } : {}), metadata: { kinora_user_sub: userSub } },
        { idempotencyKey: `kinora-customer-${userSub}` },
      ),
    );
    return keepProviderCustomer(db, userSub, 'stripe', customer.id);
  }

  async function createCheckout(request: CheckoutRequest) {
    if (!findCreditPack(request.packId)) return null;
    const customer = await customerFor(request.userSub, request.email);
    const opened = await insertPackCheckout(db, request, { expiresInMinutes: STRIPE_CHECKOUT_TTL_MINUTES, provider: 'stripe' });
    if (!opened) return null;
    const { pack, session } = opened;
    const base = baseUrl(request.origin);
    // The shared guest account keeps no card: everyone using it would see and pay with it.
    const keepCard = request.username.toLowerCase() !== GUEST_USERNAME;
    const metadata = {
      [CHECKOUT_METADATA_KEY]: session.id,
      kinora_user_sub: request.userSub,
      kinora_pack_id: pack.id,
      ...(request.customerId ? { kinora_customer_id: request.customerId } : {}),
    };
    let created: Stripe.Checkout.Session;
    try {
      created = await askStripe('creating the checkout', () =>
        stripe.checkout.sessions.create(
          {
            mode: 'payment',
            customer,
            client_reference_id: session.id,
            // Cards only: auto-refill charges the saved card (the client's types for this API version name the filter so).
            allowed_payment_method_types: ['card'],
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency: CURRENCY.toLowerCase(),
                  unit_amount: pack.priceCents,
                  product_data: { name: `${pack.credits} Kinora credits (${pack.label})` },
                },
              },
            ],
            payment_intent_data: { metadata, ...(keepCard ? { setup_future_usage: 'off_session' as const } : {}) },
            metadata,
            success_url: `${base}${checkoutReturnUrl(session, 'success')}`,
            cancel_url: `${base}${checkoutReturnUrl(session, 'cancelled')}`,
            expires_at: Math.floor(session.expires_at.getTime() / 1000),
          },
          { idempotencyKey: `kinora-checkout-${session.id}` },
        ),
      );
      if (!created.url) throw new CardProviderUnavailableError(`Stripe's checkout ${created.id} has no url`);
    } catch (error) {
      await cancelCheckoutSession(db, session.id);
      throw error;
    }
    await setProviderSessionId(db, session.id, created.id);
    return { session: { ...session, provider_session_id: created.id }, checkoutUrl: created.url };
  }

  /** The card a checkout was paid with, when Stripe saved it to the customer for later (off-session) use. */
  async function savedCardOf(paymentIntentId: string): Promise<CardDetails | null> {
    const intent = await askStripe('reading the payment', () =>
      stripe.paymentIntents.retrieve(paymentIntentId, { expand: ['payment_method'] }),
    );
    const method = intent.payment_method;
    if (!method || typeof method === 'string' || !method.card || !method.customer) return null;
    return {
      brand: method.card.brand,
      last4: method.card.last4,
      expMonth: method.card.exp_month,
      expYear: method.card.exp_year,
      provider: 'stripe',
      providerMethodId: method.id,
    };
  }

  async function completeCheckout(paid: Stripe.Checkout.Session): Promise<StripeWebhookOutcome> {
    if (paid.mode !== 'payment' || paid.payment_status !== 'paid') return 'ignored';
    const kinoraId = paid.client_reference_id ?? paid.metadata?.[CHECKOUT_METADATA_KEY] ?? null;
    const session = kinoraId ? await findCheckoutSession(db, kinoraId) : null;
    // Another integration's session on the same Stripe account, or a forged reference: not Kinora's to credit.
    if (!session || session.provider !== 'stripe' || session.provider_session_id !== paid.id) return 'ignored';
    if (paid.amount_total !== session.amount_cents || paid.currency?.toLowerCase() !== session.currency.toLowerCase()) {
      options.onError(new Error(`Stripe checkout ${paid.id} paid ${paid.amount_total} ${paid.currency}, not ${session.amount_cents}`), 'webhook');
      return 'ignored';
    }
    if (session.status === 'paid') return 'already-credited';
    const paymentIntentId = idOf(paid.payment_intent);
    const card = paymentIntentId ? await savedCardOf(paymentIntentId) : null;
    const result = await confirmCheckout(db, session.id, 'webhook', card, { provider: 'stripe', providerPaymentId: paymentIntentId });
    return result.outcome === 'confirmed' ? 'credited' : 'already-credited';
  }

  async function completeRefill(intent: Stripe.PaymentIntent): Promise<StripeWebhookOutcome> {
    const refillId = intent.metadata?.[REFILL_METADATA_KEY];
    if (!refillId) return 'ignored';
    const refill = await findRefillCharge(db, refillId);
    if (!refill || refill.provider !== 'stripe' || intent.amount !== refill.amount_cents) return 'ignored';
    return (await settleRefill(db, refill.id, intent.id)) ? 'credited' : 'already-credited';
  }

  return {
    name: 'stripe',
    createCheckout,

    async portalUrl({ userSub, email, origin }) {
      const customer = await customerFor(userSub, email);
      const portal = await askStripe('opening the billing portal', () =>
        stripe.billingPortal.sessions.create({ customer, return_url: `${baseUrl(origin)}${ROUTES.credits}` }),
      );
      return portal.url;
    },

    async receiptUrl(payment, origin) {
      if (!payment.provider_payment_id) return local.receiptUrl(payment, origin);
      const paymentIntentId = payment.provider_payment_id;
      const intent = await askStripe('reading the payment', () =>
        stripe.paymentIntents.retrieve(paymentIntentId, { expand: ['latest_charge'] }),
      );
      const charge = intent.latest_charge;
      const receipt = charge && typeof charge !== 'string' ? charge.receipt_url : null;
      if (!receipt) throw new CardProviderUnavailableError(`Stripe has no receipt for ${paymentIntentId}`);
      return receipt;
    },

    async handleWebhook(rawBody, signature) {
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature ?? '', settings.webhookSecret);
      } catch (error) {
        throw new WebhookSignatureError({ cause: error });
      }
      switch (event.type) {
        case 'checkout.session.completed':
        case 'checkout.session.async_payment_succeeded':
          return { type: event.type, outcome: await completeCheckout(event.data.object) };
        case 'payment_intent.succeeded':
          return { type: event.type, outcome: await completeRefill(event.data.object) };
        case 'payment_method.detached':
          // The person removed the card in Stripe's portal: auto-refill has nothing to pay with.
          await forgetProviderCard(db, 'stripe', event.data.object.id);
          return { type: event.type, outcome: 'ignored' };
        default:
          // Events Kinora does not act on are acknowledged, as Stripe expects.
          return { type: event.type, outcome: 'ignored' };
      }
    },

    start: () => refills.start(),
    stop: () => refills.stop(),
  };
}
