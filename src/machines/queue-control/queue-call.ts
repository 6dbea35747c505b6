import { fromPromise } from 'xstate';
import { generationToolBySlug } from '@/config/generation-tools';
import { QUEUE_TEXTS } from '@/config/queue-texts';
import { newIdempotencyKey } from '@/lib/idempotency-key';
import { errorMessageOf } from '@/services/api-error';
import { controlQueuedJob, editQueuedJob, type QueuedJobEdit } from '@/services/queue';
import type { Media } from '@/services/schemas/media';

export type { QueuedJobEdit } from '@/services/queue';

/**
 * One change to a waiting job (issue 21 item 2), as the generation job (the jobs panel) and the
 * queue-control machine (a History row) both ask for it: the call it makes, and what a failure
 * says (the spec's style: what could not be done, then the server's own words).
 */
export type QueueRequest =
  | { kind: 'hold' | 'resume' | 'runNext' }
  /** An edit pays: its key is made once, when it is asked for, and sent again on a retry. */
  | { kind: 'edit'; edit: QueuedJobEdit; idempotencyKey: string };

/** The events that ask for a change (the same for both machines, prefixed by theirs). */
export type QueueRequestEvent<P extends string> =
  | { type: `${P}.hold` }
  | { type: `${P}.resume` }
  | { type: `${P}.runNext` }
  | { type: `${P}.edit`; edit: QueuedJobEdit };

/** The request an event asks for (an edit gets its Idempotency-Key here). */
export function queueRequestOf(event: { type: string; edit?: QueuedJobEdit }): QueueRequest | null {
  const kind = event.type.slice(event.type.indexOf('.') + 1);
  if (kind === 'edit' && event.edit) return { kind, edit: event.edit, idempotencyKey: newIdempotencyKey() };
  if (kind === 'hold' || kind === 'resume' || kind === 'runNext') return { kind };
  return null;
}

/** The one service call of a request. */
export const queueCall = fromPromise<Media, { mediaId: string; request: QueueRequest }>(({ input, signal }) => {
  const { mediaId, request } = input;
  switch (request.kind) {
    case 'hold':
      return controlQueuedJob(mediaId, 'hold', { signal });
    case 'resume':
      return controlQueuedJob(mediaId, 'resume', { signal });
    case 'runNext':
      return controlQueuedJob(mediaId, 'run-next', { signal });
    case 'edit':
      return editQueuedJob(mediaId, request.edit, request.idempotencyKey, { signal });
  }
});

/** "The job could not be held. This job has already started: …" */
export const queueFailure = (request: QueueRequest | null, error: unknown): string =>
  `${QUEUE_TEXTS.failed[request?.kind ?? 'hold']} ${errorMessageOf(error)}`;

/** A job still waiting for a worker (SPEC §4 queue_source): the only one that may be changed. */
export const isWaitingStatus = (status: string | null): boolean => status === 'queue_source';

/** Only a generation tool's job is edited (the server's PATCH media/{id} says 400 for the rest). */
export const isEditableTool = (tool: string): boolean => generationToolBySlug(tool) !== undefined;
