/**
 * Which card provider takes payments, from the environment (server/src/main.ts; README "Taking
 * payments with Stripe"):
 * - KINORA_PAYMENT_PROVIDER: `local` (default: the local card page, offline) or `stripe`;
 * - STRIPE_SECRET_KEY (sk_… or rk_…) and STRIPE_WEBHOOK_SECRET (whsec_…): required with stripe;
 * - KINORA_STRIPE_API_URL: another address for Stripe's API (a stand-in such as
 *   `node --import tsx tests/stripe/main.ts`); its host, port and protocol go to the `stripe` client;
 * - KINORA_PUBLIC_URL: where the browser reaches Kinora, for Stripe's success, cancel and return
 *   URLs; without it they are built from the address each request came to.
 * A bad value stops the server with a readable error.
 */

export interface StripeApiAddress {
  host: string;
  port: number;
  protocol: 'http' | 'https';
}

export type PaymentEnvironment =
  | { provider: 'local' }
  | {
      provider: 'stripe';
      secretKey: string;
      webhookSecret: string;
      api?: StripeApiAddress;
      publicUrl?: string;
    };

type Env = Readonly<Record<string, string | undefined>>;

function httpUrl(variable: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${variable} must be an http(s) URL (got "${value}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${variable} must be an http(s) URL (got "${value}")`);
  return url;
}

/** `http://127.0.0.1:12111` → the client's host, port and protocol (the client adds /v1/ itself). */
export function stripeApiAddress(value: string): StripeApiAddress {
  const url = httpUrl('KINORA_STRIPE_API_URL', value);
  if (url.pathname !== '/' || url.search || url.hash) {
    throw new Error(`KINORA_STRIPE_API_URL must be an origin such as http://127.0.0.1:12111, without a path (got "${value}")`);
  }
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  // URL keeps IPv6 hosts in brackets; Node's http.request wants them bare.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return { host, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol };
}

export function parsePaymentEnvironment(env: Env): PaymentEnvironment {
  const name = (env.KINORA_PAYMENT_PROVIDER ?? '').trim() || 'local';
  if (name === 'local') return { provider: 'local' };
  if (name !== 'stripe') throw new Error(`KINORA_PAYMENT_PROVIDER must be "local" or "stripe" (got "${name}")`);
  const secretKey = env.STRIPE_SECRET_KEY?.trim();
  if (!secretKey) throw new Error('KINORA_PAYMENT_PROVIDER=stripe needs STRIPE_SECRET_KEY (your Stripe secret key, sk_…)');
  if (!/^(sk|rk)_/.test(secretKey)) throw new Error('STRIPE_SECRET_KEY must be a Stripe secret or restricted key (sk_… or rk_…)');
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET?.trim();
  if (!webhookSecret) {
    throw new Error('KINORA_PAYMENT_PROVIDER=stripe needs STRIPE_WEBHOOK_SECRET (the signing secret of the webhook endpoint, whsec_…)');
  }
  const apiUrl = env.KINORA_STRIPE_API_URL?.trim();
  const publicUrl = env.KINORA_PUBLIC_URL?.trim();
  if (publicUrl) httpUrl('KINORA_PUBLIC_URL', publicUrl);
  return {
    provider: 'stripe',
    secretKey,
    webhookSecret,
    ...(apiUrl ? { api: stripeApiAddress(apiUrl) } : {}),
    ...(publicUrl ? { publicUrl: publicUrl.replace(/\/+$/, '') } : {}),
  };
}
