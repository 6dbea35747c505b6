import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { libraryMachine, LibraryFilters, LibraryItem } from '@/machines/library/library.machine';
import type { FolderDialog, LibraryFolder, libraryFoldersMachine } from '@/machines/library/library-folders.machine';

export type LibrarySnapshot = SnapshotFrom<typeof libraryMachine>;
export type LibraryFoldersRef = ActorRefFrom<typeof libraryFoldersMachine>;
export type LibraryFoldersSnapshot = SnapshotFrom<typeof libraryFoldersMachine>;

/**
 * What the grid shows: loading (also while typed text waits and while `?item=` is looked for), the
 * results, none at all, none in the folder viewed, none matching the search, or a failed first page.
 */
export type LibraryStatus = 'loading' | 'ready' | 'empty' | 'empty-folder' | 'empty-filtered' | 'failed';

const searching = (filters: LibraryFilters): boolean => filters.q.trim() !== '' || filters.kind !== null;

export const selectLibraryStatus = (snapshot: LibrarySnapshot): LibraryStatus => {
  if (snapshot.matches({ list: 'loading' }) || snapshot.matches({ list: 'debouncing' }) || snapshot.matches({ list: 'seeking' })) return 'loading';
  if (snapshot.matches({ list: 'failed' })) return 'failed';
  // A folder's last result taken out while it is viewed leaves the list empty, still "ready".
  if (snapshot.matches({ list: 'empty' }) || snapshot.context.items.length === 0) {
    const { applied } = snapshot.context;
    if (searching(applied)) return 'empty-filtered';
    return applied.folderId ? 'empty-folder' : 'empty';
  }
  return 'ready';
};

export const selectLibraryItems = (snapshot: LibrarySnapshot): LibraryItem[] => snapshot.context.items;
export const selectLibraryFilters = (snapshot: LibrarySnapshot): LibraryFilters => snapshot.context.filters;
/** The prompt text or the kind is set ("Clear search" is offered). */
export const selectIsSearching = (snapshot: LibrarySnapshot): boolean => searching(snapshot.context.filters);

export const selectLibraryHasMore = (snapshot: LibrarySnapshot): boolean =>
  snapshot.context.nextStartKeys !== null && (snapshot.matches({ list: 'ready' }) || snapshot.matches({ list: 'loadingMore' }));
export const selectLibraryLoadingMore = (snapshot: LibrarySnapshot): boolean => snapshot.matches({ list: 'loadingMore' });
export const selectLibraryError = (snapshot: LibrarySnapshot): string | null => snapshot.context.error;

/** The result `?item=` names, to scroll to and highlight (null when none or not listed). */
export const selectFocusedId = (snapshot: LibrarySnapshot): string | null =>
  snapshot.context.focus.state === 'found' ? snapshot.context.focus.id : null;
/** `?item=` named a result that is not among the person's finished results. */
export const selectFocusMissing = (snapshot: LibrarySnapshot): boolean => snapshot.context.focus.state === 'missing';

/** The folders child; null for the shared guest account. */
export const selectFoldersRef = (snapshot: LibrarySnapshot): LibraryFoldersRef | null =>
  (snapshot.children.folders as LibraryFoldersRef | undefined) ?? null;

// ---- the folders child ---------------------------------------------------------------------------

export const selectFolders = (snapshot: LibraryFoldersSnapshot): LibraryFolder[] => snapshot.context.folders;
export const selectFoldersLoading = (snapshot: LibraryFoldersSnapshot): boolean => snapshot.matches({ list: 'loading' });
export const selectFoldersLoadError = (snapshot: LibraryFoldersSnapshot): string | null =>
  snapshot.matches({ list: 'failed' }) ? snapshot.context.loadError : null;
export const selectFolderDialog = (snapshot: LibraryFoldersSnapshot): FolderDialog | null => snapshot.context.dialog;
/** The server's message for the last folder call that failed. */
export const selectFolderError = (snapshot: LibraryFoldersSnapshot): string | null => snapshot.context.error;
/** A folder call is running (create, rename, delete, add, remove): one at a time. */
export const selectFolderBusy = (snapshot: LibraryFoldersSnapshot): boolean => !snapshot.matches({ call: 'idle' });
/** The result being put in or taken out of a folder now, and which folder. */
export const selectMembershipPending = (snapshot: LibraryFoldersSnapshot): { folderId: string; mediaId: string } | null =>
  (snapshot.matches({ call: 'adding' }) || snapshot.matches({ call: 'removing' })) && snapshot.context.pending.folderId && snapshot.context.pending.mediaId
    ? { folderId: snapshot.context.pending.folderId, mediaId: snapshot.context.pending.mediaId }
    : null;
/** A folder change can be asked for now. */
export const selectCanChangeFolders = (snapshot: LibraryFoldersSnapshot): boolean =>
  snapshot.can({ type: 'folders.add', folderId: '', mediaId: '' });
