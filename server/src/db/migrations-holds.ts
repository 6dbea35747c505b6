import type { Migration } from './sql.ts';

/**
 * Migration 20: one quote for a whole project (issue 21 item 6, server/src/db/credit-holds.ts).
 * Credits set aside for one story are a hold; the balance a person can spend is the ledger's sum
 * minus what their open holds still keep. Never edit it once it has shipped; add a new migration.
 */
export const HOLDS_MIGRATION: Migration = {
  id: 20,
  name: 'credit-holds',
  statements: [
    // One row per hold: `amount` set aside for the project, `drawn` of it spent by the project's
    // parts (their ledger debits are ordinary rows), open until the project ends, is released or
    // deleted. At most one open hold per project.
    `CREATE TABLE credit_holds (
      id text PRIMARY KEY,
      user_sub text NOT NULL REFERENCES users (sub) ON DELETE CASCADE,
      project_kind text NOT NULL CHECK (project_kind IN ('story')),
      project_id text NOT NULL,
      amount integer NOT NULL CHECK (amount >= 0),
      drawn integer NOT NULL DEFAULT 0 CHECK (drawn >= 0 AND drawn <= amount),
      status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
      close_reason text,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      closed_at timestamptz
    )`,
    `CREATE UNIQUE INDEX credit_holds_open_project_idx ON credit_holds (project_kind, project_id) WHERE status = 'open'`,
    `CREATE INDEX credit_holds_open_user_idx ON credit_holds (user_sub) WHERE status = 'open'`,
    // Which hold a job's debit drew from and how much of it (a refund gives that back to the hold
    // while it is open, so a failed part can be made again from what was set aside).
    `ALTER TABLE media ADD COLUMN hold_id text`,
    `ALTER TABLE media ADD COLUMN hold_drawn integer NOT NULL DEFAULT 0`,
    // The spendable balance. VOLATILE (the default) so a guard calling it after taking the owner's
    // lock reads what the transactions it waited for committed.
    `CREATE FUNCTION credit_free_balance(sub text) RETURNS bigint LANGUAGE sql AS $$
      SELECT COALESCE((SELECT SUM(amount) FROM credit_ledger WHERE user_sub = sub), 0)
           - COALESCE((SELECT SUM(amount - drawn) FROM credit_holds WHERE user_sub = sub AND status = 'open'), 0)
    $$`,
    // The ledger's guard (migration 12) now keeps the free balance ≥ 0: a debit cannot spend what a
    // hold keeps for a project. Same lock (FOR NO KEY UPDATE on the owner's row, see migration 12)
    // and the same constraint name, so every caller's 402 handling is unchanged.
    `CREATE OR REPLACE FUNCTION credit_ledger_guard_balance() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM 1 FROM users WHERE sub = NEW.user_sub FOR NO KEY UPDATE;
        IF credit_free_balance(NEW.user_sub) < 0 THEN
          RAISE EXCEPTION 'credit balance of user % cannot go below zero', NEW.user_sub
            USING ERRCODE = 'check_violation', CONSTRAINT = 'credit_ledger_balance_not_negative';
        END IF;
        RETURN NULL;
      END
      $$`,
    // A hold written or changed takes the same lock and keeps the same rule: two projects racing
    // for the last credits are serialised on the owner's row and the second sees the first's hold.
    `CREATE FUNCTION credit_holds_guard_balance() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM 1 FROM users WHERE sub = NEW.user_sub FOR NO KEY UPDATE;
        IF credit_free_balance(NEW.user_sub) < 0 THEN
          RAISE EXCEPTION 'credit balance of user % cannot go below zero', NEW.user_sub
            USING ERRCODE = 'check_violation', CONSTRAINT = 'credit_ledger_balance_not_negative';
        END IF;
        RETURN NULL;
      END
      $$`,
    `CREATE TRIGGER credit_holds_guard AFTER INSERT OR UPDATE ON credit_holds FOR EACH ROW EXECUTE FUNCTION credit_holds_guard_balance()`,
  ],
};

/**
 * Migration 21: albums hold too (issue 21 item 6 for batch albums): a hold's project is a story or
 * an album. Migration 20's inline CHECK got PostgreSQL's default name, so it is replaced by name.
 */
export const ALBUM_HOLDS_MIGRATION: Migration = {
  id: 21,
  name: 'album-holds',
  statements: [
    `ALTER TABLE credit_holds DROP CONSTRAINT credit_holds_project_kind_check`,
    `ALTER TABLE credit_holds ADD CONSTRAINT credit_holds_project_kind_check CHECK (project_kind IN ('story', 'album'))`,
  ],
};
