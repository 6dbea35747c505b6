import { createSelector } from 'reselect';
import type { SnapshotFrom } from 'xstate';
import { ALBUM_TEXTS } from '@/config/album-texts';
import { BATCH_TYPES } from '@/config/batch';
import type { albumsMachine, Batch } from '@/machines/batch/albums.machine';

export type AlbumsSnapshot = SnapshotFrom<typeof albumsMachine>;

/** One row of the albums list. */
export interface AlbumRow {
  id: string;
  title: string;
  typeLabel: string;
  pictureCount: number;
  createdAt: string;
}

const rowOf = (album: Batch): AlbumRow => ({
  id: album.id,
  title: album.title || ALBUM_TEXTS.untitled,
  typeLabel: BATCH_TYPES.find((type) => type.value === album.batch_type)?.label ?? album.batch_type,
  pictureCount: album.image_urls.length,
  createdAt: album.created_at,
});

const createdTime = (album: Batch): number => {
  const time = Date.parse(album.created_at);
  return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
};

/** The albums, newest first whatever order the server sent; the same array until the list changes. */
export const selectAlbumRows: (snapshot: AlbumsSnapshot) => AlbumRow[] = createSelector(
  [(snapshot: AlbumsSnapshot) => snapshot.context.albums],
  (albums) => [...albums].sort((a, b) => createdTime(b) - createdTime(a)).map(rowOf),
);

/** The first load is still running (an empty list means "not yet", not "none"). */
export const selectAlbumsLoading = (snapshot: AlbumsSnapshot): boolean =>
  snapshot.matches({ list: 'loading' }) && snapshot.context.albums.length === 0;

export const selectCreating = (snapshot: AlbumsSnapshot): boolean => snapshot.matches({ form: 'creating' });

export const selectCreateError = (snapshot: AlbumsSnapshot): string | null => snapshot.context.createError;
