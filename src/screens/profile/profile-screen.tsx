import { Alert, Anchor, Button, Container, Stack, Text, Title } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import { Link } from 'react-router-dom';
import { SessionActorContext } from '@/components/session/session-context';
import { ROUTES } from '@/config/routes';
import { SHARING_TEXTS } from '@/config/sharing-texts';
import { contentsMachine } from '@/machines/content/contents.machine';
import { selectContentsError, selectContentsOwner, selectContentsStatus } from '@/machines/content/contents.selectors';
import { selectHandle } from '@/machines/session/session.selectors';
import { ContentListing } from '@/screens/content/content-listing';
import { inspect } from '@/lib/inspection/hub';

const TEXTS = SHARING_TEXTS.profile;

/**
 * The public profile at `/@handle` (SPEC §2.1): the person (GET users/{handle}?type=handle), then
 * what they shared, searchable and paged. Works signed out; the owner also sees their unlisted items.
 */
export function ProfileScreen({ handle }: { handle: string }) {
  // Keyed: another handle starts its own look-up and listing.
  return <Profile key={handle} handle={handle} />;
}

function Profile({ handle }: { handle: string }) {
  const contents = useActorRef(contentsMachine, { input: { handle }, inspect });
  const status = useSelector(contents, selectContentsStatus);
  const owner = useSelector(contents, selectContentsOwner);
  const error = useSelector(contents, selectContentsError);
  const shownHandle = owner?.preferred_username ?? handle;
  const ownHandle = SessionActorContext.useSelector(selectHandle);

  return (
    <Container size="lg" py="xl">
      <Stack gap="lg" component="section" aria-labelledby="profile-title">
        <Title order={1} id="profile-title">
          {TEXTS.heading(shownHandle)}
        </Title>
        {status === 'owner-loading' ? (
          <Text c="dimmed" role="status">
            {TEXTS.loading}
          </Text>
        ) : status === 'owner-missing' ? (
          <Stack gap="xs" align="flex-start">
            <Text role="alert" fw={600}>
              {TEXTS.notFound}
            </Text>
            <Text c="dimmed">{TEXTS.notFoundHint}</Text>
            <Anchor component={Link} to={ROUTES.latest}>
              {SHARING_TEXTS.latest.link}
            </Anchor>
          </Stack>
        ) : status === 'owner-failed' ? (
          <Alert color="red" title={TEXTS.failed} role="alert">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{error}</Text>
              <Button variant="default" size="xs" onClick={() => contents.send({ type: 'contents.retry' })}>
                {SHARING_TEXTS.listing.retry}
              </Button>
            </Stack>
          </Alert>
        ) : (
          <>
            <Text c="dimmed">{TEXTS.intro(shownHandle)}</Text>
            <ContentListing
              contents={contents}
              showOwner={false}
              emptyText={TEXTS.empty}
              emptyHint={<EmptyProfileHint handle={shownHandle} own={ownHandle === shownHandle} />}
            />
          </>
        )}
      </Stack>
    </Container>
  );
}

/**
 * What to do about an empty profile (issue 17): its owner is shown how to fill it (make something,
 * then Share it); a visitor is told what will show here and where to see what others shared.
 */
function EmptyProfileHint({ handle, own }: { handle: string; own: boolean }) {
  return own ? (
    <>
      <Text size="sm">{TEXTS.emptyOwnHint}</Text>
      <Anchor component={Link} to={ROUTES.aiImage.textToImage} size="sm">
        {TEXTS.emptyOwnLink}
      </Anchor>
    </>
  ) : (
    <>
      <Text size="sm">{TEXTS.emptyOtherHint(handle)}</Text>
      <Anchor component={Link} to={ROUTES.latest} size="sm">
        {SHARING_TEXTS.latest.link}
      </Anchor>
    </>
  );
}
