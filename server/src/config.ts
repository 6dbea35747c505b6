import { UPLOAD_RULES } from '../../src/config/limits.ts';

/**
 * Server-side rules that are Kinora's own (SPEC.md leaves them open). The business constants
 * SPEC §9 gives live in `src/config` and are imported from there.
 */

/**
 * Credits every new account receives, once, the first time it calls the API with a valid token
 * (a ledger row of kind 'grant'). SPEC does not name a starting balance; 100 lets a new user try
 * a few generations before buying.
 */
export const STARTING_CREDIT_GRANT = 100;
export const STARTING_CREDIT_REASON = 'Welcome credits';

// The handle rule is shared with the web app, which checks it before sending.
export { HANDLE_PATTERN, HANDLE_RULE, RESERVED_HANDLES } from '../../src/config/handle.ts';

/** The Authorization header is the raw access token (SPEC §7); a `Bearer ` prefix is tolerated. */
export const BEARER_PREFIX = /^Bearer\s+/i;

/**
 * Multipart limits for the upload calls of later issues: the largest SPEC §5 size limit per file;
 * each route checks its own media kind's limit.
 */
export const MULTIPART_LIMITS = {
  fileSize: Math.max(...Object.values(UPLOAD_RULES).map((rule) => rule.maxBytes)),
  files: 20,
  fields: 200,
  fieldSize: 5_000_000,
  parts: 240,
} as const;

/** Longest prompt a generation or the prompt helper takes (SPEC leaves it open). */
export const PROMPT_MAX_LENGTH = 4000;
/** Longest value of any other multipart text field (free-form fields of POST media / edit included). */
export const FIELD_VALUE_MAX_LENGTH = 10_000;
/** Most text fields in one multipart call: the longest real form (elements, media records) stays far below. */
export const FIELD_COUNT_MAX = 60;
/**
 * Deepest nesting a JSON body may have (objects and arrays). Kinora's own bodies (story boards,
 * asset fields) stay within a handful of levels; thousands of levels only exhaust the stack of
 * whatever walks them next.
 */
export const JSON_DEPTH_MAX = 64;
/**
 * How much of a refused request's body the server still reads (and discards) after answering, so
 * the sender, still writing, is not reset before it reads the answer (issue 17). A larger body
 * is cut off with Connection: close instead.
 */
export const REFUSED_BODY_DRAIN_MAX_BYTES = 32 * 1024 * 1024;

/** Job engine settings from the environment (server/src/main.ts; README "Environment"). */
export interface JobEnvironment {
  durationMs: number;
  failureRate: number;
  nsfwRate: number;
  concurrency?: number;
  /** KINORA_JOB_LEASE_MS: how long a claim lasts without a heartbeat (engine default when unset). */
  leaseMs?: number;
  /** KINORA_MAX_RUNNING_PER_USER: one person's started jobs at most (engine default when unset; 0: no limit). */
  maxRunningPerUser?: number;
}

/** How long a local job takes when KINORA_JOB_DURATION_MS is not set: long enough to watch it progress. */
export const DEFAULT_JOB_DURATION_MS = 8000;

function numberFromEnv(name: string, value: string | undefined, fallback: number, check: (n: number) => boolean, rule: string): number {
  if (value === undefined || value.trim() === '') return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || !check(parsed)) throw new Error(`${name} must be ${rule} (got "${value}")`);
  return parsed;
}

/**
 * KINORA_JOB_DURATION_MS (8000), KINORA_JOB_FAILURE_RATE (0), KINORA_JOB_NSFW_RATE (0),
 * KINORA_JOB_CONCURRENCY (4), KINORA_JOB_LEASE_MS (30000: how soon a job whose worker died is
 * taken over) and KINORA_MAX_RUNNING_PER_USER (4: one person's jobs running at once; 0 for no
 * limit): a bad value stops the server with a readable error.
 */
export function parseJobEnvironment(env: Readonly<Record<string, string | undefined>>): JobEnvironment {
  const rate = (n: number): boolean => n >= 0 && n <= 1;
  const concurrency = numberFromEnv('KINORA_JOB_CONCURRENCY', env.KINORA_JOB_CONCURRENCY, 0, (n) => Number.isInteger(n) && n >= 1, 'a whole number ≥ 1');
  const leaseMs = numberFromEnv('KINORA_JOB_LEASE_MS', env.KINORA_JOB_LEASE_MS, 0, (n) => Number.isInteger(n) && n >= 1000, 'a whole number of milliseconds ≥ 1000');
  const maxRunning = numberFromEnv('KINORA_MAX_RUNNING_PER_USER', env.KINORA_MAX_RUNNING_PER_USER, -1, (n) => Number.isInteger(n) && n >= 0, 'a whole number ≥ 0 (0: no limit)');
  return {
    durationMs: numberFromEnv('KINORA_JOB_DURATION_MS', env.KINORA_JOB_DURATION_MS, DEFAULT_JOB_DURATION_MS, (n) => n >= 0, 'a number of milliseconds ≥ 0'),
    failureRate: numberFromEnv('KINORA_JOB_FAILURE_RATE', env.KINORA_JOB_FAILURE_RATE, 0, rate, 'between 0 and 1'),
    nsfwRate: numberFromEnv('KINORA_JOB_NSFW_RATE', env.KINORA_JOB_NSFW_RATE, 0, rate, 'between 0 and 1'),
    ...(concurrency > 0 ? { concurrency } : {}),
    ...(leaseMs > 0 ? { leaseMs } : {}),
    ...(maxRunning >= 0 ? { maxRunningPerUser: maxRunning } : {}),
  };
}

/**
 * What one process does (README "Several processes"): `api` answers the HTTP calls and queues jobs,
 * `worker` renders queued jobs, `all` (the default, `npm start`) both. Several API and worker
 * processes share one PostgreSQL database (and one bucket); jobs are claimed once with
 * FOR UPDATE SKIP LOCKED and leases.
 */
export type ServerRole = 'api' | 'worker' | 'all';
export const SERVER_ROLES: readonly ServerRole[] = ['api', 'worker', 'all'];

/**
 * A role other than `all` is one of several processes, which share a PostgreSQL server: PGlite is a
 * folder one process opens, so an api process on it would queue jobs no worker could see.
 */
export function checkRoleDatabase(role: ServerRole, databaseUrl: string | undefined): void {
  if (role !== 'all' && !databaseUrl?.trim()) {
    throw new Error(`KINORA_ROLE=${role} needs DATABASE_URL: the processes of one installation share a PostgreSQL server (the embedded database is one process's).`);
  }
}

/** KINORA_ROLE (`api` | `worker` | `all`, default all); anything else stops the server with a readable error. */
export function parseServerRole(env: Readonly<Record<string, string | undefined>>): ServerRole {
  const value = (env.KINORA_ROLE ?? '').trim() || 'all';
  const role = SERVER_ROLES.find((candidate) => candidate === value);
  if (!role) throw new Error(`KINORA_ROLE must be "api", "worker" or "all" (got "${value}")`);
  return role;
}

/** What KINORA_RENDER_PROVIDER and its companions ask for (server/src/main.ts; README "Generating with fal.ai"). */
export type RenderEnvironment =
  | { provider: 'local' }
  | { provider: 'fal'; key: string; queueUrl?: string; publicUrl?: string };

/**
 * KINORA_RENDER_PROVIDER (`local` | `fal`, default local), FAL_KEY (required with fal),
 * KINORA_FAL_QUEUE_URL (fal's queue host by default; a stand-in's URL in tests) and
 * KINORA_PUBLIC_URL (where fal can fetch Kinora's signed file links; absent → inputs are uploaded
 * to fal's storage). A bad combination stops the server with a readable error.
 */
export function parseRenderEnvironment(env: Readonly<Record<string, string | undefined>>): RenderEnvironment {
  const name = (env.KINORA_RENDER_PROVIDER ?? '').trim() || 'local';
  if (name === 'local') return { provider: 'local' };
  if (name !== 'fal') throw new Error(`KINORA_RENDER_PROVIDER must be "local" or "fal" (got "${name}")`);
  const key = env.FAL_KEY?.trim();
  if (!key) throw new Error('KINORA_RENDER_PROVIDER=fal needs FAL_KEY (your fal.ai API key)');
  const url = (variable: 'KINORA_FAL_QUEUE_URL' | 'KINORA_PUBLIC_URL'): string | undefined => {
    const value = env[variable]?.trim();
    if (!value) return undefined;
    if (!/^https?:\/\/[^\s/]+/.test(value)) throw new Error(`${variable} must be an http(s) URL (got "${value}")`);
    return value.replace(/\/+$/, '');
  };
  const queueUrl = url('KINORA_FAL_QUEUE_URL');
  const publicUrl = url('KINORA_PUBLIC_URL');
  return { provider: 'fal', key, ...(queueUrl ? { queueUrl } : {}), ...(publicUrl ? { publicUrl } : {}) };
}

/** What DATABASE_URL and its pool settings ask for (server/src/main.ts; README "Running on PostgreSQL"). */
export interface DatabaseEnvironment {
  /** A postgres:// URL; absent → the embedded PGlite in `${dataDir}/db`. */
  url?: string;
  /** KINORA_DB_POOL_SIZE: connections at most (pg's default, 10, when unset). */
  poolSize?: number;
  /** KINORA_DB_STATEMENT_TIMEOUT_MS: how long one statement may run (unset or 0: no limit). */
  statementTimeoutMs?: number;
}

/**
 * DATABASE_URL, KINORA_DB_POOL_SIZE (a whole number ≥ 1) and KINORA_DB_STATEMENT_TIMEOUT_MS (a
 * whole number of milliseconds ≥ 0, 0 = no limit); the pool settings apply to a PostgreSQL server
 * only. A bad value stops the server with a readable error.
 */
export function parseDatabaseEnvironment(env: Readonly<Record<string, string | undefined>>): DatabaseEnvironment {
  const url = env.DATABASE_URL?.trim();
  const whole = (min: number) => (n: number): boolean => Number.isInteger(n) && n >= min;
  const poolSize = numberFromEnv('KINORA_DB_POOL_SIZE', env.KINORA_DB_POOL_SIZE, 0, whole(1), 'a whole number ≥ 1');
  const statementTimeoutMs = numberFromEnv(
    'KINORA_DB_STATEMENT_TIMEOUT_MS',
    env.KINORA_DB_STATEMENT_TIMEOUT_MS,
    0,
    whole(0),
    'a whole number of milliseconds ≥ 0',
  );
  return {
    ...(url ? { url } : {}),
    ...(poolSize > 0 ? { poolSize } : {}),
    ...(statementTimeoutMs > 0 ? { statementTimeoutMs } : {}),
  };
}
