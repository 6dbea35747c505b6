import { createSelector } from 'reselect';
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

type Media = NonNullable<MediaSourceSnapshot['context']['media']>;

/** Where the load stands: `settled` is the ready state, where the item decides the phase. */
const loadOf = (snapshot: MediaSourceSnapshot): 'loading' | 'failed' | 'settled' =>
  snapshot.matches('loading') ? 'loading' : snapshot.matches('failed') ? 'failed' : 'settled';

const view = (load: 'loading' | 'failed' | 'settled', media: Media | null, itemIndex: number, error: string | null): SourceVideoView => {
  if (load === 'loading') return { phase: 'loading', url: null, thumbnailUrl: null, label: null, error: null };
  if (load === 'failed') return { phase: 'failed', url: null, thumbnailUrl: null, label: null, error };
  const item = media?.items[itemIndex];
  if (!media || media.kind !== 'video' || !item || item.type !== 'video' || !item.url) {
    return { phase: 'unavailable', url: null, thumbnailUrl: null, label: null, error: null };
  }
  return { phase: 'ready', url: item.url, thumbnailUrl: item.thumbnail_url, label: item.label ?? null, error: null };
};

/** The source video as the page shows it; the same object while what it is made of stays the same. */
export const selectSourceVideo: (snapshot: MediaSourceSnapshot) => SourceVideoView = createSelector(
  [
    loadOf,
    (snapshot: MediaSourceSnapshot) => snapshot.context.media,
    (snapshot: MediaSourceSnapshot) => snapshot.context.itemIndex,
    (snapshot: MediaSourceSnapshot) => snapshot.context.error,
  ],
  view,
);

/** A picture source (AI Motion's `?image=`) once loaded: the media, its item, and a name to show. */
export interface SourcePicture {
  media: Media;
  itemIndex: number;
  /** Named as the asset picker names a result: its title, else its prompt, else its file name. */
  name: string;
}

/** The picture when the chosen item is a finished picture with a URL, else null; the same object for the same media. */
export const selectSourcePicture: (snapshot: MediaSourceSnapshot) => SourcePicture | null = createSelector(
  [
    (snapshot: MediaSourceSnapshot) => (snapshot.matches('ready') ? snapshot.context.media : null),
    (snapshot: MediaSourceSnapshot) => snapshot.context.itemIndex,
  ],
  (media, itemIndex): SourcePicture | null => {
    const item = media?.items[itemIndex];
    if (!media || media.kind !== 'image' || item?.type !== 'image' || !item.url) return null;
    const name = media.title || stringArg(media.args, 'prompt') || stringArg(media.args, 'filename') || media.tool;
    return { media, itemIndex, name };
  },
);

export const selectCanRetrySource = (snapshot: MediaSourceSnapshot): boolean => snapshot.can({ type: 'source.retry' });
