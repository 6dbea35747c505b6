/**
 * The Lighthouse bench's reference (issue 19 item 6): what a page of Kinora's shell costs when it
 * is nothing but React and Mantine — an AppShell with the same header, the same menu (src/config
 * menu.ts) and the home page's heading and text (src/config/home-texts.ts) — built with the same Vite, React plugin and
 * precompression as the app (bench/lighthouse.ts builds and serves it). Kinora's pages are scored
 * against it in the same run, so the figure is a difference of points, not a machine's absolute.
 */
import '@mantine/core/styles.css';
import { AppShell, Button, Container, Group, List, MantineProvider, NavLink, Stack, Text, Title } from '@mantine/core';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { HOME_TEXTS } from '@/config/home-texts';
import { MENU } from '@/config/menu';

function Reference() {
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: true } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between">
          <Text fw={700} size="lg">
            Kinora
          </Text>
          <Button component="a" href="/authentication" variant="light">
            Sign in
          </Button>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label="Main menu">
        {MENU.map((group) => (
          <NavLink key={group.path} label={group.label} href={group.path} component="a" defaultOpened>
            {group.items.map((item) => (
              <NavLink key={item.path} label={item.label} href={item.path} component="a" />
            ))}
          </NavLink>
        ))}
      </AppShell.Navbar>
      <AppShell.Main>
        <Container size="lg" py="xl">
          <Stack gap="sm">
            <Title order={1}>Kinora</Title>
            <Text size="lg">{HOME_TEXTS.tagline}</Text>
            <Title order={2}>What Kinora does</Title>
            <List spacing="xs">
              {HOME_TEXTS.abilities.map((ability) => (
                <List.Item key={ability}>{ability}</List.Item>
              ))}
            </List>
          </Stack>
        </Container>
      </AppShell.Main>
    </AppShell>
  );
}

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
createRoot(container).render(
  <StrictMode>
    <MantineProvider>
      <Reference />
    </MantineProvider>
  </StrictMode>,
);
