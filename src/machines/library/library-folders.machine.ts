import { assertEvent, assign, enqueueActions, fromPromise, setup } from 'xstate';
import { errorMessageOf } from '@/services/api-error';
import { addToFolder, createFolder, deleteFolder, listFolders, removeFromFolder, renameFolder } from '@/services/library';
import type { LibraryFolder, LibraryMembership } from '@/services/schemas/library';

export type { LibraryFolder } from '@/services/schemas/library';

/** The folder dialog open now: a new folder's name, a folder's new name, or a folder's deletion. */
export type FolderDialog = { type: 'create' } | { type: 'rename'; folderId: string } | { type: 'delete'; folderId: string };

export interface LibraryFoldersContext {
  folders: LibraryFolder[];
  /** Why the folders could not be loaded; null otherwise. */
  loadError: string | null;
  dialog: FolderDialog | null;
  /** The call running or last made, and the server's message when it failed. */
  pending: { folderId: string | null; mediaId: string | null; name: string | null };
  error: string | null;
}

export type LibraryFoldersEvent =
  | { type: 'folders.retry' }
  | { type: 'folders.openCreate' }
  | { type: 'folders.openRename'; folderId: string }
  | { type: 'folders.openDelete'; folderId: string }
  | { type: 'folders.closeDialog' }
  | { type: 'folders.create'; name: string }
  | { type: 'folders.rename'; folderId: string; name: string }
  | { type: 'folders.delete'; folderId: string }
  | { type: 'folders.add'; folderId: string; mediaId: string }
  | { type: 'folders.remove'; folderId: string; mediaId: string }
  | { type: 'folders.dismissError' };

/** What the Library machine (the parent) is told, so its results show their folders as they are now. */
export type LibraryFoldersReport =
  | { type: 'library.membership'; mediaId: string; folderId: string; folderIds: string[] }
  | { type: 'library.folderDeleted'; folderId: string };

/** Folders by name, any case, as the server lists them. */
const byName = (folders: LibraryFolder[]): LibraryFolder[] =>
  [...folders].sort((left, right) => left.name.localeCompare(right.name, undefined, { sensitivity: 'base' }) || left.created_at.localeCompare(right.created_at));

const replaced = (folders: LibraryFolder[], folder: LibraryFolder): LibraryFolder[] =>
  byName(folders.some((known) => known.id === folder.id) ? folders.map((known) => (known.id === folder.id ? folder : known)) : [...folders, folder]);

interface NameInput {
  folderId: string | null;
  name: string;
}
interface ItemInput {
  folderId: string;
  mediaId: string;
}

/**
 * The Library's folders (issue 21 item 7), a child of the Library machine: the list (loading →
 * ready | failed), one call at a time (create, rename, delete, add a result, take it out), and the
 * dialog a create, rename or delete is typed in, closed by the call's success and kept open with
 * the server's message on failure. A membership change and a deleted folder are reported to the
 * parent, whose results carry their folders.
 */
export const libraryFoldersMachine = setup({
  types: {
    context: {} as LibraryFoldersContext,
    events: {} as LibraryFoldersEvent,
  },
  actors: {
    listFolders: fromPromise<LibraryFolder[]>(({ signal }) => listFolders({ signal })),
    createFolder: fromPromise<LibraryFolder, NameInput>(({ input, signal }) => createFolder(input.name, { signal })),
    renameFolder: fromPromise<LibraryFolder, NameInput>(({ input, signal }) => renameFolder(input.folderId ?? '', input.name, { signal })),
    deleteFolder: fromPromise<void, { folderId: string }>(({ input, signal }) => deleteFolder(input.folderId, { signal })),
    addToFolder: fromPromise<LibraryMembership, ItemInput>(({ input, signal }) => addToFolder(input.folderId, input.mediaId, { signal })),
    removeFromFolder: fromPromise<LibraryMembership, ItemInput>(({ input, signal }) => removeFromFolder(input.folderId, input.mediaId, { signal })),
  },
  actions: {
    storeFolders: assign((_, params: { folders: LibraryFolder[] }) => ({ folders: byName(params.folders), loadError: null })),
    setLoadError: assign((_, params: { error: unknown }) => ({ loadError: errorMessageOf(params.error) })),
    openDialog: assign(({ event }) => {
      assertEvent(event, ['folders.openCreate', 'folders.openRename', 'folders.openDelete']);
      const dialog: FolderDialog =
        event.type === 'folders.openCreate' ? { type: 'create' } : { type: event.type === 'folders.openRename' ? 'rename' : 'delete', folderId: event.folderId };
      return { dialog, error: null };
    }),
    closeDialog: assign({ dialog: null, error: null }),
    startCall: assign(({ event }) => {
      assertEvent(event, ['folders.create', 'folders.rename', 'folders.delete', 'folders.add', 'folders.remove']);
      return {
        pending: {
          folderId: 'folderId' in event ? event.folderId : null,
          mediaId: 'mediaId' in event ? event.mediaId : null,
          name: 'name' in event ? event.name : null,
        },
        error: null,
      };
    }),
    keepFolder: assign(({ context }, params: { folder: LibraryFolder }) => ({ folders: replaced(context.folders, params.folder), dialog: null })),
    dropFolder: enqueueActions(({ context, enqueue }) => {
      const folderId = context.pending.folderId ?? '';
      enqueue.assign({ folders: context.folders.filter((folder) => folder.id !== folderId), dialog: null });
      enqueue.sendParent({ type: 'library.folderDeleted', folderId } satisfies LibraryFoldersReport);
    }),
    reportMembership: enqueueActions(({ context, enqueue }, params: { membership: LibraryMembership }) => {
      const { membership } = params;
      enqueue.assign({ folders: replaced(context.folders, membership.folder) });
      enqueue.sendParent({
        type: 'library.membership',
        mediaId: membership.media_id,
        folderId: membership.folder.id,
        folderIds: membership.folder_ids,
      } satisfies LibraryFoldersReport);
    }),
    setError: assign((_, params: { error: unknown }) => ({ error: errorMessageOf(params.error) })),
    dismissError: assign({ error: null }),
  },
}).createMachine({
  id: 'libraryFolders',
  context: {
    folders: [],
    loadError: null,
    dialog: null,
    pending: { folderId: null, mediaId: null, name: null },
    error: null,
  },
  type: 'parallel',
  states: {
    list: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            src: 'listFolders',
            onDone: { target: 'ready', actions: { type: 'storeFolders', params: ({ event }) => ({ folders: event.output }) } },
            onError: { target: 'failed', actions: { type: 'setLoadError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        ready: {},
        failed: { on: { 'folders.retry': 'loading' } },
      },
    },
    call: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'folders.openCreate': { actions: 'openDialog' },
            'folders.openRename': { actions: 'openDialog' },
            'folders.openDelete': { actions: 'openDialog' },
            'folders.closeDialog': { actions: 'closeDialog' },
            'folders.dismissError': { actions: 'dismissError' },
            'folders.create': { target: 'creating', actions: 'startCall' },
            'folders.rename': { target: 'renaming', actions: 'startCall' },
            'folders.delete': { target: 'deleting', actions: 'startCall' },
            'folders.add': { target: 'adding', actions: 'startCall' },
            'folders.remove': { target: 'removing', actions: 'startCall' },
          },
        },
        creating: {
          invoke: {
            src: 'createFolder',
            input: ({ context }) => ({ folderId: null, name: context.pending.name ?? '' }),
            onDone: { target: 'idle', actions: { type: 'keepFolder', params: ({ event }) => ({ folder: event.output }) } },
            onError: { target: 'idle', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        renaming: {
          invoke: {
            src: 'renameFolder',
            input: ({ context }) => ({ folderId: context.pending.folderId, name: context.pending.name ?? '' }),
            onDone: { target: 'idle', actions: { type: 'keepFolder', params: ({ event }) => ({ folder: event.output }) } },
            onError: { target: 'idle', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        deleting: {
          invoke: {
            src: 'deleteFolder',
            input: ({ context }) => ({ folderId: context.pending.folderId ?? '' }),
            onDone: { target: 'idle', actions: 'dropFolder' },
            onError: { target: 'idle', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        adding: {
          invoke: {
            src: 'addToFolder',
            input: ({ context }) => ({ folderId: context.pending.folderId ?? '', mediaId: context.pending.mediaId ?? '' }),
            onDone: { target: 'idle', actions: { type: 'reportMembership', params: ({ event }) => ({ membership: event.output }) } },
            onError: { target: 'idle', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        removing: {
          invoke: {
            src: 'removeFromFolder',
            input: ({ context }) => ({ folderId: context.pending.folderId ?? '', mediaId: context.pending.mediaId ?? '' }),
            onDone: { target: 'idle', actions: { type: 'reportMembership', params: ({ event }) => ({ membership: event.output }) } },
            onError: { target: 'idle', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
      },
    },
  },
});
