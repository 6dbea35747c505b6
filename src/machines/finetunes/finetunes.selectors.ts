import { createSelector } from 'reselect';
import type { SnapshotFrom } from 'xstate';
import { FINETUNE_KINDS, FINETUNE_TOOL, isFinetuneKind } from '@/config/finetune';
import { FINETUNE_TEXTS } from '@/config/finetune-texts';
import { MODEL_COSTS } from '@/config/model-costs';
import type { Finetune, finetunesMachine } from '@/machines/finetunes/finetunes.machine';
import type { JobEntry } from '@/machines/jobs/jobs.machine';
import type { JobsSnapshot } from '@/machines/jobs/jobs.selectors';
import { selectJobView } from '@/machines/generation-job/generation-job.selectors';
import type { GenerationJobSnapshot } from '@/machines/generation-job/generation-job.selectors';

export type FinetunesSnapshot = SnapshotFrom<typeof finetunesMachine>;

/** What the "Your models" list shows as a whole. */
export type FinetunesStatus = 'signedOut' | 'loading' | 'ready' | 'failed';

export const selectFinetunesStatus = (snapshot: FinetunesSnapshot | undefined): FinetunesStatus => {
  if (!snapshot || snapshot.matches('signedOut')) return 'signedOut';
  if (snapshot.matches({ signedIn: 'loading' })) return 'loading';
  if (snapshot.matches({ signedIn: 'failed' })) return 'failed';
  return 'ready';
};

export const selectFinetunesError = (snapshot: FinetunesSnapshot | undefined): string | null =>
  snapshot?.context.error ?? null;

const createdTime = (finetune: Finetune): number => {
  const time = Date.parse(finetune.created_at);
  return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
};

const NO_FINETUNES: Finetune[] = [];

/**
 * The person's trained models, newest first by `created_at` (empty when signed out or before the
 * first load); the same array until the list changes. Accepts no snapshot: the hook that reads it
 * works without the provider.
 */
export const selectFinetunes: (snapshot: FinetunesSnapshot | undefined) => Finetune[] = createSelector(
  [(snapshot: FinetunesSnapshot | undefined) => snapshot?.context.items],
  (items) => (!items || items.length === 0 ? NO_FINETUNES : [...items].sort((a, b) => createdTime(b) - createdTime(a))),
);

/**
 * A ready trained model as a choice of a tool's model list: chosen like any model, sent as
 * `option` = its base model plus `finetune_id`.
 */
export interface TrainedModelChoice {
  /** `finetune:{id}`: unique beside the app-config models' values. */
  value: string;
  label: string;
  required_credits: number;
  baseModel: string;
  finetuneId: string;
}

export const trainedModelValue = (finetuneId: string): string => `finetune:${finetuneId}`;

/** The tool pages a kind's trained models are used on (none for an unknown kind). */
export const finetuneToolsOf = (option: string): readonly string[] =>
  isFinetuneKind(option) ? FINETUNE_KINDS[option].tools : [];

const costOf = (baseModel: string): number =>
  Object.prototype.hasOwnProperty.call(MODEL_COSTS, baseModel) ? MODEL_COSTS[baseModel as keyof typeof MODEL_COSTS] : 0;

/** The ready models whose kind is used on `tool`, newest first, as model list choices. */
export function trainedModelChoices(finetunes: readonly Finetune[], tool: string): TrainedModelChoice[] {
  return finetunes
    .filter((finetune) => finetune.status === 'ready' && finetuneToolsOf(finetune.option).includes(tool))
    .map((finetune) => ({
      value: trainedModelValue(finetune.id),
      label: FINETUNE_TEXTS.modelOptionLabel(finetune.name),
      required_credits: costOf(finetune.base_model),
      baseModel: finetune.base_model,
      finetuneId: finetune.id,
    }));
}

/** The jobs registry's training jobs (tool `finetune`), newest first; the same array for the same jobs list. */
export const selectFinetuneJobs: (snapshot: JobsSnapshot) => JobEntry[] = createSelector(
  [(snapshot: JobsSnapshot) => snapshot.context.jobs],
  (jobs) => jobs.filter((entry) => entry.stored.tool === FINETUNE_TOOL),
);

/**
 * The media ids of the registry's training jobs the server has named, as one string (comma
 * separated) so that a change of the list, and only that, is a change of the value.
 */
export const selectFinetuneJobMediaIds = (snapshot: JobsSnapshot): string =>
  selectFinetuneJobs(snapshot)
    .flatMap((entry) => (entry.stored.mediaId ? [entry.stored.mediaId] : []))
    .join(',');

/** A training job's progress (0…100) while it runs in this tab; null otherwise. */
export const selectOptionalJobProgress = (snapshot: GenerationJobSnapshot | undefined): number | null => {
  if (!snapshot) return null;
  const view = selectJobView(snapshot);
  return view.live ? view.progress : null;
};
