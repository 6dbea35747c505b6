/**
 * The processing-status endpoint's throughput (issue 19 item 5), as a share of a bare Fastify
 * answering the same URL with the same JSON in the same run, so the figure is a ratio that does not
 * depend on how busy this shared machine is.
 *
 * The servers run here: a real `buildApp` on a fresh in-memory PGlite with one running job (the
 * job engine left idle, so only the status reads are measured), and a bare Fastify with one route.
 * The load comes from another process, autocannon (the Fastify team's HTTP benchmarking tool, with
 * keep-alive connections): a client in the server's own event loop would take the CPU the server
 * needs and measure itself. The two servers are measured in turns, ROUNDS times each, and each
 * one's best round counts, so a burst of load from elsewhere on the machine does not decide the ratio.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Fastify from 'fastify';
import { buildApp } from '../server/src/app.ts';
import type { IdentityProvider } from '../server/src/auth/types.ts';
import { openDatabase } from '../server/src/db/database.ts';
import { ensureUser } from '../server/src/db/users.ts';
import { insertMedia, QUEUED_STATUS } from '../server/src/db/media.ts';

export interface LoadFigures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers other than 2xx, and connection errors or time-outs. */
  failures: number;
}

export interface StatusFigures {
  connections: number;
  seconds: number;
  rounds: number;
  kinora: LoadFigures;
  bare: LoadFigures;
  /** kinora ÷ bare requests per second. */
  shareOfBare: number;
  /** The machine's 1-minute load average when the rounds ended. */
  load: number;
}

/** Nobody signs in here: processing-status is one of SPEC §6's calls without auth. */
const noIdentity: IdentityProvider = {
  verifyAccessToken: async () => null,
  userExistsByEmail: async () => false,
  handleOwner: async () => null,
  deleteUser: async () => undefined,
};

const HEADERS = { 'x-client-type': 'web-frontend', 'x-api-key': 'bench' };

const run = promisify(execFile);
const autocannonCli = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

/** The subset of autocannon's `--json` result read here. */
interface AutocannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

/** `connections` keep-alive clients in another process, for `seconds`. */
export async function loadFromAnotherProcess(url: string, connections: number, seconds: number): Promise<LoadFigures> {
  const headerArgs = Object.entries(HEADERS).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const { stdout } = await run(process.execPath, [autocannonCli, '-c', String(connections), '-d', String(seconds), '-j', ...headerArgs, url], {
    maxBuffer: 16 * 1024 * 1024,
  });
  const result = JSON.parse(stdout) as AutocannonResult;
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

/** The reference: Fastify with nothing but this route, answering what the real one answers for a queued job. */
async function bareFastify(answer: unknown) {
  const app = Fastify({ logger: false });
  app.get('/api/media/:id/processing-status', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return answer;
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app;
}

const portOf = (app: { server: { address(): unknown } }) => (app.server.address() as AddressInfo).port;

/** Turns each server is measured: the best of each counts (a burst of load from elsewhere passes). */
const ROUNDS = 3;

const best = (rounds: LoadFigures[]): LoadFigures =>
  rounds.reduce((top, round) => (round.requestsPerSecond > top.requestsPerSecond ? round : top));

export async function measureStatusEndpoint(connections = 16, seconds = 5): Promise<StatusFigures> {
  const mediaDir = await mkdtemp(path.join(tmpdir(), 'kinora-bench-'));
  const db = await openDatabase({});
  const app = await buildApp({
    db,
    identity: noIdentity,
    apiKey: 'bench',
    localMode: true,
    mediaDir,
    // The engine must not finish the job while it is being measured.
    jobs: { durationMs: 3_600_000, pollIntervalMs: 60_000 },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  let bare: Awaited<ReturnType<typeof bareFastify>> | null = null;
  try {
    await ensureUser(db, { sub: 'bench-user', username: 'bench', email: null, preferredUsername: null });
    const job = await insertMedia(db, { userSub: 'bench-user', kind: 'image', tool: 'text-to-image', status: QUEUED_STATUS, items: [] });
    const statusPath = `/api/media/${job.id}/processing-status`;
    const kinoraUrl = `http://127.0.0.1:${portOf(app)}${statusPath}`;
    const first = await fetch(kinoraUrl, { headers: HEADERS });
    if (first.status !== 200) throw new Error(`processing-status answered ${first.status}`);
    bare = await bareFastify(await first.json());
    const bareUrl = `http://127.0.0.1:${portOf(bare)}${statusPath}`;

    // Warm-up (the JIT, the route, the connections), then the two in turns.
    await loadFromAnotherProcess(kinoraUrl, connections, 1);
    await loadFromAnotherProcess(bareUrl, connections, 1);
    const kinoraRounds: LoadFigures[] = [];
    const bareRounds: LoadFigures[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      bareRounds.push(await loadFromAnotherProcess(bareUrl, connections, seconds));
      kinoraRounds.push(await loadFromAnotherProcess(kinoraUrl, connections, seconds));
    }
    const kinora = best(kinoraRounds);
    const reference = best(bareRounds);
    return {
      connections,
      seconds,
      rounds: ROUNDS,
      kinora: { ...kinora, failures: kinoraRounds.reduce((sum, round) => sum + round.failures, 0) },
      bare: reference,
      shareOfBare: kinora.requestsPerSecond / reference.requestsPerSecond,
      load: loadavg()[0] ?? 0,
    };
  } finally {
    await bare?.close();
    await app.close();
    await db.close();
    await rm(mediaDir, { recursive: true, force: true });
  }
}
