import { Box, Button, Checkbox, Group, Modal, Paper, SegmentedControl, SimpleGrid, Stack, Text } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { createContext, useContext, useEffect, useMemo, useRef, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { RESULT_ACTION_TEXTS } from '@/config/compare-texts';
import { OnceOpened } from '@/components/once-opened';
import { inspect } from '@/lib/inspection/hub';
import { resultCompareMachine, type CompareMode } from '@/machines/result-compare/result-compare.machine';
import {
  selectCompareMode,
  selectCompareOpen,
  selectCompareSelected,
  selectCompareSplit,
} from '@/machines/result-compare/result-compare.selectors';

const TEXTS = RESULT_ACTION_TEXTS.compare;

/** One picture a results list can compare: its file and what made it. */
export interface ComparePicture {
  /** Its `lightboxPictureId` (media and label). */
  id: string;
  url: string;
  label: string;
  alt: string;
  prompt: string | null;
  model: string;
  seed: number | null;
  /** The run's credits, and how many pictures the run made. */
  cost: number;
  runPictures: number;
}

type CompareRef = ActorRefFrom<typeof resultCompareMachine>;

const CompareContext = createContext<CompareRef | null>(null);

/** How far one arrow key moves the split; with Shift, or Page Up / Page Down, ten times as far. */
const SPLIT_STEP = 1;
const SPLIT_BIG_STEP = 10;

/**
 * "Compare" on a picture of a results list (issue 21 item 7): marks it for the compare view; a
 * third cannot be marked while two are (the machine refuses it, so the box is disabled).
 */
export function CompareToggle({ id, label }: { id: string; label: string }) {
  const compare = useContext(CompareContext);
  if (!compare) return null;
  return <CompareCheckbox compare={compare} id={id} label={label} />;
}

function CompareCheckbox({ compare, id, label }: { compare: CompareRef; id: string; label: string }) {
  const selected = useSelector(compare, selectCompareSelected);
  const allowed = useSelector(compare, (snapshot) => snapshot.can({ type: 'compare.toggle', id }));
  return (
    <Checkbox
      size="xs"
      label={TEXTS.toggle}
      aria-label={TEXTS.toggleLabel(label)}
      checked={selected.includes(id)}
      disabled={!allowed}
      onChange={() => compare.send({ type: 'compare.toggle', id })}
    />
  );
}

/**
 * Holds the compare machine of one results list: its pictures' "Compare" boxes, the bar that opens
 * the view once two are marked, and the view itself.
 */
export function ResultCompareProvider({ pictures, children }: { pictures: readonly ComparePicture[]; children: ReactNode }) {
  const compare = useActorRef(resultCompareMachine, { inspect });
  const selected = useSelector(compare, selectCompareSelected);
  const open = useSelector(compare, selectCompareOpen);
  const canOpen = useSelector(compare, (snapshot) => snapshot.can({ type: 'compare.open' }));
  const ids = useMemo(() => pictures.map((picture) => picture.id), [pictures]);
  // A refreshed list keeps the marks of the pictures still in it.
  useEffect(() => {
    compare.send({ type: 'compare.retain', ids });
  }, [compare, ids]);
  const pair = selected.map((id) => pictures.find((picture) => picture.id === id)).filter((picture): picture is ComparePicture => Boolean(picture));
  return (
    <CompareContext.Provider value={compare}>
      {selected.length > 0 && (
        <Paper withBorder p="xs" radius="md" role="region" aria-label={TEXTS.title}>
          <Group justify="space-between" gap="xs">
            <Text size="sm" aria-live="polite">
              {TEXTS.chosen(selected.length)}
            </Text>
            <Group gap="xs">
              <Button size="xs" variant="subtle" onClick={() => compare.send({ type: 'compare.clear' })}>
                {TEXTS.clear}
              </Button>
              <Button size="xs" disabled={!canOpen} onClick={() => compare.send({ type: 'compare.open' })}>
                {TEXTS.open}
              </Button>
            </Group>
          </Group>
        </Paper>
      )}
      {children}
      <OnceOpened opened={open}>
        <Modal opened={open && pair.length === 2} onClose={() => compare.send({ type: 'compare.close' })} title={TEXTS.title} size="90%" centered>
          {pair.length === 2 && <CompareView compare={compare} first={pair[0] as ComparePicture} second={pair[1] as ComparePicture} />}
        </Modal>
      </OnceOpened>
    </CompareContext.Provider>
  );
}

function CompareView({ compare, first, second }: { compare: CompareRef; first: ComparePicture; second: ComparePicture }) {
  const mode = useSelector(compare, selectCompareMode);
  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="xs">
        <SegmentedControl
          aria-label={TEXTS.modeLabel}
          value={mode}
          onChange={(value) => compare.send({ type: 'compare.mode', mode: value as CompareMode })}
          data={[
            { value: 'slider', label: TEXTS.slider },
            { value: 'panes', label: TEXTS.panes },
          ]}
        />
        <Text size="xs" c="dimmed">
          {TEXTS.keys}
        </Text>
      </Group>
      {mode === 'slider' ? (
        <SplitView compare={compare} first={first} second={second} />
      ) : (
        <SimpleGrid cols={2} spacing="sm">
          {[first, second].map((picture) => (
            <img
              key={picture.id}
              src={picture.url}
              alt={picture.alt}
              style={{ display: 'block', width: '100%', maxHeight: '60vh', objectFit: 'contain' }}
            />
          ))}
        </SimpleGrid>
      )}
      <SimpleGrid cols={2} spacing="sm">
        <PictureFacts picture={first} />
        <PictureFacts picture={second} />
      </SimpleGrid>
    </Stack>
  );
}

/**
 * The two pictures on top of each other, the first shown left of the split and the second right of
 * it. The split is a slider: dragged with a pointer anywhere on the pictures, or moved from the
 * keyboard on its handle.
 */
function SplitView({ compare, first, second }: { compare: CompareRef; first: ComparePicture; second: ComparePicture }) {
  const split = useSelector(compare, selectCompareSplit);
  const area = useRef<HTMLDivElement>(null);
  const dragging = useRef(false);
  const moveTo = (clientX: number) => {
    const box = area.current?.getBoundingClientRect();
    if (!box || box.width === 0) return;
    compare.send({ type: 'compare.split', position: ((clientX - box.left) / box.width) * 100 });
  };
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    dragging.current = true;
    event.currentTarget.setPointerCapture(event.pointerId);
    moveTo(event.clientX);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (dragging.current) moveTo(event.clientX);
  };
  const onPointerUp = () => {
    dragging.current = false;
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? SPLIT_BIG_STEP : SPLIT_STEP;
    const moves: Partial<Record<string, () => void>> = {
      ArrowLeft: () => compare.send({ type: 'compare.nudge', by: -step }),
      ArrowDown: () => compare.send({ type: 'compare.nudge', by: -step }),
      ArrowRight: () => compare.send({ type: 'compare.nudge', by: step }),
      ArrowUp: () => compare.send({ type: 'compare.nudge', by: step }),
      PageDown: () => compare.send({ type: 'compare.nudge', by: -SPLIT_BIG_STEP }),
      PageUp: () => compare.send({ type: 'compare.nudge', by: SPLIT_BIG_STEP }),
      Home: () => compare.send({ type: 'compare.split', position: 0 }),
      End: () => compare.send({ type: 'compare.split', position: 100 }),
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    move();
  };
  const picture = { position: 'absolute', inset: 0, width: '100%', height: '100%', objectFit: 'contain' } as const;
  return (
    <Box
      ref={area}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      style={{ position: 'relative', height: '60vh', background: 'var(--mantine-color-gray-1)', cursor: 'ew-resize', touchAction: 'none', userSelect: 'none' }}
      data-testid="compare-split"
    >
      <img src={second.url} alt={second.alt} draggable={false} style={picture} />
      <img src={first.url} alt={first.alt} draggable={false} style={{ ...picture, clipPath: `inset(0 ${100 - split}% 0 0)` }} />
      <div
        role="slider"
        tabIndex={0}
        aria-label={TEXTS.splitLabel}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(split)}
        aria-valuetext={TEXTS.splitValue(split, first.label, second.label)}
        aria-orientation="horizontal"
        onKeyDown={onKeyDown}
        style={{
          position: 'absolute',
          top: 0,
          bottom: 0,
          left: `${split}%`,
          width: 4,
          marginLeft: -2,
          background: 'var(--mantine-color-white)',
          boxShadow: '0 0 0 1px var(--mantine-color-dark-4)',
          outlineOffset: 2,
        }}
      >
        <div
          aria-hidden
          style={{
            position: 'absolute',
            top: '50%',
            left: -12,
            width: 28,
            height: 28,
            marginTop: -14,
            borderRadius: '50%',
            background: 'var(--mantine-color-white)',
            boxShadow: '0 0 0 2px var(--mantine-color-dark-4)',
          }}
        />
      </div>
    </Box>
  );
}

/** What made one of the pictures: its label, prompt, model, seed and cost. */
function PictureFacts({ picture }: { picture: ComparePicture }) {
  const rows: [string, string][] = [
    [TEXTS.prompt, picture.prompt ?? TEXTS.noPrompt],
    [TEXTS.model, picture.model],
    [TEXTS.seed, picture.seed === null ? TEXTS.noSeed : String(picture.seed)],
    [TEXTS.cost, TEXTS.costOf(picture.cost, picture.runPictures)],
  ];
  return (
    <Paper withBorder p="xs" radius="md" component="section" aria-label={picture.label}>
      <Text size="sm" fw={600} ff="monospace">
        {picture.label}
      </Text>
      <Box component="dl" m={0}>
        {rows.map(([term, value]) => (
          <Group key={term} gap={6} wrap="nowrap" align="baseline">
            <Text component="dt" size="xs" c="dimmed" miw={56}>
              {term}
            </Text>
            <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
              {value}
            </Text>
          </Group>
        ))}
      </Box>
    </Paper>
  );
}
