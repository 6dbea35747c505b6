import type { SnapshotFrom } from 'xstate';
import type { Media, toolHistoryMachine } from '@/machines/tool-history/tool-history.machine';

export type ToolHistorySnapshot = SnapshotFrom<typeof toolHistoryMachine>;

const createdTime = (media: Media): number => {
  const time = Date.parse(media.created_at);
  return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
};

// A memo per list (a pure cache): the same loaded list gives the same sorted array.
const sortedLists = new WeakMap<Media[], Media[]>();

/**
 * The tool's past results, newest first by `created_at` whatever order the server sent (empty
 * while the first load runs or after it failed); the same array until the list changes.
 */
export const selectHistory = (snapshot: ToolHistorySnapshot): Media[] => {
  const items = snapshot.context.items;
  let sorted = sortedLists.get(items);
  if (!sorted) {
    sorted = [...items].sort((a, b) => createdTime(b) - createdTime(a));
    sortedLists.set(items, sorted);
  }
  return sorted;
};
