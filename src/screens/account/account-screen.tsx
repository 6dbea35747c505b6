import { Anchor, Container, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { ROUTES } from '@/config/routes';

/** Until the session work lands nobody can be signed in, so the account page says so plainly. */
export function AccountScreen() {
  return (
    <Container size="sm" py="xl">
      <Stack gap="md">
        <Title order={1}>Account</Title>
        <Text>You need to sign in to see your account.</Text>
        <Anchor component={Link} to={ROUTES.authentication}>
          Go to sign in
        </Anchor>
      </Stack>
    </Container>
  );
}
