import { shallowEqual, useSelector } from '@xstate/react';
import { JOB_TEXTS } from '@/config/job-texts';
import { CREATION_TYPES } from '@/config/creation-types';
import { FINETUNE_TOOL } from '@/config/finetune';
import { generationToolBySlug } from '@/config/generation-tools';
import { ROUTES } from '@/config/routes';
import { VIDEO_CREATION_TOOLS, VIDEO_CREATION_TYPES } from '@/config/video-creation';
import {
  selectCanCancel,
  selectJobView,
  selectQueueActions,
  type GenerationJobSnapshot,
  type JobPhase,
  type JobView,
  type QueueActions,
} from '@/machines/generation-job/generation-job.selectors';
import type { JobEntry, StoredJob } from '@/machines/jobs/jobs.machine';

export type { JobEntry, JobView, QueueActions };

/** A job restored finished from storage has no actor: its view comes from what was stored. */
export function storedJobView(stored: StoredJob): JobView {
  const phase: JobPhase = stored.outcome ?? 'failed';
  return {
    localId: stored.localId,
    tool: stored.tool,
    toolTitle: stored.toolTitle,
    option: stored.option,
    optionLabel: stored.optionLabel,
    cost: stored.cost,
    phase,
    live: false,
    progress: phase === 'succeeded' ? 100 : 0,
    status: null,
    mediaId: stored.mediaId,
    media: null,
    error: stored.error,
    refunded: stored.refunded,
    createdAt: stored.createdAt,
    finishedAt: stored.finishedAt,
    queuePosition: null,
    queueError: null,
  };
}

const selectOptionalJobView = (snapshot: GenerationJobSnapshot | undefined): JobView | null =>
  snapshot ? selectJobView(snapshot) : null;
const selectOptionalCanCancel = (snapshot: GenerationJobSnapshot | undefined): boolean =>
  snapshot ? selectCanCancel(snapshot) : false;
const NO_QUEUE_ACTIONS: QueueActions = { hold: false, resume: false, runNext: false, edit: false };
const selectOptionalQueueActions = (snapshot: GenerationJobSnapshot | undefined): QueueActions =>
  snapshot ? selectQueueActions(snapshot) : NO_QUEUE_ACTIONS;

/** The job's view, live from its actor when it has one, whether it can be cancelled now, and which queue actions it takes. */
export function useJobView(entry: JobEntry): { view: JobView; canCancel: boolean; queueActions: QueueActions } {
  const ref = entry.ref ?? undefined;
  const live = useSelector(ref, selectOptionalJobView, shallowEqual);
  const canCancel = useSelector(ref, selectOptionalCanCancel);
  const queueActions = useSelector(ref, selectOptionalQueueActions, shallowEqual);
  return { view: live ?? storedJobView(entry.stored), canCancel, queueActions };
}

/** "Queued", "Processing 40 %", "Failed: …": what the job is doing, in words. */
export const phaseText = (view: Pick<JobView, 'phase' | 'progress' | 'error'>): string =>
  JOB_TEXTS.phase[view.phase](view.progress, view.error);

/** The page of a video creation job's `tool` (VIDEO_CREATION_TOOLS); an extension's results are listed on AI Motion. */
function creationPagePath(tool: string): string | null {
  const type = VIDEO_CREATION_TYPES.find((candidate) => VIDEO_CREATION_TOOLS[candidate] === tool);
  if (!type) return null;
  if (type === 'extend-video') return ROUTES.aiVideo.aiMotion;
  return CREATION_TYPES.find((candidate) => candidate.type === type)?.route ?? null;
}

/** The tool page that shows this job's result (`?job={mediaId}`), or null before it has an id. */
export function resultPath(view: Pick<JobView, 'tool' | 'mediaId'>): string | null {
  const path =
    generationToolBySlug(view.tool)?.path ??
    creationPagePath(view.tool) ??
    (view.tool === FINETUNE_TOOL ? ROUTES.aiProduction.finetune : null);
  if (!path || !view.mediaId) return null;
  return `${path}?job=${encodeURIComponent(view.mediaId)}`;
}

/**
 * The jobs panel's "View result" link: only a job that succeeded has a result to see (a running,
 * failed or cancelled job would open its tool page on nothing).
 */
export const viewResultPath = (view: Pick<JobView, 'tool' | 'mediaId' | 'phase'>): string | null =>
  view.phase === 'succeeded' ? resultPath(view) : null;
