import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { appendLedgerEntry, creditBalance } from '../../../server/src/db/credit-ledger.ts';
import { openDatabase, type Database } from '../../../server/src/db/database.ts';
import { startEmulator, type TestEmulator } from '../helpers/emulator.ts';
import { jobRows as readJobRows, untilJobs, type JobRow } from '../helpers/job-rows.ts';
import { startTestS3Server, type TestS3Server } from '../helpers/s3.ts';
import { asMedia, hasEnded, postForm } from '../helpers/media.ts';
import { freshPostgresUrl } from '../helpers/postgres.ts';

/**
 * Issue 20 item 3: Kinora as a studio deploys it: two API processes and two render workers
 * (KINORA_ROLE), real `node server/src/main.ts` processes on one PostgreSQL database and one
 * S3-compatible bucket (s3rver, in this test's process). 100 jobs go in through both APIs; one worker is SIGKILLed while it holds jobs. Every job
 * must end once as a success, be debited once and never refunded, and have its files; the killed
 * worker's jobs are taken over by the other when their leases run out.
 */

const JOBS = 100;
const API_KEY = 'processes-test-api-key';
const LEASE_MS = 2000;

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

interface Started {
  name: string;
  role: 'api' | 'worker';
  url: string;
  child: ChildProcess;
  output: string[];
}

let emulator: TestEmulator;
let bucket: TestS3Server;
let databaseUrl: string;
let db: Database;
let dataDir: string;
const processes: Started[] = [];

async function startProcess(name: string, role: 'api' | 'worker', env: Record<string, string> = {}): Promise<Started> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: process.cwd(),
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      KINORA_ROLE: role,
      // Each process its own data folder (its local copies of inputs); the files are in the bucket.
      KINORA_DATA_DIR: path.join(dataDir, name.replace(/\W+/g, '-')),
      KINORA_S3_BUCKET: bucket.settings.bucket,
      KINORA_S3_ENDPOINT: bucket.settings.endpoint ?? '',
      KINORA_S3_REGION: bucket.settings.region,
      KINORA_S3_ACCESS_KEY_ID: bucket.settings.credentials?.accessKeyId ?? '',
      KINORA_S3_SECRET_ACCESS_KEY: bucket.settings.credentials?.secretAccessKey ?? '',
      KINORA_S3_FORCE_PATH_STYLE: 'true',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      DATABASE_URL: databaseUrl,
      KINORA_DB_POOL_SIZE: '6',
      KINORA_STATIC_DIR: '',
      KINORA_LOCAL_MODE: 'true',
      KINORA_API_KEY: API_KEY,
      COGNITO_LOCAL_URL: emulator.endpoint,
      COGNITO_USER_POOL_ID: emulator.userPoolId,
      COGNITO_CLIENT_ID: emulator.clientId,
      KINORA_JOB_DURATION_MS: '400',
      KINORA_JOB_CONCURRENCY: '4',
      KINORA_JOB_LEASE_MS: String(LEASE_MS),
      LOG_LEVEL: 'error',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const keep = (chunk: Buffer): void => {
    output.push(chunk.toString());
    if (output.length > 200) output.shift();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const started: Started = { name, role, url: `http://127.0.0.1:${port}`, child, output };
  processes.push(started);
  return started;
}

/** Waits until the process answers /health/ready with 200, or fails with what it printed. */
async function untilReady(started: Started, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (started.child.exitCode !== null) throw new Error(`${started.name} exited (${started.child.exitCode}): ${started.output.join('')}`);
    const answer = await fetch(`${started.url}/health/ready`).catch(() => null);
    if (answer?.status === 200) return;
    if (Date.now() > deadline) throw new Error(`${started.name} not ready after ${timeoutMs} ms: ${started.output.join('')}`);
    await sleep(100);
  }
}

const jobRows = (ids: readonly string[]): Promise<JobRow[]> => readJobRows(db, ids);
const untilRows = (ids: readonly string[], done: (rows: JobRow[]) => boolean): Promise<JobRow[]> => untilJobs(db, ids, done, 120_000);

beforeAll(async () => {
  [emulator, databaseUrl, dataDir, bucket] = await Promise.all([
    startEmulator(),
    freshPostgresUrl(),
    mkdtemp(path.join(tmpdir(), 'kinora-processes-')),
    startTestS3Server(),
  ]);
  // Migrated here first, so the four processes start on a current schema (they migrate too, under
  // an advisory lock, and find nothing to do).
  db = await openDatabase({ url: databaseUrl });
}, 60_000);

/** Each test starts its own processes: the last test's workers must not take this one's jobs. */
async function stopProcesses(): Promise<void> {
  const live = processes.splice(0).filter(({ child }) => child.exitCode === null && child.signalCode === null);
  await Promise.all(
    live.map(({ child }) => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      return exited;
    }),
  );
}

afterEach(stopProcesses);

afterAll(async () => {
  await stopProcesses();
  await db?.close();
  await emulator?.stop();
  await bucket?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('two API and two worker processes on one PostgreSQL', () => {
  it('end each of 100 jobs once, debited once, files present, after a worker is SIGKILLed mid-run', { timeout: 240_000 }, async () => {
    const [apiA, apiB, workerA, workerB] = await Promise.all([
      startProcess('api A', 'api'),
      startProcess('api B', 'api'),
      startProcess('worker A', 'worker'),
      startProcess('worker B', 'worker'),
    ]);
    await Promise.all([apiA, apiB, workerA, workerB].map((started) => untilReady(started)));
    // A worker serves no API; an API process renders nothing (checked below: every job's lease
    // owner while processing is a worker's, and the jobs finish only while workers run).
    expect((await fetch(`${workerA.url}/api/health`)).status).toBe(404);
    expect(await (await fetch(`${apiA.url}/health`)).json()).toEqual({ ok: true, role: 'api' });

    const user = await emulator.createUser({ username: `procs${Date.now().toString(36)}`, email: 'procs@example.test', password: 'secret-password-1' });
    const api = (index: number) => ({ url: index % 2 === 0 ? apiA.url : apiB.url, apiKey: API_KEY });
    // The first call grants the starting credits; then enough for every job (4 credits each).
    expect((await fetch(`${apiA.url}/api/credits/get`, { headers: { Authorization: user.accessToken, 'X-Api-Key': API_KEY } })).status).toBe(200);
    await appendLedgerEntry(db, { userSub: user.sub, amount: 4 * JOBS, kind: 'purchase', reason: 'processes test' });
    const before = await creditBalance(db, user.sub);

    const submittedAt = performance.now();
    const answers = await Promise.all(
      Array.from({ length: JOBS }, (_, index) => postForm(api(index), 'image/text-2-image', { prompt: `many processes ${index}` }, { token: user.accessToken })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array<number>(JOBS).fill(200));
    const ids = answers.map((answer) => asMedia(answer).id);
    expect(new Set(ids).size).toBe(JOBS);

    // Kill worker A once a quarter of the jobs have ended: the queue is not empty, so it holds
    // as many jobs as its concurrency (4) at that moment.
    let ended = 0;
    while (ended < JOBS / 4) {
      ended = (await jobRows(ids)).filter((row) => hasEnded(row.status)).length;
      await sleep(50);
    }
    const held = await db.query<{ lease_owner: string }>(
      "SELECT lease_owner FROM media WHERE id = ANY($1::text[]) AND status LIKE 'processing%'",
      [ids],
    );
    workerA.child.kill('SIGKILL');
    const killedAt = performance.now();
    expect(held.rows.length).toBeGreaterThan(0);

    const deadline = Date.now() + 180_000;
    let rows = await jobRows(ids);
    while (!rows.every((row) => hasEnded(row.status))) {
      if (Date.now() > deadline) {
        const live = rows.filter((row) => !hasEnded(row.status)).map((row) => `${row.id}: ${row.status}`);
        throw new Error(`${live.length} jobs still live: ${live.join(', ')}\n${workerB.output.join('')}`);
      }
      await sleep(100);
      rows = await jobRows(ids);
    }
    const drainedAt = performance.now();

    // Every job a success, no lease left, never refunded.
    for (const row of rows) expect(row).toMatchObject({ status: 'success_image', cost: 4, lease_owner: null, refund_ledger_id: null });
    // Worker A's jobs were taken over: claimed a second time by worker B after their leases ran out.
    const reclaimed = rows.filter((row) => row.attempts > 1);
    expect(reclaimed.length).toBeGreaterThan(0);

    // Debited once each, and the balance fell by exactly the jobs' cost.
    const { rows: debits } = await db.query<{ job_id: string; n: number }>(
      "SELECT job_id, count(*)::int AS n FROM credit_ledger WHERE kind = 'debit' AND job_id = ANY($1::text[]) GROUP BY job_id",
      [ids],
    );
    expect(debits).toHaveLength(JOBS);
    expect(debits.every((row) => row.n === 1)).toBe(true);
    const { rows: refunds } = await db.query("SELECT 1 FROM credit_ledger WHERE kind = 'refund' AND job_id = ANY($1::text[])", [ids]);
    expect(refunds).toEqual([]);
    expect(await creditBalance(db, user.sub)).toBe(before - 4 * JOBS);

    // Every job's result and thumbnail rows name an object that is in the one bucket.
    const stored = new Set(await bucket.keys());
    const { rows: files } = await db.query<{ media_id: string; role: string; path: string }>(
      'SELECT media_id, role, path FROM media_files WHERE media_id = ANY($1::text[])',
      [ids],
    );
    for (const id of ids) {
      const own = files.filter((file) => file.media_id === id);
      expect(own.map((file) => file.role).sort()).toEqual(['result', 'thumbnail']);
      for (const file of own) expect(stored.has(file.path), file.path).toBe(true);
    }

    // What the killed worker had written but not committed is left for the orphan sweep.
    const named = new Set(files.map((file) => file.path));
    const orphans = [...stored].filter((key) => !named.has(key) && ids.some((id) => key.startsWith(`${id}/`)));

    // A result link signed by API B is served by API A: the signing key is in the shared database.
    const media = await fetch(`${apiB.url}/api/media/${ids[0]}`, { headers: { Authorization: user.accessToken, 'X-Api-Key': API_KEY } });
    expect(media.status).toBe(200);
    const signed = new URL(asMedia({ status: 200, headers: media.headers, body: (await media.json()) as { data: unknown } }).items[0]?.url ?? '');
    const file = await fetch(`${apiA.url}${signed.pathname}${signed.search}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toMatch(/^image\//);

    console.info(
      `[processes] ${JOBS} jobs, ${debits.length} debits, ${refunds.length} refunds, ${reclaimed.length} reclaimed after the SIGKILL, ` +
        `${files.length} files in the bucket (+${orphans.length} uncommitted by the killed worker); ` +
        `drained ${((drainedAt - submittedAt) / 1000).toFixed(1)} s after submitting (${((drainedAt - killedAt) / 1000).toFixed(1)} s after the kill, lease ${LEASE_MS} ms)`,
    );
  });

  it('a worker stopped with SIGTERM hands its jobs back at once, and another worker finishes them', { timeout: 180_000 }, async () => {
    // Jobs long enough (8 s) to be mid-way when the worker is told to stop; a lease far longer than
    // the test, so only the worker's own hand-back can free them.
    const slow = { KINORA_JOB_DURATION_MS: '8000', KINORA_JOB_LEASE_MS: '600000' };
    const [apiC, stopping] = await Promise.all([startProcess('api C', 'api', slow), startProcess('worker C', 'worker', slow)]);
    await Promise.all([untilReady(apiC), untilReady(stopping)]);
    const user = await emulator.createUser({ username: `drain${Date.now().toString(36)}`, email: 'drain@example.test', password: 'secret-password-1' });
    const answers = await Promise.all(
      [0, 1, 2].map((index) => postForm({ url: apiC.url, apiKey: API_KEY }, 'image/text-2-image', { prompt: `drain ${index}` }, { token: user.accessToken })),
    );
    const ids = answers.map((answer) => asMedia(answer).id);
    await untilRows(ids, (rows) => rows.every((row) => row.status.startsWith('processing') && row.lease_owner !== null));

    const exited = new Promise<number | null>((resolve) => stopping.child.once('exit', (code) => resolve(code)));
    stopping.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    // Handed back before the process ended: queued again, no owner, the attempt not counted.
    for (const row of await jobRows(ids)) expect(row).toMatchObject({ status: 'queue_source', lease_owner: null, attempts: 0 });

    const taker = await startProcess('worker D', 'worker', { KINORA_JOB_DURATION_MS: '200' });
    await untilReady(taker);
    const rows = await untilRows(ids, (all) => all.every((row) => hasEnded(row.status)));
    for (const row of rows) expect(row).toMatchObject({ status: 'success_image', attempts: 1, refund_ledger_id: null });
    const { rows: debits } = await db.query("SELECT 1 FROM credit_ledger WHERE kind = 'debit' AND job_id = ANY($1::text[])", [ids]);
    expect(debits).toHaveLength(3);
  });
});
