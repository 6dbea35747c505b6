import { SessionActorContext } from '@/components/session/session-context';
import { canInspect, selectIsDeveloper } from '@/machines/inspector/inspector-access';

/** Whether the person here may open the machine inspector (Developer group, or local mode). */
export function useCanInspect(): boolean {
  const isDeveloper = SessionActorContext.useSelector(selectIsDeveloper);
  return canInspect(isDeveloper);
}
