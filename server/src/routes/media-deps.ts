import type { FastifyRequest } from 'fastify';
import type { JobEngine } from '../jobs/engine.ts';
import type { FileSigner } from '../jobs/file-signing.ts';
import type { RenderProvider } from '../render/provider.ts';
import type { RouteDeps } from './route-deps.ts';

/** How async_mode=false waits (injectable so tests can wait across several touches in milliseconds). */
export interface SyncWaitOptions {
  /** The longest wait for the job to end, after which the job is answered as it is. */
  limitMs: number;
  /** How often the waiting request's Idempotency-Key is kept fresh, so a retry meanwhile gets 409, not a takeover. */
  keyTouchMs: number;
  /** Most async_mode=false requests one user may have waiting at once (each holds a connection). */
  perUser: number;
}

/** What the media, file, generation, upload and text routes are given besides the common deps. */
export interface MediaRouteDeps extends RouteDeps {
  engine: JobEngine;
  provider: RenderProvider;
  signer: FileSigner;
  /** async_mode=false settings; DEFAULT_SYNC_WAIT (routes/generation.ts) for what is not given. */
  syncWait?: Partial<SyncWaitOptions>;
}

/** `{proto}://{host}` as the caller reached this server, for the absolute file links of an answer. */
export const requestOrigin = (request: FastifyRequest): string => `${request.protocol}://${request.host}`;
