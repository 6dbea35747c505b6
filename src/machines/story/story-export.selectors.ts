import type { SnapshotFrom } from 'xstate';
import type { storyExportMachine } from '@/machines/story/story-export.machine';

type StoryExportSnapshot = SnapshotFrom<typeof storyExportMachine>;

/** The zip's download as the page shows it. */
export interface ZipView {
  state: 'idle' | 'downloading' | 'zipping' | 'saved' | 'failed';
  /** Files downloaded, of how many. */
  done: number;
  count: number;
  /** 0…100 over every file (the one coming counted by its bytes when its size is known). */
  percent: number;
  error: string | null;
  savedAs: string | null;
}

export function selectZipView(snapshot: StoryExportSnapshot | undefined): ZipView {
  if (!snapshot) return { state: 'idle', done: 0, count: 0, percent: 0, error: null, savedAs: null };
  const { context } = snapshot;
  const count = context.exported?.sources.length ?? 0;
  const done = context.exported ? context.exported.sources.filter((source) => context.files[source.name]?.mediaId === source.mediaId).length : 0;
  const current = context.total ? Math.min(context.loaded / context.total, 1) : 0;
  const state = snapshot.value as ZipView['state'];
  const percent = state === 'zipping' || state === 'saved' ? 100 : count === 0 ? 0 : Math.round(((done + current) / count) * 100);
  return { state, done, count, percent, error: context.error, savedAs: context.savedAs };
}
