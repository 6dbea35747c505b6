import { createSelector } from 'reselect';
import type { SnapshotFrom } from 'xstate';
import { ALBUM_TEXTS } from '@/config/album-texts';
import { BATCH_ADDITIONAL_VIDEOS_MAX, BATCH_TYPES } from '@/config/batch';
import type { BatchType } from '@/config/batch';
import type { JobPhase } from '@/config/job-texts';
import { affordability, refusalMessage } from '@/lib/affordability';
import { classifyStatus } from '@/lib/job-status';
import { isRecord } from '@/lib/records';
import { clipCameraLabel, clipCost, isLive, joinOrder, resultUrl } from '@/machines/batch/batch-board';
import { boardProblemOf, generateCostOf, hasLiveClips, joinUrlsOf, spendableOf } from '@/machines/batch/batch.machine';
import type { AdditionalVideo, BatchContext, Media, ScriptBoardClip, batchMachine } from '@/machines/batch/batch.machine';

export type BatchSnapshot = SnapshotFrom<typeof batchMachine>;

/** Which part of the page is shown. */
export type AlbumPageStatus = 'loading' | 'notFound' | 'loadFailed' | 'deleted' | 'loaded';

export interface BoardClipView {
  clip: ScriptBoardClip;
  /** 1-based place on the board. */
  number: number;
  cost: number;
  canMoveUp: boolean;
  canMoveDown: boolean;
}

/** A video job of the album (a clip or the joined video) as the page shows it. */
export interface AlbumVideoView {
  id: string;
  label: string;
  phase: JobPhase;
  live: boolean;
  /** 0…100. */
  progress: number;
  url: string | null;
  posterUrl: string | null;
  error: string | null;
}

export interface AlbumView {
  status: AlbumPageStatus;
  title: string;
  batchType: BatchType;
  typeLabel: string;
  imageUrls: string[];
  board: BoardClipView[];
  boardUnsaved: boolean;
  /** The board takes changes now (not while a new one is being written). */
  boardEditable: boolean;
  canWriteBoard: boolean;
  writingBoard: boolean;
  canSaveBoard: boolean;
  savingBoard: boolean;
  /** What "Generate videos" costs, and why it cannot be pressed (null when it can). */
  generateCost: number;
  generateReason: string | null;
  canGenerate: boolean;
  generating: boolean;
  credit: number | null;
  /** What the album's open hold still keeps (0 without one): the clips are paid from it first. */
  held: number;
  clips: AlbumVideoView[];
  /** Polling waits while the page is hidden. */
  paused: boolean;
  audioUrl: string | null;
  additionalVideos: AdditionalVideo[];
  canAddVideo: boolean;
  editUnsaved: boolean;
  canSaveEdit: boolean;
  savingEdit: boolean;
  canJoin: boolean;
  joinReason: string | null;
  joining: boolean;
  joined: AlbumVideoView | null;
  canDelete: boolean;
  deleting: boolean;
  /** The last failure of an action on the page. */
  error: string | null;
}

const typeLabel = (type: BatchType): string => BATCH_TYPES.find((candidate) => candidate.value === type)?.label ?? type;

const phaseOf = (media: Media): JobPhase => {
  const status = classifyStatus(media.status);
  switch (status) {
    case 'success':
      return 'succeeded';
    case 'processing':
      return media.status.startsWith('queue') ? 'queued' : 'processing';
    default:
      return status;
  }
};

/** The camera of a video from its one preset (args.pose_preset), when the board does not say. */
const presetCamera = (media: Media): string | null => {
  const presets = media.args.pose_preset;
  const preset = Array.isArray(presets) ? (presets[0] as unknown) : presets;
  if (!isRecord(preset)) return null;
  const cameraPath = typeof preset.camera_path === 'string' ? preset.camera_path : null;
  const motionType = typeof preset.motion_type === 'string' ? preset.motion_type : '';
  return clipCameraLabel({ camera_path: cameraPath, motion_type: motionType });
};

const videoView = (media: Media, label: string): AlbumVideoView => {
  const item = media.items.find((candidate) => candidate.url) ?? media.items[0];
  return {
    id: media.id,
    label,
    phase: phaseOf(media),
    live: isLive(media),
    progress: media.progress,
    url: resultUrl(media),
    posterUrl: item?.thumbnail_url ?? null,
    error: media.error,
  };
};

/** The clips' videos in board order, each named after its place and camera. */
function clipViews(context: BatchContext): AlbumVideoView[] {
  const videos = context.batch?.videos ?? [];
  const clipById = new Map(context.board.map((clip) => [clip.id, clip]));
  const ordered = [...joinOrder(videos, context.videoClipIds, context.board)];
  // Running and failed videos too, after the finished ones in board order.
  for (const video of videos) if (!ordered.includes(video)) ordered.push(video);
  return ordered.map((video, index) => {
    const clip = clipById.get(context.videoClipIds[videos.indexOf(video)] ?? '');
    const camera = clip ? clipCameraLabel(clip) : (presetCamera(video) ?? '');
    return videoView(video, ALBUM_TEXTS.clips.label(index + 1, camera));
  });
}

function generateReason(snapshot: BatchSnapshot): string | null {
  const { context } = snapshot;
  if (hasLiveClips(context)) return ALBUM_TEXTS.generate.running;
  const problem = boardProblemOf(context);
  if (problem) return problem;
  if (!context.user) return ALBUM_TEXTS.generate.signIn;
  const cost = generateCostOf(context);
  // SPEC §6: the rule the machine applies before it sends anything, with the balance's loading.
  const check = affordability({ user: context.user, cost, credit: spendableOf(context), creditLoading: context.creditLoading });
  return check.affordable ? null : refusalMessage(check, 'job');
}

const statusOf = (snapshot: BatchSnapshot): AlbumPageStatus => {
  if (snapshot.matches('loading')) return 'loading';
  if (snapshot.matches('notFound')) return 'notFound';
  if (snapshot.matches('loadFailed')) return 'loadFailed';
  if (snapshot.matches('deleted')) return 'deleted';
  return 'loaded';
};

function buildAlbumView(snapshot: BatchSnapshot): AlbumView {
  const { context } = snapshot;
  const batchType: BatchType = context.batch?.batch_type === 'parallax' ? 'parallax' : 'ai';
  const board = context.board.map((clip, index) => ({
    clip,
    number: index + 1,
    cost: clipCost(batchType, clip),
    canMoveUp: index > 0,
    canMoveDown: index < context.board.length - 1,
  }));
  const reason = generateReason(snapshot);
  const canJoin = snapshot.can({ type: 'edit.join' });
  const concat = context.batch?.concat ?? null;
  return {
    status: statusOf(snapshot),
    title: context.batch?.title || ALBUM_TEXTS.untitled,
    batchType,
    typeLabel: typeLabel(batchType),
    imageUrls: context.batch?.image_urls ?? [],
    board,
    boardUnsaved: context.board.length > 0 && context.boardVersion !== context.savedBoardVersion,
    boardEditable: snapshot.can({ type: 'board.move', clipId: '', offset: 0 }),
    canWriteBoard: snapshot.can({ type: 'board.write' }),
    writingBoard: snapshot.matches('writingBoard'),
    canSaveBoard: snapshot.can({ type: 'board.save' }),
    savingBoard: snapshot.matches('savingBoard'),
    generateCost: generateCostOf(context),
    generateReason: reason,
    canGenerate: reason === null && snapshot.can({ type: 'batch.generate' }),
    generating: snapshot.matches('generating'),
    credit: context.credit,
    held: context.held,
    clips: clipViews(context),
    paused: snapshot.matches({ polling: 'paused' }),
    audioUrl: context.audioUrl,
    additionalVideos: context.additionalVideos,
    canAddVideo: context.additionalVideos.length < BATCH_ADDITIONAL_VIDEOS_MAX,
    editUnsaved: context.editVersion !== context.savedEditVersion,
    canSaveEdit: snapshot.can({ type: 'edit.save' }),
    savingEdit: snapshot.matches('editing'),
    canJoin,
    joinReason: joinUrlsOf(context).length + context.additionalVideos.length === 0 ? ALBUM_TEXTS.edit.joinNeedsVideos : null,
    joining: snapshot.matches('joining') || (concat !== null && isLive(concat)),
    joined: concat ? videoView(concat, ALBUM_TEXTS.edit.joined) : null,
    canDelete: selectCanDelete(snapshot),
    deleting: selectDeleting(snapshot),
    error: context.error,
  };
}

/**
 * Everything the album page shows; the same object for the same snapshot. Memoised on the whole
 * snapshot: the view reads its state (`can`, `matches`) as well as its context.
 */
export const selectAlbumView: (snapshot: BatchSnapshot) => AlbumView = createSelector(
  [(snapshot: BatchSnapshot) => snapshot],
  buildAlbumView,
);

/** "Delete album" can be pressed now. */
export const selectCanDelete = (snapshot: BatchSnapshot): boolean => snapshot.can({ type: 'batch.delete' });

export const selectDeleting = (snapshot: BatchSnapshot): boolean => snapshot.matches('deleting');

/**
 * The album's hold actor (one quote for the whole album) for the page's "This album" panel; null
 * until the album has a saved board (before it there is nothing to price, nor to hold).
 */
export const selectAlbumHoldRef = (snapshot: BatchSnapshot) =>
  (snapshot.context.batch?.script_board?.clips.length ?? 0) > 0 ? (snapshot.children.albumHold ?? null) : null;
