import type { SnapshotFrom } from 'xstate';
import type { Media, sharedItemMachine } from '@/machines/content/shared-item.machine';

export type SharedItemSnapshot = SnapshotFrom<typeof sharedItemMachine>;

export type SharedItemStatus = 'loading' | 'ready' | 'not-found' | 'failed';

export const selectSharedItemStatus = (snapshot: SharedItemSnapshot): SharedItemStatus => {
  if (snapshot.matches('ready')) return 'ready';
  if (snapshot.matches('notFound')) return 'not-found';
  if (snapshot.matches('failed')) return 'failed';
  return 'loading';
};

export const selectSharedMedia = (snapshot: SharedItemSnapshot): Media | null => snapshot.context.media;
