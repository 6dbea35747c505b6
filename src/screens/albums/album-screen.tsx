import { Alert, Anchor, Button, Container, Group, Paper, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { shallowEqual } from '@xstate/react';
import { useEffect, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { SessionActorContext } from '@/components/session/session-context';
import { ALBUM_TEXTS } from '@/config/album-texts';
import { ROUTES } from '@/config/routes';
import { selectAlbumHoldRef, selectAlbumView } from '@/machines/batch/batch.selectors';
import { selectCurrentUserId, selectIsSignedIn } from '@/machines/session/session.selectors';
import { AlbumBoard } from '@/screens/albums/album-board';
import { AlbumDelete } from '@/screens/albums/album-delete';
import { AlbumJoin, AlbumVideos } from '@/screens/albums/album-videos';
import { BatchActorContext } from '@/screens/albums/batch-context';
import { ProjectHoldPanel } from '@/screens/project-hold/project-hold-panel';
import { BATCH_HELP_TOPICS } from '@/screens/albums/new-album-form';
import { ToolHelpButton } from '@/screens/tools/tool-help-button';
import { ToolPageHeader } from '@/screens/tools/tool-page-header';
import { inspect } from '@/lib/inspection/hub';
import { isPageHidden } from '@/lib/page-hidden';

const TOAST_COLORS = { error: 'red' } as const;

/**
 * What the album announces, shown: its toasts, and leaving a deleted album for the list. The
 * person, their balance, the page's visibility and the balance refresh go through the album's own
 * actors (batch.machine.ts), not through React.
 */
function useAlbumAnnouncements(): void {
  const album = BatchActorContext.useActorRef();
  const navigate = useNavigate();
  useEffect(() => {
    const subscriptions = [
      album.on('batch.notify', (event) =>
        notifications.show({ color: TOAST_COLORS[event.tone], title: event.title, message: event.message }),
      ),
      album.on('batch.deleted', () => void navigate(ROUTES.aiVideo.albums)),
    ];
    return () => subscriptions.forEach((subscription) => subscription.unsubscribe());
  }, [album, navigate]);
}

/** The album's pictures in a row. */
function PictureStrip({ urls }: { urls: string[] }) {
  return (
    <Stack gap="xs" component="section" aria-labelledby="album-pictures-heading">
      <Title order={2} size="h3" id="album-pictures-heading">
        {ALBUM_TEXTS.album.picturesHeading}
      </Title>
      <ScrollArea type="auto" offsetScrollbars>
        <Group gap="sm" wrap="nowrap">
          {urls.map((url, index) => (
            <img
              key={url}
              src={url}
              alt={ALBUM_TEXTS.album.pictureAlt(index + 1)}
              style={{ height: 96, width: 'auto', borderRadius: 6, objectFit: 'cover' }}
            />
          ))}
        </Group>
      </ScrollArea>
    </Stack>
  );
}

/** One quote for the whole album (issue 21 item 6): "This album", the price of what is left, Hold and Release. */
function AlbumHold() {
  const hold = BatchActorContext.useSelector(selectAlbumHoldRef);
  return hold ? <ProjectHoldPanel hold={hold} /> : null;
}

function AlbumPage() {
  useAlbumAnnouncements();
  const album = BatchActorContext.useActorRef();
  const view = BatchActorContext.useSelector(selectAlbumView, shallowEqual);
  const header = (title: string, aside?: ReactNode) => (
    <ToolPageHeader title={title} groupLabel={ALBUM_TEXTS.albumsLink} groupPath={ROUTES.aiVideo.albums} aside={aside} />
  );

  if (view.status === 'loading' || view.status === 'deleted') {
    return (
      <Stack gap="lg">
        {header(ALBUM_TEXTS.album.title)}
        <Text c="dimmed" role="status">
          {ALBUM_TEXTS.album.loading}
        </Text>
      </Stack>
    );
  }
  if (view.status === 'notFound' || view.status === 'loadFailed') {
    return (
      <Stack gap="lg">
        {header(ALBUM_TEXTS.album.title)}
        <Alert color={view.status === 'notFound' ? 'yellow' : 'red'} role="alert">
          <Stack gap="xs">
            <Text>{view.status === 'notFound' ? ALBUM_TEXTS.album.notFound : ALBUM_TEXTS.album.loadFailed}</Text>
            {view.error && <Text size="sm">{view.error}</Text>}
            <Group>
              <Button variant="default" size="xs" onClick={() => album.send({ type: 'batch.reload' })}>
                {ALBUM_TEXTS.album.retry}
              </Button>
              <Anchor component={Link} to={ROUTES.aiVideo.albums} size="sm">
                {ALBUM_TEXTS.album.backToAlbums}
              </Anchor>
            </Group>
          </Stack>
        </Alert>
      </Stack>
    );
  }
  return (
    <Stack gap="lg">
      {header(view.title, <ToolHelpButton topicIndex={BATCH_HELP_TOPICS[view.batchType]} />)}
      <Text c="dimmed">{ALBUM_TEXTS.album.typeLine(view.typeLabel, view.imageUrls.length)}</Text>
      {view.error && (
        <Alert color="red" role="alert">
          {view.error}
        </Alert>
      )}
      <PictureStrip urls={view.imageUrls} />
      <AlbumHold />
      <AlbumBoard />
      <AlbumVideos />
      <AlbumJoin />
      <AlbumDelete />
    </Stack>
  );
}

/** /ai-video/albums/:id: one AI batch or parallax batch album (issue 5). */
export function AlbumScreen({ id }: { id: string }) {
  const signedIn = SessionActorContext.useSelector(selectIsSignedIn);
  const userId = SessionActorContext.useSelector(selectCurrentUserId);
  const session = SessionActorContext.useActorRef();
  return (
    <Container size="md" py="xl">
      {signedIn ? (
        // One actor per album and person; it follows the person and their balance through the session.
        <BatchActorContext.Provider
          key={`${userId ?? ''}/${id}`}
          options={{ id: 'batch', input: { batchId: id, hidden: isPageHidden(), session }, inspect }}
        >
          <AlbumPage />
        </BatchActorContext.Provider>
      ) : (
        <Stack gap="lg">
          <ToolPageHeader title={ALBUM_TEXTS.album.title} groupLabel={ALBUM_TEXTS.albumsLink} groupPath={ROUTES.aiVideo.albums} />
          <Paper withBorder p="lg" radius="md">
            <Anchor component={Link} to={ROUTES.authentication}>
              {ALBUM_TEXTS.signIn}
            </Anchor>
          </Paper>
        </Stack>
      )}
    </Container>
  );
}
