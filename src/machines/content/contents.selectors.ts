import type { SnapshotFrom } from 'xstate';
import type { contentsMachine, PublicContent, PublicUser } from '@/machines/content/contents.machine';

export type ContentsSnapshot = SnapshotFrom<typeof contentsMachine>;

/**
 * What the listing shows: the owner's look-up (`owner-loading`, `owner-missing`, `owner-failed`),
 * the first page loading (also while a search waits for typing to pause), the items, none, or a
 * failed first page.
 */
export type ContentsStatus =
  | 'owner-loading'
  | 'owner-missing'
  | 'owner-failed'
  | 'loading'
  | 'ready'
  | 'empty'
  | 'failed';

export const selectContentsStatus = (snapshot: ContentsSnapshot): ContentsStatus => {
  if (snapshot.matches('start') || snapshot.matches('loadingOwner')) return 'owner-loading';
  if (snapshot.matches('ownerMissing')) return 'owner-missing';
  if (snapshot.matches('ownerFailed')) return 'owner-failed';
  if (snapshot.matches('loading') || snapshot.matches('debouncing')) return 'loading';
  if (snapshot.matches('empty')) return 'empty';
  if (snapshot.matches('failed')) return 'failed';
  return 'ready';
};

export const selectContentItems = (snapshot: ContentsSnapshot): PublicContent[] => snapshot.context.items;

export const selectContentsOwner = (snapshot: ContentsSnapshot): PublicUser | null => snapshot.context.owner;

/** The search box's text. */
export const selectTypedKeyword = (snapshot: ContentsSnapshot): string => snapshot.context.typedKeyword;

/** The keyword the items shown were found with ('' for all). */
export const selectAppliedKeyword = (snapshot: ContentsSnapshot): string => snapshot.context.keyword;

export const selectHasMore = (snapshot: ContentsSnapshot): boolean =>
  snapshot.context.nextStartKeys !== null && (snapshot.matches('ready') || snapshot.matches('loadingMore'));

export const selectIsLoadingMore = (snapshot: ContentsSnapshot): boolean => snapshot.matches('loadingMore');

export const selectContentsError = (snapshot: ContentsSnapshot): string | null => snapshot.context.error;
