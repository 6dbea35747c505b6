import { createSelector } from 'reselect';
import type { SnapshotFrom } from 'xstate';
import type { GenerationJobContext, Media, generationJobMachine } from '@/machines/generation-job/generation-job.machine';
import type { JobPhase } from '@/config/job-texts';
import { classifyStatus } from '@/lib/job-status';

export type GenerationJobSnapshot = SnapshotFrom<typeof generationJobMachine>;

/** What the jobs panel and the tool pages show of a job, in one word (one list, in config with its texts). */
export type { JobPhase };

export interface JobView {
  localId: string;
  tool: string;
  toolTitle: string;
  option: string;
  optionLabel: string;
  cost: number;
  phase: JobPhase;
  /** Not yet in a final state. */
  live: boolean;
  /** 0…100. */
  progress: number;
  /** The server's status string (SPEC §4), null before the first answer. */
  status: string | null;
  mediaId: string | null;
  media: Media | null;
  error: string | null;
  refunded: boolean;
  createdAt: number;
  finishedAt: number | null;
  /** Issue 21 item 2: its place among its owner's waiting jobs (1 = next), while it waits. */
  queuePosition: number | null;
  /** Why the last hold, resume, run next or edit failed. */
  queueError: string | null;
}

const FINAL_PHASES = ['succeeded', 'failed', 'nsfw', 'cancelled', 'denied'] as const;

/** queue_* statuses (and no status yet) read as queued (held when its owner holds it); the rest of the processing family as processing. */
const runningPhase = (status: string | null, held: boolean): JobPhase => {
  if (status !== null && !status.startsWith('queue')) return 'processing';
  return held ? 'held' : 'queued';
};

const phaseOf = (snapshot: GenerationJobSnapshot): JobPhase => {
  for (const phase of FINAL_PHASES) if (snapshot.matches(phase)) return phase;
  const { context } = snapshot;
  if (snapshot.matches('cancelling') || context.cancelRequested) return 'cancelling';
  if (snapshot.hasTag('reconnecting')) return 'reconnecting';
  if (snapshot.matches('starting')) return 'checking';
  if (snapshot.matches('submitting')) return 'submitting';
  if (snapshot.matches({ polling: 'paused' })) return 'paused';
  if (snapshot.matches('fetchingResult')) return 'processing';
  return classifyStatus(context.status) === 'processing' ? runningPhase(context.status, context.held) : 'processing';
};

const buildView = (context: GenerationJobContext, phase: JobPhase, live: boolean): JobView => ({
  localId: context.localId,
  tool: context.tool,
  toolTitle: context.toolTitle,
  option: context.option,
  optionLabel: context.optionLabel,
  cost: context.cost,
  phase,
  live,
  progress: context.progress,
  status: context.status,
  mediaId: context.mediaId,
  media: context.media,
  error: context.error,
  refunded: context.refunded,
  createdAt: context.createdAt,
  finishedAt: context.finishedAt,
  // Only while it waits (a started job has no place; a held one is out of the order).
  queuePosition: live && phase === 'queued' ? context.queuePosition : null,
  queueError: live ? context.queueError : null,
});

/**
 * The job as the panel shows it; the same object for as long as nothing shown changes (memoised on
 * its context, phase and liveness), so React's useSelector does not re-render while the job does
 * not change. Compare with `shallowEqual` when only some fields matter.
 */
export const selectJobView: (snapshot: GenerationJobSnapshot) => JobView = createSelector(
  [(snapshot: GenerationJobSnapshot) => snapshot.context, phaseOf, (snapshot: GenerationJobSnapshot) => snapshot.status === 'active'],
  buildView,
);

/** The Cancel button is shown (enabled) exactly when the job would take `job.cancel` now. */
export const selectCanCancel = (snapshot: GenerationJobSnapshot): boolean => snapshot.can({ type: 'job.cancel' });

/** Which of Hold, Resume, Run next and Edit the job takes now (issue 21 item 2); each button is shown exactly then. */
export interface QueueActions {
  hold: boolean;
  resume: boolean;
  runNext: boolean;
  edit: boolean;
}

export const selectQueueActions = (snapshot: GenerationJobSnapshot): QueueActions => ({
  hold: snapshot.can({ type: 'job.hold' }),
  resume: snapshot.can({ type: 'job.resume' }),
  runNext: snapshot.can({ type: 'job.runNext' }),
  edit: snapshot.can({ type: 'job.edit', edit: {} }),
});
