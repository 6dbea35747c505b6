import type { Database } from '../db/database.ts';
import { createLocalPaymentProvider, type PaymentProvider } from './provider.ts';
import type { StripeSettings } from './stripe/provider.ts';

/**
 * Which card provider the server runs with (server/src/main.ts reads it from the environment,
 * ./stripe/environment.ts): the local card page (the default, offline) or Stripe.
 */
export type PaymentSettings = { provider: 'local' } | ({ provider: 'stripe' } & StripeSettings);

export async function openPaymentProvider(
  db: Database,
  settings: PaymentSettings | undefined,
  onError: (error: unknown, what: string) => void,
): Promise<PaymentProvider> {
  const local = await createLocalPaymentProvider(db);
  if (settings?.provider !== 'stripe') return local;
  // Loaded only with Stripe: the local card page's server never loads the `stripe` package.
  const { createStripePaymentProvider } = await import('./stripe/provider.ts');
  return createStripePaymentProvider({ db, settings, local, onError });
}
