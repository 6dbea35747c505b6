import { Anchor, Container, List, Stack, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { MenuGroup } from '@/config/menu';

/** The page behind a menu group header (e.g. `/ai-audio/`): the group's tools and its other pages (uploads, albums…) as links. */
export function GroupIndexScreen({ group }: { group: MenuGroup }) {
  return (
    <Container size="md" py="xl">
      <Stack gap="md">
        <Title order={1}>{group.label}</Title>
        <List aria-label={`${group.label} tools`} spacing="xs">
          {group.items.map((item) => (
            <List.Item key={item.path}>
              <Anchor component={Link} to={item.path}>
                {item.label}
              </Anchor>
            </List.Item>
          ))}
          {group.extras.map((extra) => (
            <List.Item key={extra.path}>
              <Anchor component={Link} to={extra.path}>
                {extra.label}
              </Anchor>
            </List.Item>
          ))}
        </List>
      </Stack>
    </Container>
  );
}
