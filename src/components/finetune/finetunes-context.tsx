import { useActorRef } from '@xstate/react';
import { createContext, useContext, useEffect, type ReactNode } from 'react';
import type { ActorRefFrom } from 'xstate';
import { JobsActorContext } from '@/components/jobs/jobs-context';
import { SessionActorContext } from '@/components/session/session-context';
import { FINETUNE_TOOL } from '@/config/finetune';
import { finetunesMachine } from '@/machines/finetunes/finetunes.machine';
import { selectFinetuneJobMediaIds } from '@/machines/finetunes/finetunes.selectors';
import { selectCurrentUserId } from '@/machines/session/session.selectors';
import { inspect } from '@/lib/inspection/hub';
import { isPageHidden } from '@/lib/page-hidden';

export type FinetunesRef = ActorRefFrom<typeof finetunesMachine>;

const FinetunesContext = createContext<FinetunesRef | null>(null);

/** The app's trained-models actor, or null where no FinetunesProvider is mounted. */
export function useFinetunesRef(): FinetunesRef | null {
  return useContext(FinetunesContext);
}

/**
 * Connects the trained-models actor to the rest of the app: who is signed in goes in (load on
 * sign-in, clear on sign-out); the jobs registry's training jobs go in (a new one is listed at
 * once) and its `jobs.finished` of a training job loads the list again (training → ready/failed);
 * page visibility goes in (the training refresh pauses while the tab is hidden).
 */
function useFinetunesBridge(finetunes: FinetunesRef): void {
  const userId = SessionActorContext.useSelector(selectCurrentUserId);
  const jobs = JobsActorContext.useActorRef();
  const jobMediaIds = JobsActorContext.useSelector(selectFinetuneJobMediaIds);

  useEffect(() => {
    finetunes.send({ type: 'finetunes.userChanged', userId });
  }, [finetunes, userId]);

  useEffect(() => {
    if (jobMediaIds !== '') finetunes.send({ type: 'finetunes.jobsSeen', mediaIds: jobMediaIds.split(',') });
  }, [finetunes, jobMediaIds]);

  useEffect(() => {
    const onVisibility = () => finetunes.send({ type: 'finetunes.visibility', hidden: isPageHidden() });
    onVisibility();
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, [finetunes]);

  useEffect(() => {
    const subscription = jobs.on('jobs.finished', (event) => {
      if (event.tool === FINETUNE_TOOL) finetunes.send({ type: 'finetunes.refresh' });
    });
    return () => subscription.unsubscribe();
  }, [jobs, finetunes]);
}

/**
 * One trained-models actor (src/machines/finetunes) for everything inside it: the LoRA Finetune
 * page and the image tools' model lists read the same list. Mount it inside the session and jobs
 * providers.
 */
export function FinetunesProvider({ children }: { children: ReactNode }) {
  const finetunes = useActorRef(finetunesMachine, { inspect });
  useFinetunesBridge(finetunes);
  return <FinetunesContext.Provider value={finetunes}>{children}</FinetunesContext.Provider>;
}

/** Its children read the app's trained-models actor, or one of their own where none is mounted. */
export function FinetunesScope({ children }: { children: ReactNode }) {
  const existing = useFinetunesRef();
  return existing ? children : <FinetunesProvider>{children}</FinetunesProvider>;
}
