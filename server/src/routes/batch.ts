import type { FastifyInstance } from 'fastify';
import type { MediaRouteDeps } from './media-deps.ts';

/** SPEC §7 batch calls (issue 5): to be written. */
export async function batchRoutes(_app: FastifyInstance, _deps: MediaRouteDeps): Promise<void> {}
