import type { SnapshotFrom } from 'xstate';
import type { JobEntry, jobsMachine } from '@/machines/jobs/jobs.machine';

export type JobsSnapshot = SnapshotFrom<typeof jobsMachine>;

/** Every job of the signed-in user, newest first; the same array until the list changes. */
export const selectJobEntries = (snapshot: JobsSnapshot): JobEntry[] => snapshot.context.jobs;

/** Jobs not yet finished (the badge of the Jobs button, the tab title). */
export const selectLiveCount = (snapshot: JobsSnapshot): number =>
  snapshot.context.jobs.filter((entry) => entry.stored.outcome === null).length;

