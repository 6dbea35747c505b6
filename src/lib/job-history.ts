import { resultLabel } from '@/lib/result-labels';
import type { LabelArgs, ResultLabelKind } from '@/lib/result-labels';
import { stringArg } from '@/lib/records';

/** A run as the API stores it: results are a string or a list of strings. */
export interface StoredRun {
  results: string | readonly string[];
  args?: Readonly<Record<string, unknown>>;
}

/** The parts of a media item job history is read from (SPEC §3 "Job history"). */
export interface JobHistorySource {
  history?: readonly StoredRun[];
  image_history?: readonly StoredRun[];
  video_history?: readonly StoredRun[];
  audio_history?: readonly StoredRun[];
  results?: string | readonly string[];
  args?: Readonly<Record<string, unknown>>;
}

/** One run, read: `run` is its 1-based place in time (1 = the oldest), whatever order it is shown in. */
export interface JobHistoryRun {
  run: number;
  results: string[];
  args: LabelArgs;
}

const HISTORY_KEYS = ['history', 'image_history', 'video_history', 'audio_history'] as const;

const asList = (results: string | readonly string[] | undefined): string[] => {
  if (results === undefined) return [];
  if (typeof results === 'string') return results === '' ? [] : [results];
  return results.filter((item) => typeof item === 'string' && item !== '');
};


const readArgs = (args: Readonly<Record<string, unknown>> | undefined): LabelArgs => {
  const read: LabelArgs = {};
  for (const key of ['option', 'effect', 'aspect_ratio', 'voice', 'camera_path', 'model'] as const) {
    const value = stringArg(args, key);
    if (value !== undefined) read[key] = value;
  }
  return read;
};

/**
 * The runs of a job, newest first. The first of history, image_history, video_history and
 * audio_history that holds runs is used; without one, the top-level results and args make a single
 * run (none when there are no results).
 */
export function readJobHistory(media: JobHistorySource): JobHistoryRun[] {
  const runs = HISTORY_KEYS.map((key) => media[key]).find((list) => list !== undefined && list.length > 0);
  const chronological: Omit<JobHistoryRun, 'run'>[] = runs
    ? runs.map((run) => ({ results: asList(run.results), args: readArgs(run.args) }))
    : asList(media.results).length > 0
      ? [{ results: asList(media.results), args: readArgs(media.args) }]
      : [];
  return chronological.map((run, position) => ({ ...run, run: position + 1 })).reverse();
}

/** One result of a run with its SPEC §3 label. */
export interface LabelledResult {
  label: string;
  url: string;
  run: number;
  index: number;
}

/** Every result of the history, newest run first, each labelled "{run}.{index}.{option}". */
export function labelJobHistory(runs: readonly JobHistoryRun[], kind: ResultLabelKind): LabelledResult[] {
  return runs.flatMap((run) =>
    run.results.map((url, position) => ({
      url,
      run: run.run,
      index: position + 1,
      label: resultLabel({ run: run.run, index: position + 1, kind, args: run.args }),
    })),
  );
}
