import { Anchor, Button, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import { Link } from 'react-router-dom';
import { ROUTES } from '@/config/routes';
import { SHARING_TEXTS } from '@/config/sharing-texts';
import { promoVideosMachine } from '@/machines/content/promo-videos.machine';
import { selectPromoStatus, selectPromoVideos } from '@/machines/content/promo-videos.selectors';
import { inspect } from '@/lib/inspection/hub';

const PROMO = SHARING_TEXTS.promo;

/** "See what people made": the promo videos (muted, with controls, the thumbnail as poster) and a link to Latest. */
export function PromoReel() {
  const promo = useActorRef(promoVideosMachine, { inspect });
  const status = useSelector(promo, selectPromoStatus);
  const videos = useSelector(promo, selectPromoVideos);
  return (
    <Stack gap="sm" component="section" aria-labelledby="home-promo">
      <Title order={2} id="home-promo">
        {PROMO.heading}
      </Title>
      <Text c="dimmed" size="sm">
        {PROMO.intro}
      </Text>
      {status === 'loading' ? (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} aria-busy>
          <Text size="sm" c="dimmed" role="status" style={{ gridColumn: '1 / -1' }}>
            {PROMO.loading}
          </Text>
          {[0, 1, 2].map((key) => (
            <Skeleton key={key} height={160} radius="md" aria-hidden />
          ))}
        </SimpleGrid>
      ) : status === 'failed' ? (
        <Group gap="sm">
          <Text size="sm" c="red" role="alert">
            {PROMO.failed}
          </Text>
          <Button variant="default" size="xs" onClick={() => promo.send({ type: 'promo.retry' })}>
            {PROMO.retry}
          </Button>
        </Group>
      ) : (
        videos.length > 0 && (
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
            {videos.map((video) => (
              <Stack key={video.id} gap={4} component="figure" m={0}>
                <video
                  controls
                  muted
                  playsInline
                  preload="metadata"
                  src={video.video_url}
                  poster={video.thumbnail_url}
                  aria-label={video.title}
                  style={{ width: '100%', aspectRatio: '16 / 9', borderRadius: 6, background: 'black' }}
                />
                <Text size="sm" component="figcaption">
                  {video.title}
                </Text>
              </Stack>
            ))}
          </SimpleGrid>
        )
      )}
      <Group>
        <Anchor component={Link} to={ROUTES.latest}>
          {SHARING_TEXTS.latest.link}
        </Anchor>
      </Group>
    </Stack>
  );
}
