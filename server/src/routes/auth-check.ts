import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { authCheckRequestSchema, type AuthCheckResponse } from '../../../src/services/schemas/auth-check.ts';
import { HttpError, ok, parseInput } from './http.ts';
import { DETAILS } from './messages.ts';
import type { RouteDeps } from './route-deps.ts';

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** Compares digests so the answer time says nothing about how much of the key matched. */
function isApiKey(sent: string | string[] | undefined, apiKey: string): boolean {
  return typeof sent === 'string' && timingSafeEqual(digest(sent), digest(apiKey));
}

/** POST auth/check: guarded by the client API key instead of a user token (SPEC §6, §7). */
export async function authCheckRoutes(app: FastifyInstance, { identity, apiKey }: RouteDeps): Promise<void> {
  app.post('/auth/check', async (request): Promise<{ data: AuthCheckResponse }> => {
    if (!isApiKey(request.headers['x-api-key'], apiKey)) throw new HttpError(403, DETAILS.invalidApiKey);
    const { email } = parseInput(authCheckRequestSchema, request.body);
    return ok({ email, exists: await identity.userExistsByEmail(email) });
  });
}
