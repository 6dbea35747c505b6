import { createSelector } from 'reselect';
import type { SnapshotFrom } from 'xstate';
import type { Media, toolHistoryMachine } from '@/machines/tool-history/tool-history.machine';

export type ToolHistorySnapshot = SnapshotFrom<typeof toolHistoryMachine>;

const createdTime = (media: Media): number => {
  const time = Date.parse(media.created_at);
  return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
};

/**
 * The tool's past results, newest first by `created_at` whatever order the server sent (empty
 * while the first load runs or after it failed); the same array until the list changes.
 */
export const selectHistory: (snapshot: ToolHistorySnapshot) => Media[] = createSelector(
  [(snapshot: ToolHistorySnapshot) => snapshot.context.items],
  (items) => [...items].sort((a, b) => createdTime(b) - createdTime(a)),
);
