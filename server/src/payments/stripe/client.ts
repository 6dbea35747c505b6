import Stripe from 'stripe';
import { CardProviderUnavailableError } from '../provider.ts';
import type { StripeApiAddress } from './environment.ts';

/**
 * The official `stripe` client. `api` points it at another host, port and protocol (a local
 * stand-in of Stripe's API in tests); its requests then go to `{protocol}://{host}:{port}/v1/…`
 * exactly as to api.stripe.com. https://docs.stripe.com/api (authentication, form-encoded
 * requests, idempotent requests) and the client's README ("Configuration": host, port, protocol,
 * maxNetworkRetries, timeout).
 */
export function createStripeClient(settings: { secretKey: string; api?: StripeApiAddress; maxNetworkRetries?: number }): Stripe {
  return new Stripe(settings.secretKey, {
    ...(settings.api ? { host: settings.api.host, port: settings.api.port, protocol: settings.api.protocol } : {}),
    // The client retries connection errors, 409s and 5xx itself, resending the same idempotency
    // key (every POST here names one), so a retried call never charges twice.
    maxNetworkRetries: settings.maxNetworkRetries ?? 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'Kinora' },
  });
}

/**
 * Errors worth trying again later (Stripe unreachable, its own 5xx, rate limits); the others
 * (a declined card, a bad request, a wrong key) will answer the same next time.
 * https://docs.stripe.com/api/errors and https://docs.stripe.com/error-handling
 */
export function isTransientStripeError(error: unknown): boolean {
  return (
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeAPIError ||
    error instanceof Stripe.errors.StripeRateLimitError
  );
}

/** Runs a Stripe call for a route: any failure becomes the route's 502 (routes/payments.ts). */
export async function askStripe<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CardProviderUnavailableError(`Stripe refused or did not answer ${what}: ${reason}`, { cause: error });
  }
}
