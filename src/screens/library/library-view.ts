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

/** The card's accessible name: its tool and its prompt. */
export const cardNameOf = (item: LibraryItem): string => LIBRARY_TEXTS.cardLabel(toolTitleOf(item), promptOf(item) ?? LIBRARY_TEXTS.untitled);

/** Every file of the result with its label and links (a job can make several). */
export const filesOf = (item: LibraryItem): ShownResult[] => shownResults(item).filter((result) => result.url !== '');

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
