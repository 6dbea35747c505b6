import { Alert, Badge, Box, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { createActorContext, shallowEqual, useSelector } from '@xstate/react';
import { useCallback, type ReactNode } from 'react';
import { SessionActorContext } from '@/components/session/session-context';
import { fromHoldText } from '@/config/project-hold-texts';
import { STORY_TEXTS } from '@/config/story-texts';
import type { StoryPartState } from '@/lib/story';
import { selectOptionalCreditBalance } from '@/machines/session/credits.selectors';
import { selectCreditsRef } from '@/machines/session/session.selectors';
import { storyWizardMachine } from '@/machines/story/story-wizard.machine';
import {
  selectCanRegenerate,
  selectPartCost,
  selectPartView,
  selectStoryError,
  selectStoryNotice,
  selectStoryView,
} from '@/machines/story/story-wizard.selectors';
import { useHeldForStory } from '@/screens/story/story-hold-panel';

/**
 * Pieces every step of the story page shares: the wizard's actor, a part's state badge, its
 * picture or video with progress while it is made, the cost line and button of a paid step (and
 * what it costs, whether it can run), the error banner.
 */

/** The story page's wizard actor, shared by the stepper and every step's section. */
export const StoryActorContext = createActorContext(storyWizardMachine);

const STATE_COLORS: Record<StoryPartState, string> = {
  missing: 'gray',
  running: 'blue',
  ready: 'teal',
  failed: 'red',
  stale: 'yellow',
};

/**
 * What this story can spend (null while unknown): the balance the header shows (the free one)
 * plus what the story's hold still keeps for it (issue 21 item 6: a step uses the hold).
 */
export function useCreditBalance(): number | null {
  const creditsRef = SessionActorContext.useSelector(selectCreditsRef);
  const balance = useSelector(creditsRef, selectOptionalCreditBalance);
  const held = useHeldForStory();
  return balance === null || balance === undefined ? null : balance + held;
}

/** The story's view; the page renders only once it exists. */
export function useStoryView() {
  return StoryActorContext.useSelector(selectStoryView, shallowEqual);
}

/** A generated part's state, in words (never by colour alone). */
export function PartBadge({ state, hint }: { state: StoryPartState; hint?: string }) {
  return (
    <Badge color={STATE_COLORS[state]} variant="light" style={{ textTransform: 'none' }} title={state === 'stale' ? hint : undefined}>
      {STORY_TEXTS.partState[state]}
    </Badge>
  );
}

/** A part's job as the page shows it: its result when there is one, or its progress, or why it failed. */
export function usePartJob(mediaId: string | null | undefined) {
  const select = useCallback((snapshot: Parameters<typeof selectPartView>[0]) => selectPartView(snapshot, mediaId), [mediaId]);
  return StoryActorContext.useSelector(select, shallowEqual);
}

interface PartMediaProps {
  mediaId: string | null | undefined;
  state: StoryPartState;
  kind: 'image' | 'video';
  label: string;
  empty: string;
  /** The picture's or video's frame, e.g. '16 / 9'. */
  aspectRatio: string;
}

/** A part's picture or video, its progress while it is made, or a placeholder saying it is missing. */
export function PartMedia({ mediaId, state, kind, label, empty, aspectRatio }: PartMediaProps) {
  const job = usePartJob(mediaId);
  const frame = { width: '100%', aspectRatio, borderRadius: 6, objectFit: 'cover' as const, background: 'var(--mantine-color-gray-1)' };
  if (job?.url) {
    return kind === 'image' ? (
      <img src={job.thumbnailUrl ?? job.url} alt={label} style={{ ...frame, opacity: state === 'running' ? 0.5 : 1 }} />
    ) : (
      <video
        controls
        preload="metadata"
        src={job.url}
        poster={job.thumbnailUrl ?? undefined}
        aria-label={label}
        style={{ ...frame, background: 'black' }}
      />
    );
  }
  if (job && (job.status === 'queued' || job.status === 'running')) {
    return (
      <Stack gap={4} justify="center" style={{ ...frame, padding: 12 }}>
        <Text size="sm">{job.status === 'queued' ? STORY_TEXTS.queued : STORY_TEXTS.making(job.progress)}</Text>
        <Progress value={job.status === 'queued' ? 0 : job.progress} aria-label={STORY_TEXTS.progress(label)} animated />
      </Stack>
    );
  }
  return (
    <Box style={{ ...frame, display: 'flex', alignItems: 'center', justifyContent: 'center', padding: 12 }}>
      <Text size="sm" c={job?.error ? 'red' : 'dimmed'} ta="center">
        {job?.error ?? empty}
      </Text>
    </Box>
  );
}

/** CSS aspect-ratio of a story ratio ("16:9" → "16 / 9"). */
export const cssRatio = (ratio: string): string => ratio.replace(':', ' / ');
/** Element pictures of characters and objects are square; places take the story's frame. */
export const elementRatio = (kind: string, ratio: string): string => (kind === 'place' ? cssRatio(ratio) : '1 / 1');

interface PaidActionProps {
  id: string;
  /** The cost line ("3 pictures × 4 credits = 12 credits · you have 40"), or null when nothing needs making. */
  cost: string | null;
  label: string;
  /** Why the action cannot run now (null when it can). */
  reason: string | null;
  loading: boolean;
  onRun: () => void;
  /** Shown while the part runs: cancels its jobs. */
  cancel?: { label: string; busy: boolean; onCancel: () => void } | null;
  children?: ReactNode;
}

/** A paid step's foot: its cost first, then the button (disabled with the reason beside it) and Cancel while it runs. */
export function PaidAction({ id, cost, label, reason, loading, onRun, cancel, children }: PaidActionProps) {
  const reasonId = `${id}-reason`;
  return (
    <Stack gap={4}>
      {cost && (
        <Text size="sm" aria-live="polite" data-testid={`${id}-cost`}>
          {cost}
        </Text>
      )}
      <Group gap="sm" align="center">
        <Button disabled={reason !== null} loading={loading} aria-describedby={reason ? reasonId : undefined} onClick={onRun}>
          {label}
        </Button>
        {cancel && (
          <Button variant="default" loading={cancel.busy} onClick={cancel.onCancel}>
            {cancel.label}
          </Button>
        )}
        {children}
        {reason && (
          <Text size="sm" c="dimmed" id={reasonId}>
            {reason}
          </Text>
        )}
      </Group>
    </Stack>
  );
}

/** Why a paid part cannot be made now: the machine refuses it, it is busy, or the balance is short. */
function paidReason(options: { can: boolean; count: number; affordable: boolean; total: number; balance: number | null; nothing: string; busy: boolean }): string | null {
  if (options.count === 0) return options.nothing;
  if (options.busy) return STORY_TEXTS.busy;
  if (!options.affordable) return STORY_TEXTS.notEnoughCredits(options.total, options.balance);
  if (!options.can) return STORY_TEXTS.busy;
  return null;
}

/** The story's last error, with a way to dismiss it. */
export function StoryError() {
  const story = StoryActorContext.useActorRef();
  const error = StoryActorContext.useSelector(selectStoryError);
  if (!error) return null;
  return (
    <Alert color="red" role="alert" withCloseButton closeButtonLabel={STORY_TEXTS.dismiss} onClose={() => story.send({ type: 'error.dismiss' })}>
      {error}
    </Alert>
  );
}


/** What the person is told that is not a failure (their edits merged with another tab's), with a way to dismiss it. */
export function StoryNotice() {
  const story = StoryActorContext.useActorRef();
  const notice = StoryActorContext.useSelector(selectStoryNotice);
  if (!notice) return null;
  return (
    <Alert color="yellow" role="status" withCloseButton closeButtonLabel={STORY_TEXTS.dismiss} onClose={() => story.send({ type: 'notice.dismiss' })}>
      {notice}
    </Alert>
  );
}

type PaidPart = 'elements' | 'scenes' | 'videos';
type WizardSnapshot = Parameters<typeof selectPartCost>[0];

/**
 * A step's "make" button as the page shows it: the cost line, why it cannot run (null when it
 * can), whether it runs now, and cancel while that part's jobs run.
 */
export function usePaidPart(part: PaidPart) {
  const story = StoryActorContext.useActorRef();
  const view = useStoryView();
  const balance = useCreditBalance();
  const held = useHeldForStory();
  const selectCost = useCallback((snapshot: WizardSnapshot) => {
    const { count, each, total, affordable } = selectPartCost(snapshot, part);
    return { count, each, total, affordable };
  }, [part]);
  const cost = StoryActorContext.useSelector(selectCost, shallowEqual);
  const selectCan = useCallback((snapshot: WizardSnapshot) => snapshot.can({ type: 'part.generate', part }), [part]);
  const can = StoryActorContext.useSelector(selectCan);
  const running = view?.running[part] ?? 0;
  const busy = view?.busy ?? null;
  // Nothing left to start: either every part is made, or the rest are still being made (Cancel shows beside it then).
  const nothing = running > 0 ? STORY_TEXTS.beingMade(part, running) : STORY_TEXTS.nothingToMake(part);
  const reason = paidReason({ can, count: cost.count, affordable: cost.affordable, total: cost.total, balance, nothing, busy: busy !== null });
  return {
    cost: cost.count > 0 ? `${STORY_TEXTS.cost(part, cost.count, cost.each, cost.total)}${held > 0 ? fromHoldText(held) : STORY_TEXTS.balance(balance)}` : null,
    reason,
    loading: busy === 'generating' && view?.generatingPart === part,
    run: () => story.send({ type: 'part.generate', part }),
    /** One part made again (the regenerate button of a card). */
    regenerate: (id: string) => story.send({ type: 'part.generate', part, ids: [id] }),
    cancel:
      running > 0
        ? { label: STORY_TEXTS.cancel, busy: busy === 'cancelling', onCancel: () => story.send({ type: 'part.cancel', part }) }
        : null,
  };
}

/** Whether one part can be made again now (its card's "Regenerate"). */
export function useCanRegenerate(part: PaidPart, id: string): boolean {
  const select = useCallback((snapshot: WizardSnapshot) => selectCanRegenerate(snapshot, part, id), [part, id]);
  return StoryActorContext.useSelector(select);
}
