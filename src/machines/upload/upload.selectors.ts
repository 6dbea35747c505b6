import { createSelector } from 'reselect';
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

/** The upload field's view; the same object while its state and context fields stay the same. */
export const selectUploadView: (snapshot: UploadSnapshot) => UploadView = createSelector(
  [
    (snapshot: UploadSnapshot): UploadPhase => PHASES.find((phase) => snapshot.matches(phase)) ?? 'idle',
    (snapshot: UploadSnapshot) => snapshot.context.fileName,
    (snapshot: UploadSnapshot) => snapshot.context.size,
    (snapshot: UploadSnapshot) => snapshot.context.progress,
    (snapshot: UploadSnapshot) => snapshot.context.error,
    (snapshot: UploadSnapshot) => snapshot.context.media,
  ],
  (phase, fileName, size, progress, error, media): UploadView => {
    const first = media?.items[0];
    return { phase, fileName, size, progress, error, url: first?.url ?? null, media, thumbnailUrl: first?.thumbnail_url ?? null };
  },
);
