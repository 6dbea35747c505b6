import { Anchor, Button, Card, Container, Group, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { AppConfigActorContext } from '@/components/app-config/app-config-context';
import { HOME_TEXTS } from '@/config/home-texts';
import { MENU } from '@/config/menu';
import { ROUTES } from '@/config/routes';
import { selectTierInformation } from '@/machines/app-config/app-config.selectors';
import { CreditTiersTable } from '@/screens/home/credit-tiers-table';
import { PromoReel } from '@/screens/home/promo-reel';



/** The tiers' table on its own: the configuration's answer redraws it, not the whole page. */
function CreditTiers() {
  const tiers = AppConfigActorContext.useSelector(selectTierInformation);
  return <CreditTiersTable tiers={tiers} />;
}

export function HomeScreen() {
  return (
    <Container size="lg" py="xl">
      <Stack gap="xl">
        <Stack gap="sm" component="section" aria-labelledby="home-title">
          <Title order={1} id="home-title">
            Kinora
          </Title>
          <Text size="lg">{HOME_TEXTS.tagline}</Text>
          <Group>
            <Button component={Link} to={ROUTES.authentication}>
              Sign in
            </Button>
            {MENU[0] && (
              <Button component={Link} to={MENU[0].path} variant="light">
                Explore the tools
              </Button>
            )}
          </Group>
        </Stack>

        <Stack gap="sm" component="section" aria-labelledby="home-what">
          <Title order={2} id="home-what">
            What Kinora does
          </Title>
          <List spacing="xs">
            {HOME_TEXTS.abilities.map((ability) => (
              <List.Item key={ability}>{ability}</List.Item>
            ))}
          </List>
        </Stack>

        {/* In the page's own chunk (small): a Suspense boundary here would be taken over by React
            separately, and at once, in one long task, by any update above it (issue 19). */}
        <PromoReel />

        <Stack gap="sm" component="section" aria-labelledby="home-tools">
          <Title order={2} id="home-tools">
            Tools
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
            {MENU.map((group) => (
              <Card key={group.path} withBorder component="article" aria-label={group.label}>
                <Title order={3} size="h4" mb="xs">
                  <Anchor component={Link} to={group.path} inherit>
                    {group.label}
                  </Anchor>
                </Title>
                <Text size="sm" c="dimmed">
                  {group.items.map((item) => item.label).join(' · ')}
                </Text>
              </Card>
            ))}
          </SimpleGrid>
        </Stack>
        <Stack gap="sm" component="section" aria-labelledby="home-credits">
          <Title order={2} id="home-credits">
            Credits per generation
          </Title>
          <Text c="dimmed" size="sm">
            Every model belongs to a tier; a generation costs the tier&apos;s credits for its kind of result.
          </Text>
          <CreditTiers />
        </Stack>
      </Stack>
    </Container>
  );
}
