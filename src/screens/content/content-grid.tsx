import { Anchor, Badge, Paper, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { ROUTES } from '@/config/routes';
import { SHARING_TEXTS } from '@/config/sharing-texts';
import type { PublicContent } from '@/machines/content/contents.machine';

const TEXTS = SHARING_TEXTS.listing;

const GRID_COLUMNS = { base: 1, sm: 2, md: 3 } as const;

const mediaStyle = { width: '100%', borderRadius: 6, display: 'block' } as const;

/** The item's file as it plays: a video with controls (its thumbnail as poster), a picture, an audio player. */
export function ContentPlayer({ item, title }: { item: Pick<PublicContent, 'kind' | 'url' | 'thumbnail_url'>; title: string }) {
  if (!item.url) return null;
  if (item.kind === 'video') {
    return (
      <video
        controls
        preload="metadata"
        src={item.url}
        poster={item.thumbnail_url ?? undefined}
        aria-label={title}
        style={{ ...mediaStyle, aspectRatio: '16 / 9', background: 'black' }}
      />
    );
  }
  if (item.kind === 'audio') {
    return <audio controls preload="metadata" src={item.url} aria-label={title} style={{ width: '100%' }} />;
  }
  return <img src={item.thumbnail_url ?? item.url} alt={title} loading="lazy" style={{ ...mediaStyle, aspectRatio: '1 / 1', objectFit: 'cover' }} />;
}

/** A handle's profile link (`/@handle`), or plain text when the person has no handle. */
export function OwnerLink({ owner }: { owner: PublicContent['owner'] }) {
  const handle = owner.preferred_username;
  if (!handle) return <Text span>{TEXTS.unknownOwner}</Text>;
  return (
    <Anchor component={Link} to={ROUTES.profile(handle)}>
      {TEXTS.ownerLink(handle)}
    </Anchor>
  );
}

/** One shared result: its player, its title (a link to its own page), its owner (on Latest) and when it was shared. */
function ContentCard({ item, showOwner }: { item: PublicContent; showOwner: boolean }) {
  const title = item.title || TEXTS.untitled;
  return (
    <Paper component="article" aria-label={title} withBorder p="sm" radius="md">
      <Stack gap={6}>
        <ContentPlayer item={item} title={title} />
        <Anchor component={Link} to={ROUTES.shared(item.id)} fw={600} lineClamp={2}>
          {title}
        </Anchor>
        {item.visibility === 'unlisted' && (
          <Badge size="sm" variant="light" color="gray" style={{ textTransform: 'none', alignSelf: 'flex-start' }}>
            {SHARING_TEXTS.share.badge.unlisted}
          </Badge>
        )}
        {item.description && (
          <Text size="sm" c="dimmed" lineClamp={2}>
            {item.description}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          {showOwner && (
            <>
              {TEXTS.by} <OwnerLink owner={item.owner} />
              {' · '}
            </>
          )}
          <time dateTime={item.shared_at}>{TEXTS.sharedOn(item.shared_at)}</time>
        </Text>
      </Stack>
    </Paper>
  );
}

export function ContentGrid({ items, showOwner }: { items: PublicContent[]; showOwner: boolean }) {
  return (
    <SimpleGrid cols={GRID_COLUMNS} spacing="md">
      {items.map((item) => (
        <ContentCard key={item.id} item={item} showOwner={showOwner} />
      ))}
    </SimpleGrid>
  );
}

/** Placeholders in the grid's shape while the first page loads. */
export function ContentGridSkeleton({ label }: { label: string }) {
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed" role="status">
        {label}
      </Text>
      <SimpleGrid cols={GRID_COLUMNS} spacing="md" aria-hidden>
        {[0, 1, 2].map((key) => (
          <Stack key={key} gap={6}>
            <Skeleton height={180} radius="md" />
            <Skeleton height={14} width="70%" />
            <Skeleton height={10} width="40%" />
          </Stack>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
