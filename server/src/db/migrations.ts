import type { Database, Migration } from './sql.ts';
import { BILLING_MIGRATION } from './migrations-billing.ts';
import { CUSTOMERS_MIGRATION } from './migrations-customers.ts';
import { INSPECTION_MIGRATION } from './migrations-inspection.ts';
import { JOB_SEARCH_MIGRATION } from './migrations-job-search.ts';
import { LIBRARY_MIGRATION } from './migrations-library.ts';
import { SEED_MIGRATION } from './migrations-seed.ts';
import { PUSH_MIGRATION } from './migrations-push.ts';
import { ALBUM_HOLDS_MIGRATION, HOLDS_MIGRATION } from './migrations-holds.ts';
import { PROVIDER_PAYMENTS_MIGRATION } from './migrations-stripe.ts';
import { QUEUE_MIGRATION } from './migrations-queue.ts';

/**
 * Kinds of credit ledger rows. `reset` is the guest account's weekly return to the starting grant
 * (migration 4 added it; the first migration's list is kept as it shipped).
 */
export const LEDGER_KINDS = ['debit', 'refund', 'purchase', 'coupon', 'transfer', 'grant', 'reset'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

const kindList = (kinds: readonly string[]): string => kinds.map((kind) => `'${kind}'`).join(', ');
const ledgerKindList = kindList(['debit', 'refund', 'purchase', 'coupon', 'transfer', 'grant']);

export const MIGRATIONS: readonly Migration[] = [
  {
    id: 1,
    name: 'users-and-credit-ledger',
    statements: [
      `CREATE TABLE users (
        sub text PRIMARY KEY,
        username text NOT NULL,
        preferred_username text,
        email text,
        created_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz
      )`,
      // Handles are unique regardless of case: "Ana" and "ana" are the same profile URL.
      `CREATE UNIQUE INDEX users_preferred_username_key ON users (lower(preferred_username))`,
      `CREATE TABLE credit_ledger (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_sub text NOT NULL REFERENCES users (sub),
        amount integer NOT NULL CHECK (amount <> 0),
        kind text NOT NULL CHECK (kind IN (${ledgerKindList})),
        reason text NOT NULL,
        job_id text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX credit_ledger_user_sub_idx ON credit_ledger (user_sub, created_at)`,
      // The balance is SUM(amount). Locking the user's row serialises writers per user, and the
      // sum runs after the lock with a fresh snapshot, so two concurrent debits cannot both pass.
      `CREATE FUNCTION credit_ledger_guard_balance() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM 1 FROM users WHERE sub = NEW.user_sub FOR UPDATE;
        IF (SELECT COALESCE(SUM(amount), 0) FROM credit_ledger WHERE user_sub = NEW.user_sub) < 0 THEN
          RAISE EXCEPTION 'credit balance of user % cannot go below zero', NEW.user_sub
            USING ERRCODE = 'check_violation', CONSTRAINT = 'credit_ledger_balance_not_negative';
        END IF;
        RETURN NULL;
      END
      $$`,
      `CREATE TRIGGER credit_ledger_balance_guard AFTER INSERT ON credit_ledger
        FOR EACH ROW EXECUTE FUNCTION credit_ledger_guard_balance()`,
      // The ledger is append-only: a correction is a new row (a refund), never an edit.
      `CREATE FUNCTION credit_ledger_forbid_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'credit_ledger rows are append-only' USING ERRCODE = 'restrict_violation';
      END
      $$`,
      `CREATE TRIGGER credit_ledger_append_only BEFORE UPDATE OR DELETE ON credit_ledger
        FOR EACH ROW EXECUTE FUNCTION credit_ledger_forbid_change()`,
    ],
  },
  {
    id: 2,
    name: 'coupons',
    statements: [
      `CREATE TABLE coupons (
        code text PRIMARY KEY CHECK (code = upper(code) AND code <> ''),
        credits integer NOT NULL CHECK (credits > 0),
        active boolean NOT NULL DEFAULT true,
        max_redemptions integer CHECK (max_redemptions > 0),
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE TABLE coupon_redemptions (
        code text NOT NULL REFERENCES coupons (code),
        user_sub text NOT NULL REFERENCES users (sub),
        ledger_id bigint NOT NULL REFERENCES credit_ledger (id),
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT coupon_redemptions_once_per_user UNIQUE (code, user_sub)
      )`,
    ],
  },
  {
    id: 3,
    name: 'contact-messages-and-promo-videos',
    statements: [
      `CREATE TABLE contact_messages (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        email text NOT NULL,
        message text NOT NULL,
        user_sub text REFERENCES users (sub),
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE TABLE promo_videos (
        id text PRIMARY KEY,
        title text NOT NULL,
        video_url text NOT NULL,
        thumbnail_url text NOT NULL,
        position integer NOT NULL
      )`,
    ],
  },
  {
    id: 4,
    name: 'guest-logo-flag-and-scheduled-tasks',
    statements: [
      // SPEC §6: the shared guest account's videos carry the product logo; the job engine reads this.
      `ALTER TABLE users ADD COLUMN logo_variant boolean NOT NULL DEFAULT false`,
      `UPDATE users SET logo_variant = true WHERE lower(username) = 'guest'`,
      `ALTER TABLE credit_ledger DROP CONSTRAINT credit_ledger_kind_check`,
      `ALTER TABLE credit_ledger ADD CONSTRAINT credit_ledger_kind_check CHECK (kind IN (${kindList(LEDGER_KINDS)}))`,
      // One row per recurring server task (e.g. the guest clean-up): when it is next due survives a
      // restart, and the row lock decides which server runs it when two share the database.
      `CREATE TABLE scheduled_tasks (
        name text PRIMARY KEY,
        next_run_at timestamptz NOT NULL,
        last_run_at timestamptz,
        last_result jsonb
      )`,
    ],
  },
  {
    id: 5,
    name: 'media-jobs-files-idempotency',
    statements: [
      // A media item (SPEC §3) is also the job that makes it: the job engine claims rows whose
      // status is queued (or processing with an expired lease) with FOR UPDATE SKIP LOCKED.
      `CREATE TABLE media (
        id text PRIMARY KEY,
        user_sub text NOT NULL REFERENCES users (sub),
        kind text NOT NULL CHECK (kind IN ('image', 'video', 'audio')),
        tool text NOT NULL,
        endpoint text,
        option text,
        status text NOT NULL,
        progress integer NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
        cost integer NOT NULL DEFAULT 0 CHECK (cost >= 0),
        charged boolean NOT NULL DEFAULT false,
        refund_ledger_id bigint REFERENCES credit_ledger (id),
        error text,
        args jsonb NOT NULL DEFAULT '{}'::jsonb,
        image_urls jsonb NOT NULL DEFAULT '[]'::jsonb,
        inputs jsonb NOT NULL DEFAULT '[]'::jsonb,
        items jsonb NOT NULL DEFAULT '[]'::jsonb,
        asset_id text,
        visibility text NOT NULL DEFAULT 'private' CHECK (visibility IN ('private', 'unlisted', 'public')),
        logo_variant boolean NOT NULL DEFAULT false,
        -- SPEC §3: '1' = results are absolute URLs (every job and upload of issue 4); '2'/'3' are for
        -- the batch results of later issues, whose paths are relative to base_url.
        version text NOT NULL DEFAULT '1',
        base_url text NOT NULL DEFAULT '',
        lease_owner text,
        lease_expires_at timestamptz,
        attempts integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        finished_at timestamptz
      )`,
      // The worker's claim: queued rows by age, and processing rows by lease expiry.
      `CREATE INDEX media_queue_idx ON media (created_at) WHERE status = 'queue_source'`,
      `CREATE INDEX media_lease_idx ON media (lease_expires_at) WHERE status = 'processing_source'`,
      // GET media?tool=: the owner's media newest first.
      `CREATE INDEX media_user_listing_idx ON media (user_sub, tool, created_at DESC)`,
      `CREATE INDEX media_user_created_idx ON media (user_sub, created_at DESC)`,
      `CREATE TABLE media_files (
        id text PRIMARY KEY,
        media_id text NOT NULL REFERENCES media (id) ON DELETE CASCADE,
        user_sub text NOT NULL REFERENCES users (sub),
        role text NOT NULL,
        name text NOT NULL,
        content_type text NOT NULL,
        bytes bigint NOT NULL,
        path text NOT NULL,
        width integer,
        height integer,
        duration_seconds double precision,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`,
      `CREATE INDEX media_files_media_idx ON media_files (media_id)`,
      // A job is refunded at most once, whatever path ends it (cancel, failure, nsfw, delete).
      `CREATE UNIQUE INDEX credit_ledger_one_refund_per_job ON credit_ledger (job_id) WHERE kind = 'refund'`,
      `CREATE TABLE idempotency_keys (
        user_sub text NOT NULL REFERENCES users (sub),
        key text NOT NULL,
        request_hash text NOT NULL,
        state text NOT NULL CHECK (state IN ('pending', 'done')),
        response_status integer,
        response_body jsonb,
        -- The media the request created, written in the transaction that debits it: a retry after a
        -- crash between that commit and the key's completion replays this media instead of paying again.
        media_id text,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (user_sub, key)
      )`,
      `CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at)`,
      // Secrets the server makes once and keeps (the file-link signing key), so links survive a restart.
      `CREATE TABLE server_secrets (
        name text PRIMARY KEY,
        value text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
    ],
  },
  {
    id: 6,
    name: 'batches-finetunes-result-paths',
    statements: [
      // SPEC §3 Batch: an album of pictures whose script board makes one video job per clip; the
      // clips and the joined video are media rows pointing back here (media.batch_id).
      `CREATE TABLE batches (
        id text PRIMARY KEY,
        user_sub text NOT NULL REFERENCES users (sub),
        batch_type text NOT NULL,
        title text NOT NULL DEFAULT '',
        image_urls jsonb NOT NULL DEFAULT '[]'::jsonb,
        audio_urls jsonb NOT NULL DEFAULT '[]'::jsonb,
        concat_video_urls jsonb NOT NULL DEFAULT '[]'::jsonb,
        additional_videos jsonb NOT NULL DEFAULT '[]'::jsonb,
        script_board jsonb,
        args jsonb NOT NULL DEFAULT '{}'::jsonb,
        video_media_ids jsonb NOT NULL DEFAULT '[]'::jsonb,
        concat_media_id text,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`,
      `CREATE INDEX batches_user_created_idx ON batches (user_sub, created_at DESC)`,
      // A trained LoRA model: the training job is a media row (its result is the preview picture);
      // the learned style is written here when that job succeeds.
      `CREATE TABLE finetunes (
        id text PRIMARY KEY,
        user_sub text NOT NULL REFERENCES users (sub),
        media_id text NOT NULL REFERENCES media (id) ON DELETE CASCADE,
        name text NOT NULL,
        option text NOT NULL,
        base_model text NOT NULL,
        trigger_word text NOT NULL DEFAULT '',
        style jsonb,
        image_count integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`,
      `CREATE INDEX finetunes_user_created_idx ON finetunes (user_sub, created_at DESC)`,
      `CREATE INDEX finetunes_media_idx ON finetunes (media_id)`,
      `ALTER TABLE media ADD COLUMN batch_id text`,
      `CREATE INDEX media_batch_idx ON media (batch_id) WHERE batch_id IS NOT NULL`,
      // SPEC §3 version 3: a result file's path below the media's base_url (batch/1/HorizontalArc/video.mp4).
      `ALTER TABLE media_files ADD COLUMN rel_path text`,
      `CREATE UNIQUE INDEX media_files_rel_path_key ON media_files (media_id, rel_path) WHERE rel_path IS NOT NULL`,
      // Video jobs wait and run in later stages too (queue_3d, processing_bullet…): the claim scans
      // every queue_* row by age and every processing_* row by lease expiry.
      `DROP INDEX media_queue_idx`,
      `DROP INDEX media_lease_idx`,
      // (Written out, not LIKE, so the planner can match the claim's IN list to the index.)
      `CREATE INDEX media_queue_idx ON media (created_at) WHERE status IN ('queue_source', 'queue_3d', 'queue_bullet')`,
      `CREATE INDEX media_lease_idx ON media (lease_expires_at)
        WHERE status IN ('processing_source', 'processing_3d', 'processing_bullet')`,
    ],
  },
  {
    id: 7,
    name: 'stories',
    statements: [
      // SPEC §3 Story: an idea, its settings and reference pictures, the storyboard (JSON, naming
      // every generated part by its media job) and the last join of its videos. Every job a story
      // makes is a media row pointing back here (media.story_id), so deleting it finds them all.
      `CREATE TABLE stories (
        id text PRIMARY KEY,
        user_sub text NOT NULL REFERENCES users (sub),
        idea text NOT NULL,
        duration integer NOT NULL,
        aspect_ratio text NOT NULL,
        style text NOT NULL,
        image_urls jsonb NOT NULL DEFAULT '[]'::jsonb,
        step text NOT NULL DEFAULT 'storyboard',
        storyboard jsonb NOT NULL,
        args jsonb NOT NULL DEFAULT '{}'::jsonb,
        concat_media_id text,
        concat_source text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`,
      `CREATE INDEX stories_user_created_idx ON stories (user_sub, created_at DESC)`,
      `ALTER TABLE media ADD COLUMN story_id text`,
      `CREATE INDEX media_story_idx ON media (story_id) WHERE story_id IS NOT NULL`,
    ],
  },
  // 8: payments, checkout sessions, saved cards and auto-refill (server/src/db/migrations-billing.ts).
  BILLING_MIGRATION,
  // 9: organisations, their members and their own credit ledger (server/src/db/migrations-customers.ts).
  CUSTOMERS_MIGRATION,
  {
    id: 10,
    name: 'sharing-and-assets',
    statements: [
      // SPEC §2.8 sharing form: a shared result's title and description; shared_at orders the listings.
      `ALTER TABLE media ADD COLUMN title text NOT NULL DEFAULT ''`,
      `ALTER TABLE media ADD COLUMN description text NOT NULL DEFAULT ''`,
      `ALTER TABLE media ADD COLUMN shared_at timestamptz`,
      // users/latest-contents and users/{id}/contents: public (or the owner's shared) media by share time.
      `CREATE INDEX media_public_idx ON media (shared_at DESC, id DESC) WHERE visibility = 'public'`,
      `CREATE INDEX media_user_shared_idx ON media (user_sub, shared_at DESC, id DESC) WHERE visibility <> 'private'`,
      // SPEC §3 Asset: a named collection of the person's media (media.asset_id points here).
      `CREATE TABLE assets (
        id text PRIMARY KEY,
        user_sub text NOT NULL REFERENCES users (sub),
        name text NOT NULL,
        description text NOT NULL DEFAULT '',
        fields jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`,
      `CREATE INDEX assets_user_updated_idx ON assets (user_sub, updated_at DESC)`,
      `CREATE INDEX media_asset_idx ON media (asset_id) WHERE asset_id IS NOT NULL`,
    ],
  },
  {
    id: 11,
    name: 'provider-requests',
    statements: [
      // A remote render provider's requests for the job (fal: endpoint and request id, by call key):
      // written before the worker waits, so a restarted server resumes watching instead of paying twice.
      `ALTER TABLE media ADD COLUMN provider_requests jsonb NOT NULL DEFAULT '{}'::jsonb`,
    ],
  },
  {
    id: 12,
    name: 'ledger-guards-no-key-lock',
    statements: [
      // The balance guards (migrations 1 and 9) locked the owner's row FOR UPDATE. An insert that
      // references that row (the job's media row, the ledger row itself) first takes FOR KEY SHARE
      // on it for its foreign key, and FOR UPDATE waits for every other transaction's KEY SHARE:
      // two concurrent debits of one user each held a KEY SHARE and waited for the other's, and
      // PostgreSQL broke the deadlock by failing one (40P01; 48 of 50 concurrent submits on a real
      // server, issue 20). FOR NO KEY UPDATE still serialises the guards (and conflicts with every
      // FOR UPDATE taken elsewhere) but not the foreign keys' KEY SHARE locks.
      `CREATE OR REPLACE FUNCTION credit_ledger_guard_balance() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM 1 FROM users WHERE sub = NEW.user_sub FOR NO KEY UPDATE;
        IF (SELECT COALESCE(SUM(amount), 0) FROM credit_ledger WHERE user_sub = NEW.user_sub) < 0 THEN
          RAISE EXCEPTION 'credit balance of user % cannot go below zero', NEW.user_sub
            USING ERRCODE = 'check_violation', CONSTRAINT = 'credit_ledger_balance_not_negative';
        END IF;
        RETURN NULL;
      END
      $$`,
      `CREATE OR REPLACE FUNCTION customer_ledger_guard_balance() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM 1 FROM customers WHERE id = NEW.customer_id FOR NO KEY UPDATE;
        IF (SELECT COALESCE(SUM(amount), 0) FROM customer_ledger WHERE customer_id = NEW.customer_id) < 0 THEN
          RAISE EXCEPTION 'credit balance of organisation % cannot go below zero', NEW.customer_id
            USING ERRCODE = 'check_violation', CONSTRAINT = 'customer_ledger_balance_not_negative';
        END IF;
        RETURN NULL;
      END
      $$`,
    ],
  },
  // 13: a real card provider's ids and the auto-refills charged after commit (server/src/db/migrations-stripe.ts).
  PROVIDER_PAYMENTS_MIGRATION,
  // 14: the QA inspector's job logs and problem reports (server/src/db/migrations-inspection.ts).
  INSPECTION_MIGRATION,
  // 15: indexes for the job history's search, sorts and keyset pages (server/src/db/migrations-job-search.ts).
  JOB_SEARCH_MIGRATION,
  // 16: every generation job's seed (server/src/db/migrations-seed.ts).
  SEED_MIGRATION,
  // 17: a queue the person controls: hold, run next, the per-person limit (server/src/db/migrations-queue.ts).
  QUEUE_MIGRATION,
  // 18: the Library's folders and their items (server/src/db/migrations-library.ts).
  LIBRARY_MIGRATION,
  // 19: Done alerts' push subscriptions and the person's opt-in (server/src/db/migrations-push.ts).
  PUSH_MIGRATION,
  // 20: one quote for a whole project: credit holds and the free balance (server/src/db/migrations-holds.ts).
  HOLDS_MIGRATION,
  // 21: albums hold too: a hold's project is a story or an album (server/src/db/migrations-holds.ts).
  ALBUM_HOLDS_MIGRATION,
];

/** Any fixed number: every process that migrates this database takes the same advisory lock. */
const MIGRATION_LOCK_KEY = 7_341_020;

/**
 * Applies every migration not yet in `schema_migrations`, all in one transaction under an
 * advisory lock, so two servers starting against one PostgreSQL cannot apply one twice.
 * Returns the ids applied by this call (empty when the schema was already current).
 */
export async function runMigrations(db: Database, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      id integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await tx.query<{ id: number }>('SELECT id FROM schema_migrations');
    const applied = new Set(rows.map((row) => row.id));
    const ran: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.id - b.id)) {
      if (applied.has(migration.id)) continue;
      for (const statement of migration.statements) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (id, name) VALUES ($1, $2)', [migration.id, migration.name]);
      ran.push(migration.id);
    }
    return ran;
  });
}
