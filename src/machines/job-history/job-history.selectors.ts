import type { SnapshotFrom } from 'xstate';
import { filtersAreEmpty, type HistoryFilters, type jobHistoryMachine, type Media } from '@/machines/job-history/job-history.machine';

export type JobHistorySnapshot = SnapshotFrom<typeof jobHistoryMachine>;

/**
 * What the list shows: the first page loading (also while typed prompt text waits for typing to
 * pause), the jobs, none (`empty-filtered` when filters are set), or a failed first page.
 */
export type JobHistoryStatus = 'loading' | 'ready' | 'empty' | 'empty-filtered' | 'failed';

export const selectHistoryStatus = (snapshot: JobHistorySnapshot): JobHistoryStatus => {
  if (snapshot.matches({ list: 'loading' }) || snapshot.matches({ list: 'debouncing' })) return 'loading';
  if (snapshot.matches({ list: 'failed' })) return 'failed';
  if (snapshot.matches({ list: 'empty' })) return filtersAreEmpty(snapshot.context.applied) ? 'empty' : 'empty-filtered';
  return 'ready';
};

export const selectHistoryItems = (snapshot: JobHistorySnapshot): Media[] => snapshot.context.items;

/** The filters as set now (the prompt text as typed). */
export const selectHistoryFilters = (snapshot: JobHistorySnapshot): HistoryFilters => snapshot.context.filters;

/** Some filter other than the sort is set ("Clear filters" is offered). */
export const selectHasFilters = (snapshot: JobHistorySnapshot): boolean => !filtersAreEmpty(snapshot.context.filters);

export const selectHistoryHasMore = (snapshot: JobHistorySnapshot): boolean =>
  snapshot.context.nextStartKeys !== null && (snapshot.matches({ list: 'ready' }) || snapshot.matches({ list: 'loadingMore' }));

export const selectHistoryLoadingMore = (snapshot: JobHistorySnapshot): boolean => snapshot.matches({ list: 'loadingMore' });

export const selectHistoryError = (snapshot: JobHistorySnapshot): string | null => snapshot.context.error;

/** A Re-run can be asked for now (one at a time). */
export const selectCanRerun = (snapshot: JobHistorySnapshot): boolean => snapshot.can({ type: 'history.rerun', mediaId: '' });

/** The job being run again now, if any. */
export const selectRerunningId = (snapshot: JobHistorySnapshot): string | null =>
  snapshot.matches({ rerun: 'running' }) ? snapshot.context.rerun.mediaId : null;

/** How the last re-run went: its source job, and its new job or the server's message. */
export const selectRerunOutcome = (
  snapshot: JobHistorySnapshot,
): { source: string; started: Media | null; error: string | null } | null => {
  const { lastSource, started, error } = snapshot.context.rerun;
  if (lastSource === null || snapshot.matches({ rerun: 'running' }) || (started === null && error === null)) return null;
  return { source: lastSource, started, error };
};

/** The job `?job=` named, once found: brought into view, focused and outlined. */
export const selectHistoryFocusedId = (snapshot: JobHistorySnapshot): string | null =>
  snapshot.context.focus.state === 'found' ? snapshot.context.focus.id : null;

/** `?job=` named a job not among the person's jobs (or not in the pages read for it). */
export const selectHistoryFocusMissing = (snapshot: JobHistorySnapshot): boolean => snapshot.context.focus.state === 'missing';
