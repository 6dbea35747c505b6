import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../../server/src/app.ts';
import { openDatabase, type Database } from '../../../server/src/db/database.ts';
import type { S3Environment } from '../../../server/src/storage/environment.ts';
import { createLocalFolder } from '../../../server/src/storage/local-folder.ts';
import type { ObjectStore } from '../../../server/src/storage/object-store.ts';
import { openS3Bucket, type S3Bucket } from '../../../server/src/storage/s3-bucket.ts';
import { openTestDatabase } from './database-template.ts';
import { startEmulator, type TestEmulator } from './emulator.ts';

export const TEST_API_KEY = 'test-server-api-key';

export interface TestServer {
  /** Base URL of the running server, e.g. http://127.0.0.1:41234 (no trailing slash). */
  url: string;
  emulator: TestEmulator;
  /** The server's own database, for checking what a call stored. */
  db: Database;
  apiKey: string;
  /** Where this server stores media files (a temporary folder, removed on close); unused with `s3`. */
  mediaDir: string;
  /** The store the server keeps its files in: the local folder mediaDir, or the bucket of `s3`. */
  objects: ObjectStore;
  /**
   * Closes the app (its job engine hands its jobs back) and starts a new one on the same database
   * and media folder, as a restarted server would; `url` changes to the new port.
   */
  restart(options?: { jobs?: AppOptions['jobs']; beforeStart?: () => Promise<void> }): Promise<void>;
  close(): Promise<void>;
}

export interface StartTestServerOptions {
  /** A folder to serve as the built SPA. */
  staticDir?: string;
  /** Schedule the guest clean-up (e.g. every few milliseconds). */
  guestCleanup?: AppOptions['guestCleanup'];
  /** Job engine settings; tests that run jobs set durationMs in milliseconds. */
  jobs?: AppOptions['jobs'];
  /** How async_mode=false requests wait (limit, key touches, per-user cap). */
  syncWait?: AppOptions['syncWait'];
  /** The render provider (default the local engine); fal tests point it at the queue stand-in. */
  render?: AppOptions['render'];
  /** The card provider (default the local card page); Stripe tests point it at tests/stripe's stand-in. */
  payments?: AppOptions['payments'];
  /**
   * A postgres:// URL (tests/server/helpers/postgres.ts freshPostgresUrl): the server opens it
   * through openDatabase as in production (its own pool; migrations and seed) instead of a PGlite copy.
   */
  databaseUrl?: string;
  /**
   * Another test server's emulator, so two servers (two apps on one database) know the same
   * users; it is left running when this server closes.
   */
  emulator?: TestEmulator;
  /**
   * Store every file in this S3-compatible bucket (tests/server/helpers/s3.ts startTestS3Server)
   * instead of the local folder mediaDir, as KINORA_S3_BUCKET makes main.ts do.
   */
  s3?: S3Environment;
  /** Done alerts' settings (tests/server/helpers/push-service.ts gives the agent trusting its stand-in). */
  push?: AppOptions['push'];
}

/** Idle workers look for jobs once a second; a job queued by the server wakes them at once. */
const TEST_JOB_DEFAULTS: AppOptions['jobs'] = { durationMs: 100, pollIntervalMs: 1000, concurrency: 2 };

/**
 * A real server on a free port: `buildApp` with a fresh in-memory PGlite (a copy of the run's
 * migrated template), or the PostgreSQL database `databaseUrl` names, and a real cognito-local,
 * reached over HTTP exactly as the web app reaches it.
 */
export async function startTestServer(options: StartTestServerOptions = {}): Promise<TestServer> {
  // The database first: PGlite's start blocks the event loop for seconds, long enough for the
  // emulator to drop an idle keep-alive socket that fetch would then reuse ("other side closed").
  const db = options.databaseUrl ? await openDatabase({ url: options.databaseUrl }) : await openTestDatabase();
  const sharedEmulator = options.emulator;
  const emulator = sharedEmulator ?? (await startEmulator().catch(async (error: unknown) => {
    await db.close();
    throw error;
  }));
  const stopEmulator = (): Promise<void> => (sharedEmulator ? Promise.resolve() : emulator.stop());
  const mediaDir = await mkdtemp(path.join(tmpdir(), 'kinora-media-'));
  const bucket: S3Bucket | undefined = options.s3 ? await openS3Bucket({ ...options.s3, cacheDir: path.join(mediaDir, 's3-cache') }) : undefined;
  const start = async (jobs: AppOptions['jobs']): Promise<{ app: FastifyInstance; url: string }> => {
    const app = await buildApp({
      db,
      identity: emulator.identity,
      apiKey: TEST_API_KEY,
      staticDir: options.staticDir,
      localMode: true,
      guestCleanup: options.guestCleanup,
      jobs: { ...TEST_JOB_DEFAULTS, ...jobs },
      mediaDir,
      objects: bucket,
      syncWait: options.syncWait,
      render: options.render,
      payments: options.payments,
      push: options.push,
    });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
    } catch (error) {
      await app.close();
      throw error;
    }
    const { port } = app.server.address() as AddressInfo;
    return { app, url: `http://127.0.0.1:${port}` };
  };
  let running: { app: FastifyInstance; url: string };
  try {
    running = await start(options.jobs);
  } catch (error) {
    bucket?.close();
    await Promise.all([db.close(), stopEmulator(), rm(mediaDir, { recursive: true, force: true })]);
    throw error;
  }
  const server: TestServer = {
    url: running.url,
    emulator,
    db,
    apiKey: TEST_API_KEY,
    mediaDir,
    objects: bucket ?? createLocalFolder(mediaDir),
    async restart(restartOptions = {}) {
      await running.app.close();
      await restartOptions.beforeStart?.();
      running = await start({ ...options.jobs, ...restartOptions.jobs });
      server.url = running.url;
    },
    async close() {
      await running.app.close();
      await db.close();
      await stopEmulator();
      bucket?.close();
      await rm(mediaDir, { recursive: true, force: true });
    },
  };
  return server;
}

export interface ApiAnswer<T = unknown> {
  status: number;
  headers: Headers;
  /** The parsed JSON body (`{ data }` or `{ detail }`), or null when the body is not JSON. */
  body: { data?: T; detail?: string } | null;
}

export interface ApiCallOptions {
  method?: string;
  /** A raw access token for `Authorization` (SPEC §7: no "Bearer"). */
  token?: string;
  json?: unknown;
  headers?: Record<string, string>;
}

function parseJsonOrNull<T>(text: string): ApiAnswer<T>['body'] {
  try {
    return JSON.parse(text) as ApiAnswer<T>['body'];
  } catch {
    return null;
  }
}

/** Calls `/api/<path>` with the headers the web app sends. */
export async function callApi<T = unknown>(
  server: Pick<TestServer, 'url' | 'apiKey'>,
  path: string,
  options: ApiCallOptions = {},
): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = {
    'X-CLIENT-TYPE': 'web-frontend',
    'X-Api-Key': server.apiKey,
    ...options.headers,
  };
  if (options.token) headers.Authorization = options.token;
  if (options.json !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${server.url}/api/${path}`, {
    method: options.method ?? 'GET',
    headers,
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
  });
  return { status: response.status, headers: response.headers, body: parseJsonOrNull<T>(await response.text()) };
}

let userCounter = 0;

/** A new confirmed account in the emulator, signed in; names are unique per test run. */
export async function signUpUser(server: Pick<TestServer, 'emulator'>, prefix = 'user') {
  userCounter += 1;
  const username = `${prefix}${userCounter}${Date.now().toString(36)}`;
  const email = `${username}@example.test`;
  const tokens = await server.emulator.createUser({ username, email, password: 'secret-password-1' });
  return { username, email, ...tokens };
}

/** A Cognito JSON answer: the result, or `{ __type, message }` on failure; null when not JSON. */
type AmzAnswer = { __type?: string; message?: string } & Record<string, unknown>;

function parseAmzJson(text: string): AmzAnswer | null {
  try {
    return JSON.parse(text) as AmzAnswer;
  } catch {
    return null;
  }
}

/** Calls a user-pool action through the server's `/cognito` front, as Amplify in the browser does. */
export async function callCognitoFront(server: Pick<TestServer, 'url'>, action: string, body: Record<string, unknown>) {
  const response = await fetch(`${server.url}/cognito/`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-amz-json-1.1',
      'X-Amz-Target': `AWSCognitoIdentityProviderService.${action}`,
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: parseAmzJson(await response.text()) };
}

/** Sets the user's public handle the way the web app does: UpdateUserAttributes with their own token. */
export async function setHandle(server: Pick<TestServer, 'url'>, accessToken: string, handle: string): Promise<void> {
  const answer = await callCognitoFront(server, 'UpdateUserAttributes', {
    AccessToken: accessToken,
    UserAttributes: [{ Name: 'preferred_username', Value: handle }],
  });
  if (answer.status !== 200) throw new Error(`UpdateUserAttributes answered ${answer.status}: ${JSON.stringify(answer.body)}`);
}
