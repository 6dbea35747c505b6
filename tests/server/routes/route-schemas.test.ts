import Fastify, { type FastifyError } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { idParams, paidCallQuery, routeSchemaDetail } from '../../../server/src/routes/route-schemas.ts';

/**
 * Zod route schemas (issue 18 item 4): a failed one is answered like parseInput's 400 ("Query is
 * invalid: …"), and the paid calls' query keeps every key the Idempotency-Key's digest covers.
 */

async function appWith() {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler((error: FastifyError, _request, reply) => reply.code(400).send({ detail: routeSchemaDetail(error) }));
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.post('/paid/:id', { schema: { params: idParams, querystring: paidCallQuery } }, (request) => ({ id: request.params.id, query: request.query }));
  routes.get('/count', { schema: { querystring: z.object({ limit: z.coerce.number().int().min(1) }) } }, (request) => ({ limit: request.query.limit }));
  routes.post('/named', { schema: { body: z.object({ name: z.string().min(2) }) } }, (request) => ({ name: request.body.name }));
  await app.ready();
  return app;
}

describe('route schemas', () => {
  it('keeps every query key of a paid call and takes asset_id sent once or twice', async () => {
    const app = await appWith();
    const once = await app.inject({ method: 'POST', url: '/paid/abc?asset_id=a1&extra=x' });
    expect(once.json()).toEqual({ id: 'abc', query: { asset_id: 'a1', extra: 'x' } });
    const twice = await app.inject({ method: 'POST', url: '/paid/abc?asset_id=a1&asset_id=a2' });
    expect(twice.json()).toEqual({ id: 'abc', query: { asset_id: ['a1', 'a2'] } });
    const none = await app.inject({ method: 'POST', url: '/paid/abc' });
    expect(none.json()).toEqual({ id: 'abc', query: {} });
    await app.close();
  });

  it('answers a failed schema with what failed, in parseInput\'s words', async () => {
    const app = await appWith();
    const query = await app.inject({ method: 'GET', url: '/count?limit=0' });
    expect(query.statusCode).toBe(400);
    expect(query.json().detail).toMatch(/^Query is invalid: limit: /);
    const body = await app.inject({ method: 'POST', url: '/named', payload: { name: 'a' } });
    expect(body.statusCode).toBe(400);
    expect(body.json().detail).toMatch(/^Request body is invalid: name: /);
    await app.close();
  });

  it('leaves other errors to the rest of the error handler', () => {
    expect(routeSchemaDetail(Object.assign(new Error('boom'), { statusCode: 500 }) as FastifyError)).toBeNull();
  });
});
