import { z } from 'zod';
import type { InspectionRecord } from '@/lib/inspection/hub';
import { inspectionRecordSchema } from '@/lib/inspection/log-file';
import { keptLogs, type SavedJobLog } from '@/lib/inspection/job-log-keeper';

/**
 * The inspector's side of the jobs' kept paths (job-log-keeper.ts): what is read back is checked
 * here, record by record, and renumbered so a path that spans reloads reads as one log.
 */
const savedRecordsSchema = z.array(inspectionRecordSchema);

export interface SavedJobSummary {
  actorId: string;
  mediaId: string | null;
  savedAt: number;
  /** The tool's title from the job's context ("Text to Image"), null when it was not recorded. */
  toolTitle: string | null;
  /** The job's last state, as text ("succeeded"). */
  lastState: string;
  records: number;
}

/** Checked records of one kept log, numbered from 1 (the pages that wrote them each counted their own). */
export function checkedRecords(records: unknown): InspectionRecord[] | null {
  const parsed = savedRecordsSchema.safeParse(records);
  if (!parsed.success) return null;
  return parsed.data.map((record, index) => ({ ...record, seq: index + 1 }));
}

/** A state value as a person reads it: "succeeded", "polling.waiting" (parallel regions joined by ", "). */
function stateText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value as Record<string, unknown>)
      .map(([key, child]) => (child && (typeof child === 'string' || typeof child === 'object') ? `${key}.${stateText(child)}` : key))
      .join(', ');
  }
  return JSON.stringify(value ?? null);
}

/** The kept paths, newest first; ones that do not read back are left out. */
export function savedJobSummaries(stored: unknown, now: number): SavedJobSummary[] {
  return Object.values(keptLogs(stored, now)).flatMap((log: SavedJobLog) => {
    const records = checkedRecords(log.records);
    if (!records || records.length === 0) return [];
    const last = records[records.length - 1]!;
    const context = last.context as { toolTitle?: unknown } | null | undefined;
    const toolTitle = context && typeof context === 'object' && typeof context.toolTitle === 'string' ? context.toolTitle : null;
    return [{ actorId: log.actorId, mediaId: log.mediaId ?? null, savedAt: log.savedAt, toolTitle, lastState: stateText(last.to), records: records.length }];
  });
}

/** One job's kept records: by its local id, or by its media id (a job the server knows). */
export function savedJobRecords(stored: unknown, now: number, wanted: { actorId?: string | null; mediaId?: string | null }): InspectionRecord[] | null {
  const logs = Object.values(keptLogs(stored, now));
  const log = logs.find((candidate) => (wanted.actorId && candidate.actorId === wanted.actorId) || (wanted.mediaId && candidate.mediaId === wanted.mediaId));
  return log ? checkedRecords(log.records) : null;
}
