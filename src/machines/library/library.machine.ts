import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { MediaKind } from '@/config/enums';
import { LIBRARY_PAGE_SIZE, LIBRARY_SEEK_PAGES_MAX } from '@/config/library';
import { errorMessageOf } from '@/services/api-error';
import { searchLibrary } from '@/services/library';
import type { LibrarySearch } from '@/services/library';
import type { LibraryItem } from '@/services/schemas/library';
import { libraryFoldersMachine, type LibraryFoldersReport } from '@/machines/library/library-folders.machine';
import {
  firstPageChange,
  initialFocus,
  nextPageChange,
  seekFurther,
  seekPageChange,
  stopSeeking,
  type ListFocus,
  type PageAnswer as PagedAnswer,
} from '@/machines/paged-list';

// Screens may not import services; they get these from here.
export type { LibraryItem } from '@/services/schemas/library';

/** How long the prompt search waits after the last keystroke before it asks the server. */
export const LIBRARY_SEARCH_DEBOUNCE_MS = 400;

/** The Library's filters: prompt text ('' for any), kind and folder (null for any). */
export interface LibraryFilters {
  q: string;
  kind: MediaKind | null;
  folderId: string | null;
}

export const EMPTY_LIBRARY_FILTERS: LibraryFilters = { q: '', kind: null, folderId: null };

/** The search GET library is asked: only the filters that are set. */
export function librarySearchOf(filters: LibraryFilters, nextStartKeys: string | null = null): LibrarySearch {
  const search: LibrarySearch = { limit: LIBRARY_PAGE_SIZE };
  const q = filters.q.trim();
  if (q) search.q = q;
  if (filters.kind) search.kind = filters.kind;
  if (filters.folderId) search.folderId = filters.folderId;
  if (nextStartKeys) search.nextStartKeys = nextStartKeys;
  return search;
}

export interface LibraryInput {
  /** `/library?item={id}`: the result to find (reading on page after page) and highlight. */
  focusId?: string | null;
  /** Folders are offered (not to the shared guest account). */
  folders: boolean;
}

export interface LibraryContext {
  filters: LibraryFilters;
  /** The filters the results shown were found with (the prompt once typing paused). */
  applied: LibraryFilters;
  items: LibraryItem[];
  nextStartKeys: string | null;
  error: string | null;
  foldersOffered: boolean;
  /** The result asked for by `?item=` (shown highlighted once found). */
  focus: ListFocus;
}

export type LibraryEvent =
  | { type: 'library.type'; q: string }
  | { type: 'library.kind'; kind: MediaKind | null }
  | { type: 'library.folder'; folderId: string | null }
  | { type: 'library.clear' }
  | { type: 'library.loadMore' }
  | { type: 'library.retry' }
  | { type: 'library.dismissFocus' }
  | LibraryFoldersReport;

type PageAnswer = PagedAnswer<LibraryItem>;

/**
 * The Library page (issue 21 item 7): the person's finished results from the server, newest first.
 * - list: loading → ready | empty | failed; ready ⇄ loadingMore (next_start_keys, appended); a
 *   kind or folder change loads the first page at once, typed prompt text after
 *   LIBRARY_SEARCH_DEBOUNCE_MS (`debouncing`). With `?item=`, `seeking` reads the next pages until
 *   that result is listed (at most LIBRARY_SEEK_PAGES_MAX pages). Leaving a state stops its call.
 * - folders: the libraryFolders child (not for the guest), whose reports keep each result's
 *   folders current; a result taken out of the folder being viewed leaves the list, and the
 *   deleted folder being viewed gives way to all results.
 */
export const libraryMachine = setup({
  types: {
    context: {} as LibraryContext,
    events: {} as LibraryEvent,
    input: {} as LibraryInput,
  },
  actors: {
    loadPage: fromPromise<PageAnswer, { search: LibrarySearch }>(({ input, signal }) => searchLibrary(input.search, { signal })),
    libraryFolders: libraryFoldersMachine,
  },
  delays: { searchDelay: LIBRARY_SEARCH_DEBOUNCE_MS },
  guards: {
    hasMore: ({ context }) => context.nextStartKeys !== null,
    foldersOffered: ({ context }) => context.foldersOffered,
    /** The focus is not on this page, another page follows, and fewer than the most pages were read. */
    seekFurther: ({ context }, params: { page: PageAnswer }) => seekFurther(context.focus, params.page, LIBRARY_SEEK_PAGES_MAX),
    pageIsEmpty: (_, params: { page: PageAnswer }) => params.page.items.length === 0,
    viewingDeletedFolder: ({ context, event }) => event.type === 'library.folderDeleted' && context.applied.folderId === event.folderId,
  },
  actions: {
    setKind: assign(({ context, event }) => {
      assertEvent(event, 'library.kind');
      const filters = { ...context.filters, kind: event.kind };
      return { filters, applied: filters, focus: stopSeeking(context.focus) };
    }),
    setFolder: assign(({ context, event }) => {
      assertEvent(event, 'library.folder');
      const filters = { ...context.filters, folderId: event.folderId };
      return { filters, applied: filters, focus: stopSeeking(context.focus) };
    }),
    typeQuery: assign(({ context, event }) => {
      assertEvent(event, 'library.type');
      return { filters: { ...context.filters, q: event.q }, focus: stopSeeking(context.focus) };
    }),
    applyQuery: assign(({ context }) => ({ applied: context.filters })),
    clearSearch: assign(({ context }) => {
      const filters = { ...EMPTY_LIBRARY_FILTERS, folderId: context.filters.folderId };
      return { filters, applied: filters, focus: stopSeeking(context.focus) };
    }),
    leaveDeletedFolder: assign(({ context }) => {
      const filters = { ...context.filters, folderId: null };
      return { filters, applied: filters };
    }),
    storeFirstPage: assign(({ context }, params: { page: PageAnswer }) => firstPageChange(context, params.page)),
    appendPage: assign(({ context }, params: { page: PageAnswer }) => nextPageChange(context, params.page)),
    appendSeekPage: assign(({ context }, params: { page: PageAnswer }) => seekPageChange(context, params.page)),
    setError: assign(({ context }, params: { error: unknown }) => ({ error: errorMessageOf(params.error), focus: stopSeeking(context.focus) })),
    clearError: assign({ error: null }),
    dismissFocus: assign(({ context }) => ({ focus: { ...context.focus, state: 'none' as const } })),
    /** A result's folders now; taken out of the folder being viewed, it leaves the list. */
    applyMembership: assign(({ context, event }) => {
      assertEvent(event, 'library.membership');
      const leaves = context.applied.folderId === event.folderId && !event.folderIds.includes(event.folderId);
      const items = context.items
        .filter((item) => !(leaves && item.id === event.mediaId))
        .map((item) => (item.id === event.mediaId ? { ...item, folder_ids: event.folderIds } : item));
      return { items };
    }),
    forgetFolder: assign(({ context, event }) => {
      assertEvent(event, 'library.folderDeleted');
      return { items: context.items.map((item) => ({ ...item, folder_ids: item.folder_ids.filter((id) => id !== event.folderId) })) };
    }),
  },
}).createMachine({
  id: 'library',
  context: ({ input }) => ({
    filters: EMPTY_LIBRARY_FILTERS,
    applied: EMPTY_LIBRARY_FILTERS,
    items: [],
    nextStartKeys: null,
    error: null,
    foldersOffered: input.folders,
    focus: initialFocus(input.focusId),
  }),
  type: 'parallel',
  states: {
    list: {
      initial: 'loading',
      on: {
        'library.kind': { target: '.loading', actions: 'setKind' },
        'library.folder': { guard: 'foldersOffered', target: '.loading', actions: 'setFolder' },
        'library.clear': { target: '.loading', actions: 'clearSearch' },
        'library.type': { target: '.debouncing', actions: 'typeQuery' },
        'library.dismissFocus': { actions: 'dismissFocus' },
        'library.membership': { actions: 'applyMembership' },
        'library.folderDeleted': [
          { guard: 'viewingDeletedFolder', target: '.loading', actions: ['forgetFolder', 'leaveDeletedFolder'] },
          { actions: 'forgetFolder' },
        ],
      },
      states: {
        loading: {
          invoke: {
            src: 'loadPage',
            input: ({ context }) => ({ search: librarySearchOf(context.applied) }),
            onDone: [
              {
                guard: { type: 'seekFurther', params: ({ event }) => ({ page: event.output }) },
                target: 'seeking',
                actions: { type: 'appendSeekPage', params: ({ event }) => ({ page: event.output }) },
              },
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
        /** `?item=` not found yet: the next page is read too, and added to the list. */
        seeking: {
          invoke: {
            src: 'loadPage',
            input: ({ context }) => ({ search: librarySearchOf(context.applied, context.nextStartKeys) }),
            onDone: [
              {
                guard: { type: 'seekFurther', params: ({ event }) => ({ page: event.output }) },
                target: 'seeking',
                reenter: true,
                actions: { type: 'appendSeekPage', params: ({ event }) => ({ page: event.output }) },
              },
              { target: 'ready', actions: { type: 'appendPage', params: ({ event }) => ({ page: event.output }) } },
            ],
            // The pages read stay; the error shows beside "Load more".
            onError: { target: 'ready', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        ready: {
          on: { 'library.loadMore': { guard: 'hasMore', target: 'loadingMore', actions: 'clearError' } },
        },
        empty: {},
        loadingMore: {
          invoke: {
            src: 'loadPage',
            input: ({ context }) => ({ search: librarySearchOf(context.applied, context.nextStartKeys) }),
            onDone: { target: 'ready', actions: { type: 'appendPage', params: ({ event }) => ({ page: event.output }) } },
            onError: { target: 'ready', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        failed: { on: { 'library.retry': { target: 'loading', actions: 'clearError' } } },
        debouncing: { after: { searchDelay: { target: 'loading', actions: 'applyQuery' } } },
      },
    },
    folders: {
      initial: 'deciding',
      states: {
        deciding: { always: [{ guard: 'foldersOffered', target: 'offered' }, { target: 'notOffered' }] },
        offered: { invoke: { id: 'folders', src: 'libraryFolders' } },
        /** The shared guest account: no folders. */
        notOffered: {},
      },
    },
  },
});
