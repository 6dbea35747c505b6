import type { SnapshotFrom } from 'xstate';
import type { Media, uploadMachine } from '@/machines/upload/upload.machine';

export type UploadSnapshot = SnapshotFrom<typeof uploadMachine>;

export type UploadPhase = 'idle' | 'rejected' | 'uploading' | 'done' | 'failed';

export interface UploadView {
  phase: UploadPhase;
  /** The name as chosen (shown); it is sent under its safe name. */
  fileName: string | null;
  size: number | null;
  /** 0…1. */
  progress: number;
  /** Why the file was refused, or why the upload failed. */
  error: string | null;
  /** The uploaded file's signed URL (the media's first item), once done. */
  url: string | null;
  media: Media | null;
  thumbnailUrl: string | null;
}

export type { Media } from '@/machines/upload/upload.machine';

const PHASES: readonly UploadPhase[] = ['rejected', 'uploading', 'done', 'failed'];

const views = new WeakMap<UploadSnapshot, UploadView>();

/** The upload field's view; the same object for the same snapshot. */
export function selectUploadView(snapshot: UploadSnapshot): UploadView {
  const cached = views.get(snapshot);
  if (cached) return cached;
  const { context } = snapshot;
  const first = context.media?.items[0];
  const view: UploadView = {
    phase: PHASES.find((phase) => snapshot.matches(phase)) ?? 'idle',
    fileName: context.fileName,
    size: context.size,
    progress: context.progress,
    error: context.error,
    url: first?.url ?? null,
    media: context.media,
    thumbnailUrl: first?.thumbnail_url ?? null,
  };
  views.set(snapshot, view);
  return view;
}
