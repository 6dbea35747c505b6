import { describe, expect, it } from 'vitest';
import { parsePaymentEnvironment, stripeApiAddress } from '../../../server/src/payments/stripe/environment.ts';

const STRIPE = { KINORA_PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' };

describe('parsePaymentEnvironment', () => {
  it('is the local card page unless KINORA_PAYMENT_PROVIDER says stripe', () => {
    expect(parsePaymentEnvironment({})).toEqual({ provider: 'local' });
    expect(parsePaymentEnvironment({ KINORA_PAYMENT_PROVIDER: ' local ', STRIPE_SECRET_KEY: 'sk_test_1' })).toEqual({ provider: 'local' });
    expect(() => parsePaymentEnvironment({ KINORA_PAYMENT_PROVIDER: 'paypal' })).toThrow(
      'KINORA_PAYMENT_PROVIDER must be "local" or "stripe" (got "paypal")',
    );
  });

  it('needs both Stripe secrets, and says which is missing', () => {
    expect(parsePaymentEnvironment(STRIPE)).toEqual({ provider: 'stripe', secretKey: 'sk_test_1', webhookSecret: 'whsec_1' });
    expect(() => parsePaymentEnvironment({ ...STRIPE, STRIPE_SECRET_KEY: '' })).toThrow(/needs STRIPE_SECRET_KEY/);
    expect(() => parsePaymentEnvironment({ ...STRIPE, STRIPE_SECRET_KEY: 'pk_test_1' })).toThrow(/secret or restricted key/);
    expect(() => parsePaymentEnvironment({ ...STRIPE, STRIPE_WEBHOOK_SECRET: undefined })).toThrow(/needs STRIPE_WEBHOOK_SECRET/);
  });

  it('reads the stand-in address and the public URL', () => {
    expect(parsePaymentEnvironment({ ...STRIPE, KINORA_STRIPE_API_URL: 'http://127.0.0.1:12111', KINORA_PUBLIC_URL: 'https://kinora.example/' })).toEqual({
      provider: 'stripe',
      secretKey: 'sk_test_1',
      webhookSecret: 'whsec_1',
      api: { host: '127.0.0.1', port: 12111, protocol: 'http' },
      publicUrl: 'https://kinora.example',
    });
    expect(stripeApiAddress('https://stripe.internal')).toEqual({ host: 'stripe.internal', port: 443, protocol: 'https' });
    expect(stripeApiAddress('http://[::1]:9000')).toEqual({ host: '::1', port: 9000, protocol: 'http' });
    expect(() => stripeApiAddress('http://127.0.0.1:12111/v1')).toThrow(/without a path/);
    expect(() => parsePaymentEnvironment({ ...STRIPE, KINORA_STRIPE_API_URL: 'ftp://x' })).toThrow(/must be an http\(s\) URL/);
    expect(() => parsePaymentEnvironment({ ...STRIPE, KINORA_PUBLIC_URL: 'kinora' })).toThrow(/KINORA_PUBLIC_URL must be an http\(s\) URL/);
  });
});
