import { ALBUM_TEXTS } from '@/config/album-texts';
import type { BatchType } from '@/config/batch';
import { CAMERA_MOTIONS } from '@/config/camera-motions';
import { DEFAULT_MOTION_MODEL, MOTION_MODELS } from '@/config/motion-models';
import type { VideoMotionModel } from '@/config/motion-models';
import { PARALLAX_CAMERA_PATHS } from '@/config/parallax-paths';
import {
  isParallaxCameraPath,
  MOTION_LENGTH,
  motionModelsFor,
  PARALLAX_OPTION,
  PARALLAX_VIDEO_CREDITS,
} from '@/config/video-creation';
import { classifyStatus } from '@/lib/job-status';
import type { AdditionalVideo, Batch, ScriptBoardClip } from '@/services/schemas/batch';
import type { Media } from '@/services/schemas/media';

/**
 * Pure rules of an album's script board (no state): what each clip costs, whether the board can
 * be sent, moving a clip, and which videos are joined in which order. The batch machine and its
 * selectors share them, so the button's reason and the machine's guard never disagree.
 */

/** The motion models a clip of an AI batch may use: the active ones, Try On Video aside. */
export const BATCH_MOTION_MODELS: readonly VideoMotionModel[] = motionModelsFor('ai-motion', MOTION_MODELS);

/** A clip's motion model; an empty model is the default (Auto), as the server reads it. */
export const clipModel = (clip: Pick<ScriptBoardClip, 'model'>): VideoMotionModel | undefined =>
  BATCH_MOTION_MODELS.find((model) => model.value === (clip.model || DEFAULT_MOTION_MODEL));

/** Credits of one clip: its motion model's for an AI batch, the parallax price otherwise. */
export function clipCost(batchType: BatchType, clip: Pick<ScriptBoardClip, 'model'>): number {
  if (batchType === 'parallax') return PARALLAX_VIDEO_CREDITS;
  return clipModel(clip)?.required_credits ?? 0;
}

/** What generating the whole board costs: the sum over its clips. */
export const boardCost = (batchType: BatchType, clips: readonly ScriptBoardClip[]): number =>
  clips.reduce((sum, clip) => sum + clipCost(batchType, clip), 0);

const isCameraMotion = (value: string): boolean => CAMERA_MOTIONS.some((motion) => motion.value === value);

/** Why the board cannot be sent as it is, or null when it can. */
export function boardProblem(batchType: BatchType, clips: readonly ScriptBoardClip[]): string | null {
  if (clips.length === 0) return ALBUM_TEXTS.board.noBoard;
  for (const [index, clip] of clips.entries()) {
    const number = index + 1;
    if (clip.prompt.length > 2000) return ALBUM_TEXTS.board.promptTooLong(number);
    if (!Number.isFinite(clip.motion_length) || clip.motion_length < MOTION_LENGTH.min || clip.motion_length > MOTION_LENGTH.max) {
      return ALBUM_TEXTS.board.lengthOutOfRange(number);
    }
    if (batchType === 'parallax') {
      if (!clip.camera_path || !isParallaxCameraPath(clip.camera_path)) return ALBUM_TEXTS.board.chooseCameraPath(number);
    } else {
      if (!isCameraMotion(clip.motion_type)) return ALBUM_TEXTS.board.chooseCameraMotion(number);
      if (!clipModel(clip)) return ALBUM_TEXTS.board.chooseModel(number);
    }
  }
  return null;
}

/** The clip as the server should get it: a parallax clip's motion type is Parallax, and it has no model. */
export function normalisedClip(batchType: BatchType, clip: ScriptBoardClip): ScriptBoardClip {
  if (batchType === 'parallax') return { ...clip, motion_type: PARALLAX_OPTION, model: '' };
  return { ...clip, camera_path: null };
}

/** The board with one clip moved by `offset` places (clamped to the ends); the same array when it cannot move. */
export function moveClip(clips: readonly ScriptBoardClip[], clipId: string, offset: number): ScriptBoardClip[] {
  const from = clips.findIndex((clip) => clip.id === clipId);
  const to = Math.min(Math.max(from + offset, 0), clips.length - 1);
  if (from < 0 || to === from) return clips as ScriptBoardClip[];
  const moved = [...clips];
  const [clip] = moved.splice(from, 1);
  if (clip) moved.splice(to, 0, clip);
  return moved;
}

/** A clip's camera: the parallax path's label (SPEC §9), or the camera motion's label. */
export function clipCameraLabel(clip: Pick<ScriptBoardClip, 'camera_path' | 'motion_type'>): string {
  if (clip.camera_path && isParallaxCameraPath(clip.camera_path)) return PARALLAX_CAMERA_PATHS[clip.camera_path];
  return CAMERA_MOTIONS.find((motion) => motion.value === clip.motion_type)?.label ?? clip.motion_type;
}

/** A job of the album (clip or joined video) still running. */
export const isLive = (media: Pick<Media, 'status'>): boolean => classifyStatus(media.status) === 'processing';

/** The ids of the album's jobs still running: its clips, then its joined video. */
export function liveJobIds(batch: Batch | null): string[] {
  if (!batch) return [];
  const jobs = batch.concat ? [...batch.videos, batch.concat] : batch.videos;
  return jobs.filter(isLive).map((media) => media.id);
}

/** The playable file of a finished video job, or null. */
export function resultUrl(media: Media | null | undefined): string | null {
  if (!media || classifyStatus(media.status) !== 'success') return null;
  return media.items.find((item) => item.url)?.url ?? null;
}

/**
 * The clips' videos in the order they are joined: the board's order when it is known which clip
 * each video was made from (`videoClipIds`, parallel to the videos), else the order they were
 * made in; videos that did not succeed are left out.
 */
export function joinOrder(videos: readonly Media[], videoClipIds: readonly string[], clips: readonly ScriptBoardClip[]): Media[] {
  const made = videos.filter((video) => resultUrl(video) !== null);
  if (videoClipIds.length !== videos.length) return made;
  const position = new Map(clips.map((clip, index) => [clip.id, index]));
  const rank = (video: Media): number => {
    const clipId = videoClipIds[videos.indexOf(video)];
    return clipId === undefined ? Number.MAX_SAFE_INTEGER : (position.get(clipId) ?? Number.MAX_SAFE_INTEGER);
  };
  // A stable sort: videos whose clip left the board keep their made order, after the others.
  return [...made].sort((a, b) => rank(a) - rank(b));
}

/** `concat_video_urls` of the join call. */
export const joinVideoUrls = (videos: readonly Media[], videoClipIds: readonly string[], clips: readonly ScriptBoardClip[]): string[] =>
  joinOrder(videos, videoClipIds, clips)
    .map((video) => resultUrl(video))
    .filter((url): url is string => url !== null);

/** An extra video's label from the upload's file name. */
export const additionalVideoFrom = (url: string, label: string): AdditionalVideo => ({ url, label: label.slice(0, 120) });
