import { Box, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { STORY_SHOTS } from '@/config/story';
import { STORY_TEXTS } from '@/config/story-texts';
import type { StoryPartState } from '@/lib/story';
import type { StoryElement, StoryScene } from '@/machines/story/story-wizard.machine';
import { PartTakes } from '@/screens/story/part-takes';
import { cssRatio, PaidAction, PartBadge, PartMedia, StoryActorContext, useCanRegenerate, usePaidPart, usePartJob, useStoryView } from '@/screens/story/story-parts';

const TEXTS = STORY_TEXTS.scenes;
/** Element thumbnails on a scene card, in px. */
const THUMB = 32;
const shotLabel = (shot: string): string => STORY_SHOTS.find((candidate) => candidate.value === shot)?.label ?? shot;

/**
 * The element pictures a scene is drawn with (the active take of each): the same characters and
 * places look alike from scene to scene because every scene that names them is drawn from these.
 */
function SceneElements({ number, elements }: { number: number; elements: readonly StoryElement[] }) {
  if (elements.length === 0) return null;
  return (
    <Group component="ul" aria-label={STORY_TEXTS.sceneElements(number)} gap={6} p={0} m={0} style={{ listStyle: 'none' }}>
      {elements.map((element) => (
        <ElementThumb key={element.id} element={element} />
      ))}
    </Group>
  );
}

/** One element's active picture, small, named by the element (its name when it has no picture yet). */
function ElementThumb({ element }: { element: StoryElement }) {
  const job = usePartJob(element.image?.media_id);
  const src = job?.thumbnailUrl ?? job?.url ?? null;
  return (
    <Box component="li" title={element.name}>
      {src ? (
        <img src={src} alt={element.name} width={THUMB} height={THUMB} style={{ display: 'block', objectFit: 'cover', borderRadius: 4 }} />
      ) : (
        <Text size="xs" c="dimmed">
          {element.name}
        </Text>
      )}
    </Box>
  );
}

interface ScenePictureCardProps {
  scene: StoryScene;
  number: number;
  state: StoryPartState;
  elements: readonly StoryElement[];
  aspectRatio: string;
}

/** One scene's picture: its state, the picture (or its progress), its words and "Regenerate". */
function ScenePictureCard({ scene, number, state, elements, aspectRatio }: ScenePictureCardProps) {
  const story = StoryActorContext.useActorRef();
  const canRegenerate = useCanRegenerate('scenes', scene.id);
  const name = STORY_TEXTS.storyboard.scene(number);
  const used = scene.element_ids.flatMap((id) => elements.filter((element) => element.id === id));
  return (
    <Paper component="section" aria-label={name} withBorder p="md" radius="md">
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Text fw={600}>{name}</Text>
          <PartBadge state={state} hint={STORY_TEXTS.staleHint} />
        </Group>
        <PartMedia mediaId={scene.image?.media_id} state={state} kind="image" label={TEXTS.pictureAlt(number)} empty={TEXTS.noPicture} aspectRatio={cssRatio(aspectRatio)} />
        <PartTakes part="scenes" partId={scene.id} what={STORY_TEXTS.takes.scenePicture(number)} />
        {state === 'stale' && (
          <Text size="xs" c="yellow.8">
            {STORY_TEXTS.staleHint}
          </Text>
        )}
        <Text size="sm" lineClamp={3}>
          {scene.text}
        </Text>
        <SceneElements number={number} elements={used} />
        <Text size="xs" c="dimmed">
          {[shotLabel(scene.shot), ...used.map((element) => element.name)].join(' · ')}
        </Text>
        <Group>
          <Button
            variant="light"
            size="xs"
            aria-label={state === 'missing' ? TEXTS.makeOneLabel(number) : TEXTS.regenerateLabel(number)}
            disabled={!canRegenerate}
            onClick={() => story.send({ type: 'part.generate', part: 'scenes', ids: [scene.id] })}
          >
            {state === 'missing' ? TEXTS.makeOne : TEXTS.regenerate}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** The scenes step: each scene's picture, drawn with its elements; regenerate one or make all that need it. */
export function ScenesStep() {
  const view = useStoryView();
  const paid = usePaidPart('scenes');
  if (!view) return null;
  const { board, states } = view;
  return (
    <Stack gap="md" component="section" aria-labelledby="story-scenes-heading">
      <Title order={2} size="h3" id="story-scenes-heading">
        {TEXTS.heading}
      </Title>
      <Text size="sm" c="dimmed">
        {TEXTS.intro}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm">
        {board.scenes.map((scene, index) => (
          <ScenePictureCard
            key={scene.id}
            scene={scene}
            number={index + 1}
            state={states.sceneImages[scene.id] ?? 'missing'}
            elements={board.elements}
            aspectRatio={view.aspectRatio}
          />
        ))}
      </SimpleGrid>
      <PaidAction id="story-scenes" cost={paid.cost} label={TEXTS.make} reason={paid.reason} loading={paid.loading} onRun={paid.run} cancel={paid.cancel} />
    </Stack>
  );
}
