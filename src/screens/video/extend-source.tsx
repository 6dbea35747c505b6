import { Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { VIDEO_TEXTS } from '@/config/video-texts';
import type { SourceVideoView } from '@/machines/media-source/media-source.selectors';

interface ExtendSourceProps {
  /** Null while signed out: the person's video cannot be read then. */
  view: SourceVideoView | null;
  canRetry: boolean;
  onRetry: () => void;
}

/** Extend Video: the video being extended, playable, or why it is not there. */
export function ExtendSource({ view, canRetry, onRetry }: ExtendSourceProps) {
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="extend-source-heading">
      <Stack gap="sm">
        <Title order={2} size="h4" id="extend-source-heading">
          {VIDEO_TEXTS.sourceHeading}
        </Title>
        {view === null && <Text c="dimmed">{VIDEO_TEXTS.sourceSignIn}</Text>}
        {view?.phase === 'loading' && (
          <Group gap="xs">
            <Loader size="xs" />
            <Text size="sm">{VIDEO_TEXTS.sourceLoading}</Text>
          </Group>
        )}
        {view?.phase === 'failed' && (
          <Group gap="sm">
            <Text size="sm" c="red" role="alert">
              {VIDEO_TEXTS.sourceFailed(view.error ?? '')}
            </Text>
            {canRetry && (
              <Button variant="default" size="xs" onClick={onRetry}>
                {VIDEO_TEXTS.sourceRetry}
              </Button>
            )}
          </Group>
        )}
        {view?.phase === 'unavailable' && (
          <Text size="sm" c="red" role="alert">
            {VIDEO_TEXTS.sourceUnavailable}
          </Text>
        )}
        {view?.phase === 'ready' && view.url && (
          <video
            controls
            preload="metadata"
            src={view.url}
            poster={view.thumbnailUrl ?? undefined}
            aria-label={VIDEO_TEXTS.sourceLabel(view.label ?? '')}
            style={{ width: '100%', maxHeight: 360, borderRadius: 'var(--mantine-radius-md)', background: 'black' }}
          />
        )}
      </Stack>
    </Paper>
  );
}
