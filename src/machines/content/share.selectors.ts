import type { SnapshotFrom } from 'xstate';
import type { Visibility } from '@/config/sharing';
import type { shareMachine, ShareValues } from '@/machines/content/share.machine';

export type ShareSnapshot = SnapshotFrom<typeof shareMachine>;

export type ShareStatus = 'editing' | 'saving' | 'saved' | 'failed';

export const selectShareStatus = (snapshot: ShareSnapshot): ShareStatus => {
  if (snapshot.matches('saving')) return 'saving';
  if (snapshot.matches('saved')) return 'saved';
  if (snapshot.matches('failed')) return 'failed';
  return 'editing';
};

/** The media's sharing as it stands (what the form starts from). */
export const selectShareValues = (snapshot: ShareSnapshot): ShareValues => snapshot.context.current;

export const selectVisibility = (snapshot: ShareSnapshot): Visibility => snapshot.context.current.visibility;

export const selectShareError = (snapshot: ShareSnapshot): string | null => snapshot.context.error;

export const selectSharedMediaId = (snapshot: ShareSnapshot): string => snapshot.context.mediaId;
