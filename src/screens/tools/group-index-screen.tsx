import { Anchor, Container, List, Stack, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { TOOL_TEXTS } from '@/config/job-texts';
import type { MenuGroup } from '@/config/menu';
import { ROUTES } from '@/config/routes';

/** The upload page (SPEC §2.5) each media group offers beside its tools. */
const UPLOAD_LINKS: Readonly<Record<string, { label: string; path: string }>> = {
  [ROUTES.aiImage.root]: { label: TOOL_TEXTS.uploadPageTitle.image, path: ROUTES.aiImage.uploadImage },
  [ROUTES.aiAudio.root]: { label: TOOL_TEXTS.uploadPageTitle.audio, path: ROUTES.aiAudio.uploadAudio },
};

/** The page behind a menu group header (e.g. `/ai-audio/`): the group's tools as links. */
export function GroupIndexScreen({ group }: { group: MenuGroup }) {
  const upload = UPLOAD_LINKS[group.path];
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
          {upload && (
            <List.Item>
              <Anchor component={Link} to={upload.path}>
                {upload.label}
              </Anchor>
            </List.Item>
          )}
        </List>
      </Stack>
    </Container>
  );
}
