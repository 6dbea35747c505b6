import { Button, Group, NumberInput, Paper, Select, Stack, Text, Textarea, Title } from '@mantine/core';
import { shallowEqual } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import { ALBUM_TEXTS } from '@/config/album-texts';
import { CAMERA_MOTIONS } from '@/config/camera-motions';
import { DEFAULT_MOTION_MODEL } from '@/config/motion-models';
import { PARALLAX_CAMERA_PATH_OPTIONS } from '@/config/parallax-paths';
import { MOTION_LENGTH } from '@/config/video-creation';
import { BATCH_MOTION_MODELS } from '@/machines/batch/batch-board';
import type { ClipChanges } from '@/machines/batch/batch.machine';
import { selectAlbumView } from '@/machines/batch/batch.selectors';
import type { BoardClipView } from '@/machines/batch/batch.selectors';
import { BatchActorContext } from '@/screens/albums/batch-context';

const TEXTS = ALBUM_TEXTS.board;

const CAMERA_MOTION_DATA = CAMERA_MOTIONS.map((motion) => ({ value: motion.value, label: motion.label }));
const MODEL_DATA = BATCH_MOTION_MODELS.map((model) => ({
  value: model.value,
  label: TEXTS.modelOption(model.label, model.required_credits),
}));
const CAMERA_PATH_DATA = PARALLAX_CAMERA_PATH_OPTIONS.map((path) => ({ value: path.value, label: path.label }));

type Direction = 'up' | 'down';

interface ClipEditorProps {
  item: BoardClipView;
  parallax: boolean;
  editable: boolean;
  onChange: (changes: ClipChanges) => void;
  onMove: (direction: Direction) => void;
  /** Where the move buttons register themselves, so focus can follow a moved clip. */
  moveButton: (direction: Direction) => (element: HTMLButtonElement | null) => void;
}

/** One clip of the board: its picture, what it asks for and its place. */
function ClipEditor({ item, parallax, editable, onChange, onMove, moveButton }: ClipEditorProps) {
  const { clip, number } = item;
  const name = TEXTS.clip(number);
  return (
    <Paper component="section" aria-label={name} withBorder p="md" radius="md">
      <Group align="flex-start" wrap="nowrap" gap="md">
        <img
          src={clip.image_url}
          alt={ALBUM_TEXTS.album.pictureAlt(number)}
          style={{ width: 96, height: 96, objectFit: 'cover', borderRadius: 6, flexShrink: 0 }}
        />
        <Stack gap="xs" style={{ flex: 1 }}>
          <Group justify="space-between" gap="xs">
            <Text fw={600}>{name}</Text>
            <Group gap={4}>
              <Text size="sm" c="dimmed">
                {TEXTS.clipCost(item.cost)}
              </Text>
              <Button
                ref={moveButton('up')}
                variant="default"
                size="compact-xs"
                aria-label={TEXTS.moveUp(number)}
                disabled={!editable || !item.canMoveUp}
                onClick={() => onMove('up')}
              >
                ↑
              </Button>
              <Button
                ref={moveButton('down')}
                variant="default"
                size="compact-xs"
                aria-label={TEXTS.moveDown(number)}
                disabled={!editable || !item.canMoveDown}
                onClick={() => onMove('down')}
              >
                ↓
              </Button>
            </Group>
          </Group>
          {!parallax && (
            <Textarea
              label={TEXTS.prompt}
              value={clip.prompt}
              rows={3}
              maxLength={2000}
              disabled={!editable}
              onChange={(event) => onChange({ prompt: event.currentTarget.value })}
            />
          )}
          <Group grow align="flex-start">
            {parallax ? (
              <Select
                label={TEXTS.cameraPath}
                data={CAMERA_PATH_DATA}
                value={clip.camera_path}
                allowDeselect={false}
                disabled={!editable}
                onChange={(value) => value && onChange({ camera_path: value })}
              />
            ) : (
              <>
                <Select
                  label={TEXTS.cameraMotion}
                  data={CAMERA_MOTION_DATA}
                  value={clip.motion_type}
                  allowDeselect={false}
                  disabled={!editable}
                  onChange={(value) => value && onChange({ motion_type: value })}
                />
                <Select
                  label={TEXTS.model}
                  data={MODEL_DATA}
                  value={clip.model || DEFAULT_MOTION_MODEL}
                  allowDeselect={false}
                  disabled={!editable}
                  onChange={(value) => value && onChange({ model: value })}
                />
              </>
            )}
            <NumberInput
              label={TEXTS.length}
              min={MOTION_LENGTH.min}
              max={MOTION_LENGTH.max}
              allowDecimal={false}
              clampBehavior="strict"
              value={clip.motion_length}
              disabled={!editable}
              onChange={(value) => {
                if (typeof value === 'number') onChange({ motion_length: value });
              }}
            />
          </Group>
        </Stack>
      </Group>
    </Paper>
  );
}

/**
 * Keeps keyboard focus on the move button that was pressed: the clip (and its buttons) moves in
 * the page, and a button that reached an end is disabled, so focus goes to its neighbour.
 */
function useFocusAfterMove() {
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const [pending, setPending] = useState<{ clipId: string; direction: Direction } | null>(null);
  useEffect(() => {
    if (!pending) return;
    const same = buttons.current.get(`${pending.clipId}:${pending.direction}`);
    const other = buttons.current.get(`${pending.clipId}:${pending.direction === 'up' ? 'down' : 'up'}`);
    (same && !same.disabled ? same : other)?.focus();
    setPending(null);
  }, [pending]);
  const register = (clipId: string) => (direction: Direction) => (element: HTMLButtonElement | null) => {
    const key = `${clipId}:${direction}`;
    if (element) buttons.current.set(key, element);
    else buttons.current.delete(key);
  };
  return { register, moved: (clipId: string, direction: Direction) => setPending({ clipId, direction }) };
}

/** The script board: write one, adjust each clip, save it, then generate every clip's video. */
export function AlbumBoard() {
  const album = BatchActorContext.useActorRef();
  const view = BatchActorContext.useSelector(selectAlbumView, shallowEqual);
  const focus = useFocusAfterMove();
  const parallax = view.batchType === 'parallax';
  const hasBoard = view.board.length > 0;

  const move = (clipId: string, direction: Direction) => {
    album.send({ type: 'board.move', clipId, offset: direction === 'up' ? -1 : 1 });
    focus.moved(clipId, direction);
  };

  return (
    <Stack gap="sm" component="section" aria-labelledby="album-board-heading">
      <Group justify="space-between" align="center">
        <Title order={2} size="h3" id="album-board-heading">
          {TEXTS.heading}
        </Title>
        <Button
          variant={hasBoard ? 'default' : 'filled'}
          loading={view.writingBoard}
          disabled={!view.canWriteBoard}
          onClick={() => album.send({ type: 'board.write' })}
        >
          {hasBoard ? TEXTS.rewrite : TEXTS.write}
        </Button>
      </Group>
      {!hasBoard ? (
        <Text c="dimmed">{view.writingBoard ? TEXTS.writing : TEXTS.empty}</Text>
      ) : (
        <Stack gap="sm">
          {view.board.map((item) => (
            <ClipEditor
              key={item.clip.id}
              item={item}
              parallax={parallax}
              editable={view.boardEditable}
              onChange={(changes) => album.send({ type: 'board.change', clipId: item.clip.id, changes })}
              onMove={(direction) => move(item.clip.id, direction)}
              moveButton={focus.register(item.clip.id)}
            />
          ))}
          <Group gap="sm">
            <Button
              variant="default"
              loading={view.savingBoard}
              disabled={!view.canSaveBoard}
              onClick={() => album.send({ type: 'board.save' })}
            >
              {TEXTS.save}
            </Button>
            <Text size="sm" c="dimmed" role="status">
              {view.boardUnsaved ? TEXTS.unsaved : TEXTS.saved}
            </Text>
          </Group>
        </Stack>
      )}
      <Stack gap={4}>
        {hasBoard && (
          <Text size="sm" aria-live="polite" data-testid="album-generate-cost">
            {ALBUM_TEXTS.generate.cost(view.board.length, view.generateCost, view.credit, view.held)}
          </Text>
        )}
        <Group gap="sm" align="center">
          <Button
            disabled={!view.canGenerate}
            loading={view.generating}
            aria-describedby={view.generateReason ? 'album-generate-reason' : undefined}
            onClick={() => album.send({ type: 'batch.generate' })}
          >
            {ALBUM_TEXTS.generate.button}
          </Button>
          {view.generateReason && (
            <Text size="sm" c="dimmed" id="album-generate-reason">
              {view.generateReason}
            </Text>
          )}
        </Group>
      </Stack>
    </Stack>
  );
}
