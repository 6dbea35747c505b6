import { Container, Stack, Text, Title } from '@mantine/core';
import { useActorRef } from '@xstate/react';
import { SHARING_TEXTS } from '@/config/sharing-texts';
import { contentsMachine } from '@/machines/content/contents.machine';
import { ContentListing } from '@/screens/content/content-listing';
import { inspect } from '@/lib/inspection/hub';

const TEXTS = SHARING_TEXTS.latest;

/** /latest: everyone's public results, newest first, each with its owner; works signed out. */
export function LatestScreen() {
  const contents = useActorRef(contentsMachine, { input: { handle: null }, inspect });
  return (
    <Container size="lg" py="xl">
      <Stack gap="lg" component="section" aria-labelledby="latest-title">
        <Stack gap={4}>
          <Title order={1} id="latest-title">
            {TEXTS.heading}
          </Title>
          <Text c="dimmed">{TEXTS.intro}</Text>
        </Stack>
        <ContentListing contents={contents} showOwner emptyText={SHARING_TEXTS.listing.empty} />
      </Stack>
    </Container>
  );
}
