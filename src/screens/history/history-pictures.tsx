import { Center, Group, Tooltip, UnstyledButton } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import type { ShownResult } from '@/components/media/media-result-card';
import { lightboxPictureId, useResultLightbox } from '@/components/media/result-lightbox';
import { HISTORY_TEXTS } from '@/config/history-texts';
import { LIBRARY_TEXTS } from '@/config/library-texts';
import { inspect } from '@/lib/inspection/hub';
import type { Media } from '@/machines/job-history/job-history.machine';
import { resultFileMachine } from '@/machines/result-file/result-file.machine';
import { selectBroken, selectFileUrl, selectThumbnailUrl } from '@/machines/result-file/result-file.selectors';
import { runPicturesOf } from '@/screens/history/history-view';

const THUMBNAIL_PX = 40;

/**
 * Every picture of a finished run (1–4, issue 21 item 7) as a small thumbnail: each a button (Tab
 * reaches it) that opens the page's lightbox there, its seed shown on hover and on focus and in
 * its name.
 */
export function RunPictures({ media, tool }: { media: Media; tool: string }) {
  const pictures = runPicturesOf(media);
  if (pictures.length === 0) return null;
  return (
    <Group gap={4} wrap="nowrap" role="group" aria-label={HISTORY_TEXTS.picturesOf(tool)}>
      {pictures.map((picture, index) => (
        <RunPicture key={picture.label} media={media} picture={picture} name={HISTORY_TEXTS.pictureLabel(index + 1, pictures.length, picture.seed)} />
      ))}
    </Group>
  );
}

/**
 * One thumbnail. Its signed link may run out while the page stays open: a picture that fails to
 * load gets a fresh link from its job (the resultFile machine, as the Library's cards do), and
 * says so when even that fails.
 */
function RunPicture({ media, picture, name }: { media: Media; picture: ShownResult; name: string }) {
  const open = useResultLightbox();
  const file = useActorRef(resultFileMachine, {
    inspect,
    input: { mediaId: media.id, itemIndex: picture.itemIndex, url: picture.url, thumbnailUrl: picture.thumbnailUrl },
  });
  const url = useSelector(file, selectFileUrl);
  const thumbnailUrl = useSelector(file, selectThumbnailUrl);
  const broken = useSelector(file, selectBroken);
  const size = { width: THUMBNAIL_PX, height: THUMBNAIL_PX };
  return (
    <Tooltip label={broken ? LIBRARY_TEXTS.fileNotLoaded : HISTORY_TEXTS.pictureSeed(picture.seed)} events={{ hover: true, focus: true, touch: true }} withArrow>
      <UnstyledButton
        aria-label={broken ? `${name}: ${LIBRARY_TEXTS.fileNotLoaded}` : name}
        onClick={() => open?.(lightboxPictureId(media.id, picture.label))}
        style={{ cursor: 'zoom-in', borderRadius: 4, flexShrink: 0 }}
      >
        {broken ? (
          <Center {...size} bg="red.0" c="red.8" fz="xs" style={{ borderRadius: 4 }} aria-hidden>
            !
          </Center>
        ) : (
          <img
            src={thumbnailUrl ?? url}
            alt=""
            loading="lazy"
            {...size}
            onError={() => file.send({ type: 'file.failed' })}
            style={{ objectFit: 'cover', borderRadius: 4, display: 'block' }}
          />
        )}
      </UnstyledButton>
    </Tooltip>
  );
}
