import type { Migration } from './sql.ts';

/**
 * Migration 13: what a real card provider (Stripe, server/src/payments/stripe) needs beside the
 * local card page's records of migration 8. Never edit it once it has shipped; add a new migration.
 */
export const PROVIDER_PAYMENTS_MIGRATION: Migration = {
  id: 13,
  name: 'card-provider-ids-and-deferred-refills',
  statements: [
    // Which provider took a checkout, and its own id for it (Stripe's Checkout Session cs_…): a
    // confirmation only ever pays a session of its own provider (the local page cannot pay a
    // Stripe session for free).
    `ALTER TABLE checkout_sessions ADD COLUMN provider text NOT NULL DEFAULT 'local'`,
    `ALTER TABLE checkout_sessions ADD COLUMN provider_session_id text UNIQUE`,
    // The provider's id of a payment (Stripe's PaymentIntent pi_…): its receipt is found from it.
    `ALTER TABLE payments ADD COLUMN provider_payment_id text UNIQUE`,
    // The saved card's provider and its id there (Stripe's PaymentMethod pm_…), which an
    // auto-refill charges off-session.
    `ALTER TABLE payment_methods ADD COLUMN provider text NOT NULL DEFAULT 'local'`,
    `ALTER TABLE payment_methods ADD COLUMN provider_payment_method_id text`,
    // The person's customer at the provider (Stripe's cus_…), made on their first purchase.
    `CREATE TABLE provider_customers (
      user_sub text NOT NULL REFERENCES users (sub),
      provider text NOT NULL,
      provider_customer_id text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      PRIMARY KEY (user_sub, provider),
      UNIQUE (provider, provider_customer_id)
    )`,
    // An auto-refill a debit set off, to be charged on a provider's network after the debit's
    // transaction committed (a network call cannot sit inside it). At most one per debit, and at
    // most one waiting per person, so debits made while a charge is on its way do not stack up
    // refills. Credits are written only when the provider says the charge succeeded.
    `CREATE TABLE auto_refill_charges (
      id text PRIMARY KEY,
      user_sub text NOT NULL REFERENCES users (sub),
      trigger_ledger_id bigint NOT NULL UNIQUE REFERENCES credit_ledger (id),
      provider text NOT NULL,
      provider_payment_method_id text NOT NULL,
      card_brand text NOT NULL,
      card_last4 text NOT NULL,
      pack_id text NOT NULL,
      credits integer NOT NULL CHECK (credits > 0),
      amount_cents integer NOT NULL CHECK (amount_cents >= 0),
      currency text NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'charging', 'paid', 'failed')),
      attempts integer NOT NULL DEFAULT 0,
      claimed_at timestamptz,
      provider_payment_id text UNIQUE,
      payment_id text,
      last_error text,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
    )`,
    `CREATE UNIQUE INDEX auto_refill_charges_one_open ON auto_refill_charges (user_sub) WHERE status IN ('pending', 'charging')`,
    `CREATE INDEX auto_refill_charges_user_idx ON auto_refill_charges (user_sub, created_at DESC)`,
  ],
};
