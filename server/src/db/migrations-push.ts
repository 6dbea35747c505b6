import type { Migration } from './sql.ts';

/**
 * Migration 19: Done alerts that reach a person whose Kinora tab is closed (issue 21 item 3,
 * server/src/push/). Never edit it once it has shipped; add a new migration.
 */
export const PUSH_MIGRATION: Migration = {
  id: 19,
  name: 'push-subscriptions',
  statements: [
    // One row per browser that subscribed (the Push API's PushSubscription). The endpoint is the
    // push service's URL for that browser: unique, so a browser that subscribes again (or hands
    // its subscription to another person signing in on it) is one row, owned by the last poster.
    `CREATE TABLE push_subscriptions (
      endpoint text PRIMARY KEY,
      user_sub text NOT NULL REFERENCES users (sub) ON DELETE CASCADE,
      p256dh text NOT NULL,
      auth text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      last_error text,
      last_error_at timestamptz
    )`,
    `CREATE INDEX push_subscriptions_user_idx ON push_subscriptions (user_sub)`,
    // The person's opt-in: alerts are sent only while it is on (the account page's switch).
    `ALTER TABLE users ADD COLUMN push_alerts boolean NOT NULL DEFAULT false`,
    // When a finished job's alert was taken to be sent: set once, by an UPDATE that only one
    // process can win, so a job (or a story step's last part) is announced once however many
    // workers see it end.
    `ALTER TABLE media ADD COLUMN alerted_at timestamptz`,
  ],
};
