import { assign, fromPromise, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { errorMessageOf } from '@/services/api-error';
import { deleteStory, listStories } from '@/services/story';
import type { StorySummary } from '@/services/schemas/story';

export type { StorySummary } from '@/services/schemas/story';

export interface StoriesContext {
  /** The person's stories, newest first; empty until loaded (and after a failed load). */
  stories: StorySummary[];
  /** Stories being deleted now. */
  deleting: string[];
  /** Why the last load or delete failed; null otherwise. */
  error: string | null;
}

export type StoriesEvent =
  | { type: 'stories.refresh' }
  | { type: 'stories.delete'; id: string }
  /** The answers of the delete calls (one spawned actor per story, `delete:<id>`). */
  | { type: `xstate.done.actor.delete:${string}`; output: { id: string; deleted: true }; actorId: string }
  | { type: `xstate.error.actor.delete:${string}`; error: unknown; actorId: string };

const DELETE_PREFIX = 'delete:';
const deletedIdOf = (event: { actorId?: string }): string => (event.actorId ?? '').slice(DELETE_PREFIX.length);

/**
 * "Your stories" (issue 6): the list (GET story: loading → ready | failed) and, beside it, deletes
 * (DELETE story/{id}), each its own spawned call so several can run; a deleted story leaves the list.
 */
export const storiesMachine = setup({
  types: {
    context: {} as StoriesContext,
    events: {} as StoriesEvent,
  },
  actors: {
    loadStories: fromPromise<StorySummary[]>(({ signal }) => listStories({ signal })),
    deleteStory: fromPromise<{ id: string; deleted: true }, { id: string }>(({ input, signal }) => deleteStory(input.id, { signal })),
  },
  guards: {
    notDeleting: ({ context, event }) => event.type === 'stories.delete' && !context.deleting.includes(event.id),
    isDeleteAnswer: ({ event }) => event.type.startsWith(`xstate.done.actor.${DELETE_PREFIX}`),
    isDeleteFailure: ({ event }) => event.type.startsWith(`xstate.error.actor.${DELETE_PREFIX}`),
  },
  actions: {
    storeStories: assign((_, params: { stories: StorySummary[] }) => ({ stories: params.stories, error: null })),
    setError: assign((_, params: { message: string }) => ({ error: params.message })),
    startDelete: assign(({ context, event, spawn }) => {
      if (event.type !== 'stories.delete') return {};
      spawn('deleteStory', { id: `${DELETE_PREFIX}${event.id}`, input: { id: event.id } });
      return { deleting: [...context.deleting, event.id], error: null };
    }),
    removeStory: assign(({ context }, params: { id: string }) => ({
      stories: context.stories.filter((story) => story.id !== params.id),
      deleting: context.deleting.filter((id) => id !== params.id),
    })),
    deleteFailed: assign(({ context }, params: { id: string; message: string }) => ({
      deleting: context.deleting.filter((id) => id !== params.id),
      error: params.message,
    })),
  },
}).createMachine({
  id: 'stories',
  context: { stories: [], deleting: [], error: null },
  initial: 'loading',
  on: {
    'stories.delete': { guard: 'notDeleting', actions: 'startDelete' },
    'xstate.done.actor.*': {
      guard: 'isDeleteAnswer',
      actions: { type: 'removeStory', params: ({ event }) => ({ id: deletedIdOf(event as { actorId?: string }) }) },
    },
    'xstate.error.actor.*': {
      guard: 'isDeleteFailure',
      actions: {
        type: 'deleteFailed',
        params: ({ event }) => ({
          id: deletedIdOf(event as { actorId?: string }),
          message: errorMessageOf((event as { error?: unknown }).error),
        }),
      },
    },
  },
  states: {
    loading: {
      invoke: {
        src: 'loadStories',
        onDone: { target: 'ready', actions: { type: 'storeStories', params: ({ event }) => ({ stories: event.output }) } },
        onError: { target: 'failed', actions: { type: 'setError', params: ({ event }) => ({ message: errorMessageOf(event.error) }) } },
      },
      // A newer request replaces the running one, so an older answer never lands.
      on: { 'stories.refresh': { target: 'loading', reenter: true } },
    },
    ready: { on: { 'stories.refresh': 'loading' } },
    failed: { on: { 'stories.refresh': 'loading' } },
  },
});

export type StoriesSnapshot = SnapshotFrom<typeof storiesMachine>;
