import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { STARTING_CREDIT_GRANT } from '../../../server/src/config.ts';
import { appendLedgerEntry } from '../../../server/src/db/credit-ledger.ts';
import { listRefillCharges } from '../../../server/src/db/provider-payments.ts';
import { DETAILS } from '../../../server/src/routes/messages.ts';
import { userCreditsSchema } from '../../../src/services/schemas/credits.ts';
import { checkoutStatusSchema, creditHistorySchema, providerUrlSchema } from '../../../src/services/schemas/payments.ts';
import { startStripeStandIn, type StripeStandIn } from '../../stripe/stand-in.ts';
import { balanceOf } from '../helpers/media.ts';
import { purchaseRows, startPurchase } from '../helpers/payments.ts';
import { callApi, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * KINORA_PAYMENT_PROVIDER=stripe against tests/stripe's stand-in of Stripe's API: the `stripe`
 * client really calls it over HTTP (host/port/protocol), and the webhooks are signed by the
 * client's own generateTestHeaderString and verified by its constructEvent.
 */

const WEBHOOK_SECRET = 'whsec_kinora_test_secret';

let standIn: StripeStandIn;
let server: TestServer;
let webhookUrl: string;

beforeAll(async () => {
  standIn = await startStripeStandIn({ webhookSecret: WEBHOOK_SECRET });
  server = await startTestServer({
    payments: {
      provider: 'stripe',
      secretKey: 'sk_test_kinora',
      webhookSecret: WEBHOOK_SECRET,
      api: standIn.address,
      maxNetworkRetries: 0,
      refillPollMs: 50,
    },
  });
  webhookUrl = `${server.url}/api/stripe/webhook`;
});
afterAll(async () => {
  await server?.close();
  await standIn?.stop();
});
beforeEach(() => {
  standIn.setWebhookUrl(webhookUrl);
});

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const stripeSessionOf = (checkoutUrl: string) => {
  const id = checkoutUrl.split('/').pop() ?? '';
  const session = standIn.objects.sessions.get(id);
  if (!session) throw new Error(`the stand-in has no session ${id}`);
  return session;
};

async function checkoutStatus(token: string, sessionId: string) {
  const answer = await callApi(server, `credits/checkout/${sessionId}`, { token });
  expect(answer.status).toBe(200);
  return checkoutStatusSchema.parse(answer.body?.data);
}

async function postWebhook(body: string, signature: string | null) {
  const response = await fetch(webhookUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...(signature === null ? {} : { 'Stripe-Signature': signature }) },
    body,
  });
  return { status: response.status, body: (await response.json()) as { data?: { outcome: string }; detail?: string } };
}

/** Buys a pack through the stand-in's hosted page (Pay with 4242…); the webhook is delivered once. */
async function buyWithStripe(token: string, packId = 'pack-100') {
  const checkout = await startPurchase(server, token, packId);
  const paid = await standIn.payCheckout(stripeSessionOf(checkout.checkout_url).id as string);
  expect(paid.delivery?.status).toBe(200);
  return { checkout, event: paid.event };
}

const paymentIntentCalls = () => standIn.requests.filter((request) => request.method === 'POST' && request.path === '/v1/payment_intents');

describe('Stripe checkout', () => {
  it('opens a Checkout Session for the pack on Stripe: amount, customer, metadata, return URLs', async () => {
    const user = await signUpUser(server, 'stripebuyer');
    const checkout = await startPurchase(server, user.accessToken, 'pack-500');
    expect(checkout.checkout_url.startsWith(`${standIn.url}/c/pay/cs_test_`)).toBe(true);

    const session = stripeSessionOf(checkout.checkout_url);
    expect(session).toMatchObject({
      mode: 'payment',
      amount_total: 4500,
      currency: 'usd',
      client_reference_id: checkout.session_id,
      metadata: { kinora_checkout_id: checkout.session_id, kinora_user_sub: user.sub, kinora_pack_id: 'pack-500' },
      success_url: `${server.url}/credits?checkout=success&session_id=${checkout.session_id}`,
      cancel_url: `${server.url}/credits?checkout=cancelled&session_id=${checkout.session_id}`,
      _payment_intent_data: { setup_future_usage: 'off_session' },
    });
    const customer = standIn.objects.customers.get(session.customer as string);
    expect(customer).toMatchObject({ email: user.email, metadata: { kinora_user_sub: user.sub } });
    const create = standIn.requests.find((request) => request.path === '/v1/checkout/sessions' && request.params.client_reference_id === checkout.session_id);
    expect(create?.idempotencyKey).toBe(`kinora-checkout-${checkout.session_id}`);
    expect(create?.authorization).toBe('Bearer sk_test_kinora');

    // A second purchase uses the same Stripe customer; nothing is credited before Stripe says paid.
    const again = await startPurchase(server, user.accessToken, 'pack-100');
    expect(stripeSessionOf(again.checkout_url).customer).toBe(session.customer);
    expect((await checkoutStatus(user.accessToken, checkout.session_id)).status).toBe('open');
    expect(await purchaseRows(server, user.sub)).toEqual([]);
  });

  it('credits once when the signed checkout.session.completed arrives three times at once, and again later', async () => {
    const user = await signUpUser(server, 'stripewebhook');
    const checkout = await startPurchase(server, user.accessToken, 'pack-500');
    standIn.setWebhookUrl(undefined);
    const { event } = await standIn.payCheckout(stripeSessionOf(checkout.checkout_url).id as string);
    standIn.setWebhookUrl(webhookUrl);
    expect(await purchaseRows(server, user.sub)).toEqual([]);

    const concurrent = await Promise.all([standIn.deliver(event), standIn.deliver(event), standIn.deliver(event)]);
    expect(concurrent.map((delivery) => delivery.status)).toEqual([200, 200, 200]);
    const outcomes = concurrent.map((delivery) => (JSON.parse(delivery.body) as { data: { outcome: string } }).data.outcome).sort();
    expect(outcomes).toEqual(['already-credited', 'already-credited', 'credited']);
    const late = await standIn.deliver(event);
    expect(JSON.parse(late.body)).toMatchObject({ data: { outcome: 'already-credited' } });

    expect(await purchaseRows(server, user.sub)).toEqual([{ amount: 500, reason: 'Bought 500 credits (Creator)' }]);
    expect(await balanceOf(server, user.sub)).toBe(STARTING_CREDIT_GRANT + 500);
    const status = await checkoutStatus(user.accessToken, checkout.session_id);
    expect(status).toMatchObject({ status: 'paid', credits: 500 });
    // The card Stripe saved for off-session use is the one shown and used for auto-refill.
    const credits = userCreditsSchema.parse((await callApi(server, 'credits/get', { token: user.accessToken })).body?.data);
    expect(credits.card).toEqual({ brand: 'visa', last4: '4242' });
    const session = stripeSessionOf(checkout.checkout_url);
    const { rows } = await server.db.query<{ provider_payment_id: string; provider_payment_method_id: string }>(
      `SELECT p.provider_payment_id, m.provider_payment_method_id FROM payments p JOIN payment_methods m ON m.user_sub = p.user_sub
       WHERE p.id = $1`,
      [status.payment_id],
    );
    const intent = standIn.objects.paymentIntents.get(session.payment_intent as string);
    expect(rows).toEqual([{ provider_payment_id: intent?.id, provider_payment_method_id: intent?.payment_method }]);
  });

  it('refuses a webhook whose signature is missing, wrong or for another body (400), crediting nothing', async () => {
    const user = await signUpUser(server, 'stripeforged');
    const checkout = await startPurchase(server, user.accessToken, 'pack-100');
    standIn.setWebhookUrl(undefined);
    const { event } = await standIn.payCheckout(stripeSessionOf(checkout.checkout_url).id as string);
    const body = JSON.stringify(event);
    const otherSecret = new Stripe('sk_test_other').webhooks.generateTestHeaderString({ payload: body, secret: 'whsec_someone_else' });

    for (const signature of [null, 't=1,v1=deadbeef', otherSecret, standIn.signatureFor(`${body} `)]) {
      const answer = await postWebhook(body, signature);
      expect(answer).toEqual({ status: 400, body: { detail: DETAILS.stripeSignatureInvalid } });
    }
    expect(await purchaseRows(server, user.sub)).toEqual([]);
    // The real signature of that very body credits it.
    expect(await postWebhook(body, standIn.signatureFor(body))).toMatchObject({ status: 200, body: { data: { outcome: 'credited' } } });
  });

  it('ignores events that are not Kinora’s to credit: unpaid sessions, other sessions, other event types', async () => {
    const user = await signUpUser(server, 'stripeother');
    const checkout = await startPurchase(server, user.accessToken, 'pack-100');
    const session = stripeSessionOf(checkout.checkout_url);
    const send = (type: string, object: Record<string, unknown>) => {
      const body = JSON.stringify({ id: 'evt_test', object: 'event', type, data: { object } });
      return postWebhook(body, standIn.signatureFor(body));
    };
    const { id: _hidden, ...rest } = session;
    for (const [type, object] of [
      ['checkout.session.completed', { ...session, payment_status: 'unpaid' }],
      ['checkout.session.completed', { ...rest, id: 'cs_test_not_kinoras', payment_status: 'paid', status: 'complete' }],
      ['checkout.session.completed', { ...session, payment_status: 'paid', status: 'complete', amount_total: 1 }],
      ['customer.created', { id: 'cus_x', object: 'customer' }],
    ] as const) {
      expect(await send(type, object)).toMatchObject({ status: 200, body: { data: { outcome: 'ignored' } } });
    }
    expect(await purchaseRows(server, user.sub)).toEqual([]);
    expect((await checkoutStatus(user.accessToken, checkout.session_id)).status).toBe('open');
  });

  it('never lets the local card page pay a Stripe checkout', async () => {
    const user = await signUpUser(server, 'stripelocal');
    const checkout = await startPurchase(server, user.accessToken, 'pack-100');
    const page = await fetch(`${server.url}/local/checkout/${checkout.session_id}`, { redirect: 'manual' });
    expect(page.status).toBe(404);
    const pay = await fetch(`${server.url}/local/checkout/${checkout.session_id}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ number: '4242 4242 4242 4242', expiry: '12/39', cvc: '123', name: 'A', action: 'pay' }).toString(),
    });
    expect(pay.status).toBe(404);
    expect(await purchaseRows(server, user.sub)).toEqual([]);
  });

  it('answers 502 when Stripe fails, and opens no checkout', async () => {
    const user = await signUpUser(server, 'stripedown');
    standIn.failNext(1);
    const answer = await callApi(server, 'credits/purchase/pack-100', { token: user.accessToken });
    expect(answer).toMatchObject({ status: 502, body: { detail: DETAILS.cardProviderUnavailable } });
  });
});

describe('Stripe billing portal and receipts', () => {
  it('gives the billing portal session of the person’s Stripe customer, returning to the credits page', async () => {
    const user = await signUpUser(server, 'stripeportal');
    for (const segment of ['stripe', 'local']) {
      const answer = await callApi(server, `${segment}/customer-portal`, { method: 'POST', token: user.accessToken });
      expect(answer.status).toBe(200);
      const { url } = providerUrlSchema.parse(answer.body?.data);
      expect(url.startsWith(`${standIn.url}/p/session/bps_`)).toBe(true);
      const portal = standIn.objects.portalSessions.get(url.split('/').pop() ?? '');
      expect(portal).toMatchObject({ return_url: `${server.url}/credits` });
      expect(standIn.objects.customers.get(portal?.customer as string)).toMatchObject({ metadata: { kinora_user_sub: user.sub } });
    }
  });

  it('gives the receipt_url of the payment’s charge', async () => {
    const user = await signUpUser(server, 'stripereceipt');
    await buyWithStripe(user.accessToken, 'pack-2000');
    const history = creditHistorySchema.parse((await callApi(server, 'credits/history', { token: user.accessToken })).body?.data);
    const paymentId = history.items.find((item) => item.kind === 'purchase')?.payment_id;
    expect(paymentId).toBeTruthy();

    const answer = await callApi(server, 'stripe/get-receipt-url', { method: 'POST', token: user.accessToken, json: { payment_id: paymentId } });
    expect(answer.status).toBe(200);
    const { url } = providerUrlSchema.parse(answer.body?.data);
    const charge = [...standIn.objects.charges.values()].find((found) => found.receipt_url === url);
    expect(charge).toMatchObject({ amount: 16000, currency: 'usd' });
    const receipt = await fetch(url);
    expect(receipt.status).toBe(200);
    expect(await receipt.text()).toContain('$160.00');

    const stranger = await signUpUser(server, 'stripestranger');
    const refused = await callApi(server, 'stripe/get-receipt-url', { method: 'POST', token: stranger.accessToken, json: { payment_id: paymentId } });
    expect(refused.status).toBe(404);
  });
});

describe('Stripe auto-refill', () => {
  const debit = (sub: string, amount: number) =>
    server.db.transaction((tx) => appendLedgerEntry(tx, { userSub: sub, amount: -amount, kind: 'debit', reason: 'spent' }));

  async function buyerWithAutoRefill(prefix: string) {
    const user = await signUpUser(server, prefix);
    await buyWithStripe(user.accessToken, 'pack-100');
    const set = await callApi(server, 'credits/auto-refill/below-20-buy-100', { token: user.accessToken });
    expect(set.status).toBe(200);
    const { rows } = await server.db.query<{ provider_payment_method_id: string }>(
      'SELECT provider_payment_method_id FROM payment_methods WHERE user_sub = $1',
      [user.sub],
    );
    return { ...user, paymentMethod: rows[0]?.provider_payment_method_id ?? '' };
  }

  it('charges the saved card off-session once per triggering debit, after the debit, and credits once', async () => {
    const user = await buyerWithAutoRefill('striperefill');
    const before = paymentIntentCalls().length;
    const balance = await balanceOf(server, user.sub);

    // Under the threshold: the debit commits without waiting for Stripe; the refill follows.
    await debit(user.sub, balance - 10);
    const refills = await until('the refill to be paid', () => listRefillCharges(server.db, user.sub), (rows) => rows[0]?.status === 'paid');
    expect(refills).toHaveLength(1);
    const calls = paymentIntentCalls().slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.params).toMatchObject({
      amount: '1000',
      currency: 'usd',
      payment_method: user.paymentMethod,
      off_session: 'true',
      confirm: 'true',
      metadata: { kinora_refill_id: refills[0]?.id },
    });
    expect(calls[0]?.idempotencyKey).toBe(`kinora-auto-refill-${refills[0]?.id}`);
    const intentId = refills[0]?.provider_payment_id ?? '';
    expect(standIn.objects.paymentIntents.get(intentId)).toMatchObject({ status: 'succeeded', customer: expect.stringMatching(/^cus_/) });

    // Stripe's payment_intent.succeeded for it arrives as well: still one refill credited.
    const isIntentEvent = (found: Record<string, unknown>) =>
      found.type === 'payment_intent.succeeded' && (found.data as { object: { id: string } }).object.id === intentId;
    const event = await until('the payment_intent.succeeded event', async () => standIn.events.find(isIntentEvent), Boolean);
    await until('its delivery', async () => standIn.deliveries.find((delivery) => delivery.eventId === event?.id), Boolean);
    expect(JSON.parse((await standIn.deliver(event as Record<string, unknown>)).body)).toMatchObject({ data: { outcome: 'already-credited' } });
    const refillRows = (await purchaseRows(server, user.sub)).filter((row) => row.reason.startsWith('Auto-refill'));
    expect(refillRows).toEqual([{ amount: 100, reason: 'Auto-refill: bought 100 credits (Starter)' }]);
    expect(await balanceOf(server, user.sub)).toBe(110);

    // Above the threshold again: nothing; under it again: a second refill for that second debit.
    await debit(user.sub, 80);
    await debit(user.sub, 15);
    await until('the second refill', () => listRefillCharges(server.db, user.sub), (rows) => rows.length === 2 && rows[0]?.status === 'paid');
    expect(paymentIntentCalls().slice(before)).toHaveLength(2);
    expect(await balanceOf(server, user.sub)).toBe(115);
    const triggers = (await listRefillCharges(server.db, user.sub)).map((row) => row.trigger_ledger_id);
    expect(new Set(triggers).size).toBe(2);
  });

  it('records one refill for debits made while a charge is on its way', async () => {
    const user = await buyerWithAutoRefill('striperace');
    const balance = await balanceOf(server, user.sub);
    await Promise.all([debit(user.sub, balance - 12), debit(user.sub, 1), debit(user.sub, 1)].map((promise) => promise.catch(() => null)));
    await until('the refill to be paid', () => listRefillCharges(server.db, user.sub), (rows) => rows[0]?.status === 'paid');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await listRefillCharges(server.db, user.sub)).toHaveLength(1);
    expect((await purchaseRows(server, user.sub)).filter((row) => row.reason.startsWith('Auto-refill'))).toHaveLength(1);
  });

  it('credits nothing when the saved card is declined, records why, and does not charge that card again', async () => {
    const user = await buyerWithAutoRefill('stripedecline');
    standIn.declineCharges(user.paymentMethod);
    const before = paymentIntentCalls().length;
    const balance = await balanceOf(server, user.sub);

    await debit(user.sub, balance - 5);
    const refills = await until('the refill to fail', () => listRefillCharges(server.db, user.sub), (rows) => rows[0]?.status === 'failed');
    expect(refills[0]).toMatchObject({ status: 'failed', last_error: 'Your card was declined.', provider_payment_id: expect.stringMatching(/^pi_/) });
    expect(paymentIntentCalls().slice(before).map((call) => call.status)).toEqual([402]);
    expect((await purchaseRows(server, user.sub)).filter((row) => row.reason.startsWith('Auto-refill'))).toEqual([]);
    expect(await balanceOf(server, user.sub)).toBe(5);

    await debit(user.sub, 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(paymentIntentCalls().slice(before)).toHaveLength(1);
    expect(await listRefillCharges(server.db, user.sub)).toHaveLength(1);
  });

  it('tries again when Stripe cannot be reached, and credits once', async () => {
    const user = await buyerWithAutoRefill('stripeflaky');
    const before = paymentIntentCalls().length;
    standIn.failNext(1);
    await debit(user.sub, (await balanceOf(server, user.sub)) - 10);
    const refills = await until('the refill to be paid', () => listRefillCharges(server.db, user.sub), (rows) => rows[0]?.status === 'paid');
    expect(refills[0]?.attempts).toBe(2);
    expect(paymentIntentCalls().slice(before).map((call) => call.status)).toEqual([500, 200]);
    expect(await balanceOf(server, user.sub)).toBe(110);
  });
});
