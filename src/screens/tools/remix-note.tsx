import { Alert, Loader, Group, Text } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import type { MediaKind } from '@/config/enums';
import { ITEM_DONE_STATUS } from '@/config/enums';
import type { GenerationToolSpec } from '@/config/generation-tools';
import { REMIX_TEXTS } from '@/config/history-texts';
import { jobToolOf } from '@/config/job-tools';
import { inspect } from '@/lib/inspection/hub';
import { mediaSourceMachine, type Media } from '@/machines/media-source/media-source.machine';
import type { MediaSourceSnapshot } from '@/machines/media-source/media-source.selectors';

/** The loaded job once `ready`, else null. */
const selectRemixMedia = (snapshot: MediaSourceSnapshot): Media | null => (snapshot.matches('ready') ? snapshot.context.media : null);
const selectRemixError = (snapshot: MediaSourceSnapshot): string | null => (snapshot.matches('failed') ? snapshot.context.error : null);

/**
 * A past job's input file as an upload field holds it (as if chosen from the person's assets), so
 * the field shows it and the form sends its URL.
 */
export function remixInput(job: Media, url: string, kind: MediaKind, name: string): { media: Media; itemIndex: number; name: string } {
  return {
    media: {
      ...job,
      kind,
      items: [{ type: kind, status: ITEM_DONE_STATUS, url, thumbnail_url: kind === 'image' ? url : null, file_id: null }],
    },
    itemIndex: 0,
    name,
  };
}

export interface RemixNoteProps {
  mediaId: string;
  spec: GenerationToolSpec;
  /** Called once with the job when it is this tool's: the form takes its parameters. */
  onFill: (media: Media) => void;
}

/**
 * `?remix={mediaId}` on a generation tool page: the past job is loaded (GET media/{id}, the page's
 * mediaSource actor), and when it is this tool's the form is filled in from it, once; the note says
 * so, or why the form was left as it was (another tool's job, a job that could not be read).
 */
export function RemixNote({ mediaId, spec, onFill }: RemixNoteProps) {
  const source = useActorRef(mediaSourceMachine, { id: 'remixSource', input: { mediaId, itemIndex: 0 }, inspect });
  const media = useSelector(source, selectRemixMedia);
  const error = useSelector(source, selectRemixError);
  const [dismissed, setDismissed] = useState(false);
  const filled = useRef(false);
  const onFillRef = useRef(onFill);
  useEffect(() => {
    onFillRef.current = onFill;
  });
  const sameTool = media !== null && media.tool === spec.slug;

  useEffect(() => {
    if (!media || !sameTool || filled.current) return;
    filled.current = true;
    onFillRef.current(media);
  }, [media, sameTool]);

  if (dismissed) return null;
  if (!media && !error) {
    return (
      <Group gap="xs" role="status">
        <Loader size="xs" />
        <Text size="sm">{REMIX_TEXTS.loading}</Text>
      </Group>
    );
  }
  const close = { withCloseButton: true, closeButtonLabel: REMIX_TEXTS.dismiss, onClose: () => setDismissed(true) };
  if (error !== null) {
    return (
      <Alert color="red" role="alert" {...close}>
        {REMIX_TEXTS.failed(error)}
      </Alert>
    );
  }
  if (!sameTool) {
    return (
      <Alert color="yellow" role="alert" {...close}>
        {REMIX_TEXTS.otherTool(jobToolOf(media?.tool ?? '').title)}
      </Alert>
    );
  }
  return (
    <Alert color="blue" role="status" {...close}>
      {REMIX_TEXTS.filled}
    </Alert>
  );
}
