import { assign, fromPromise, setup } from 'xstate';
import type { Visibility } from '@/config/sharing';
import { errorMessageOf } from '@/services/api-error';
import { shareMedia } from '@/services/media';
import type { Media } from '@/services/schemas/media';

export interface ShareValues {
  title: string;
  description: string;
  visibility: Visibility;
}

export interface ShareInput extends ShareValues {
  mediaId: string;
}

export interface ShareContext {
  mediaId: string;
  /** What the media is shared as now: the values it came with, then the last ones saved. */
  current: ShareValues;
  /** What is being (or was last) sent. */
  request: ShareValues | null;
  /** The server's message for the last failed save; null otherwise. */
  error: string | null;
}

export type ShareEvent = { type: 'share.submit'; values: ShareValues } | { type: 'share.edit' };

/**
 * The sharing form of one finished result (PUT media/{id}/share): editing → saving → saved | failed.
 * A failure keeps the form (the values typed stay in it) and shows the server's message; a save
 * can be sent again from there. After a save, `share.edit` opens the form again.
 */
export const shareMachine = setup({
  types: {
    context: {} as ShareContext,
    events: {} as ShareEvent,
    input: {} as ShareInput,
  },
  actors: {
    saveShare: fromPromise<Media, { mediaId: string; body: ShareValues }>(({ input }) => shareMedia(input.mediaId, input.body)),
  },
  actions: {
    storeRequest: assign((_, params: { values: ShareValues }) => ({ request: params.values, error: null })),
    storeSaved: assign((_, params: { media: Media }) => ({
      current: { title: params.media.title, description: params.media.description, visibility: params.media.visibility },
    })),
    setError: assign((_, params: { error: unknown }) => ({ error: errorMessageOf(params.error) })),
    clearError: assign({ error: null }),
  },
}).createMachine({
  id: 'share',
  context: ({ input }) => ({
    mediaId: input.mediaId,
    current: { title: input.title, description: input.description, visibility: input.visibility },
    request: null,
    error: null,
  }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'share.submit': { target: 'saving', actions: { type: 'storeRequest', params: ({ event }) => ({ values: event.values }) } },
      },
    },
    saving: {
      invoke: {
        src: 'saveShare',
        input: ({ context }) => ({ mediaId: context.mediaId, body: context.request ?? context.current }),
        onDone: { target: 'saved', actions: { type: 'storeSaved', params: ({ event }) => ({ media: event.output }) } },
        onError: { target: 'failed', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    saved: {
      on: { 'share.edit': { target: 'editing', actions: 'clearError' } },
    },
    failed: {
      on: {
        'share.submit': { target: 'saving', actions: { type: 'storeRequest', params: ({ event }) => ({ values: event.values }) } },
        'share.edit': { target: 'editing', actions: 'clearError' },
      },
    },
  },
});
