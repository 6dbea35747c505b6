import { Alert, Anchor, Badge, Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import { Link } from 'react-router-dom';
import { resultPath } from '@/components/jobs/job-view';
import { SessionActorContext } from '@/components/session/session-context';
import { ROUTES } from '@/config/routes';
import { SHARING_TEXTS } from '@/config/sharing-texts';
import { sharedItemMachine, type Media } from '@/machines/content/shared-item.machine';
import { selectSharedItemStatus, selectSharedMedia } from '@/machines/content/shared-item.selectors';
import { selectCurrentUserId, selectHandle } from '@/machines/session/session.selectors';
import { ContentPlayer, OwnerLink } from '@/screens/content/content-grid';
import { inspect } from '@/lib/inspection/hub';

const TEXTS = SHARING_TEXTS.shared;

/** Whether the signed-in person is the one who shared it. */
const isOwnedBy = (media: Media, userId: string | null, handle: string | null): boolean => {
  const owner = media.owner;
  if (!owner) return false;
  if (userId !== null && owner.id === userId) return true;
  return handle !== null && owner.preferred_username?.toLowerCase() === handle.toLowerCase();
};

function SharedItem({ media }: { media: Media }) {
  const userId = SessionActorContext.useSelector(selectCurrentUserId);
  const handle = SessionActorContext.useSelector(selectHandle);
  const title = media.title || SHARING_TEXTS.listing.untitled;
  const file = media.items.find((item) => item.url);
  const owned = isOwnedBy(media, userId, handle);
  const backPath = owned ? resultPath({ tool: media.tool, mediaId: media.id }) : null;

  return (
    <Stack gap="md" component="article" aria-labelledby="shared-title">
      <Title order={1} id="shared-title">
        {title}
      </Title>
      <Text size="sm" c="dimmed">
        {media.owner && (
          <>
            {TEXTS.by} <OwnerLink owner={media.owner} />
            {' · '}
          </>
        )}
        {media.shared_at && <time dateTime={media.shared_at}>{SHARING_TEXTS.listing.sharedOn(media.shared_at)}</time>}
      </Text>
      {media.visibility === 'unlisted' && (
        <Badge variant="light" color="gray" style={{ textTransform: 'none', alignSelf: 'flex-start' }}>
          {TEXTS.unlisted}
        </Badge>
      )}
      {file ? (
        <div style={{ maxWidth: 960 }}>
          <ContentPlayer item={{ kind: file.type, url: file.url, thumbnail_url: file.thumbnail_url }} title={title} />
        </div>
      ) : (
        <Text c="dimmed">{TEXTS.noFile}</Text>
      )}
      {media.description && <Text style={{ whiteSpace: 'pre-line' }}>{media.description}</Text>}
      <Group gap="md">
        {owned && backPath && (
          <Anchor component={Link} to={backPath}>
            {TEXTS.ownerBack}
          </Anchor>
        )}
        {owned && media.owner?.preferred_username && (
          <Anchor component={Link} to={ROUTES.profile(media.owner.preferred_username)}>
            {TEXTS.ownerProfile}
          </Anchor>
        )}
        <Anchor component={Link} to={ROUTES.latest}>
          {TEXTS.latestLink}
        </Anchor>
      </Group>
    </Stack>
  );
}

/** /shared/:id: one shared result (public or unlisted), viewable signed out. */
export function SharedScreen({ id }: { id: string }) {
  const shared = useActorRef(sharedItemMachine, { input: { id }, inspect });
  const status = useSelector(shared, selectSharedItemStatus);
  const media = useSelector(shared, selectSharedMedia);

  return (
    <Container size="lg" py="xl">
      {status === 'loading' ? (
        <Text c="dimmed" role="status">
          {TEXTS.loading}
        </Text>
      ) : status === 'not-found' ? (
        <Stack gap="xs" align="flex-start">
          <Text role="alert" fw={600}>
            {TEXTS.notFound}
          </Text>
          <Anchor component={Link} to={ROUTES.latest}>
            {TEXTS.latestLink}
          </Anchor>
        </Stack>
      ) : status === 'failed' || !media ? (
        <Alert color="red" title={TEXTS.failed} role="alert">
          <Button variant="default" size="xs" onClick={() => shared.send({ type: 'shared.retry' })}>
            {SHARING_TEXTS.listing.retry}
          </Button>
        </Alert>
      ) : (
        <SharedItem media={media} />
      )}
    </Container>
  );
}
