import { useEffect } from 'react';
import { SessionActorContext } from '@/components/session/session-context';
import { STORAGE_KEYS } from '@/config/limits';
import { inspectionHub } from '@/lib/inspection/hub';
import { startJobLogKeeper } from '@/lib/inspection/job-log-keeper';
import { canInspect, selectIsDeveloper } from '@/machines/inspector/inspector-access';
import { readStored, writeStored } from '@/services/storage';

/**
 * Keeps every generation job's path for the inspector (issue 22 item 1): in this browser for a
 * week, and, for people who may inspect (the Developer group, a local Kinora), with the job on the
 * server once it ends, so it can be opened from another browser too. Sending is best effort: a
 * path that does not reach the server is still kept here.
 */
export function useJobLogKeeper(): void {
  const session = SessionActorContext.useActorRef();
  useEffect(
    () =>
      startJobLogKeeper(inspectionHub, {
        store: { read: () => readStored(STORAGE_KEYS.jobLogs), write: (logs) => writeStored(STORAGE_KEYS.jobLogs, logs) },
        onJobEnded: (log) => {
          if (!log.mediaId || !canInspect(selectIsDeveloper(session.getSnapshot()))) return;
          const mediaId = log.mediaId;
          // The service (and zod with it) loads only for people who inspect, when a job ends.
          import('@/services/inspection')
            .then(({ saveJobLog }) => saveJobLog(mediaId, { records: log.records }))
            .catch(() => undefined);
        },
      }),
    [session],
  );
}
