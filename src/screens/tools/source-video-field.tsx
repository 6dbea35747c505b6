import { Button, Group, Input, Loader, Stack, Text } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useId, useRef } from 'react';
import { TOOL_TEXTS } from '@/config/job-texts';
import { mediaSourceMachine } from '@/machines/media-source/media-source.machine';
import { selectCanRetrySource, selectSourceVideo } from '@/machines/media-source/media-source.selectors';
import { inspect } from '@/lib/inspection/hub';

interface SourceVideoFieldProps {
  /** The media and the place of the result in its items (`?video={mediaId}&item={index}`). */
  mediaId: string;
  itemIndex: number;
  label: string;
  required: boolean;
  error?: string;
  /** Called with the video's URL once it is loaded, and with null while it is not. */
  onChange: (url: string | null) => void;
  /** The person would rather upload (or pick) another video. */
  onDismiss: () => void;
}

/**
 * A video input filled with one of the person's results (the "Edit" link of a video result): the
 * video, playable, is the input until the person chooses another one.
 */
export function SourceVideoField({ mediaId, itemIndex, label, required, error, onChange, onDismiss }: SourceVideoFieldProps) {
  const source = useActorRef(mediaSourceMachine, { input: { mediaId, itemIndex }, inspect });
  const view = useSelector(source, selectSourceVideo);
  const canRetry = useSelector(source, selectCanRetrySource);
  const errorId = useId();

  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  });
  useEffect(() => {
    onChangeRef.current(view.phase === 'ready' ? view.url : null);
  }, [view.phase, view.url]);

  return (
    <Input.Wrapper label={label} required={required} error={error} errorProps={{ id: errorId }}>
      <Stack gap="xs" mt={4}>
        {view.phase === 'loading' && (
          <Group gap="xs">
            <Loader size="xs" />
            <Text size="sm">{TOOL_TEXTS.sourceVideo.loading}</Text>
          </Group>
        )}
        {view.phase === 'failed' && (
          <Group gap="sm">
            <Text size="sm" c="red" role="alert">
              {TOOL_TEXTS.sourceVideo.failed(view.error ?? '')}
            </Text>
            {canRetry && (
              <Button variant="default" size="xs" onClick={() => source.send({ type: 'source.retry' })}>
                {TOOL_TEXTS.sourceVideo.retry}
              </Button>
            )}
          </Group>
        )}
        {view.phase === 'unavailable' && (
          <Text size="sm" c="red" role="alert">
            {TOOL_TEXTS.sourceVideo.unavailable}
          </Text>
        )}
        {view.phase === 'ready' && view.url && (
          <video
            controls
            preload="metadata"
            src={view.url}
            poster={view.thumbnailUrl ?? undefined}
            aria-label={TOOL_TEXTS.sourceVideo.player(label, view.label)}
            aria-describedby={error ? errorId : undefined}
            style={{ width: '100%', maxHeight: 240, borderRadius: 'var(--mantine-radius-md)', background: 'black' }}
          />
        )}
        <Group>
          <Button variant="subtle" size="compact-xs" onClick={onDismiss}>
            {TOOL_TEXTS.sourceVideo.useAnother}
          </Button>
        </Group>
      </Stack>
    </Input.Wrapper>
  );
}
