import type { FastifyInstance } from 'fastify';
import { WebhookSignatureError } from '../payments/provider.ts';
import type { StripePaymentProvider } from '../payments/stripe/provider.ts';
import { HttpError, ok } from './http.ts';
import { DETAILS } from './messages.ts';

/** Stripe's events are small; a checkout session object is a few kilobytes. */
const WEBHOOK_BODY_LIMIT = 256 * 1024;

/**
 * POST /api/stripe/webhook: Stripe's events, signed with the endpoint's secret (Stripe-Signature).
 * The signature covers the raw body, so this scope reads JSON as text and the `stripe` client
 * verifies and parses it (https://docs.stripe.com/webhooks#verify-official-libraries). Any 2xx
 * tells Stripe the event arrived; anything else makes it deliver the event again later, which is
 * what a failure to reach Stripe while handling it should do (the credits are written once).
 */
export async function stripeWebhookRoute(scope: FastifyInstance, payments: StripePaymentProvider): Promise<void> {
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) =>
    done(null, body),
  );
  scope.post('/stripe/webhook', async (request) => {
    const raw = typeof request.body === 'string' ? request.body : '';
    const signature = request.headers['stripe-signature'];
    try {
      const handled = await payments.handleWebhook(raw, typeof signature === 'string' ? signature : undefined);
      return ok({ received: true, type: handled.type, outcome: handled.outcome });
    } catch (error) {
      if (error instanceof WebhookSignatureError) throw new HttpError(400, DETAILS.stripeSignatureInvalid);
      throw error;
    }
  });
}
