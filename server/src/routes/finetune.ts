import type { FastifyInstance } from 'fastify';
import type { MediaRouteDeps } from './media-deps.ts';

/** SPEC §7 POST finetune and Kinora's GET finetune (issue 5): to be written. */
export async function finetuneRoutes(_app: FastifyInstance, _deps: MediaRouteDeps): Promise<void> {}
