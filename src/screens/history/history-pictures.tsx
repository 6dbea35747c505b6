import { Group, Tooltip, UnstyledButton } from '@mantine/core';
import { lightboxPictureId, useResultLightbox } from '@/components/media/result-lightbox';
import { HISTORY_TEXTS } from '@/config/history-texts';
import type { Media } from '@/machines/job-history/job-history.machine';
import { runPicturesOf } from '@/screens/history/history-view';

const THUMBNAIL_PX = 40;

/**
 * Every picture of a finished run (1–4, issue 21 item 7) as a small thumbnail: each a button (Tab
 * reaches it) that opens the page's lightbox there, its seed shown on hover and on focus and in
 * its name.
 */
export function RunPictures({ media, tool }: { media: Media; tool: string }) {
  const open = useResultLightbox();
  const pictures = runPicturesOf(media);
  if (pictures.length === 0) return null;
  return (
    <Group gap={4} wrap="nowrap" role="group" aria-label={HISTORY_TEXTS.picturesOf(tool)}>
      {pictures.map((picture, index) => (
        <Tooltip key={picture.label} label={HISTORY_TEXTS.pictureSeed(picture.seed)} events={{ hover: true, focus: true, touch: true }} withArrow>
          <UnstyledButton
            aria-label={HISTORY_TEXTS.pictureLabel(index + 1, pictures.length, picture.seed)}
            onClick={() => open?.(lightboxPictureId(media.id, picture.label))}
            style={{ cursor: 'zoom-in', borderRadius: 4, flexShrink: 0 }}
          >
            <img
              src={picture.thumbnailUrl ?? picture.url}
              alt=""
              loading="lazy"
              width={THUMBNAIL_PX}
              height={THUMBNAIL_PX}
              style={{ objectFit: 'cover', borderRadius: 4, display: 'block' }}
            />
          </UnstyledButton>
        </Tooltip>
      ))}
    </Group>
  );
}
