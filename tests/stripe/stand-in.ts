import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { asList, asObject, asString, asStringRecord, parseStripeForm, type FormObject } from './form.ts';
import { renderHostedCheckout, renderPortal, renderReceipt } from './pages.ts';

/**
 * A local stand-in of the few Stripe API calls Kinora makes (server/src/payments/stripe), written
 * from Stripe's public API reference, for tests and for trying Kinora's Stripe path by hand
 * (tests/stripe/main.ts). The `stripe` client is pointed at it with its host/port/protocol
 * options; it sends `Authorization: Bearer sk_…`, form-encoded bodies and `Idempotency-Key`.
 * The docs followed:
 *  - requests, errors, idempotency: https://docs.stripe.com/api/authentication,
 *    https://docs.stripe.com/api/errors (`{ error: { type, code, decline_code, message, param,
 *    payment_intent } }`; 400, 401, 402 card errors, 404 resource_missing),
 *    https://docs.stripe.com/api/idempotent_requests (the first answer replayed for the same key,
 *    an idempotency_error for the same key with other parameters), https://docs.stripe.com/api/expanding_objects;
 *  - POST /v1/customers: https://docs.stripe.com/api/customers/create;
 *  - POST /v1/checkout/sessions, GET /v1/checkout/sessions/{id}:
 *    https://docs.stripe.com/api/checkout/sessions/create and /object (mode, customer,
 *    client_reference_id, line_items[].price_data, payment_intent_data.setup_future_usage,
 *    expires_at 30 minutes to 24 hours ahead, url, status, payment_status, payment_intent);
 *  - POST /v1/billing_portal/sessions: https://docs.stripe.com/api/customer_portal/sessions/create;
 *  - POST /v1/payment_intents, GET /v1/payment_intents/{id}: https://docs.stripe.com/api/payment_intents/create
 *    (off_session + confirm charges a saved card at once; a decline is a 402 card_error carrying the
 *    PaymentIntent, now requires_payment_method) and /object (latest_charge, payment_method);
 *  - GET /v1/charges/{id}: https://docs.stripe.com/api/charges/object (receipt_url);
 *  - events and their delivery: https://docs.stripe.com/api/events/object and
 *    https://docs.stripe.com/webhooks (Stripe-Signature, signed here with the `stripe` client's
 *    own `webhooks.generateTestHeaderString`).
 * Test cards on the hosted page, as Stripe's testing docs (https://docs.stripe.com/testing):
 * 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined. `declineCharges(pm)` makes a saved
 * card decline later off-session charges (Stripe's 4000 0000 0000 0341 behaves so).
 */

export const STAND_IN_API_VERSION = '2026-10-28.endive';

type Json = Record<string, unknown>;

interface StoredCard {
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
}

export interface StandInRequest {
  method: string;
  path: string;
  params: FormObject;
  idempotencyKey: string | null;
  authorization: string | null;
  status: number;
}

export interface Delivery {
  eventId: string;
  type: string;
  status: number;
  body: string;
}

export interface StripeStandInOptions {
  /** 0 (default) takes a free port. */
  port?: number;
  /** The signing secret of the webhook endpoint (STRIPE_WEBHOOK_SECRET). */
  webhookSecret: string;
  /** Where events go (Kinora's /api/stripe/webhook); none: events are only kept. */
  webhookUrl?: string;
  log?: (line: string) => void;
}

export interface StripeStandIn {
  url: string;
  /** What to give the `stripe` client (KINORA_STRIPE_API_URL is `url`). */
  address: { host: string; port: number; protocol: 'http' };
  requests: StandInRequest[];
  events: Json[];
  deliveries: Delivery[];
  objects: {
    customers: Map<string, Json>;
    sessions: Map<string, Json>;
    paymentIntents: Map<string, Json>;
    paymentMethods: Map<string, Json>;
    charges: Map<string, Json>;
    portalSessions: Map<string, Json>;
  };
  setWebhookUrl(url: string | undefined): void;
  /** What the hosted page's Pay does: the card pays, the session completes, the event is sent. */
  payCheckout(sessionId: string, cardNumber?: string): Promise<{ event: Json; delivery: Delivery | null }>;
  /** Signs and posts one event to the webhook URL (again, for a repeat delivery). */
  deliver(event: Json): Promise<Delivery>;
  /** The Stripe-Signature header Stripe would send with this body. */
  signatureFor(payload: string): string;
  /** Off-session charges with this saved card are declined from now on. */
  declineCharges(paymentMethodId: string, declineCode?: string): void;
  /** The next `count` API calls answer 500 (Stripe's own error), as a failing Stripe would. */
  failNext(count: number): void;
  stop(): Promise<void>;
}

const newId = (prefix: string): string => `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
const now = (): number => Math.floor(Date.now() / 1000);

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Json,
  ) {
    super(String(body.message));
  }
}

const invalid = (message: string, param?: string, code?: string): ApiError =>
  new ApiError(400, { type: 'invalid_request_error', message, ...(param ? { param } : {}), ...(code ? { code } : {}) });
const missing = (kind: string, id: string, param: string): ApiError =>
  new ApiError(404, { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${kind}: '${id}'`, param });

/** Card numbers of the hosted page: the brand from the first digit, the declined test card. */
export const TEST_CARD_DECLINED = '4000000000000002';
function cardFrom(number: string): StoredCard | 'invalid' {
  const digits = number.replace(/\D/g, '');
  if (digits.length < 12 || digits.length > 19) return 'invalid';
  const brand = digits.startsWith('4') ? 'visa' : /^5[1-5]/.test(digits) ? 'mastercard' : digits.startsWith('3') ? 'amex' : 'unknown';
  return { brand, last4: digits.slice(-4), exp_month: 12, exp_year: new Date().getFullYear() + 5 };
}

export async function startStripeStandIn(options: StripeStandInOptions): Promise<StripeStandIn> {
  const signer = new Stripe('sk_test_stand_in_signer').webhooks;
  const log = options.log ?? (() => undefined);
  let webhookUrl = options.webhookUrl;
  let failures = 0;
  const requests: StandInRequest[] = [];
  const events: Json[] = [];
  const deliveries: Delivery[] = [];
  const customers = new Map<string, Json>();
  const sessions = new Map<string, Json>();
  const paymentIntents = new Map<string, Json>();
  const paymentMethods = new Map<string, Json>();
  const charges = new Map<string, Json>();
  const portalSessions = new Map<string, Json>();
  const declining = new Map<string, string>();
  const idempotent = new Map<string, { digest: string; status: number; body: string }>();
  let baseUrl = '';

  const eventOf = (type: string, object: Json): Json => {
    const event = {
      id: newId('evt'),
      object: 'event',
      api_version: STAND_IN_API_VERSION,
      created: now(),
      type,
      data: { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: webhookUrl ? 1 : 0,
      request: { id: null, idempotency_key: null },
    };
    events.push(event);
    return event;
  };

  const signatureFor = (payload: string): string => signer.generateTestHeaderString({ payload, secret: options.webhookSecret });

  async function deliver(event: Json): Promise<Delivery> {
    if (!webhookUrl) throw new Error('the stand-in has no webhook URL');
    const payload = JSON.stringify(event, null, 2);
    const response = await fetch(webhookUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'Stripe-Signature': signatureFor(payload), 'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)' },
      body: payload,
    });
    const delivery = { eventId: String(event.id), type: String(event.type), status: response.status, body: await response.text() };
    deliveries.push(delivery);
    log(`event ${delivery.type} ${delivery.eventId} → ${delivery.status}`);
    return delivery;
  }

  /** Sends an event without holding up the answer (Stripe delivers asynchronously). */
  const deliverLater = (event: Json): void => {
    if (!webhookUrl) return;
    setTimeout(() => {
      deliver(event).catch((error: unknown) => log(`event ${String(event.type)} not delivered: ${String(error)}`));
    }, 10);
  };

  const findCustomer = (id: string | undefined, param: string): Json => {
    if (!id) throw invalid(`Missing required param: ${param}.`, param, 'parameter_missing');
    const customer = customers.get(id);
    if (!customer) throw missing('customer', id, param);
    return customer;
  };

  function expand(object: Json, params: FormObject): Json {
    const wanted = asList(params.expand).filter((item): item is string => typeof item === 'string');
    const copy: Json = { ...object };
    for (const field of wanted) {
      const id = copy[field];
      if (typeof id !== 'string') continue;
      const found = charges.get(id) ?? paymentMethods.get(id) ?? paymentIntents.get(id) ?? customers.get(id);
      if (found) copy[field] = found;
    }
    return copy;
  }

  /** A successful charge of a PaymentIntent with a card: the charge, its receipt and the intent's new state. */
  function charge(intent: Json, method: Json): void {
    const card = method.card as StoredCard;
    const chargeId = newId('ch');
    charges.set(chargeId, {
      id: chargeId,
      object: 'charge',
      amount: intent.amount,
      amount_captured: intent.amount,
      currency: intent.currency,
      customer: intent.customer,
      payment_intent: intent.id,
      payment_method: method.id,
      paid: true,
      captured: true,
      status: 'succeeded',
      created: now(),
      livemode: false,
      receipt_url: `${baseUrl}/receipts/${chargeId}`,
      payment_method_details: { type: 'card', card: { ...card } },
    });
    Object.assign(intent, { status: 'succeeded', amount_received: intent.amount, latest_charge: chargeId, payment_method: method.id });
  }

  function newIntent(fields: Json): Json {
    const intent: Json = {
      id: newId('pi'),
      object: 'payment_intent',
      amount: 0,
      amount_received: 0,
      currency: 'usd',
      customer: null,
      description: null,
      latest_charge: null,
      livemode: false,
      metadata: {},
      payment_method: null,
      setup_future_usage: null,
      status: 'requires_payment_method',
      created: now(),
      ...fields,
    };
    paymentIntents.set(String(intent.id), intent);
    return intent;
  }

  // ---- the API calls --------------------------------------------------------------------------

  function createCustomer(params: FormObject): Json {
    const customer = {
      id: newId('cus'),
      object: 'customer',
      email: asString(params.email) ?? null,
      name: asString(params.name) ?? null,
      metadata: asStringRecord(params.metadata),
      created: now(),
      livemode: false,
      invoice_settings: { default_payment_method: null },
    };
    customers.set(customer.id, customer);
    return customer;
  }

  function createSession(params: FormObject): Json {
    const mode = asString(params.mode);
    if (!mode) throw invalid('Missing required param: mode.', 'mode', 'parameter_missing');
    if (mode !== 'payment') throw invalid('This stand-in takes mode=payment only.', 'mode');
    const customer = asString(params.customer);
    if (customer) findCustomer(customer, 'customer');
    const items = asList(params.line_items);
    if (items.length === 0) throw invalid('line_items is required in payment mode.', 'line_items', 'parameter_missing');
    let amount = 0;
    let currency: string | undefined;
    items.forEach((value, index) => {
      const item = asObject(value) ?? {};
      const priceData = asObject(item.price_data);
      const unitAmount = Number(asString(priceData?.unit_amount));
      const quantity = Number(asString(item.quantity) ?? '1');
      if (!priceData || !Number.isInteger(unitAmount) || unitAmount < 0) {
        throw invalid('Each line item needs price_data with a unit_amount.', `line_items[${index}][price_data]`);
      }
      if (!asString(asObject(priceData.product_data)?.name)) {
        throw invalid('Missing required param: line_items[0][price_data][product_data][name].', `line_items[${index}][price_data][product_data][name]`, 'parameter_missing');
      }
      currency = asString(priceData.currency);
      if (!currency) throw invalid('Missing required param: currency.', `line_items[${index}][price_data][currency]`, 'parameter_missing');
      amount += unitAmount * quantity;
    });
    const successUrl = asString(params.success_url);
    if (!successUrl) throw invalid('Missing required param: success_url.', 'success_url', 'parameter_missing');
    const expiresAt = params.expires_at === undefined ? now() + 24 * 3600 : Number(asString(params.expires_at));
    if (!Number.isInteger(expiresAt) || expiresAt < now() + 30 * 60 - 5 || expiresAt > now() + 24 * 3600 + 5) {
      throw invalid('The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.', 'expires_at');
    }
    const intentData = asObject(params.payment_intent_data) ?? {};
    const id = `cs_test_${randomBytes(24).toString('hex')}`;
    const session = {
      id,
      object: 'checkout.session',
      mode,
      status: 'open',
      payment_status: 'unpaid',
      amount_subtotal: amount,
      amount_total: amount,
      currency,
      customer: customer ?? null,
      client_reference_id: asString(params.client_reference_id) ?? null,
      metadata: asStringRecord(params.metadata),
      payment_intent: null,
      success_url: successUrl,
      cancel_url: asString(params.cancel_url) ?? null,
      url: `${baseUrl}/c/pay/${id}`,
      expires_at: expiresAt,
      created: now(),
      livemode: false,
      allowed_payment_method_types: asList(params.allowed_payment_method_types),
      // Kept for the payment; not part of the session object Stripe answers with.
      _payment_intent_data: {
        setup_future_usage: asString(intentData.setup_future_usage) ?? null,
        metadata: asStringRecord(intentData.metadata),
        line_items: items.map((value) => asObject(asObject(asObject(value)?.price_data)?.product_data)?.name),
      },
    };
    sessions.set(id, session);
    return session;
  }

  const publicSession = (session: Json): Json => {
    const { _payment_intent_data: _hidden, ...shown } = session;
    return shown;
  };

  function createPortalSession(params: FormObject): Json {
    const customer = findCustomer(asString(params.customer), 'customer');
    const id = newId('bps');
    const portal = {
      id,
      object: 'billing_portal.session',
      customer: customer.id,
      return_url: asString(params.return_url) ?? null,
      url: `${baseUrl}/p/session/${id}`,
      created: now(),
      livemode: false,
    };
    portalSessions.set(id, portal);
    return portal;
  }

  function createPaymentIntent(params: FormObject): Json {
    const amount = Number(asString(params.amount));
    if (!Number.isInteger(amount)) throw invalid('Missing required param: amount.', 'amount', 'parameter_missing');
    const currency = asString(params.currency);
    if (!currency) throw invalid('Missing required param: currency.', 'currency', 'parameter_missing');
    if (amount < 50) throw invalid('Amount must be at least $0.50 usd', 'amount', 'amount_too_small');
    const customer = asString(params.customer);
    if (customer) findCustomer(customer, 'customer');
    const methodId = asString(params.payment_method);
    const method = methodId ? paymentMethods.get(methodId) : undefined;
    if (methodId && !method) throw missing('PaymentMethod', methodId, 'payment_method');
    if (method && customer && method.customer !== customer) {
      throw invalid(`The provided PaymentMethod ${String(method.id)} does not belong to the Customer ${customer}.`, 'payment_method');
    }
    const intent = newIntent({
      amount,
      currency,
      customer: customer ?? null,
      description: asString(params.description) ?? null,
      metadata: asStringRecord(params.metadata),
      payment_method: methodId ?? null,
      status: methodId ? 'requires_confirmation' : 'requires_payment_method',
    });
    if (asString(params.confirm) !== 'true' || !method) return intent;
    const declineCode = declining.get(String(method.id));
    if (declineCode) {
      Object.assign(intent, {
        status: 'requires_payment_method',
        last_payment_error: { type: 'card_error', code: 'card_declined', decline_code: declineCode, message: 'Your card was declined.' },
      });
      deliverLater(eventOf('payment_intent.payment_failed', intent));
      throw new ApiError(402, {
        type: 'card_error',
        code: 'card_declined',
        decline_code: declineCode,
        message: 'Your card was declined.',
        payment_intent: structuredClone(intent),
        payment_method: structuredClone(method),
      });
    }
    charge(intent, method);
    deliverLater(eventOf('payment_intent.succeeded', intent));
    return intent;
  }

  function retrieve(map: Map<string, Json>, kind: string, id: string, params: FormObject): Json {
    const found = map.get(id);
    if (!found) throw missing(kind, id, 'id');
    return expand(kind === 'checkout.session' ? publicSession(found) : found, params);
  }

  type Handler = (params: FormObject, match: RegExpMatchArray) => Json;
  const routes: { method: string; path: RegExp; handle: Handler }[] = [
    { method: 'POST', path: /^\/v1\/customers$/, handle: createCustomer },
    { method: 'GET', path: /^\/v1\/customers\/([^/]+)$/, handle: (params, m) => retrieve(customers, 'customer', m[1] ?? '', params) },
    { method: 'POST', path: /^\/v1\/checkout\/sessions$/, handle: (params) => publicSession(createSession(params)) },
    { method: 'GET', path: /^\/v1\/checkout\/sessions\/([^/]+)$/, handle: (params, m) => retrieve(sessions, 'checkout.session', m[1] ?? '', params) },
    { method: 'POST', path: /^\/v1\/billing_portal\/sessions$/, handle: createPortalSession },
    { method: 'POST', path: /^\/v1\/payment_intents$/, handle: createPaymentIntent },
    { method: 'GET', path: /^\/v1\/payment_intents\/([^/]+)$/, handle: (params, m) => retrieve(paymentIntents, 'payment_intent', m[1] ?? '', params) },
    { method: 'GET', path: /^\/v1\/charges\/([^/]+)$/, handle: (params, m) => retrieve(charges, 'charge', m[1] ?? '', params) },
    { method: 'GET', path: /^\/v1\/payment_methods\/([^/]+)$/, handle: (params, m) => retrieve(paymentMethods, 'payment_method', m[1] ?? '', params) },
  ];

  function answerApi(method: string, path: string, query: string, body: string, headers: http.IncomingHttpHeaders): { status: number; body: string; replayed: boolean } {
    const params = parseStripeForm(method === 'GET' ? query : body);
    const authorization = typeof headers.authorization === 'string' ? headers.authorization : null;
    const idempotencyKey = typeof headers['idempotency-key'] === 'string' ? headers['idempotency-key'] : null;
    const record = (status: number) => requests.push({ method, path, params, idempotencyKey, authorization, status });
    const fail = (error: ApiError) => {
      record(error.status);
      return { status: error.status, body: JSON.stringify({ error: error.body }), replayed: false };
    };
    if (!authorization || !/^Bearer (sk|rk)_\S+$/.test(authorization)) {
      return fail(new ApiError(401, { type: 'invalid_request_error', message: 'You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth.' }));
    }
    if (failures > 0) {
      failures -= 1;
      return fail(new ApiError(500, { type: 'api_error', message: 'An unknown error occurred (the stand-in was told to fail).' }));
    }
    const route = routes.find((candidate) => candidate.method === method && candidate.path.test(path));
    if (!route) return fail(invalid(`Unrecognized request URL (${method}: ${path}).`));
    const digest = createHash('sha256').update(`${method} ${path} ${body}`).digest('hex');
    if (method === 'POST' && idempotencyKey) {
      const earlier = idempotent.get(idempotencyKey);
      if (earlier && earlier.digest !== digest) {
        return fail(new ApiError(400, {
          type: 'idempotency_error',
          message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
        }));
      }
      if (earlier) {
        record(earlier.status);
        return { status: earlier.status, body: earlier.body, replayed: true };
      }
    }
    let answer: { status: number; body: string };
    try {
      answer = { status: 200, body: JSON.stringify(route.handle(params, path.match(route.path) as RegExpMatchArray)) };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      answer = { status: error.status, body: JSON.stringify({ error: error.body }) };
    }
    // Stripe keeps the answer of a request that ran (a card error included) under its key.
    if (method === 'POST' && idempotencyKey) idempotent.set(idempotencyKey, { digest, ...answer });
    record(answer.status);
    return { ...answer, replayed: false };
  }

  // ---- the hosted pages (checkout, billing portal, receipts) -----------------------------------

  async function payCheckout(sessionId: string, cardNumber = '4242 4242 4242 4242'): Promise<{ event: Json; delivery: Delivery | null }> {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`no checkout session ${sessionId}`);
    if (session.status !== 'open') throw new Error(`checkout session ${sessionId} is ${String(session.status)}`);
    const card = cardFrom(cardNumber);
    if (card === 'invalid') throw new Error('Your card number is invalid.');
    if (cardNumber.replace(/\D/g, '') === TEST_CARD_DECLINED) throw new Error('Your card was declined.');
    const intentData = session._payment_intent_data as { setup_future_usage: string | null; metadata: Record<string, string> };
    // A card paid "for future use" is attached to the customer (https://docs.stripe.com/payments/save-during-payment).
    const keep = intentData.setup_future_usage !== null && typeof session.customer === 'string';
    const method: Json = { id: newId('pm'), object: 'payment_method', type: 'card', card, customer: keep ? session.customer : null, created: now(), livemode: false };
    paymentMethods.set(String(method.id), method);
    const intent = newIntent({
      amount: session.amount_total,
      currency: session.currency,
      customer: session.customer,
      metadata: intentData.metadata,
      setup_future_usage: intentData.setup_future_usage,
    });
    charge(intent, method);
    Object.assign(session, { status: 'complete', payment_status: 'paid', payment_intent: intent.id });
    const event = eventOf('checkout.session.completed', publicSession(session));
    deliverLater(eventOf('payment_intent.succeeded', intent));
    const delivery = webhookUrl ? await deliver(event).catch(() => null) : null;
    return { event, delivery };
  }

  async function answerPage(method: string, path: string, body: string, response: http.ServerResponse): Promise<boolean> {
    const html = (status: number, text: string): void => {
      response.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(text);
    };
    const redirect = (location: string): void => {
      response.writeHead(303, { Location: location }).end();
    };
    const checkout = /^\/c\/pay\/([^/]+)$/.exec(path);
    if (checkout) {
      const session = sessions.get(checkout[1] ?? '');
      if (!session) return (html(404, renderHostedCheckout(null)), true);
      if (method === 'GET') return (html(200, renderHostedCheckout(session)), true);
      const form = Object.fromEntries(new URLSearchParams(body));
      if (form.action === 'cancel') return (redirect(String(session.cancel_url ?? session.success_url)), true);
      if (session.status !== 'open') return (redirect(String(session.success_url).replace('{CHECKOUT_SESSION_ID}', String(session.id))), true);
      try {
        await payCheckout(String(session.id), form.number ?? '');
      } catch (error) {
        return (html(402, renderHostedCheckout(session, error instanceof Error ? error.message : String(error))), true);
      }
      return (redirect(String(session.success_url).replace('{CHECKOUT_SESSION_ID}', String(session.id))), true);
    }
    const portal = /^\/p\/session\/([^/]+)(\/detach\/([^/]+))?$/.exec(path);
    if (portal) {
      const session = portalSessions.get(portal[1] ?? '');
      if (!session) return (html(404, renderPortal(null, [], [])), true);
      const detach = portal[3];
      if (method === 'POST' && detach) {
        const found = paymentMethods.get(detach);
        if (found && found.customer === session.customer) {
          found.customer = null;
          deliverLater(eventOf('payment_method.detached', found));
        }
        return (redirect(`/p/session/${String(session.id)}`), true);
      }
      const cards = [...paymentMethods.values()].filter((found) => found.customer === session.customer);
      const paid = [...charges.values()].filter((found) => found.customer === session.customer);
      return (html(200, renderPortal(session, cards, paid)), true);
    }
    const receipt = /^\/receipts\/([^/]+)$/.exec(path);
    if (receipt) {
      const found = charges.get(receipt[1] ?? '');
      return (html(found ? 200 : 404, renderReceipt(found ?? null)), true);
    }
    return false;
  }

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(request.url ?? '/', baseUrl);
      const method = request.method ?? 'GET';
      void (async () => {
        if (url.pathname.startsWith('/v1/')) {
          const answer = answerApi(method, url.pathname, url.search.slice(1), body, request.headers);
          response.writeHead(answer.status, {
            'Content-Type': 'application/json',
            'Request-Id': newId('req'),
            'Stripe-Version': STAND_IN_API_VERSION,
            ...(answer.replayed ? { 'Idempotent-Replayed': 'true' } : {}),
          });
          response.end(answer.body);
          return;
        }
        if (!(await answerPage(method, url.pathname, body, response))) response.writeHead(404).end('not found');
      })().catch((error: unknown) => {
        log(`stand-in error: ${String(error)}`);
        if (!response.headersSent) response.writeHead(500);
        response.end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;

  return {
    url: baseUrl,
    address: { host: '127.0.0.1', port, protocol: 'http' },
    requests,
    events,
    deliveries,
    objects: { customers, sessions, paymentIntents, paymentMethods, charges, portalSessions },
    setWebhookUrl: (url) => {
      webhookUrl = url;
    },
    payCheckout,
    deliver,
    signatureFor,
    declineCharges: (paymentMethodId, declineCode = 'insufficient_funds') => {
      declining.set(paymentMethodId, declineCode);
    },
    failNext: (count) => {
      failures = count;
    },
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
