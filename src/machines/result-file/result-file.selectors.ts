import type { SnapshotFrom } from 'xstate';
import type { resultFileMachine } from './result-file.machine';

type Snapshot = SnapshotFrom<typeof resultFileMachine>;

export const selectFileUrl = (snapshot: Snapshot): string => snapshot.context.url;
export const selectThumbnailUrl = (snapshot: Snapshot): string | null => snapshot.context.thumbnailUrl;
/** The links failed and no fresh one could be had: the page says so instead of a broken element. */
export const selectBroken = (snapshot: Snapshot): boolean => snapshot.matches('broken');
/** A fresh link is being fetched: the element waits for it. */
export const selectRefreshing = (snapshot: Snapshot): boolean => snapshot.matches('refreshing');
