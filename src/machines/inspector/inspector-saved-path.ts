import type { InspectionRecord } from '@/lib/inspection/hub';
import { savedSessionId } from '@/lib/inspection/job-log-keeper';
import { checkedRecords, savedJobRecords } from '@/lib/inspection/saved-job-logs';
import { INSPECTOR_TEXTS } from '@/config/inspector-texts';
import { STORAGE_KEYS } from '@/config/limits';
import { fetchJobLog } from '@/services/inspection';
import { readStored } from '@/services/storage';

// A job's kept path (issue 22 item 1): where the inspector finds it when the job is no longer
// alive in this page, this browser's copy first, else the server's under the job's media id.

export interface SavedPath {
  actorId: string;
  records: InspectionRecord[];
  /** Where it was kept: this browser, or the server (a job this browser did not run). */
  where: 'browser' | 'server';
}

/** The media id the jobs registry stored for a job's local id, whoever's list it is in. */
export function storedMediaId(actorId: string | null): string | null {
  if (!actorId) return null;
  const lists = Object.values(readStored(STORAGE_KEYS.jobs) ?? {});
  return lists.flat().find((job) => job.localId === actorId)?.mediaId ?? null;
}

/** A job's kept path: this browser's first, else the one its media keeps on the server. */
export async function readSavedPath(input: { actorId: string | null; mediaId: string | null; stored: unknown }): Promise<SavedPath> {
  const local = savedJobRecords(input.stored, Date.now(), input);
  if (local && local.length > 0) return { actorId: local[0]!.actorId, records: local, where: 'browser' };
  const mediaId = input.mediaId ?? storedMediaId(input.actorId);
  const kept = mediaId ? await fetchJobLog(mediaId) : null;
  const records = kept ? checkedRecords(kept.records) : null;
  if (!records || records.length === 0) throw new Error(INSPECTOR_TEXTS.saved.none);
  const actorId = records[0]!.actorId;
  return { actorId, records: records.map((record) => ({ ...record, sessionId: savedSessionId(actorId) })), where: 'server' };
}
