import { BATCH_JOIN_CREDITS, type BatchType } from '../config/batch';
import { DEFAULT_MOTION_MODEL, MOTION_MODELS } from '../config/motion-models';
import { creditsPerVideo, PARALLAX_OPTION, type VideoCreationType } from '../config/video-creation';

/**
 * Shared by the web app and the local server (relative imports): what one clip of an album costs
 * (the price POST batch/{id}/videos charges) and one quote for the whole album (issue 21 item 6):
 * every clip of its board not yet made at its model's price, plus the join. The server holds this
 * total (POST batch/{id}/hold); the album page shows it.
 */

/** The creation type each album type's clips are made as (their jobs' args.creation_type). */
export const CLIP_CREATION_TYPE: Readonly<Record<BatchType, VideoCreationType>> = {
  ai: 'ai-motion',
  parallax: 'parallax-motion',
};

/** The board clip fields a price reads (lib never imports services). */
interface PricedClip {
  id: string;
  model: string;
}

export interface ClipPrice {
  creationType: VideoCreationType;
  /** The clip job's model (its `option`): the clip's, the default when it names none, Parallax for parallax. */
  option: string;
  /** The model's name as a ledger row and a quote line say it. */
  modelLabel: string;
  price: number;
}

/** What one clip's video costs and with which model it is made: the one price the generation charges. */
export function albumClipPrice(type: BatchType, clip: Pick<PricedClip, 'model'>): ClipPrice {
  const creationType = CLIP_CREATION_TYPE[type];
  const option = type === 'parallax' ? PARALLAX_OPTION : clip.model || DEFAULT_MOTION_MODEL;
  const model = MOTION_MODELS.find((candidate) => candidate.value === option);
  return { creationType, option, modelLabel: model?.label ?? option, price: creditsPerVideo(creationType, model) };
}

/** How far a clip's video of the album's last generation is (undefined: none was made). */
export interface ClipVideo {
  /** The model it was made with (its job's `option`). */
  option: string;
  state: 'running' | 'made' | 'ended';
}

export interface AlbumQuoteLine {
  /** `clips`: clips of one model still to make; `join`: joining them into one video. */
  part: 'clips' | 'join';
  /** The clips' model ("Parallax" for a parallax album); absent on the join. */
  label?: string;
  count: number;
  each: number;
  total: number;
}

export interface AlbumQuote {
  lines: AlbumQuoteLine[];
  total: number;
}

/**
 * The price of everything the album still has to make: each clip of the board whose last video
 * failed, was cancelled, was made with another model or was never made, one line per model, and
 * the join when the album is not joined yet (or its clips are to be made again).
 */
export function albumQuote(
  type: BatchType,
  clips: readonly PricedClip[],
  videoOf: (clipId: string) => ClipVideo | undefined,
  joined: boolean,
): AlbumQuote {
  const lines: AlbumQuoteLine[] = [];
  for (const clip of clips) {
    const { option, modelLabel, price } = albumClipPrice(type, clip);
    const video = videoOf(clip.id);
    if (video && video.state !== 'ended' && video.option === option) continue;
    const line = lines.find((entry) => entry.label === modelLabel && entry.each === price);
    if (line) {
      line.count += 1;
      line.total += price;
    } else lines.push({ part: 'clips', label: modelLabel, count: 1, each: price, total: price });
  }
  if (clips.length > 0 && (lines.length > 0 || !joined)) lines.push({ part: 'join', count: 1, each: BATCH_JOIN_CREDITS, total: BATCH_JOIN_CREDITS });
  return { lines, total: lines.reduce((sum, line) => sum + line.total, 0) };
}
