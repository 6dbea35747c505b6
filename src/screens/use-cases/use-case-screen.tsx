import { Container, Stack, Text, Title } from '@mantine/core';

/** SPEC §2.6: the use-case pages exist but their content is not given, so only the title shows. */
export function UseCaseScreen({ title }: { title: string }) {
  return (
    <Container size="md" py="xl">
      <Stack gap="md">
        <Title order={1}>{title}</Title>
        <Text c="dimmed">More about Kinora for {title.toLowerCase()} is on its way.</Text>
      </Stack>
    </Container>
  );
}
