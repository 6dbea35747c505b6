import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { healthRoutes, type ReadinessCheck } from '../../../server/src/routes/health.ts';

/** Liveness and readiness (issue 20 item 5): what a process manager and a load balancer ask. */

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function serve(checks: Record<string, ReadinessCheck>, closing = false): Promise<FastifyInstance> {
  app = Fastify();
  await healthRoutes(app, { role: 'worker', checks, closing: () => closing });
  return app;
}

describe('health', () => {
  it('is live without asking the database, and never cached', async () => {
    const served = await serve({ database: () => Promise.reject(new Error('connection refused')) });
    const answer = await served.inject('/health');
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ ok: true, role: 'worker' });
    expect(answer.headers['cache-control']).toBe('no-store');
  });

  it('is ready only when every check answers, naming what failed', async () => {
    const ready = await serve({ database: () => Promise.resolve(), storage: () => Promise.resolve() });
    expect((await ready.inject('/health/ready')).json()).toEqual({ ready: true, role: 'worker', checks: { database: 'ok', storage: 'ok' } });
    await ready.close();

    const broken = await serve({ database: () => Promise.resolve(), storage: () => Promise.reject(new Error('NoSuchBucket')) });
    const answer = await broken.inject('/health/ready');
    expect(answer.statusCode).toBe(503);
    expect(answer.json()).toEqual({ ready: false, role: 'worker', checks: { database: 'ok', storage: 'NoSuchBucket' } });
  });

  it('is not ready while the process shuts down', async () => {
    const served = await serve({ database: () => Promise.resolve() }, true);
    const answer = await served.inject('/health/ready');
    expect(answer.statusCode).toBe(503);
    expect(answer.json()).toMatchObject({ ready: false, checks: { process: 'shutting down', database: 'ok' } });
  });
});
