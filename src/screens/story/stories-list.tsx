import { Anchor, Badge, Button, Group, Modal, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ROUTES } from '@/config/routes';
import { STORY_STEP_LABELS } from '@/config/story';
import { STORY_TEXTS } from '@/config/story-texts';
import { storiesMachine, type StorySummary } from '@/machines/story/stories.machine';
import { selectStories, selectStoriesError, selectStoriesStatus } from '@/machines/story/stories.selectors';
import { inspect } from '@/lib/inspection/hub';

const TEXTS = STORY_TEXTS.list;

const formatDate = (iso: string): string => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString();
};

/** One story of the list: its cover, title, where it stands, a link to open it and "Delete". */
function StoryCard({ story, onDelete }: { story: StorySummary; onDelete: () => void }) {
  const title = story.title || TEXTS.untitled;
  return (
    <Paper component="article" aria-label={title} withBorder p="sm" radius="md">
      <Stack gap={6}>
        {story.cover_url && (
          <img src={story.cover_url} alt={TEXTS.coverAlt(title)} style={{ width: '100%', aspectRatio: '16 / 9', objectFit: 'cover', borderRadius: 6 }} />
        )}
        <Anchor component={Link} to={ROUTES.aiProduction.story(story.id)} fw={600} aria-label={TEXTS.open(title)}>
          {title}
        </Anchor>
        <Text size="sm" lineClamp={2} c="dimmed">
          {story.idea}
        </Text>
        <Group gap="xs">
          <Badge variant="light" color={story.step === 'done' ? 'teal' : 'blue'} style={{ textTransform: 'none' }}>
            {story.step === 'done' ? TEXTS.done : TEXTS.step(STORY_STEP_LABELS[story.step])}
          </Badge>
          <Text size="xs" c="dimmed">
            {TEXTS.sceneCount(story.scene_count)} · <time dateTime={story.updated_at}>{formatDate(story.updated_at)}</time>
          </Text>
        </Group>
        <Group>
          <Button variant="subtle" color="red" size="compact-xs" onClick={onDelete}>
            {TEXTS.delete(title)}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** "Your stories": the person's stories, newest first, to reopen or delete (asked once more). */
export function StoriesList() {
  const stories = useActorRef(storiesMachine, { inspect });
  const items = useSelector(stories, selectStories);
  const status = useSelector(stories, selectStoriesStatus);
  const error = useSelector(stories, selectStoriesError);
  const [deleting, setDeleting] = useState<StorySummary | null>(null);

  return (
    <Stack gap="sm" component="section" aria-labelledby="stories-heading">
      <Title order={2} size="h3" id="stories-heading">
        {TEXTS.heading}
      </Title>
      {status === 'loading' && items.length === 0 ? (
        <Text c="dimmed" role="status">
          {TEXTS.loading}
        </Text>
      ) : status === 'failed' && items.length === 0 ? (
        <Group gap="sm">
          <Text c="red" role="alert">
            {TEXTS.failed}
          </Text>
          <Button variant="default" size="xs" onClick={() => stories.send({ type: 'stories.refresh' })}>
            {STORY_TEXTS.retry}
          </Button>
        </Group>
      ) : items.length === 0 ? (
        <Text c="dimmed">{TEXTS.empty}</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm">
          {items.map((story) => (
            <StoryCard key={story.id} story={story} onDelete={() => setDeleting(story)} />
          ))}
        </SimpleGrid>
      )}
      {error && status !== 'failed' && (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      )}
      <Modal opened={deleting !== null} onClose={() => setDeleting(null)} title={TEXTS.deleteTitle} centered>
        <Stack gap="md">
          <Text size="sm">{TEXTS.deleteText}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)} data-autofocus>
              {TEXTS.deleteCancel}
            </Button>
            <Button
              color="red"
              onClick={() => {
                if (deleting) stories.send({ type: 'stories.delete', id: deleting.id });
                setDeleting(null);
              }}
            >
              {TEXTS.deleteConfirm}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
