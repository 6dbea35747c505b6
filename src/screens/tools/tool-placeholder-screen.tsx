import { Anchor, Badge, Container, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';

export interface ToolPlaceholderScreenProps {
  title: string;
  groupLabel: string;
  groupPath: string;
}

/** Stands in for a tool page until the tool's own issue builds it (issue 2, item 4). */
export function ToolPlaceholderScreen({ title, groupLabel, groupPath }: ToolPlaceholderScreenProps) {
  return (
    <Container size="md" py="xl">
      <Stack gap="md">
        <Anchor component={Link} to={groupPath} size="sm">
          {groupLabel}
        </Anchor>
        <Group gap="sm" align="center">
          <Title order={1}>{title}</Title>
          <Badge variant="light">Coming soon</Badge>
        </Group>
        <Text>This tool is coming soon.</Text>
      </Stack>
    </Container>
  );
}
