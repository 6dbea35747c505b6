import { shownResults, type ShownResult } from '@/components/media/media-result-card';
import { lightboxPictureId, type LightboxPicture } from '@/components/media/result-lightbox';
import { jobToolOf } from '@/config/job-tools';
import { LIBRARY_TEXTS } from '@/config/library-texts';
import type { LibraryItem } from '@/machines/library/library.machine';

/**
 * How the Library reads a result (pure, so the rules read and are tested apart from the JSX): its
 * tool's title, its prompt, the file its card shows and the pictures its lightbox pages through.
 */

/** The tool that made it, by title; an upload is an upload. */
export const toolTitleOf = (item: LibraryItem): string => (item.tool.startsWith('upload-') ? LIBRARY_TEXTS.upload : jobToolOf(item.tool).title);

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

/** The prompt (or spoken text) it was made from, if any. */
export const promptOf = (item: LibraryItem): string | null => text(item.args.prompt) ?? text(item.args.text);

/** Every file of the result with its label and links (a job can make several). */
export const filesOf = (item: LibraryItem): ShownResult[] => shownResults(item).filter((result) => result.url !== '');

/**
 * One card of the grid: a result, or one picture of a run of several (issue 21 item 7: a run of
 * 2–4 pictures is one result with a result item per picture; each picture gets its own card, with
 * its own seed and Download, while Show in History and the folders are the run's).
 */
export interface LibraryCardEntry {
  /** Unique in the grid (the result's id, and the picture's label for a run's picture). */
  key: string;
  item: LibraryItem;
  /** The file the card shows; null when the result has none to show. */
  file: ShownResult | null;
  /** The picture's place in its run (from 1) and the run's pictures; 1 of 1 for any other result. */
  index: number;
  count: number;
}

/** The grid's cards, in the results' order: a run of several pictures gives one card per picture. */
export const libraryCardsOf = (items: readonly LibraryItem[]): LibraryCardEntry[] =>
  items.flatMap((item) => {
    const files = filesOf(item);
    if (item.kind === 'image' && files.length > 1) {
      return files.map((file, index) => ({ key: lightboxPictureId(item.id, file.label), item, file, index: index + 1, count: files.length }));
    }
    return [{ key: item.id, item, file: files[0] ?? null, index: 1, count: 1 }];
  });

/** The card's accessible name: its tool and its prompt (and which picture of its run). */
export function cardNameOf(item: LibraryItem, picture: Pick<LibraryCardEntry, 'index' | 'count'> = { index: 1, count: 1 }): string {
  const prompt = promptOf(item) ?? LIBRARY_TEXTS.untitled;
  return picture.count > 1
    ? LIBRARY_TEXTS.pictureCardLabel(toolTitleOf(item), prompt, picture.index, picture.count)
    : LIBRARY_TEXTS.cardLabel(toolTitleOf(item), prompt);
}

/** The pictures of the listed results, in the grid's order, for one lightbox over the page. */
export function lightboxPicturesOf(items: readonly LibraryItem[]): LightboxPicture[] {
  return items
    .filter((item) => item.kind === 'image')
    .flatMap((item) =>
      filesOf(item).map((file) => ({
        id: lightboxPictureId(item.id, file.label),
        url: file.url,
        label: file.label,
        alt: promptOf(item) ? `${file.label}: ${promptOf(item) ?? ''}` : file.label,
      })),
    );
}
