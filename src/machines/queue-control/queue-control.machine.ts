import { assign, fromPromise, setup } from 'xstate';
import { statusOf } from '@/services/api-error';
import { getMedia } from '@/services/media';
import type { Media } from '@/services/schemas/media';
import {
  isEditableTool,
  isWaitingStatus,
  queueCall,
  queueFailure,
  queueRequestOf,
  type QueueRequest,
  type QueueRequestEvent,
} from '@/machines/queue-control/queue-call';

export type { QueuedJobEdit } from '@/machines/queue-control/queue-call';
export type { Media } from '@/services/schemas/media';

export interface QueueControlContext {
  /** The job as the server last answered it (held, its place in the queue). */
  media: Media;
  request: QueueRequest | null;
  error: string | null;
}

export type QueueControlEvent =
  | QueueRequestEvent<'queue'>
  | { type: 'queue.dismissError' }
  /** The job as the History page's live read found it (its place, held): taken while no call is on its way. */
  | { type: 'queue.sync'; media: Media };

/**
 * Hold, resume, run next and edit of one waiting job outside the jobs panel (a History row; issue
 * 21 item 2): idle ⇄ requesting (the one call) → idle with the job as answered, or with the
 * spec-style message. A 409 means the job started (or ended) meanwhile: it is read again
 * (refreshing), so the row shows what it is now. Each event is taken only where it applies (a
 * held job resumes, a waiting one holds…), so `snapshot.can` gates the buttons. While idle it
 * takes the job as the History page's live read has it (`queue.sync`); a call on its way answers
 * newer than that, so it is not taken then.
 */
export const queueControlMachine = setup({
  types: {
    context: {} as QueueControlContext,
    events: {} as QueueControlEvent,
    input: {} as { media: Media },
  },
  actors: {
    queueCall,
    fetchMedia: fromPromise<Media, { mediaId: string }>(({ input, signal }) => getMedia(input.mediaId, undefined, { signal })),
  },
  guards: {
    editable: ({ context }) => isWaitingStatus(context.media.status) && isEditableTool(context.media.tool),
    waitingNotHeld: ({ context }) => isWaitingStatus(context.media.status) && !context.media.held,
    held: ({ context }) => isWaitingStatus(context.media.status) && context.media.held,
    isConflict: (_, params: { error: unknown }) => statusOf(params.error) === 409,
  },
  actions: {
    startRequest: assign(({ event }) => ({ request: queueRequestOf(event), error: null })),
    storeMedia: assign((_, params: { media: Media }) => ({ media: params.media, request: null })),
    setError: assign(({ context }, params: { error: unknown }) => ({ error: queueFailure(context.request, params.error), request: null })),
    dismissError: assign({ error: null }),
    sync: assign(({ event }) => (event.type === 'queue.sync' ? { media: event.media } : {})),
  },
}).createMachine({
  id: 'queueControl',
  context: ({ input }) => ({ media: input.media, request: null, error: null }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'queue.hold': { guard: 'waitingNotHeld', target: 'requesting', actions: 'startRequest' },
        'queue.runNext': { guard: 'waitingNotHeld', target: 'requesting', actions: 'startRequest' },
        'queue.resume': { guard: 'held', target: 'requesting', actions: 'startRequest' },
        'queue.edit': { guard: 'editable', target: 'requesting', actions: 'startRequest' },
        'queue.dismissError': { actions: 'dismissError' },
        'queue.sync': { actions: 'sync' },
      },
    },
    requesting: {
      invoke: {
        src: 'queueCall',
        input: ({ context }) => ({ mediaId: context.media.id, request: context.request ?? { kind: 'hold' } }),
        onDone: { target: 'idle', actions: { type: 'storeMedia', params: ({ event }) => ({ media: event.output }) } },
        onError: [
          {
            guard: { type: 'isConflict', params: ({ event }) => ({ error: event.error }) },
            target: 'refreshing',
            actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) },
          },
          { target: 'idle', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
        ],
      },
    },
    refreshing: {
      invoke: {
        src: 'fetchMedia',
        input: ({ context }) => ({ mediaId: context.media.id }),
        onDone: { target: 'idle', actions: { type: 'storeMedia', params: ({ event }) => ({ media: event.output }) } },
        // The message already says why; the row keeps what it had.
        onError: 'idle',
      },
    },
  },
});
