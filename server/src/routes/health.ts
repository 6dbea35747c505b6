import type { FastifyInstance } from 'fastify';
import type { ServerRole } from '../config.ts';

/** One thing a process needs before it can take work: answers when fine, throws when not. */
export type ReadinessCheck = () => Promise<void>;

/** How long one readiness check may take before it counts as failed (a hung database is not ready). */
const CHECK_TIMEOUT_MS = 3000;

export interface HealthOptions {
  role: ServerRole;
  /** By name (`database`, `storage`): what readiness checks. */
  checks: Readonly<Record<string, ReadinessCheck>>;
  /** True once the process is shutting down: readiness answers 503 so a balancer stops sending. */
  closing: () => boolean;
}

async function outcome(check: ReadinessCheck): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
      }),
    ]);
    return 'ok';
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Liveness and readiness for a process manager or load balancer (README "Deploying"), on every
 * role, outside `/api`:
 * - `GET /health`: the process answers (restart it when it does not). Nothing else is checked, so
 *   a database outage does not get every process restarted.
 * - `GET /health/ready`: the database and the file storage answer, and the process is not shutting
 *   down: 200 `{ready: true, role, checks}`, else 503 with what failed. A balancer sends traffic
 *   only to a ready API process; a worker's readiness says it can take jobs.
 */
export async function healthRoutes(app: FastifyInstance, { role, checks, closing }: HealthOptions): Promise<void> {
  app.get('/health', async (_request, reply) => reply.header('Cache-Control', 'no-store').send({ ok: true, role }));

  app.get('/health/ready', async (_request, reply) => {
    const results: Record<string, string> = {};
    if (closing()) results.process = 'shutting down';
    const entries = Object.entries(checks);
    const answers = await Promise.all(entries.map(([, check]) => outcome(check)));
    entries.forEach(([name], index) => {
      results[name] = answers[index] ?? 'no answer';
    });
    const ready = Object.values(results).every((result) => result === 'ok');
    return reply
      .code(ready ? 200 : 503)
      .header('Cache-Control', 'no-store')
      .send({ ready, role, checks: results });
  });
}
