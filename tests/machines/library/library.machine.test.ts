import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { LIBRARY_PAGE_SIZE, LIBRARY_SEEK_PAGES_MAX } from '@/config/library';
import { ApiError } from '@/services/api-error';
import type { LibrarySearch } from '@/services/library';
import type { LibraryFolder, LibraryItem, LibraryMembership } from '@/services/schemas/library';
import { LIBRARY_SEARCH_DEBOUNCE_MS, libraryMachine } from '@/machines/library/library.machine';
import { libraryFoldersMachine } from '@/machines/library/library-folders.machine';
import {
  selectCanChangeFolders,
  selectFocusedId,
  selectFocusMissing,
  selectFolderDialog,
  selectFolderError,
  selectFolders,
  selectFoldersRef,
  selectLibraryError,
  selectLibraryHasMore,
  selectLibraryItems,
  selectLibraryStatus,
  type LibraryFoldersRef,
} from '@/machines/library/library.selectors';
import { buildFinishedMedia } from '../../services/media.fixtures';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const flush = () => vi.advanceTimersByTimeAsync(0);

interface Page {
  items: LibraryItem[];
  nextStartKeys: string | null;
}

const item = (id: string, folderIds: string[] = []): LibraryItem => ({ ...buildFinishedMedia({ id }), folder_ids: folderIds });
const page = (ids: string[], nextStartKeys: string | null = null): Page => ({ items: ids.map((id) => item(id)), nextStartKeys });
const folder = (id: string, name: string, count = 0): LibraryFolder => ({
  id,
  name,
  item_count: count,
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
});

interface FolderCalls {
  list?: () => Promise<LibraryFolder[]>;
  create?: (name: string) => Promise<LibraryFolder>;
  rename?: (id: string, name: string) => Promise<LibraryFolder>;
  remove?: (id: string) => Promise<void>;
  add?: (folderId: string, mediaId: string) => Promise<LibraryMembership>;
  takeOut?: (folderId: string, mediaId: string) => Promise<LibraryMembership>;
}

const refused = (message: string, status = 409) => Promise.reject(new ApiError(message, { kind: 'http', status }));

/** The Library machine with its calls answered by `load` and `calls`. */
function startLibrary(load: (search: LibrarySearch) => Promise<Page>, options: { focusId?: string; folders?: boolean; calls?: FolderCalls } = {}) {
  const searches: LibrarySearch[] = [];
  const calls = options.calls ?? {};
  const folders = libraryFoldersMachine.provide({
    actors: {
      listFolders: fromPromise(() => (calls.list ?? (async () => []))()),
      createFolder: fromPromise<LibraryFolder, { folderId: string | null; name: string }>(({ input }) =>
        (calls.create ?? (async (name) => folder('new', name)))(input.name),
      ),
      renameFolder: fromPromise<LibraryFolder, { folderId: string | null; name: string }>(({ input }) =>
        (calls.rename ?? (async (id, name) => folder(id, name)))(input.folderId ?? '', input.name),
      ),
      deleteFolder: fromPromise<void, { folderId: string }>(({ input }) => (calls.remove ?? (async () => undefined))(input.folderId)),
      addToFolder: fromPromise<LibraryMembership, { folderId: string; mediaId: string }>(({ input }) =>
        (calls.add ?? (async (folderId, mediaId) => ({ media_id: mediaId, folder_ids: [folderId], folder: folder(folderId, 'F', 1) })))(
          input.folderId,
          input.mediaId,
        ),
      ),
      removeFromFolder: fromPromise<LibraryMembership, { folderId: string; mediaId: string }>(({ input }) =>
        (calls.takeOut ?? (async (folderId, mediaId) => ({ media_id: mediaId, folder_ids: [], folder: folder(folderId, 'F', 0) })))(
          input.folderId,
          input.mediaId,
        ),
      ),
    },
  });
  const machine = libraryMachine.provide({
    actors: {
      loadPage: fromPromise<Page, { search: LibrarySearch }>(({ input }) => {
        searches.push(input.search);
        return load(input.search);
      }),
      libraryFolders: folders,
    },
  });
  const actor = createActor(machine, { input: { focusId: options.focusId ?? null, folders: options.folders ?? true } });
  actor.start();
  return { actor, searches };
}

type Library = ReturnType<typeof startLibrary>['actor'];
const ids = (actor: Library) => selectLibraryItems(actor.getSnapshot()).map((entry) => entry.id);
const status = (actor: Library) => selectLibraryStatus(actor.getSnapshot());
const foldersOf = (actor: Library): LibraryFoldersRef => {
  const ref = selectFoldersRef(actor.getSnapshot());
  if (!ref) throw new Error('no folders child');
  return ref;
};

describe('the Library machine', () => {
  it('loads the newest results, then the next pages by next_start_keys, until the last', async () => {
    const { actor, searches } = startLibrary(async (search) => (search.nextStartKeys === 'k1' ? page(['c']) : page(['a', 'b'], 'k1')));
    expect(status(actor)).toBe('loading');
    await flush();
    expect(status(actor)).toBe('ready');
    expect(ids(actor)).toEqual(['a', 'b']);
    expect(searches[0]).toEqual({ limit: LIBRARY_PAGE_SIZE });
    expect(selectLibraryHasMore(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'library.loadMore' });
    await flush();
    expect(ids(actor)).toEqual(['a', 'b', 'c']);
    expect(searches[1]).toEqual({ limit: LIBRARY_PAGE_SIZE, nextStartKeys: 'k1' });
    expect(selectLibraryHasMore(actor.getSnapshot())).toBe(false);
  });

  it('searches the prompt once typing pauses, filters by kind and folder, and names each empty state', async () => {
    const { actor, searches } = startLibrary(async () => page([]));
    await flush();
    expect(status(actor)).toBe('empty');
    actor.send({ type: 'library.type', q: 'fo' });
    await vi.advanceTimersByTimeAsync(LIBRARY_SEARCH_DEBOUNCE_MS - 100);
    actor.send({ type: 'library.type', q: 'fox ' });
    await vi.advanceTimersByTimeAsync(LIBRARY_SEARCH_DEBOUNCE_MS - 1);
    expect(searches).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await flush();
    expect(searches.at(-1)).toEqual({ limit: LIBRARY_PAGE_SIZE, q: 'fox' });
    expect(status(actor)).toBe('empty-filtered');
    actor.send({ type: 'library.kind', kind: 'video' });
    await flush();
    expect(searches.at(-1)).toEqual({ limit: LIBRARY_PAGE_SIZE, q: 'fox', kind: 'video' });
    actor.send({ type: 'library.clear' });
    actor.send({ type: 'library.folder', folderId: 'f1' });
    await flush();
    expect(searches.at(-1)).toEqual({ limit: LIBRARY_PAGE_SIZE, folderId: 'f1' });
    expect(status(actor)).toBe('empty-folder');
  });

  it('a failed first page shows the server’s message and tries again; a failed next page keeps the results', async () => {
    let fail = true;
    const { actor } = startLibrary(async (search) => {
      if (fail) throw new ApiError('The server is busy.', { kind: 'http', status: 503 });
      return search.nextStartKeys ? page(['c']) : page(['a'], 'k1');
    });
    await flush();
    expect(status(actor)).toBe('failed');
    expect(selectLibraryError(actor.getSnapshot())).toBe('The server is busy.');
    fail = false;
    actor.send({ type: 'library.retry' });
    await flush();
    expect(ids(actor)).toEqual(['a']);
    fail = true;
    actor.send({ type: 'library.loadMore' });
    await flush();
    expect(ids(actor)).toEqual(['a']);
    expect(selectLibraryError(actor.getSnapshot())).toBe('The server is busy.');
    expect(selectLibraryHasMore(actor.getSnapshot())).toBe(true);
  });

  it('?item= reads on page after page until that result is listed, then highlights it', async () => {
    const pages: Record<string, Page> = { first: page(['a', 'b'], 'k1'), k1: page(['c', 'd'], 'k2'), k2: page(['e', 'f'], 'k3') };
    const { actor, searches } = startLibrary(async (search) => pages[search.nextStartKeys ?? 'first'] ?? page([]), { focusId: 'e' });
    await flush();
    expect(searches.map((search) => search.nextStartKeys ?? 'first')).toEqual(['first', 'k1', 'k2']);
    expect(status(actor)).toBe('ready');
    expect(ids(actor)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(selectFocusedId(actor.getSnapshot())).toBe('e');
    expect(selectLibraryHasMore(actor.getSnapshot())).toBe(true);
  });

  it('?item= of a result that is not there says so after the last page, and gives up after the most pages', async () => {
    const { actor } = startLibrary(async (search) => (search.nextStartKeys ? page(['b']) : page(['a'], 'k1')), { focusId: 'gone' });
    await flush();
    expect(selectFocusMissing(actor.getSnapshot())).toBe(true);
    expect(selectFocusedId(actor.getSnapshot())).toBeNull();
    actor.send({ type: 'library.dismissFocus' });
    expect(selectFocusMissing(actor.getSnapshot())).toBe(false);

    let n = 0;
    const endless = startLibrary(async () => page([`p${(n += 1)}`], `k${n}`), { focusId: 'never' });
    await flush();
    expect(n).toBe(LIBRARY_SEEK_PAGES_MAX);
    expect(selectFocusMissing(endless.actor.getSnapshot())).toBe(true);
    expect(status(endless.actor)).toBe('ready');
  });

  it('keeps one folders child whatever the filters do (a new search does not reload the folders)', async () => {
    let lists = 0;
    const { actor } = startLibrary(async () => page(['a']), { calls: { list: async () => [folder('f' + (lists += 1), 'Best')] } });
    await flush();
    const folders = foldersOf(actor);
    actor.send({ type: 'library.kind', kind: 'image' });
    actor.send({ type: 'library.type', q: 'x' });
    await vi.advanceTimersByTimeAsync(LIBRARY_SEARCH_DEBOUNCE_MS);
    actor.send({ type: 'library.folder', folderId: 'f1' });
    await flush();
    expect(foldersOf(actor)).toBe(folders);
    expect(lists).toBe(1);
  });

  it('offers no folders to the shared guest account', async () => {
    const { actor, searches } = startLibrary(async () => page(['a']), { folders: false });
    await flush();
    expect(selectFoldersRef(actor.getSnapshot())).toBeNull();
    actor.send({ type: 'library.folder', folderId: 'f1' });
    await flush();
    expect(searches).toHaveLength(1);
  });
});

describe('the Library’s folders', () => {
  it('lists, creates (the dialog closes), and keeps a failed create’s dialog open with the server’s message', async () => {
    let taken = false;
    const { actor } = startLibrary(async () => page(['a']), {
      calls: {
        list: async () => [folder('f2', 'zebra'), folder('f1', 'Apples')],
        create: (name) => (taken ? refused('You already have a folder with that name.') : Promise.resolve(folder('f3', name))),
      },
    });
    await flush();
    const folders = foldersOf(actor);
    expect(selectFolders(folders.getSnapshot()).map((entry) => entry.name)).toEqual(['Apples', 'zebra']);
    folders.send({ type: 'folders.openCreate' });
    expect(selectFolderDialog(folders.getSnapshot())).toEqual({ type: 'create' });
    folders.send({ type: 'folders.create', name: 'Mangoes' });
    expect(selectCanChangeFolders(folders.getSnapshot())).toBe(false);
    await flush();
    expect(selectFolders(folders.getSnapshot()).map((entry) => entry.name)).toEqual(['Apples', 'Mangoes', 'zebra']);
    expect(selectFolderDialog(folders.getSnapshot())).toBeNull();

    taken = true;
    folders.send({ type: 'folders.openCreate' });
    folders.send({ type: 'folders.create', name: 'apples' });
    await flush();
    expect(selectFolderDialog(folders.getSnapshot())).toEqual({ type: 'create' });
    expect(selectFolderError(folders.getSnapshot())).toBe('You already have a folder with that name.');
    folders.send({ type: 'folders.closeDialog' });
    expect(selectFolderError(folders.getSnapshot())).toBeNull();
  });

  it('an added result shows its folders; taken out of the folder viewed, it leaves the list', async () => {
    const { actor } = startLibrary(async (search) => (search.folderId ? { items: [item('a', ['f1']), item('b', ['f1'])], nextStartKeys: null } : page(['a', 'b'])), {
      calls: {
        list: async () => [folder('f1', 'Best')],
        add: async (folderId, mediaId) => ({ media_id: mediaId, folder_ids: [folderId], folder: folder(folderId, 'Best', 1) }),
      },
    });
    await flush();
    const folders = foldersOf(actor);
    folders.send({ type: 'folders.add', folderId: 'f1', mediaId: 'b' });
    await flush();
    expect(selectLibraryItems(actor.getSnapshot()).find((entry) => entry.id === 'b')?.folder_ids).toEqual(['f1']);
    expect(selectFolders(folders.getSnapshot())[0]?.item_count).toBe(1);

    actor.send({ type: 'library.folder', folderId: 'f1' });
    await flush();
    expect(ids(actor)).toEqual(['a', 'b']);
    folders.send({ type: 'folders.remove', folderId: 'f1', mediaId: 'a' });
    await flush();

    expect(ids(actor)).toEqual(['b']);
    folders.send({ type: 'folders.remove', folderId: 'f1', mediaId: 'b' });
    await flush();
    expect(status(actor)).toBe('empty-folder');
  });

  it('renames; deleting the folder viewed goes back to all results, its results keep the others', async () => {
    const { actor, searches } = startLibrary(async (search) => (search.folderId ? { items: [item('a', ['f1', 'f2'])], nextStartKeys: null } : page(['a', 'b'])), {
      calls: { list: async () => [folder('f1', 'Best'), folder('f2', 'Blue')] },
    });
    await flush();
    const folders = foldersOf(actor);
    folders.send({ type: 'folders.openRename', folderId: 'f1' });
    folders.send({ type: 'folders.rename', folderId: 'f1', name: 'Zest' });
    await flush();
    expect(selectFolders(folders.getSnapshot()).map((entry) => entry.name)).toEqual(['Blue', 'Zest']);
    expect(selectFolderDialog(folders.getSnapshot())).toBeNull();

    actor.send({ type: 'library.folder', folderId: 'f1' });
    await flush();
    folders.send({ type: 'folders.openDelete', folderId: 'f1' });
    folders.send({ type: 'folders.delete', folderId: 'f1' });
    await flush();
    expect(selectFolders(folders.getSnapshot()).map((entry) => entry.id)).toEqual(['f2']);
    expect(searches.at(-1)).toEqual({ limit: LIBRARY_PAGE_SIZE });
    expect(actor.getSnapshot().context.filters.folderId).toBeNull();
    expect(ids(actor)).toEqual(['a', 'b']);
  });

  it('a failed add shows the server’s message and changes nothing; a failed folder list can be tried again', async () => {
    let listFails = true;
    const { actor } = startLibrary(async () => page(['a']), {
      calls: {
        list: () => (listFails ? refused('The server is busy.', 503) : Promise.resolve([folder('f1', 'Best')])),
        add: () => refused('Only finished results can be put in a folder.'),
      },
    });
    await flush();
    const folders = foldersOf(actor);
    expect(folders.getSnapshot().matches({ list: 'failed' })).toBe(true);
    listFails = false;
    folders.send({ type: 'folders.retry' });
    await flush();
    expect(selectFolders(folders.getSnapshot())).toHaveLength(1);
    folders.send({ type: 'folders.add', folderId: 'f1', mediaId: 'a' });
    await flush();
    expect(selectFolderError(folders.getSnapshot())).toBe('Only finished results can be put in a folder.');
    expect(selectLibraryItems(actor.getSnapshot())[0]?.folder_ids).toEqual([]);
  });
});
