import type { SnapshotFrom } from 'xstate';
import { stringArg } from '@/lib/records';
import type { mediaSourceMachine } from '@/machines/media-source/media-source.machine';

export type MediaSourceSnapshot = SnapshotFrom<typeof mediaSourceMachine>;

/** `unavailable`: the media loaded, but the chosen item is not a finished video with a URL. */
export type SourcePhase = 'loading' | 'ready' | 'unavailable' | 'failed';

export interface SourceVideoView {
  phase: SourcePhase;
  /** The video's signed URL: what the new job is given as `video_url`. */
  url: string | null;
  thumbnailUrl: string | null;
  /** The item's label (SPEC §3 "{run}.{index}.{option}") when the server gave one. */
  label: string | null;
  error: string | null;
}

const views = new WeakMap<MediaSourceSnapshot, SourceVideoView>();

const view = (snapshot: MediaSourceSnapshot): SourceVideoView => {
  const { media, itemIndex, error } = snapshot.context;
  if (snapshot.matches('loading')) return { phase: 'loading', url: null, thumbnailUrl: null, label: null, error: null };
  if (snapshot.matches('failed')) return { phase: 'failed', url: null, thumbnailUrl: null, label: null, error };
  const item = media?.items[itemIndex];
  if (!media || media.kind !== 'video' || !item || item.type !== 'video' || !item.url) {
    return { phase: 'unavailable', url: null, thumbnailUrl: null, label: null, error: null };
  }
  return { phase: 'ready', url: item.url, thumbnailUrl: item.thumbnail_url, label: item.label ?? null, error: null };
};

/** The source video as the page shows it; the same object for the same snapshot. */
export function selectSourceVideo(snapshot: MediaSourceSnapshot): SourceVideoView {
  let result = views.get(snapshot);
  if (!result) {
    result = view(snapshot);
    views.set(snapshot, result);
  }
  return result;
}

/** A picture source (AI Motion's `?image=`) once loaded: the media, its item, and a name to show. */
export interface SourcePicture {
  media: NonNullable<MediaSourceSnapshot['context']['media']>;
  itemIndex: number;
  /** Named as the asset picker names a result: its title, else its prompt, else its file name. */
  name: string;
}

const pictures = new WeakMap<NonNullable<MediaSourceSnapshot['context']['media']>, SourcePicture>();

/** The picture when the chosen item is a finished picture with a URL, else null; the same object for the same media. */
export function selectSourcePicture(snapshot: MediaSourceSnapshot): SourcePicture | null {
  const { media, itemIndex } = snapshot.context;
  const item = media?.items[itemIndex];
  if (!snapshot.matches('ready') || !media || media.kind !== 'image' || item?.type !== 'image' || !item.url) return null;
  let picture = pictures.get(media);
  if (!picture) {
    const name = media.title || stringArg(media.args, 'prompt') || stringArg(media.args, 'filename') || media.tool;
    picture = { media, itemIndex, name };
    pictures.set(media, picture);
  }
  return picture;
}

export const selectCanRetrySource = (snapshot: MediaSourceSnapshot): boolean => snapshot.can({ type: 'source.retry' });
