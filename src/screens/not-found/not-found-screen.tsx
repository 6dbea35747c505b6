import { Anchor, Container, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { ROUTES } from '@/config/routes';

export function NotFoundScreen() {
  return (
    <Container size="sm" py="xl">
      <Stack gap="md">
        <Title order={1}>Page not found</Title>
        <Text>There is nothing at this address. It may have moved, or the link may be mistyped.</Text>
        <Anchor component={Link} to={ROUTES.home}>
          Back to the home page
        </Anchor>
      </Stack>
    </Container>
  );
}
