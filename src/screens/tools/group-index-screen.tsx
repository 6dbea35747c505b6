import { Anchor, Container, List, Stack, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { ALBUM_TEXTS } from '@/config/album-texts';
import { TOOL_TEXTS } from '@/config/job-texts';
import type { MenuGroup } from '@/config/menu';
import { ROUTES } from '@/config/routes';

/**
 * Pages a group offers beside its menu tools: its upload page (SPEC §2.5) and, for AI Video, the
 * parallax page (SPEC §2.4) and the batch albums, which SPEC §2.3's menu has no link for.
 */
const EXTRA_LINKS: Readonly<Record<string, readonly { label: string; path: string }[]>> = {
  [ROUTES.aiImage.root]: [{ label: TOOL_TEXTS.uploadPageTitle.image, path: ROUTES.aiImage.uploadImage }],
  [ROUTES.aiAudio.root]: [{ label: TOOL_TEXTS.uploadPageTitle.audio, path: ROUTES.aiAudio.uploadAudio }],
  [ROUTES.aiVideo.root]: [
    { label: TOOL_TEXTS.parallaxMotionLink, path: ROUTES.aiVideo.parallaxMotion },
    { label: ALBUM_TEXTS.albumsLink, path: ROUTES.aiVideo.albums },
    { label: TOOL_TEXTS.uploadPageTitle.video, path: ROUTES.aiVideo.uploadVideo },
  ],
};

/** The page behind a menu group header (e.g. `/ai-audio/`): the group's tools as links. */
export function GroupIndexScreen({ group }: { group: MenuGroup }) {
  const extras = EXTRA_LINKS[group.path] ?? [];
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
          {extras.map((extra) => (
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
