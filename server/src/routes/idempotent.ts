import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../db/database.ts';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
} from '../db/idempotency.ts';
import { HttpError } from './http.ts';
import { DETAILS } from './messages.ts';

export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** What a handler answers: kept for replays when the request carried an Idempotency-Key. */
export interface HandlerAnswer {
  statusCode: number;
  payload: unknown;
  /** The answer is this media item: a replay rebuilds it as it is then (fresh signed links). */
  mediaId?: string;
}

/** A media item's answer as it is now (`{ data }`), or null when it is gone. */
export type MediaReplay = (mediaId: string) => Promise<unknown>;

/** The request's Idempotency-Key, or null when it sent none. */
export function idempotencyKeyOf(request: FastifyRequest): string | null {
  const header = request.headers[IDEMPOTENCY_HEADER];
  if (header === undefined) return null;
  const key = Array.isArray(header) ? header[0] : header;
  if (!key || key.length > 200 || !/^[\x21-\x7e]+$/.test(key)) throw new HttpError(400, DETAILS.idempotencyKeyInvalid);
  return key;
}

/**
 * Runs a credit-spending handler at most once per (user, Idempotency-Key): the same key and body
 * get the first answer again (same status; a media answer is rebuilt by `replayMedia` so its links
 * are fresh and its status current), another body gets 422, and a request arriving while the first
 * still runs gets 409. A handler that fails frees the key, so a retry may succeed. Without the
 * header the handler simply runs.
 */
export async function runIdempotent(
  db: Database,
  request: FastifyRequest,
  reply: FastifyReply,
  userSub: string,
  requestHash: string,
  handler: (key: string | null) => Promise<HandlerAnswer>,
  replayMedia: MediaReplay,
): Promise<unknown> {
  const key = idempotencyKeyOf(request);
  if (key === null) {
    const answer = await handler(null);
    return reply.code(answer.statusCode).send(answer.payload);
  }
  const claim = await claimIdempotencyKey(db, userSub, key, requestHash);
  switch (claim.status) {
    case 'mismatch':
      throw new HttpError(422, DETAILS.idempotencyMismatch);
    case 'in-progress':
      throw new HttpError(409, DETAILS.idempotencyInProgress);
    case 'replay': {
      const body = claim.mediaId === null ? claim.responseBody : await replayMedia(claim.mediaId);
      // The media was deleted since: there is nothing left to answer with.
      if (body === null) throw new HttpError(404, DETAILS.notFound);
      return reply.code(claim.responseStatus).header('Idempotent-Replayed', 'true').send(body);
    }
    case 'claimed':
      break;
  }
  let answer: HandlerAnswer;
  try {
    answer = await handler(key);
  } catch (error) {
    await releaseIdempotencyKey(db, userSub, key).catch(() => undefined);
    throw error;
  }
  if (answer.statusCode >= 400) await releaseIdempotencyKey(db, userSub, key);
  else await completeIdempotencyKey(db, userSub, key, answer.statusCode, answer.payload, answer.mediaId ?? null);
  return reply.code(answer.statusCode).send(answer.payload);
}
