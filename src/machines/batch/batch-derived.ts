import type { BatchType } from '@/config/batch';
import { JOB_TEXTS } from '@/config/job-texts';
import { statusOf } from '@/services/api-error';
import type { BatchJobUpdate, EditBatchFields } from '@/services/batch';
import type { Batch, ScriptBoard, ScriptBoardClip } from '@/services/schemas/batch';
import type { Media } from '@/services/schemas/media';
import { boardCost, boardProblem, isLive, joinVideoUrls, normalisedClip } from '@/machines/batch/batch-board';
import type { BatchContext } from '@/machines/batch/batch.types';

// Pure functions of the album's context and of the server's answers, read by the machine's
// implementations and by its selectors.

const timeOf = (iso: string): number => {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
};

/** One poll's answer for one job, applied to that job (an older status never overwrites a newer one). */
function applyUpdate(media: Media, update: BatchJobUpdate): Media {
  if (media.id !== update.id) return media;
  switch (update.kind) {
    case 'ended':
      return update.media;
    case 'status':
      if (timeOf(update.status.updated_at) < timeOf(media.updated_at)) return media;
      return { ...media, status: update.status.status, progress: update.status.progress, updated_at: update.status.updated_at };
    case 'error':
      // Gone from the server: it will never end, so it ends here.
      return statusOf(update.error) === 404 ? { ...media, status: 'failed', error: JOB_TEXTS.notFound } : media;
  }
}

export const applyUpdates = (batch: Batch, updates: readonly BatchJobUpdate[]): Batch => {
  const apply = (media: Media): Media => updates.reduce(applyUpdate, media);
  return { ...batch, videos: batch.videos.map(apply), concat: batch.concat ? apply(batch.concat) : null };
};

/** The board the album was saved with; a parallax board's clips carry no model, an AI one's no path. */
export const savedBoardOf = (batch: Batch): ScriptBoardClip[] => batch.script_board?.clips ?? [];

/** Which clip each video was made from, when the saved board lines up with the videos. */
export const videoClipIdsOf = (batch: Batch): string[] => {
  const clips = savedBoardOf(batch);
  return clips.length === batch.videos.length ? clips.map((clip) => clip.id) : [];
};

const batchTypeOf = (context: BatchContext): BatchType => (context.batch?.batch_type === 'parallax' ? 'parallax' : 'ai');

/** The board as it is sent: each clip in the shape its album type asks for. */
export const boardToSend = (context: BatchContext): ScriptBoard => ({
  clips: context.board.map((clip) => normalisedClip(batchTypeOf(context), clip)),
});

export const editFields = (context: BatchContext): EditBatchFields => ({
  audio_urls: context.audioUrl ? [context.audioUrl] : [],
  additional_videos: context.additionalVideos,
});

/** `concat_video_urls` of a join: the finished clips in the board's order. */
export const joinUrlsOf = (context: BatchContext): string[] =>
  joinVideoUrls(context.batch?.videos ?? [], context.videoClipIds, context.board);

/** What the album can spend: the free balance plus what its hold keeps (null while the balance is unknown). */
export const spendableOf = (context: Pick<BatchContext, 'credit' | 'held'>): number | null => (context.credit === null ? null : context.credit + context.held);

/** What "Generate videos" costs now. */
export const generateCostOf = (context: BatchContext): number => boardCost(batchTypeOf(context), context.board);

/** Why the board cannot be generated now (not counting credits), or null. */
export const boardProblemOf = (context: BatchContext): string | null => boardProblem(batchTypeOf(context), context.board);

/** Clips (not the joined video) still being made. */
export const hasLiveClips = (context: BatchContext): boolean => (context.batch?.videos ?? []).some(isLive);

