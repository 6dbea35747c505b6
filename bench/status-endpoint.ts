/**
 * The processing-status endpoint's throughput on the local server: a real `buildApp` on a fresh
 * in-memory PGlite with one running job, hammered by concurrent clients (Node's fetch, keep-alive) for a few
 * seconds. The job engine is left idle (a long duration), so only the status reads are measured.
 */
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/src/app.ts';
import type { IdentityProvider } from '../server/src/auth/types.ts';
import { openDatabase } from '../server/src/db/database.ts';
import { ensureUser } from '../server/src/db/users.ts';
import { insertMedia, QUEUED_STATUS } from '../server/src/db/media.ts';

export interface StatusFigures {
  connections: number;
  seconds: number;
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  failures: number;
}

/** Nobody signs in here: processing-status is one of SPEC §6's calls without auth. */
const noIdentity: IdentityProvider = {
  verifyAccessToken: async () => null,
  userExistsByEmail: async () => false,
  handleOwner: async () => null,
  deleteUser: async () => undefined,
};

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

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
  const { port } = app.server.address() as AddressInfo;
  try {
    await ensureUser(db, { sub: 'bench-user', username: 'bench', email: null, preferredUsername: null });
    const job = await insertMedia(db, { userSub: 'bench-user', kind: 'image', tool: 'text-to-image', status: QUEUED_STATUS, items: [] });
    const url = `http://127.0.0.1:${port}/api/media/${job.id}/processing-status`;
    const headers = { 'x-client-type': 'web-frontend', 'x-api-key': 'bench' };
    // Warm up the route, the JIT and the connections.
    for (let index = 0; index < 200; index += 1) await (await fetch(url, { headers })).text();

    const latencies: number[] = [];
    let failures = 0;
    const deadline = performance.now() + seconds * 1000;
    const client = async () => {
      while (performance.now() < deadline) {
        const started = performance.now();
        const answer = await fetch(url, { headers });
        await answer.text();
        if (answer.status === 200) latencies.push(performance.now() - started);
        else failures += 1;
      }
    };
    const began = performance.now();
    await Promise.all(Array.from({ length: connections }, client));
    const elapsed = (performance.now() - began) / 1000;
    latencies.sort((a, b) => a - b);
    return {
      connections,
      seconds: elapsed,
      requests: latencies.length,
      requestsPerSecond: latencies.length / elapsed,
      p50Ms: percentile(latencies, 0.5),
      p99Ms: percentile(latencies, 0.99),
      failures,
    };
  } finally {
    await app.close();
    await db.close();
    await rm(mediaDir, { recursive: true, force: true });
  }
}
