import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ROUTES } from '../../../src/config/routes.ts';
import { receiptRequestSchema, type ProviderUrl } from '../../../src/services/schemas/payments.ts';
import { creditHistoryPage } from '../db/credit-history.ts';
import { creditBalance } from '../db/credit-ledger.ts';
import {
  autoRefillOption,
  cancelCheckoutSession,
  findCheckoutSession,
  findOwnPayment,
  findPayment,
  listPayments,
  noteCheckoutError,
  removeCard,
  savedCard,
  type CheckoutSessionRow,
} from '../db/payments.ts';
import { CARD_FORM_TEXTS, checkCard, readCardForm } from '../payments/card-form.ts';
import { checkoutReturnUrl, checkoutStatusOf, confirmCheckout } from '../payments/checkout.ts';
import { CardProviderUnavailableError, localPortalPath, localReceiptPath, type PaymentProvider } from '../payments/provider.ts';
import {
  renderCheckoutClosedPage,
  renderCheckoutPage,
  renderMissingPage,
  renderPortalPage,
  renderReceiptPage,
} from '../payments/pages.ts';
import { paymentSecrets, signPaymentLink, verifyPaymentLink, verifyWebhookSignature } from '../payments/tokens.ts';
import { HttpError, ok, parseInput } from './http.ts';
import { DETAILS } from './messages.ts';
import type { StripePaymentProvider } from '../payments/stripe/provider.ts';
import type { RouteDeps } from './route-deps.ts';
import { stripeWebhookRoute } from './stripe-webhook.ts';

/**
 * The `{payment-provider}` segments served: both answer for the provider the server runs with
 * (the local card page or Stripe), so a web build names either and works against any server.
 */
const PROVIDER_SEGMENTS = ['local', 'stripe'] as const;

const billingPortalUrl = localPortalPath;
const receiptUrl = localReceiptPath;

/** This server's origin as the browser reached it, for the card provider's return URLs. */
export const requestOrigin = (request: FastifyRequest): string => `${request.protocol}://${request.host}`;

/** Runs a card provider call for a route: a provider that refused or did not answer is a 502. */
export async function viaCardProvider<T>(request: FastifyRequest, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof CardProviderUnavailableError)) throw error;
    request.log.error({ err: error }, 'the card provider failed');
    throw new HttpError(502, DETAILS.cardProviderUnavailable);
  }
}

const isStripe = (payments: PaymentProvider): payments is StripePaymentProvider => payments.name === 'stripe' && 'handleWebhook' in payments;

const webhookBodySchema = z.object({ type: z.string().min(1).max(100), session_id: z.string().min(1).max(200) });

/** The card provider's calls under /api (SPEC §7 `{payment-provider}/…`) and its webhook. */
export async function paymentRoutes(app: FastifyInstance, { db, auth, payments }: RouteDeps): Promise<void> {
  const secrets = await paymentSecrets(db);

  for (const provider of PROVIDER_SEGMENTS) {
    /** The billing portal of the signed-in user (the local page: a signed link that works for an hour). */
    app.post(`/${provider}/customer-portal`, async (request): Promise<{ data: ProviderUrl }> => {
      const user = await auth.requireUser(request);
      const url = await viaCardProvider(request, () =>
        payments.portalUrl({ userSub: user.sub, email: user.row.email, origin: requestOrigin(request) }),
      );
      return ok({ url });
    });

    /** The receipt of one of the user's own payments. */
    app.post(`/${provider}/get-receipt-url`, async (request): Promise<{ data: ProviderUrl }> => {
      const user = await auth.requireUser(request);
      const { payment_id: paymentId } = parseInput(receiptRequestSchema, request.body);
      const payment = await findOwnPayment(db, paymentId, user.sub);
      if (!payment) throw new HttpError(404, DETAILS.paymentNotFound);
      return ok({ url: await viaCardProvider(request, () => payments.receiptUrl(payment, requestOrigin(request))) });
    });
  }

  if (isStripe(payments)) await app.register(async (scope) => stripeWebhookRoute(scope, payments));

  // The webhook's signature covers the raw body, so this scope reads JSON as text itself.
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_request, body, done) =>
      done(null, body),
    );
    /**
     * The provider's confirmation `{type: 'checkout.completed', session_id}`, signed with the
     * server's webhook key (`Kinora-Signature`: HMAC-SHA256 hex of the body). It may arrive more
     * than once, and before or after the checkout page's own confirmation: it credits once.
     */
    scope.post('/local/webhook', async (request) => {
      const raw = typeof request.body === 'string' ? request.body : '';
      if (!verifyWebhookSignature(secrets.webhook, raw, request.headers['kinora-signature'])) {
        throw new HttpError(400, DETAILS.webhookSignatureInvalid);
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        throw new HttpError(400, DETAILS.webhookBodyInvalid);
      }
      const event = webhookBodySchema.safeParse(parsed);
      if (!event.success) throw new HttpError(400, DETAILS.webhookBodyInvalid);
      // Events this server does not act on are acknowledged, as a provider expects.
      if (event.data.type !== 'checkout.completed') return ok({ received: true, credited: false, status: null });
      const result = await confirmCheckout(db, event.data.session_id, 'webhook');
      if (result.outcome === 'not-found') throw new HttpError(404, DETAILS.checkoutNotFound);
      return ok({ received: true, credited: result.outcome === 'confirmed', status: checkoutStatusOf(result.session).status });
    });
  });
}

function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.code(status).header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(html);
}

const CHECKOUT_MISSING = {
  title: 'Checkout not found',
  text: 'This checkout does not exist. Start a new purchase on Kinora’s credits page.',
};
const LINK_MISSING = {
  title: 'This link has expired',
  text: 'This link is invalid or has expired. Open it again from Kinora’s credits page.',
};
const RECEIPT_MISSING = { title: 'Receipt not found', text: 'This payment does not exist.' };
const CARD_REMOVED = 'Your card was removed and auto-refill is now off.';

/** Where a closed checkout's page links back to (with the outcome, so the app can say what happened). */
const closedBackUrl = (session: CheckoutSessionRow): string =>
  checkoutReturnUrl(session, session.status === 'paid' ? 'success' : 'cancelled');

/** Reads form posts (application/x-www-form-urlencoded) into `{field: first value}`. */
function acceptFormBodies(scope: FastifyInstance): void {
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16 * 1024 },
    (_request, body, done) => {
      const fields: Record<string, string> = {};
      for (const [key, value] of new URLSearchParams(typeof body === 'string' ? body : body.toString())) {
        if (!(key in fields)) fields[key] = value;
      }
      done(null, fields);
    },
  );
}

/** The local card provider's own pages (checkout, billing portal, receipts), outside /api. */
export async function localProviderPages(app: FastifyInstance, { db }: RouteDeps): Promise<void> {
  const secrets = await paymentSecrets(db);
  /** A checkout this page takes: never another provider's (the local page would credit it for free). */
  const findLocalCheckout = async (id: string): Promise<CheckoutSessionRow | null> => {
    const session = await findCheckoutSession(db, id);
    return session?.provider === 'local' ? session : null;
  };

  const closedPage = (reply: FastifyReply, session: CheckoutSessionRow): FastifyReply =>
    sendPage(reply, 409, renderCheckoutClosedPage(session, closedBackUrl(session)));

  await app.register(async (scope) => {
    acceptFormBodies(scope);

    scope.get<{ Params: { id: string } }>('/local/checkout/:id', async (request, reply) => {
      const session = await findLocalCheckout(request.params.id);
      if (!session) return sendPage(reply, 404, renderMissingPage(CHECKOUT_MISSING.title, CHECKOUT_MISSING.text));
      if (session.status !== 'open') return sendPage(reply, 200, renderCheckoutClosedPage(session, closedBackUrl(session)));
      return sendPage(reply, 200, renderCheckoutPage(session));
    });

    scope.post<{ Params: { id: string } }>('/local/checkout/:id', async (request, reply) => {
      const session = await findLocalCheckout(request.params.id);
      if (!session) return sendPage(reply, 404, renderMissingPage(CHECKOUT_MISSING.title, CHECKOUT_MISSING.text));
      const form = readCardForm(request.body);

      if (form.action === 'cancel') {
        const cancelled = await cancelCheckoutSession(db, session.id);
        if (!cancelled) return closedPage(reply, (await findCheckoutSession(db, session.id)) ?? session);
        return reply.header('Cache-Control', 'no-store').redirect(checkoutReturnUrl(cancelled, 'cancelled'), 303);
      }

      // A second press of Pay after the payment went through lands where the first one did.
      if (session.status === 'paid') return reply.redirect(checkoutReturnUrl(session, 'success'), 303);
      if (session.status !== 'open') return closedPage(reply, session);

      const check = checkCard(form);
      if (check.result === 'invalid') {
        return sendPage(reply, 400, renderCheckoutPage(session, { values: form, errors: check.errors }));
      }
      if (check.result === 'declined') {
        await noteCheckoutError(db, session.id, CARD_FORM_TEXTS.declined);
        return sendPage(reply, 402, renderCheckoutPage(session, { values: form, formError: CARD_FORM_TEXTS.declined }));
      }
      const result = await confirmCheckout(db, session.id, 'checkout', check.card);
      if (result.outcome === 'not-found') {
        return sendPage(reply, 404, renderMissingPage(CHECKOUT_MISSING.title, CHECKOUT_MISSING.text));
      }
      if (result.outcome === 'not-open' && result.session.status !== 'paid') return closedPage(reply, result.session);
      return reply.header('Cache-Control', 'no-store').redirect(checkoutReturnUrl(result.session, 'success'), 303);
    });

    scope.get<{ Params: { token: string }; Querystring: { removed?: string } }>(
      '/local/billing-portal/:token',
      async (request, reply) => {
        const claims = verifyPaymentLink(secrets.links, request.params.token);
        if (claims?.kind !== 'portal') return sendPage(reply, 404, renderMissingPage(LINK_MISSING.title, LINK_MISSING.text));
        const payments = await listPayments(db, claims.sub);
        const html = renderPortalPage({
          removeCardAction: `${billingPortalUrl(request.params.token)}/remove-card`,
          card: await savedCard(db, claims.sub),
          autoRefill: await autoRefillOption(db, claims.sub),
          payments: payments.map((payment) => ({
            payment,
            receiptUrl: receiptUrl(signPaymentLink(secrets.links, { kind: 'receipt', paymentId: payment.id })),
          })),
          balance: await creditBalance(db, claims.sub),
          ledger: (await creditHistoryPage(db, claims.sub, null)).items,
          notice: request.query.removed === '1' ? CARD_REMOVED : undefined,
        });
        return sendPage(reply, 200, html);
      },
    );

    /** "Remove card": forgets the saved card and turns auto-refill off, then shows the portal again. */
    scope.post<{ Params: { token: string } }>('/local/billing-portal/:token/remove-card', async (request, reply) => {
      const claims = verifyPaymentLink(secrets.links, request.params.token);
      if (claims?.kind !== 'portal') return sendPage(reply, 404, renderMissingPage(LINK_MISSING.title, LINK_MISSING.text));
      await removeCard(db, claims.sub);
      return reply.redirect(`${billingPortalUrl(request.params.token)}?removed=1`, 303);
    });

    scope.get<{ Params: { token: string } }>('/local/receipts/:token', async (request, reply) => {
      const claims = verifyPaymentLink(secrets.links, request.params.token);
      if (claims?.kind !== 'receipt') return sendPage(reply, 404, renderMissingPage(LINK_MISSING.title, LINK_MISSING.text));
      const payment = await findPayment(db, claims.paymentId);
      if (!payment) return sendPage(reply, 404, renderMissingPage(RECEIPT_MISSING.title, RECEIPT_MISSING.text));
      return sendPage(reply, 200, renderReceiptPage(payment, ROUTES.credits));
    });
  });
}
