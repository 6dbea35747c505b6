import { Container, Stack, Text, Title } from '@mantine/core';

/** The public profile at `/@handle` (SPEC §2.1). Its content listing arrives with a later issue. */
export function ProfileScreen({ handle }: { handle: string }) {
  return (
    <Container size="md" py="xl">
      <Stack gap="md">
        <Title order={1}>@{handle}</Title>
        <Text c="dimmed">Public content from @{handle} will be listed here.</Text>
      </Stack>
    </Container>
  );
}
