import { Anchor, Container, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { SessionActorContext } from '@/components/session/session-context';
import { ASSETS_TEXTS } from '@/config/assets-texts';
import { ROUTES } from '@/config/routes';
import { selectCurrentUserId, selectIsSignedIn } from '@/machines/session/session.selectors';
import { AssetPage } from '@/screens/assets/asset-page';
import { AssetsList } from '@/screens/assets/assets-list';

export interface AssetsScreenProps {
  /** null: the list and the create form; an id: that asset. */
  id: string | null;
}

/** /assets and /assets/:id (issue 7): the person's assets, each a named set of results reused in the tools. */
export function AssetsScreen({ id }: AssetsScreenProps) {
  const signedIn = SessionActorContext.useSelector(selectIsSignedIn);
  const userId = SessionActorContext.useSelector(selectCurrentUserId);
  if (!signedIn) {
    return (
      <Container size="md" py="xl">
        <Stack gap="lg">
          <Title order={1}>{ASSETS_TEXTS.title}</Title>
          <Paper withBorder p="lg" radius="md">
            <Anchor component={Link} to={ROUTES.authentication}>
              {ASSETS_TEXTS.signIn}
            </Anchor>
          </Paper>
        </Stack>
      </Container>
    );
  }
  return (
    <Container size="lg" py="xl">
      {id === null ? (
        <Stack gap="lg">
          <Stack gap={4}>
            <Title order={1}>{ASSETS_TEXTS.title}</Title>
            <Text c="dimmed">{ASSETS_TEXTS.intro}</Text>
          </Stack>
          {/* Another person gets their own list. */}
          <AssetsList key={userId ?? ''} />
        </Stack>
      ) : (
        <AssetPage key={`${userId ?? ''}:${id}`} id={id} />
      )}
    </Container>
  );
}
