import { useActorRef, useSelector } from '@xstate/react';
import { createContext, useContext, useEffect, type ReactNode } from 'react';
import { inspect } from '@/lib/inspection/hub';
import { projectHoldMachine } from '@/machines/project-hold/project-hold.machine';
import { selectHeld } from '@/machines/project-hold/project-hold.selectors';
import { ProjectHoldPanel, type ProjectHoldRef } from '@/screens/project-hold/project-hold-panel';

/**
 * One quote for the whole film (issue 21 item 6): the story page's hold actor (a story with an id
 * only) beside the wizard, its panel ("This film"), and what it keeps for the steps' cost lines.
 */

const StoryHoldContext = createContext<ProjectHoldRef | null>(null);

/** The story's hold actor for the page below it (the panel, the steps' cost lines, the bridge). */
export function StoryHoldProvider({ storyId, onChanged, children }: { storyId: string; onChanged: () => void; children: ReactNode }) {
  const hold = useActorRef(projectHoldMachine, { id: 'storyHold', input: { project: { kind: 'story', id: storyId } }, inspect });
  useEffect(() => {
    const subscription = hold.on('hold.changed', onChanged);
    return () => subscription.unsubscribe();
  }, [hold, onChanged]);
  return <StoryHoldContext.Provider value={hold}>{children}</StoryHoldContext.Provider>;
}

/** The hold actor, or null on a story without an id yet (nothing can be held before it exists). */
export const useStoryHoldRef = (): ProjectHoldRef | null => useContext(StoryHoldContext);

/** What the story's open hold still keeps (0 without one). */
export function useHeldForStory(): number {
  const hold = useStoryHoldRef();
  return useSelector(hold ?? undefined, (snapshot) => (snapshot ? selectHeld(snapshot) : 0));
}

export function StoryHoldPanel() {
  const hold = useStoryHoldRef();
  return hold ? <ProjectHoldPanel hold={hold} /> : null;
}
