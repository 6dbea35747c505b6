import { Anchor, Container, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { leavePage } from '@/components/navigation/leave-page';
import { PageLoader } from '@/components/page-loader';
import { SessionActorContext } from '@/components/session/session-context';
import { ORGANISATION_TEXTS } from '@/config/organisation-texts';
import { ROUTES } from '@/config/routes';
import { selectCurrentUser, selectCurrentUserId, selectSessionStatus } from '@/machines/session/session.selectors';
import { OrganisationDetail } from '@/screens/organisation/organisation-detail';
import { OrganisationList } from '@/screens/organisation/organisation-list';

const TEXTS = ORGANISATION_TEXTS;


export interface OrganisationScreenProps {
  /** null: the person's organisations and the create form; an id: that organisation. */
  id: string | null;
  /** How the page leaves the app for the checkout (tests pass their own: jsdom cannot navigate). */
  leaveApp?: (url: string) => void;
}

/** /organisation and /organisation/:id (SPEC §1 b2b, §6 customer owner and business members). */
export function OrganisationScreen({ id, leaveApp = leavePage }: OrganisationScreenProps) {
  const status = SessionActorContext.useSelector(selectSessionStatus);
  const user = SessionActorContext.useSelector(selectCurrentUser);
  const userId = SessionActorContext.useSelector(selectCurrentUserId);
  const loading = status === 'booting' || (status === 'loadingUser' && !user);

  return (
    <Container size="lg" py="xl">
      {loading ? (
        <PageLoader />
      ) : !user ? (
        <Stack gap="lg">
          <Title order={1}>{TEXTS.title}</Title>
          <Text c="dimmed">{TEXTS.intro}</Text>
          <Paper withBorder p="lg" radius="md">
            <Anchor component={Link} to={ROUTES.authentication}>
              {TEXTS.signIn}
            </Anchor>
          </Paper>
        </Stack>
      ) : id === null ? (
        <Stack gap="lg">
          <Title order={1}>{TEXTS.title}</Title>
          <Text c="dimmed">{TEXTS.intro}</Text>
          <OrganisationList key={userId ?? ''} />
        </Stack>
      ) : (
        <OrganisationDetail key={`${userId ?? ''}/${id}`} id={id} leaveApp={leaveApp} />
      )}
    </Container>
  );
}
