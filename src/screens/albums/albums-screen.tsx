import { Anchor, Container, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { SessionActorContext } from '@/components/session/session-context';
import { ALBUM_TEXTS } from '@/config/album-texts';
import { ROUTES } from '@/config/routes';
import { albumsMachine } from '@/machines/batch/albums.machine';
import {
  selectAlbumRows,
  selectAlbumsLoading,
  selectCreateError,
  selectCreating,
} from '@/machines/batch/albums.selectors';
import { selectCurrentUserId, selectIsSignedIn } from '@/machines/session/session.selectors';
import { NewAlbumForm } from '@/screens/albums/new-album-form';
import { ToolPageHeader } from '@/screens/tools/tool-page-header';
import { formatDate } from '@/lib/format';
import { inspect } from '@/lib/inspection/hub';

/** The person's albums, then the form making a new one (which opens once created). */
function Albums() {
  const albums = useActorRef(albumsMachine, { inspect });
  const rows = useSelector(albums, selectAlbumRows);
  const loading = useSelector(albums, selectAlbumsLoading);
  const creating = useSelector(albums, selectCreating);
  const createError = useSelector(albums, selectCreateError);
  const navigate = useNavigate();

  useEffect(() => {
    const subscription = albums.on('albums.created', (event) => void navigate(ROUTES.aiVideo.album(event.id)));
    return () => subscription.unsubscribe();
  }, [albums, navigate]);

  return (
    <Stack gap="lg">
      <Stack gap="sm" component="section" aria-labelledby="albums-heading">
        <Title order={2} size="h3" id="albums-heading">
          {ALBUM_TEXTS.yourAlbums}
        </Title>
        {loading ? (
          <Text c="dimmed" role="status">
            {ALBUM_TEXTS.loading}
          </Text>
        ) : rows.length === 0 ? (
          <Text c="dimmed">{ALBUM_TEXTS.empty}</Text>
        ) : (
          <Table striped highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{ALBUM_TEXTS.columns.title}</Table.Th>
                <Table.Th>{ALBUM_TEXTS.columns.type}</Table.Th>
                <Table.Th>{ALBUM_TEXTS.columns.pictures}</Table.Th>
                <Table.Th>{ALBUM_TEXTS.columns.created}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.id}>
                  <Table.Td>
                    <Anchor component={Link} to={ROUTES.aiVideo.album(row.id)}>
                      {row.title}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{row.typeLabel}</Table.Td>
                  <Table.Td>{ALBUM_TEXTS.pictureCount(row.pictureCount)}</Table.Td>
                  <Table.Td>
                    <time dateTime={row.createdAt}>{formatDate(row.createdAt)}</time>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
      <NewAlbumForm
        creating={creating}
        error={createError}
        onCreate={(album) => albums.send({ type: 'albums.create', ...album })}
      />
    </Stack>
  );
}

/** /ai-video/albums: AI batch and parallax batch albums (SPEC §1, issue 5). */
export function AlbumsScreen() {
  const signedIn = SessionActorContext.useSelector(selectIsSignedIn);
  const userId = SessionActorContext.useSelector(selectCurrentUserId);
  return (
    <Container size="md" py="xl">
      <Stack gap="lg">
        <ToolPageHeader title={ALBUM_TEXTS.listTitle} groupLabel={ALBUM_TEXTS.groupLabel} groupPath={ROUTES.aiVideo.root}>
          <Text c="dimmed">{ALBUM_TEXTS.intro}</Text>
        </ToolPageHeader>
        {signedIn ? (
          // A new person gets their own list and a fresh form.
          <Albums key={userId ?? ''} />
        ) : (
          <Paper withBorder p="lg" radius="md">
            <Anchor component={Link} to={ROUTES.authentication}>
              {ALBUM_TEXTS.signIn}
            </Anchor>
          </Paper>
        )}
      </Stack>
    </Container>
  );
}
