import { shallowEqual } from '@xstate/react';
import { useCallback } from 'react';
import { STORY_TEXTS } from '@/config/story-texts';
import { selectPartCost } from '@/machines/story/story-wizard.selectors';
import { StoryActorContext } from '@/screens/story/story-context';
import { paidReason, useCreditBalance, useStoryView } from '@/screens/story/story-parts';

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
    cost: cost.count > 0 ? `${STORY_TEXTS.cost(part, cost.count, cost.each, cost.total)}${STORY_TEXTS.balance(balance)}` : null,
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
  const select = useCallback(
    (snapshot: WizardSnapshot) => snapshot.can({ type: 'part.generate', part, ids: [id] }) && selectPartCost(snapshot, part, [id]).affordable,
    [part, id],
  );
  const can = StoryActorContext.useSelector(select);
  const view = useStoryView();
  return can && (view?.busy ?? null) === null;
}
