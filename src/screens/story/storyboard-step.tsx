import { Button, Chip, Group, Modal, NumberInput, Paper, Select, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { STORY_SCENE_DURATION, STORY_SCENE_TEXT_MAX, STORY_SCENES, STORY_SHOTS, STORY_TITLE_MAX } from '@/config/story';
import { STORY_TEXTS } from '@/config/story-texts';
import type { SceneChanges } from '@/machines/story/story-wizard.types';
import type { StoryElement, StoryScene } from '@/machines/story/story-wizard.machine';
import { StoryActorContext, useStoryView } from '@/screens/story/story-parts';

const TEXTS = STORY_TEXTS.storyboard;
const SHOT_DATA = STORY_SHOTS.map((shot) => ({ value: shot.value, label: shot.label }));

type Direction = 'up' | 'down';

/**
 * Keeps keyboard focus on the move button that was pressed: the scene (and its buttons) moves in
 * the page, and a button that reached an end is disabled, so focus goes to its neighbour.
 */
function useFocusAfterMove() {
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  /** One ref callback per scene and direction, kept: a new one each render would redraw every card. */
  const refs = useRef(new Map<string, (element: HTMLButtonElement | null) => void>());
  const [pending, setPending] = useState<{ sceneId: string; direction: Direction } | null>(null);
  useEffect(() => {
    if (!pending) return;
    const same = buttons.current.get(`${pending.sceneId}:${pending.direction}`);
    const other = buttons.current.get(`${pending.sceneId}:${pending.direction === 'up' ? 'down' : 'up'}`);
    (same && !same.disabled ? same : other)?.focus();
    setPending(null);
  }, [pending]);
  const register = useCallback((sceneId: string, direction: Direction) => {
    const key = `${sceneId}:${direction}`;
    let ref = refs.current.get(key);
    if (!ref) {
      ref = (element: HTMLButtonElement | null) => {
        if (element) buttons.current.set(key, element);
        else buttons.current.delete(key);
      };
      refs.current.set(key, ref);
    }
    return ref;
  }, []);
  const moved = useCallback((sceneId: string, direction: Direction) => setPending({ sceneId, direction }), []);
  return { register, moved };
}

/** What a scene card asks of the storyboard, by scene id: one object for every card and render. */
interface SceneActions {
  change: (sceneId: string, changes: SceneChanges) => void;
  move: (sceneId: string, direction: Direction) => void;
  remove: (sceneId: string) => void;
  addAfter: (sceneId: string) => void;
  moveButton: (sceneId: string, direction: Direction) => (element: HTMLButtonElement | null) => void;
}

interface SceneCardProps {
  scene: StoryScene;
  number: number;
  count: number;
  elements: readonly StoryElement[];
  editable: boolean;
  canAdd: boolean;
  actions: SceneActions;
}

/**
 * One scene of the storyboard: its words, shot, length and the elements in it; moved with buttons.
 * Memoised: a key typed in one scene redraws that card only, not all twelve (issue 19 item 4: a
 * key in the last of 12 scenes took 400 ms to paint at 4× CPU when every card was drawn again).
 */
const SceneCard = memo(function SceneCard({ scene, number, count, elements, editable, canAdd, actions }: SceneCardProps) {
  const name = TEXTS.scene(number);
  const onChange = (changes: SceneChanges) => actions.change(scene.id, changes);
  return (
    <Paper component="section" aria-label={name} withBorder p="md" radius="md">
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Text fw={600}>{name}</Text>
          <Group gap={4}>
            <Button
              ref={actions.moveButton(scene.id, 'up')}
              variant="default"
              size="compact-xs"
              aria-label={TEXTS.moveUp(number)}
              disabled={!editable || number === 1}
              onClick={() => actions.move(scene.id, 'up')}
            >
              ↑
            </Button>
            <Button
              ref={actions.moveButton(scene.id, 'down')}
              variant="default"
              size="compact-xs"
              aria-label={TEXTS.moveDown(number)}
              disabled={!editable || number === count}
              onClick={() => actions.move(scene.id, 'down')}
            >
              ↓
            </Button>
            <Button variant="subtle" color="red" size="compact-xs" disabled={!editable || count <= STORY_SCENES.min} onClick={() => actions.remove(scene.id)}>
              {TEXTS.remove(number)}
            </Button>
          </Group>
        </Group>
        <Textarea
          label={TEXTS.text}
          value={scene.text}
          rows={3}
          maxLength={STORY_SCENE_TEXT_MAX}
          disabled={!editable}
          onChange={(event) => onChange({ text: event.currentTarget.value })}
        />
        <Group grow align="flex-start">
          <Select
            label={TEXTS.shot}
            data={SHOT_DATA}
            value={scene.shot}
            allowDeselect={false}
            disabled={!editable}
            onChange={(value) => value && onChange({ shot: value as StoryScene['shot'] })}
          />
          <NumberInput
            label={TEXTS.duration}
            min={STORY_SCENE_DURATION.min}
            max={STORY_SCENE_DURATION.max}
            allowDecimal={false}
            clampBehavior="strict"
            value={scene.duration}
            disabled={!editable}
            onChange={(value) => {
              if (typeof value === 'number') onChange({ duration: value });
            }}
          />
        </Group>
        {elements.length === 0 ? (
          <Text size="sm" c="dimmed">
            {TEXTS.noElements}
          </Text>
        ) : (
          <Chip.Group multiple value={scene.element_ids} onChange={(ids) => onChange({ element_ids: ids })}>
            <Group gap={6} role="group" aria-label={`${name}: ${TEXTS.elements}`}>
              <Text size="sm" fw={500}>
                {TEXTS.elements}
              </Text>
              {elements.map((element) => (
                <Chip key={element.id} value={element.id} size="xs" disabled={!editable}>
                  {element.name}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
        )}
        {canAdd && (
          <Group>
            <Button variant="subtle" size="compact-xs" disabled={!editable} onClick={() => actions.addAfter(scene.id)}>
              {TEXTS.addAfter(number)}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
});

/** "Rewrite from idea", asked once more: the scenes and elements are replaced. */
function RewriteButton({ disabled, loading }: { disabled: boolean; loading: boolean }) {
  const story = StoryActorContext.useActorRef();
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <Button variant="default" disabled={disabled} loading={loading} onClick={() => setConfirming(true)}>
        {TEXTS.rewrite}
      </Button>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={TEXTS.rewriteTitle} centered>
        <Stack gap="md">
          <Text size="sm">{TEXTS.rewriteText}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)} data-autofocus>
              {TEXTS.rewriteCancel}
            </Button>
            <Button
              color="red"
              onClick={() => {
                setConfirming(false);
                story.send({ type: 'idea.rewrite' });
              }}
            >
              {TEXTS.rewriteConfirm}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

/** The storyboard: the film's title, then its scenes as editable cards in order. */
export function StoryboardStep() {
  const story = StoryActorContext.useActorRef();
  const view = useStoryView();
  const { register, moved } = useFocusAfterMove();
  const actions = useMemo<SceneActions>(
    () => ({
      change: (sceneId, changes) => story.send({ type: 'scene.change', sceneId, changes }),
      move: (sceneId, direction) => {
        story.send({ type: 'scene.move', sceneId, offset: direction === 'up' ? -1 : 1 });
        moved(sceneId, direction);
      },
      remove: (sceneId) => story.send({ type: 'scene.remove', sceneId }),
      addAfter: (sceneId) => story.send({ type: 'scene.add', afterId: sceneId }),
      moveButton: register,
    }),
    [story, moved, register],
  );
  if (!view) return null;
  const { board } = view;
  const editable = view.busy !== 'rewriting' && view.busy !== 'creating';
  const canAdd = board.scenes.length < STORY_SCENES.max;
  const total = board.scenes.reduce((sum, scene) => sum + scene.duration, 0);

  return (
    <Stack gap="md" component="section" aria-labelledby="story-storyboard-heading">
      <Group justify="space-between" align="center">
        <Title order={2} size="h3" id="story-storyboard-heading">
          {TEXTS.heading}
        </Title>
        <RewriteButton disabled={!editable || view.busy !== null} loading={view.busy === 'rewriting'} />
      </Group>
      <Text size="sm" c="dimmed">
        {view.busy === 'rewriting' ? TEXTS.rewriting : TEXTS.intro}
      </Text>
      <TextInput
        label={TEXTS.title}
        value={board.title}
        maxLength={STORY_TITLE_MAX}
        disabled={!editable}
        onChange={(event) => story.send({ type: 'board.settings', changes: { title: event.currentTarget.value } })}
      />
      <Text size="sm" aria-live="polite">
        {TEXTS.total(board.scenes.length, total)}
      </Text>
      {board.scenes.length === 0 ? (
        <Text c="dimmed">{TEXTS.empty}</Text>
      ) : (
        <Stack gap="sm">
          {board.scenes.map((scene, index) => (
            <SceneCard
              key={scene.id}
              scene={scene}
              number={index + 1}
              count={board.scenes.length}
              elements={board.elements}
              editable={editable}
              canAdd={canAdd}
              actions={actions}
            />
          ))}
        </Stack>
      )}
      {canAdd && (
        <Group>
          <Button variant="light" disabled={!editable} onClick={() => story.send({ type: 'scene.add' })}>
            {TEXTS.add}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
