import { assign, fromPromise, setup } from 'xstate';
import { errorMessageOf, isApiError } from '@/services/api-error';
import { getLatestContents, getUserContents } from '@/services/content';
import { getUser } from '@/services/users';
import type { ContentPage, PublicContent } from '@/services/schemas/content';
import type { PublicUser } from '@/services/schemas/users';
import { appendNew } from '@/machines/paged-list';

export type { PublicContent } from '@/services/schemas/content';
export type { PublicUser } from '@/services/schemas/users';

/** How long the search waits after the last keystroke before it asks the server. */
export const CONTENT_SEARCH_DEBOUNCE_MS = 300;

export interface ContentsInput {
  /** A profile's handle (its owner is looked up first), or null for everyone's Latest listing. */
  handle: string | null;
}

export interface ContentsContext {
  handle: string | null;
  /** The profile's person once found; null for Latest and before the look-up. */
  owner: PublicUser | null;
  /** What the search box holds now. */
  typedKeyword: string;
  /** The keyword the items shown were searched with (trimmed). */
  keyword: string;
  items: PublicContent[];
  /** The cursor of the next page; null on the last page. */
  nextStartKeys: string | null;
  /** Why the last call failed; null otherwise. */
  error: string | null;
}

export type ContentsEvent =
  | { type: 'contents.search'; keyword: string }
  | { type: 'contents.loadMore' }
  | { type: 'contents.retry' };

interface PageRequest {
  handle: string | null;
  ownerId: string | null;
  keyword: string;
  nextStartKeys: string | null;
}

/**
 * A listing of shared results: a person's profile (`handle`: GET users/{handle}?type=handle first,
 * then POST users/{id}/contents) or everyone's Latest (POST users/latest-contents).
 * loading → ready | empty | failed; ready ⇄ loadingMore (next_start_keys, appended); a search waits
 * CONTENT_SEARCH_DEBOUNCE_MS after the last keystroke (`debouncing`) and then loads its first page.
 * Leaving a state stops its call, so an older answer never lands over a newer one.
 */
export const contentsMachine = setup({
  types: {
    context: {} as ContentsContext,
    events: {} as ContentsEvent,
    input: {} as ContentsInput,
  },
  actors: {
    loadOwner: fromPromise<PublicUser, { handle: string }>(({ input }) => getUser(input.handle, 'handle')),
    loadPage: fromPromise<ContentPage, PageRequest>(({ input }) => {
      const query = { keyword: input.keyword, next_start_keys: input.nextStartKeys };
      return input.handle === null ? getLatestContents(query) : getUserContents(input.ownerId ?? input.handle, query);
    }),
  },
  delays: {
    searchDelay: CONTENT_SEARCH_DEBOUNCE_MS,
  },
  guards: {
    isProfile: ({ context }) => context.handle !== null,
    isNotFound: (_, params: { error: unknown }) => isApiError(params.error) && params.error.status === 404,
    hasMore: ({ context }) => context.nextStartKeys !== null,
    pageIsEmpty: (_, params: { page: ContentPage }) => params.page.items.length === 0,
    /** A profile takes a search once its owner is known; Latest always. */
    listingStarted: ({ context }) => context.handle === null || context.owner !== null,
  },
  actions: {
    storeOwner: assign((_, params: { owner: PublicUser }) => ({ owner: params.owner, error: null })),
    typeKeyword: assign((_, params: { keyword: string }) => ({ typedKeyword: params.keyword })),
    applyKeyword: assign(({ context }) => ({ keyword: context.typedKeyword.trim() })),
    storeFirstPage: assign((_, params: { page: ContentPage }) => ({
      items: params.page.items,
      nextStartKeys: params.page.next_start_keys,
      error: null,
    })),
    appendPage: assign(({ context }, params: { page: ContentPage }) => ({
      items: appendNew(context.items, params.page.items),
      nextStartKeys: params.page.next_start_keys,
      error: null,
    })),
    setError: assign((_, params: { error: unknown }) => ({ error: errorMessageOf(params.error) })),
    clearError: assign({ error: null }),
  },
}).createMachine({
  id: 'contents',
  context: ({ input }) => ({
    handle: input.handle,
    owner: null,
    typedKeyword: '',
    keyword: '',
    items: [],
    nextStartKeys: null,
    error: null,
  }),
  initial: 'start',
  states: {
    start: {
      always: [{ guard: 'isProfile', target: 'loadingOwner' }, { target: 'loading' }],
    },
    loadingOwner: {
      invoke: {
        src: 'loadOwner',
        input: ({ context }) => ({ handle: context.handle ?? '' }),
        onDone: { target: 'loading', actions: { type: 'storeOwner', params: ({ event }) => ({ owner: event.output }) } },
        onError: [
          { guard: { type: 'isNotFound', params: ({ event }) => ({ error: event.error }) }, target: 'ownerMissing' },
          { target: 'ownerFailed', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
        ],
      },
    },
    /** GET users/{handle} answered 404: there is no such profile. */
    ownerMissing: {},
    ownerFailed: {
      on: { 'contents.retry': { target: 'loadingOwner', actions: 'clearError' } },
    },
    loading: {
      invoke: {
        src: 'loadPage',
        input: ({ context }) => ({
          handle: context.handle,
          ownerId: context.owner?.id ?? null,
          keyword: context.keyword,
          nextStartKeys: null,
        }),
        onDone: [
          {
            guard: { type: 'pageIsEmpty', params: ({ event }) => ({ page: event.output }) },
            target: 'empty',
            actions: { type: 'storeFirstPage', params: ({ event }) => ({ page: event.output }) },
          },
          { target: 'ready', actions: { type: 'storeFirstPage', params: ({ event }) => ({ page: event.output }) } },
        ],
        onError: { target: 'failed', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    ready: {
      on: {
        'contents.loadMore': { guard: 'hasMore', target: 'loadingMore', actions: 'clearError' },
      },
    },
    /** A page came back with nothing: no shared results (or none for the keyword). */
    empty: {},
    loadingMore: {
      invoke: {
        src: 'loadPage',
        input: ({ context }) => ({
          handle: context.handle,
          ownerId: context.owner?.id ?? null,
          keyword: context.keyword,
          nextStartKeys: context.nextStartKeys,
        }),
        onDone: { target: 'ready', actions: { type: 'appendPage', params: ({ event }) => ({ page: event.output }) } },
        // The items shown stay; the error shows beside "Load more", which tries again.
        onError: { target: 'ready', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    failed: {
      on: { 'contents.retry': { target: 'loading', actions: 'clearError' } },
    },
    /** Typing in the search box: the search starts once the typing pauses. */
    debouncing: {
      after: { searchDelay: { target: 'loading', actions: 'applyKeyword' } },
      on: { 'contents.search': { target: 'debouncing', reenter: true, actions: { type: 'typeKeyword', params: ({ event }) => ({ keyword: event.keyword }) } } },
    },
  },
  on: {
    'contents.search': {
      guard: 'listingStarted',
      target: '.debouncing',
      actions: { type: 'typeKeyword', params: ({ event }) => ({ keyword: event.keyword }) },
    },
  },
});
