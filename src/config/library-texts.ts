import type { MediaKind } from './enums';

/**
 * Kinora's texts for the Library (issue 21 item 7): the page of the person's finished results, its
 * folders, and the links to it from the account menu, the jobs panel and History. SPEC gives none
 * of them word for word; a failed call shows the server's message after these lead-ins.
 */

const results = (count: number): string => `${count} ${count === 1 ? 'result' : 'results'}`;

export const LIBRARY_TEXTS = {
  title: 'Library',
  intro: 'Everything you have made, in every tool: find it, play it, download it, keep it in folders.',
  /** The account menu's and the jobs panel's link to the page. */
  menuLink: 'Library',
  panelLink: 'All results (library)',
  /** History's action on a finished job (`/library?item={id}`). */
  openInLibrary: 'Open in Library',
  openInLibraryLabel: (tool: string): string => `Open the ${tool} result in the Library`,
  signIn: 'Sign in to see your results.',
  signInButton: 'Sign in',
  search: 'Search prompts',
  searchPlaceholder: 'Words in the prompt',
  kind: 'Kind',
  kinds: { all: 'All', image: 'Pictures', video: 'Videos', audio: 'Sound' } satisfies Record<MediaKind | 'all', string>,
  clear: 'Clear search',
  gridLabel: 'Your results',
  loading: 'Loading your results…',
  failed: 'Your results could not be loaded',
  retry: 'Try again',
  loadMore: 'Load more',
  moreFailed: 'More results could not be loaded:',
  empty: 'No results yet — make something in AI Image, AI Video or AI Audio and it appears here.',
  makeSomething: 'Open AI Image',
  emptyFiltered: 'No results match this search',
  emptyFolder: 'This folder is empty',
  emptyFolderHint: 'Open “All results” and use “Folders” on a result to add it here.',
  itemMissing: 'That result is not in your Library: it may still be running, may have failed, or was deleted.',
  dismiss: 'Dismiss',
  /** A card. */
  untitled: 'No prompt',
  fileNotLoaded: 'This file could not be loaded.',
  upload: 'Upload',
  cardLabel: (tool: string, prompt: string): string => `${tool}: ${prompt}`,
  moreFiles: (count: number): string => `${count} files`,
  /** A run of several pictures (issue 21 item 7): each picture its own card, with its own seed. */
  pictureCardLabel: (tool: string, prompt: string, index: number, count: number): string => `${tool}: ${prompt} (picture ${index} of ${count})`,
  pictureOf: (index: number, count: number): string => `Picture ${index} of ${count}`,
  seed: (seed: number): string => `Seed ${seed}`,
  /** Folders hold results (runs), so a run's pictures go in and out of a folder together. */
  runFolders: (count: number): string => `Folders keep the whole run: its ${count} pictures go in and out together.`,
  download: 'Download',
  downloadLabel: (name: string): string => `Download ${name}`,
  showInHistory: 'Show in History',
  showInHistoryLabel: (name: string): string => `Show ${name} in History`,
  folders: 'Folders',
  foldersOf: (name: string): string => `Folders of ${name}`,
  inFolders: (count: number): string => (count === 1 ? 'In 1 folder' : `In ${count} folders`),
  noFoldersYet: 'No folders yet: create one under “Folders”.',
  /** The folders' side. */
  foldersHeading: 'Folders',
  allResults: 'All results',
  folderCount: (count: number): string => results(count),
  newFolder: 'New folder',
  folderName: 'Folder name',
  create: 'Create',
  rename: 'Rename',
  renameTitle: (name: string): string => `Rename “${name}”`,
  save: 'Save',
  cancel: 'Cancel',
  close: 'Close',
  deleteFolder: 'Delete folder',
  deleteTitle: (name: string): string => `Delete the folder “${name}”?`,
  deleteBody: 'Its results stay in your Library; only the folder goes.',
  delete: 'Delete',
  foldersFailed: 'Your folders could not be loaded:',
  folderFailed: 'That did not work:',
  guestNoFolders: 'Folders are for your own account: the shared guest account’s results are shared with every guest and cleared weekly.',
  folderView: (name: string): string => `Folder: ${name}`,
} as const;
