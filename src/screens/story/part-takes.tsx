import { Box, Button, Group, Text, UnstyledButton } from '@mantine/core';
import { useCallback, useEffect, useRef } from 'react';
import { STORY_TEXTS } from '@/config/story-texts';
import type { TakePart } from '@/lib/story-takes';
import { selectPartTakes, type StoryWizardSnapshot, type TakeView } from '@/machines/story/story-wizard.selectors';
import { StoryActorContext } from '@/screens/story/story-parts';

const TEXTS = STORY_TEXTS.takes;
const THUMB = 48;
/** The view is made afresh each snapshot: equal when what it shows is. */
const sameTakes = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

interface PartTakesProps {
  part: TakePart;
  partId: string;
  /** "the picture of scene 2": what the takes are of, in their labels. */
  what: string;
}

/** One take: its thumbnail (or what became of it), marked when it is the one in use. */
function TakeButton({ take, what, pickable, onPick }: { take: TakeView; what: string; pickable: boolean; onPick: () => void }) {
  const border = take.active ? '2px solid var(--mantine-color-blue-6)' : '1px solid var(--mantine-color-gray-4)';
  return (
    <UnstyledButton
      aria-label={TEXTS.takeLabel(take.number, what, take.active)}
      aria-pressed={take.active}
      // The take in use stays focusable (it says so); others wait until they can be picked.
      disabled={!take.active && !pickable}
      onClick={() => !take.active && pickable && onPick()}
      title={TEXTS.take(take.number)}
      style={{ border, borderRadius: 6, padding: 1, opacity: take.active || pickable ? 1 : 0.6, cursor: pickable ? 'pointer' : 'default' }}
    >
      {take.thumbnailUrl ? (
        <img src={take.thumbnailUrl} alt="" width={THUMB} height={THUMB} style={{ display: 'block', objectFit: 'cover', borderRadius: 4 }} />
      ) : (
        <Box w={THUMB} h={THUMB} style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', background: 'var(--mantine-color-gray-1)', borderRadius: 4 }}>
          <Text size="xs" c={take.status === 'failed' ? 'red' : 'dimmed'} ta="center">
            {take.status === 'failed' ? TEXTS.failed : TEXTS.making}
          </Text>
        </Box>
      )}
    </UnstyledButton>
  );
}

/**
 * A part's takes under its picture or video (issue 21): each regeneration keeps the takes before
 * it; pick one to use it (what was made from the part goes stale or ready again with it), or
 * Undo the last regeneration. Nothing is shown for a part made once.
 */
export function PartTakes({ part, partId, what }: PartTakesProps) {
  const story = StoryActorContext.useActorRef();
  const select = useCallback((snapshot: StoryWizardSnapshot) => selectPartTakes(snapshot, part, partId), [part, partId]);
  const view = StoryActorContext.useSelector(select, sameTakes);
  const group = useRef<HTMLDivElement>(null);
  // Undo leaves once it is done: the keyboard's place moves to the take it brought back, not the page's top.
  const undoing = useRef(false);
  useEffect(() => {
    if (!undoing.current || view.undoTo !== null) return;
    undoing.current = false;
    group.current?.querySelector<HTMLElement>('[aria-pressed="true"]')?.focus();
  }, [view.undoTo]);
  if (view.takes.length === 0 && view.undoTo === null) return null;
  return (
    <Group gap={6} align="center" wrap="wrap">
      {view.takes.length > 0 && (
        <Group ref={group} role="group" aria-label={TEXTS.group(what)} gap={4} wrap="wrap">
          {view.takes.map((take) => (
            <TakeButton
              key={take.mediaId}
              take={take}
              what={what}
              pickable={view.canPick.includes(take.mediaId)}
              onPick={() => story.send({ type: 'take.select', part, partId, mediaId: take.mediaId })}
            />
          ))}
        </Group>
      )}
      {view.undoTo !== null && (
        <Button
          variant="default"
          size="xs"
          aria-label={TEXTS.undoLabel(view.undoTo, what)}
          disabled={!view.canUndo}
          onClick={() => {
            undoing.current = true;
            story.send({ type: 'take.undo', part, partId });
          }}
        >
          {TEXTS.undo}
        </Button>
      )}
    </Group>
  );
}
