import { existsSync } from 'node:fs';
import path from 'node:path';
import { buildApp } from './app.ts';
import { createCognitoClient } from './auth/cognito-client.ts';
import { createCognitoIdentity } from './auth/identity.ts';
import { provision } from './auth/provision.ts';
import { seedAccounts } from './auth/seed-accounts.ts';
import { openDatabase } from './db/database.ts';
import { checkRoleDatabase, parseDatabaseEnvironment, parseJobEnvironment, parseRenderEnvironment, parseServerRole } from './config.ts';
import { LOCAL_DEFAULTS } from './local-defaults.ts';
import { parseCleanupInterval } from './scheduler/guest-cleanup.ts';
import { parseStorageEnvironment } from './storage/environment.ts';
import { parsePaymentEnvironment } from './payments/stripe/environment.ts';
import { parseVapidEnvironment } from './push/vapid.ts';
import { openConfiguredBucket } from './storage/open-bucket.ts';

/**
 * The local API server's entry point (`scripts/start.ts` runs it as a child process).
 *
 * Environment:
 * - PORT (8787), KINORA_DATA_DIR (`.local`): the database lives in `${dataDir}/db`, the emulator's
 *   data in `${dataDir}/cognito`.
 * - DATABASE_URL: a postgres:// URL to use a PostgreSQL server instead of the embedded PGlite.
 * - KINORA_DB_POOL_SIZE (10, pg's default), KINORA_DB_STATEMENT_TIMEOUT_MS (0: no limit): with
 *   DATABASE_URL, how many connections the pool opens at most and how long PostgreSQL lets one
 *   statement run before cancelling it (server/src/config.ts parseDatabaseEnvironment).
 * - KINORA_API_KEY (`kinora-local-api-key`): the key `POST auth/check` requires.
 * - COGNITO_LOCAL_URL (required): the running cognito-local.
 * - COGNITO_USER_POOL_ID, COGNITO_CLIENT_ID: when absent the pool is provisioned (idempotently) and found by name.
 * - KINORA_STATIC_DIR: the built SPA to serve; defaults to `dist` when it exists; empty = API only.
 * - KINORA_LOCAL_MODE (`false`; `npm start` sets `true`): serves `/local/mailbox`, turns HSTS off and
 *   listens on this machine only: the emulator's signing key is public and the mailbox shows codes,
 *   so a local-mode server must not be reachable from the network.
 * - KINORA_GUEST_CLEANUP_INTERVAL_MS (7 days): how often the shared guest account's content is
 *   deleted and its credits reset; the next run time is kept in the database across restarts.
 * - KINORA_JOB_DURATION_MS (8000), KINORA_JOB_FAILURE_RATE (0), KINORA_JOB_NSFW_RATE (0),
 *   KINORA_JOB_CONCURRENCY (4): how long a generation job processes, the shares of jobs that fail or
 *   are flagged nsfw, and how many run at once. Media files live in `${dataDir}/media`.
 * - KINORA_MAX_RUNNING_PER_USER (4; 0: no limit): one person's jobs running at once (issue 21
 *   item 2); their others wait in the queue.
 * - KINORA_RENDER_PROVIDER (`local`), FAL_KEY, KINORA_FAL_QUEUE_URL, KINORA_PUBLIC_URL: generate on
 *   fal.ai instead of the local render engine (server/src/config.ts parseRenderEnvironment). With a
 *   stand-in of fal's queue on this machine, KINORA_PUBLIC_URL defaults to this server's own URL.
 * - KINORA_ROLE (`all`): `api` serves the API and the SPA and queues jobs, `worker` renders queued
 *   jobs (and serves only /health and /health/ready), `all` does both. Several api and worker
 *   processes share one DATABASE_URL (and one bucket); a worker needs no COGNITO_LOCAL_URL.
 * - KINORA_JOB_LEASE_MS (30000): how long a claimed job waits for its worker's heartbeat before
 *   another worker takes it over (a worker killed mid-job).
 * - KINORA_S3_BUCKET (unset: files in `${dataDir}/media`): store every file (uploads, results,
 *   thumbnails, GIFs, promo and tutorial clips) in this S3-compatible bucket instead, through
 *   @aws-sdk/client-s3; the server checks it at start (server/src/storage/environment.ts):
 *   KINORA_S3_ENDPOINT (AWS's own for the region; a MinIO/S3-compatible server's URL),
 *   KINORA_S3_REGION (`us-east-1`), KINORA_S3_ACCESS_KEY_ID and KINORA_S3_SECRET_ACCESS_KEY (both or
 *   neither: the SDK's default credentials), KINORA_S3_FORCE_PATH_STYLE (`true` when an endpoint is
 *   given, else `false`), KINORA_S3_PREFIX (none: a folder put before every key). Links stay
 *   Kinora's own signed ones; the files a renderer reads are cached in `${dataDir}/s3-cache`.
 * - KINORA_PAYMENT_PROVIDER (`local`: the local card page, offline): `stripe` takes card payments
 *   with Stripe through the `stripe` package (server/src/payments/stripe/, README "Taking payments
 *   with Stripe") and needs STRIPE_SECRET_KEY (sk_…) and STRIPE_WEBHOOK_SECRET (whsec_…, the
 *   signing secret of the endpoint {KINORA_PUBLIC_URL}/api/stripe/webhook); KINORA_STRIPE_API_URL
 *   (unset: api.stripe.com) points the client at another host and port (tests/stripe/main.ts, a
 *   stand-in); KINORA_PUBLIC_URL (unset: the address each request came to) is where Stripe sends
 *   the browser back.
 * - KINORA_VAPID_PUBLIC_KEY and KINORA_VAPID_PRIVATE_KEY (unset: a pair generated at the first start
 *   and kept in the database, the same for every process): the Done alerts' Web Push key pair
 *   (`npx web-push generate-vapid-keys`); KINORA_VAPID_SUBJECT (`mailto:alerts@kinora.invalid`):
 *   the mailto: or https: contact push services may write to (server/src/push/vapid.ts).
 * - LOG_LEVEL (`warn`).
 */
/** Longer than a render step takes to notice a stop; shorter than docker-compose's stop_grace_period (30 s). */
const SHUTDOWN_TIMEOUT_MS = 25_000;

async function main(): Promise<void> {
  const env = process.env;
  const port = Number(env.PORT ?? LOCAL_DEFAULTS.port);
  const dataDir = path.resolve(env.KINORA_DATA_DIR ?? LOCAL_DEFAULTS.dataDir);
  const role = parseServerRole(env);
  const emulatorUrl = env.COGNITO_LOCAL_URL;
  if (!emulatorUrl && role !== 'worker') {
    throw new Error('COGNITO_LOCAL_URL is not set: start the server with `npm start`, which starts cognito-local.');
  }
  const localMode = env.KINORA_LOCAL_MODE === 'true';
  const staticDir = env.KINORA_STATIC_DIR ?? (existsSync('dist') ? 'dist' : '');
  const guestCleanupIntervalMs = parseCleanupInterval(env.KINORA_GUEST_CLEANUP_INTERVAL_MS);
  const jobs = parseJobEnvironment(env);
  const render = parseRenderEnvironment(env);
  const database = parseDatabaseEnvironment(env);
  checkRoleDatabase(role, database.url);
  const storage = parseStorageEnvironment(env);
  const payments = parsePaymentEnvironment(env);
  const vapid = parseVapidEnvironment(env);

  // A worker signs nobody in: it needs the database, the files and the render provider only.
  let identity;
  if (emulatorUrl && role !== 'worker') {
    const pool =
      env.COGNITO_USER_POOL_ID && env.COGNITO_CLIENT_ID
        ? { userPoolId: env.COGNITO_USER_POOL_ID, clientId: env.COGNITO_CLIENT_ID }
        : await provision(createCognitoClient(emulatorUrl), { accounts: seedAccounts() });
    identity = createCognitoIdentity({
      endpoint: emulatorUrl,
      ...pool,
      localMode,
      emulatorDir: path.join(dataDir, 'cognito'),
    });
  }
  const db = await openDatabase(
    database.url
      ? { url: database.url, pool: { size: database.poolSize, statementTimeoutMs: database.statementTimeoutMs } }
      : { dataDir: path.join(dataDir, 'db') },
  );
  // Only with KINORA_S3_BUCKET: the local folder's path never loads the AWS SDK.
  const objects = storage ? await openConfiguredBucket(storage, dataDir) : undefined;
  const app = await buildApp({
    db,
    role,
    identity,
    apiKey: env.KINORA_API_KEY ?? LOCAL_DEFAULTS.apiKey,
    staticDir: staticDir ? path.resolve(staticDir) : undefined,
    localMode,
    logger: { level: env.LOG_LEVEL ?? 'warn' },
    guestCleanup: { intervalMs: guestCleanupIntervalMs },
    // Daily: the inspector's job logs past their week, problem reports past the newest 200.
    inspectionRetention: {},
    jobs,
    mediaDir: path.join(dataDir, 'media'),
    objects,
    render,
    payments,
    push: { vapid },
  });

  // Graceful shutdown (SIGTERM from a process manager, Ctrl+C): readiness turns 503, the server
  // stops taking connections and finishes the requests in flight, the workers stop claiming and
  // hand their jobs back to the queue (another worker resumes them at their stage at once, with
  // no lease to wait out), then the database closes. A shutdown that hangs is cut off.
  let closing = false;
  const shutdown = async (signal: NodeJS.Signals): Promise<void> => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: closing`);
    setTimeout(() => {
      console.error(`${signal}: still closing after ${SHUTDOWN_TIMEOUT_MS} ms; exiting`);
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS).unref();
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.once('SIGINT', (signal) => void shutdown(signal));
  process.once('SIGTERM', (signal) => void shutdown(signal));

  // "localhost" makes Fastify listen on both 127.0.0.1 and ::1.
  await app.listen({ port, host: localMode ? 'localhost' : '0.0.0.0' });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
