import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { shallowEqual, useActorRef, useSelector } from '@xstate/react';
import { createContext, useContext, useEffect, type ReactNode } from 'react';
import { STORY_HOLD_TEXTS } from '@/config/story-hold-texts';
import { STORY_TEXTS } from '@/config/story-texts';
import { inspect } from '@/lib/inspection/hub';
import { storyHoldMachine } from '@/machines/story-hold/story-hold.machine';
import { selectHeldForStory, selectStoryHoldView } from '@/machines/story-hold/story-hold.selectors';
import type { ActorRefFrom } from 'xstate';

/**
 * One quote for the whole film (issue 21 item 6): the story page's panel with the price of
 * everything still to make, "Hold … and start", and once held what the hold keeps with Release.
 * The hold's actor lives beside the wizard (a story with an id only); the steps read what it keeps.
 */

type StoryHoldRef = ActorRefFrom<typeof storyHoldMachine>;

const StoryHoldContext = createContext<StoryHoldRef | null>(null);

/** The story's hold actor for the page below it (the panel, the steps' cost lines, the bridge). */
export function StoryHoldProvider({ storyId, onChanged, children }: { storyId: string; onChanged: () => void; children: ReactNode }) {
  const hold = useActorRef(storyHoldMachine, { id: 'storyHold', input: { storyId }, inspect });
  useEffect(() => {
    const subscription = hold.on('storyHold.changed', onChanged);
    return () => subscription.unsubscribe();
  }, [hold, onChanged]);
  return <StoryHoldContext.Provider value={hold}>{children}</StoryHoldContext.Provider>;
}

/** The hold actor, or null on a story without an id yet (nothing can be held before it exists). */
export const useStoryHoldRef = (): StoryHoldRef | null => useContext(StoryHoldContext);

/** What the story's open hold still keeps (0 without one). */
export function useHeldForStory(): number {
  const hold = useStoryHoldRef();
  return useSelector(hold ?? undefined, (snapshot) => (snapshot ? selectHeldForStory(snapshot) : 0));
}

export function StoryHoldPanel() {
  const hold = useStoryHoldRef();
  const view = useSelector(hold ?? undefined, (snapshot) => (snapshot ? selectStoryHoldView(snapshot) : null), shallowEqual);
  if (!hold || !view) return null;
  const busy = view.state === 'placing' || view.state === 'releasing';
  return (
    <Paper withBorder p="md" radius="md" aria-labelledby="story-hold-heading">
      <Stack gap="xs">
        <Title order={2} size="h5" id="story-hold-heading">
          {STORY_HOLD_TEXTS.heading}
        </Title>
        {view.state === 'failed' ? (
          <Group>
            <Text c="red">{view.error ?? STORY_HOLD_TEXTS.loadFailed}</Text>
            <Button size="xs" variant="default" onClick={() => hold.send({ type: 'storyHold.refresh' })}>
              {STORY_HOLD_TEXTS.retry}
            </Button>
          </Group>
        ) : view.summary === null && view.state === 'loading' ? (
          <Text c="dimmed" role="status">
            {STORY_HOLD_TEXTS.loading}
          </Text>
        ) : (
          <>
            <Text data-testid="story-quote">{view.summary ?? STORY_HOLD_TEXTS.nothingLeft}</Text>
            {view.heldRemaining !== null && <Text data-testid="story-hold">{STORY_HOLD_TEXTS.held(view.heldRemaining, view.heldDrawn)}</Text>}
            <Group>
              {view.canPlace && (
                <Button loading={view.state === 'placing'} disabled={busy} onClick={() => hold.send({ type: 'storyHold.place' })}>
                  {view.heldRemaining === null ? STORY_HOLD_TEXTS.hold(view.cost) : STORY_HOLD_TEXTS.requote(view.cost)}
                </Button>
              )}
              {view.heldRemaining !== null && (
                <Button variant="default" loading={view.state === 'releasing'} disabled={busy || !view.canRelease} onClick={() => hold.send({ type: 'storyHold.release' })}>
                  {STORY_HOLD_TEXTS.release}
                </Button>
              )}
            </Group>
            {view.heldRemaining === null && view.canPlace && (
              <Text size="sm" c="dimmed">
                {STORY_HOLD_TEXTS.why}
              </Text>
            )}
          </>
        )}
        {view.error && view.state !== 'failed' && (
          <Alert color="red" role="alert" withCloseButton closeButtonLabel={STORY_TEXTS.dismiss} onClose={() => hold.send({ type: 'storyHold.dismiss' })}>
            {view.error}
          </Alert>
        )}
        {view.notice && (
          <Text role="status" c="teal">
            {view.notice}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
