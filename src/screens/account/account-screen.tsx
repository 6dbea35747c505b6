import { Anchor, Button, Container, Divider, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { PageLoader } from '@/components/page-loader';
import { SessionActorContext } from '@/components/session/session-context';
import { ROUTES } from '@/config/routes';
import {
  selectAccountBusy,
  selectCurrentUser,
  selectIsGuest,
  selectSessionStatus,
} from '@/machines/session/session.selectors';
import { DeleteAccount } from '@/screens/account/delete-account';
import { DoneAlerts } from '@/screens/account/done-alerts';
import { HandleForm } from '@/screens/account/handle-form';

function SignedOut() {
  return (
    <>
      <Text>You need to sign in to see your account.</Text>
      <Anchor component={Link} to={ROUTES.authentication}>
        Go to sign in
      </Anchor>
    </>
  );
}

/** /account: the handle, Done alerts, deleting the account, signing out (SPEC §2.1). */
export function AccountScreen() {
  const session = SessionActorContext.useActorRef();
  const status = SessionActorContext.useSelector(selectSessionStatus);
  const user = SessionActorContext.useSelector(selectCurrentUser);
  const guest = SessionActorContext.useSelector(selectIsGuest);
  const busy = SessionActorContext.useSelector(selectAccountBusy);
  const loading = status === 'booting' || (status === 'loadingUser' && !user);

  return (
    <Container size="sm" py="xl">
      <Stack gap="md">
        <Title order={1}>Account</Title>
        {loading ? (
          <PageLoader />
        ) : !user ? (
          <SignedOut />
        ) : (
          <>
            <Text>
              Signed in as <strong>{guest ? 'the shared guest account' : (user.attributes.email ?? user.username)}</strong>.
            </Text>
            {guest ? (
              <Text c="dimmed">
                The guest account is shared, so its handle cannot be changed and it cannot be deleted. Create your own
                account to choose a handle.
              </Text>
            ) : (
              <>
                <HandleForm />
                <Divider />
                <DoneAlerts />
                <Divider />
                <DeleteAccount />
              </>
            )}
            <Divider />
            <Group>
              <Button variant="default" loading={busy} onClick={() => session.send({ type: 'session.signOut' })}>
                Sign out
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Container>
  );
}
