import { Anchor, Container, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { ROUTES } from '@/config/routes';

/** A placeholder that tells the truth: there is no sign-in form until the session work arrives. */
export function AuthenticationScreen() {
  return (
    <Container size="sm" py="xl">
      <Stack gap="md">
        <Title order={1}>Sign in</Title>
        <Text>
          Signing in is not available yet: it arrives with the session work. Until then you can look
          around the tools without an account.
        </Text>
        <Anchor component={Link} to={ROUTES.home}>
          Back to the home page
        </Anchor>
      </Stack>
    </Container>
  );
}
