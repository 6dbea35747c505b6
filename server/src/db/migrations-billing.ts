import type { Migration } from './sql.ts';

/** Migration 8. Never edit it once it has shipped; add a new migration instead. */
export const BILLING_MIGRATION: Migration = {
  id: 8,
  name: 'payments-checkout-auto-refill',
  statements: [
    // One card provider checkout: a pack the person (or their organisation) is buying. It is paid at
    // most once: the confirmation flips status from open to paid, and only that winner writes the
    // payment and the ledger row. customer_id names an organisation (migration 9 adds that table,
    // so no foreign key here).
    `CREATE TABLE checkout_sessions (
      id text PRIMARY KEY,
      user_sub text NOT NULL REFERENCES users (sub),
      customer_id text,
      pack_id text NOT NULL,
      credits integer NOT NULL CHECK (credits > 0),
      amount_cents integer NOT NULL CHECK (amount_cents >= 0),
      currency text NOT NULL,
      status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'paid', 'declined', 'cancelled', 'expired')),
      payment_id text,
      last_error text,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      expires_at timestamptz NOT NULL,
      completed_at timestamptz
    )`,
    `CREATE INDEX checkout_sessions_user_idx ON checkout_sessions (user_sub, created_at DESC)`,
    // A payment the provider took: from a checkout (one per session) or an auto-refill (one per debit).
    `CREATE TABLE payments (
      id text PRIMARY KEY,
      user_sub text NOT NULL REFERENCES users (sub),
      customer_id text,
      checkout_session_id text UNIQUE REFERENCES checkout_sessions (id),
      source text NOT NULL CHECK (source IN ('checkout', 'webhook', 'auto-refill')),
      pack_id text NOT NULL,
      credits integer NOT NULL CHECK (credits > 0),
      amount_cents integer NOT NULL CHECK (amount_cents >= 0),
      currency text NOT NULL,
      status text NOT NULL DEFAULT 'paid' CHECK (status IN ('paid', 'refunded')),
      card_brand text,
      card_last4 text,
      -- The purchase row it wrote in the person's ledger (null for an organisation's purchase).
      ledger_id bigint UNIQUE REFERENCES credit_ledger (id),
      -- For an auto-refill: the debit that set it off (at most one refill per debit).
      trigger_ledger_id bigint UNIQUE REFERENCES credit_ledger (id),
      created_at timestamptz NOT NULL DEFAULT clock_timestamp()
    )`,
    `CREATE INDEX payments_user_idx ON payments (user_sub, created_at DESC)`,
    // The card kept for auto-refill: only its brand and last four digits (one per person).
    `CREATE TABLE payment_methods (
      user_sub text PRIMARY KEY REFERENCES users (sub),
      brand text NOT NULL,
      last4 text NOT NULL CHECK (last4 ~ '^[0-9]{4}$'),
      exp_month integer,
      exp_year integer,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
    )`,
    // The auto-refill option in force (a value of AUTO_REFILL_OPTIONS); no row means off.
    `CREATE TABLE auto_refill_settings (
      user_sub text PRIMARY KEY REFERENCES users (sub),
      option text NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
    )`,
  ],
};
