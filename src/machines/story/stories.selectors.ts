import type { StoriesSnapshot, StorySummary } from '@/machines/story/stories.machine';

export type StoriesStatus = 'loading' | 'ready' | 'failed';

/** The stories, newest first (as GET story answers them), deleted ones gone. */
export const selectStories = (snapshot: StoriesSnapshot): StorySummary[] => snapshot.context.stories;

/** 'loading' only for the first load (a refresh keeps showing the list it has). */
export function selectStoriesStatus(snapshot: StoriesSnapshot): StoriesStatus {
  if (snapshot.matches('failed')) return 'failed';
  if (snapshot.matches('loading') && snapshot.context.stories.length === 0) return 'loading';
  return 'ready';
}

export const selectStoriesError = (snapshot: StoriesSnapshot): string | null => snapshot.context.error;

/** A delete of this story is on its way. */
export const selectDeletingStory = (snapshot: StoriesSnapshot, id: string): boolean => snapshot.context.deleting.includes(id);
