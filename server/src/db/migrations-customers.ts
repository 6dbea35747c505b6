import type { Migration } from './sql.ts';

/** Migration 9. Never edit it once it has shipped; add a new migration instead. */
export const CUSTOMERS_MIGRATION: Migration = {
  id: 9,
  name: 'customers-members-ledger',
  statements: [
    // SPEC §3 Customer: an organisation, owned by one person. An organisation removed with its
    // owner's account is marked deleted: its ledger rows stay as the record, as a user's do.
    `CREATE TABLE customers (
      id text PRIMARY KEY,
      owner_sub text NOT NULL REFERENCES users (sub),
      name text NOT NULL CHECK (name <> ''),
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      deleted_at timestamptz
    )`,
    `CREATE INDEX customers_owner_idx ON customers (owner_sub) WHERE deleted_at IS NULL`,
    // SPEC §6: a business member is keyed b2b_members_{user id}.
    `CREATE TABLE customer_members (
      customer_id text NOT NULL REFERENCES customers (id),
      member_sub text NOT NULL REFERENCES users (sub),
      key text NOT NULL CHECK (key = 'b2b_members_' || member_sub),
      added_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      PRIMARY KEY (customer_id, member_sub)
    )`,
    `CREATE INDEX customer_members_member_idx ON customer_members (member_sub)`,
    `CREATE TABLE customer_transfers (
      id text PRIMARY KEY,
      customer_id text NOT NULL REFERENCES customers (id),
      member_sub text NOT NULL REFERENCES users (sub),
      credits integer NOT NULL CHECK (credits > 0),
      created_at timestamptz NOT NULL DEFAULT clock_timestamp()
    )`,
    `CREATE INDEX customer_transfers_customer_idx ON customer_transfers (customer_id, created_at DESC)`,
    // The organisation's own credits: purchases in, transfers to members out. Its balance is
    // SUM(amount), guarded like credit_ledger's.
    `CREATE TABLE customer_ledger (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      customer_id text NOT NULL REFERENCES customers (id),
      amount integer NOT NULL CHECK (amount <> 0),
      kind text NOT NULL CHECK (kind IN ('purchase', 'transfer')),
      reason text NOT NULL,
      member_sub text REFERENCES users (sub),
      payment_id text,
      transfer_id text REFERENCES customer_transfers (id),
      created_at timestamptz NOT NULL DEFAULT clock_timestamp()
    )`,
    `CREATE INDEX customer_ledger_customer_idx ON customer_ledger (customer_id, id)`,
    // Locking the organisation's row serialises writers per organisation, and the sum runs after
    // the lock with a fresh snapshot, so two concurrent transfers cannot both spend the last credits.
    `CREATE FUNCTION customer_ledger_guard_balance() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM 1 FROM customers WHERE id = NEW.customer_id FOR UPDATE;
      IF (SELECT COALESCE(SUM(amount), 0) FROM customer_ledger WHERE customer_id = NEW.customer_id) < 0 THEN
        RAISE EXCEPTION 'credit balance of organisation % cannot go below zero', NEW.customer_id
          USING ERRCODE = 'check_violation', CONSTRAINT = 'customer_ledger_balance_not_negative';
      END IF;
      RETURN NULL;
    END
    $$`,
    `CREATE TRIGGER customer_ledger_balance_guard AFTER INSERT ON customer_ledger
      FOR EACH ROW EXECUTE FUNCTION customer_ledger_guard_balance()`,
    `CREATE FUNCTION customer_ledger_forbid_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'customer_ledger rows are append-only' USING ERRCODE = 'restrict_violation';
    END
    $$`,
    `CREATE TRIGGER customer_ledger_append_only BEFORE UPDATE OR DELETE ON customer_ledger
      FOR EACH ROW EXECUTE FUNCTION customer_ledger_forbid_change()`,
  ],
};
