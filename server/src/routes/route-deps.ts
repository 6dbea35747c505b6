import type { AppConfiguration } from '../../../src/config/app-config.ts';
import type { IdentityProvider } from '../auth/types.ts';
import type { Database } from '../db/database.ts';
import type { PaymentProvider } from '../payments/provider.ts';
import type { UserAuth } from './user-auth.ts';

/** What every route module is given by `buildApp`. */
export interface RouteDeps {
  db: Database;
  identity: IdentityProvider;
  auth: UserAuth;
  apiKey: string;
  /** What `frontend-configurations` answers: SPEC's catalogue, less what the render provider cannot run. */
  appConfiguration: AppConfiguration;
  /** The card provider: the local card page, or Stripe (KINORA_PAYMENT_PROVIDER). */
  payments: PaymentProvider;
}
