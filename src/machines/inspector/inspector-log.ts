import type { InspectionRecord } from '@/lib/inspection/hub';

/** Pure helpers over a list of inspection records, shared by the inspector machine and its selectors. */
export type LogScope = 'actor' | 'all';

export interface ActorSummary {
  actorId: string;
  sessionId: string;
  machineId: string;
  status: string;
}

/** Indices of the records the event log shows: snapshot records (event, from → to), of one actor or all. */
export function visibleIndices(records: readonly InspectionRecord[], scope: LogScope, sessionId: string | null): number[] {
  const indices: number[] = [];
  records.forEach((record, index) => {
    if (record.type !== 'snapshot') return;
    if (scope === 'actor' && sessionId !== null && record.sessionId !== sessionId) return;
    indices.push(index);
  });
  return indices;
}

/** The position one step back or forward from `cursor` (null = the end) among `indices`. */
export function stepCursor(indices: readonly number[], cursor: number | null, direction: -1 | 1): number | null {
  if (indices.length === 0) return cursor;
  const current = cursor ?? indices[indices.length - 1]!;
  if (direction === 1) return indices.find((index) => index > current) ?? indices[indices.length - 1]!;
  for (let i = indices.length - 1; i >= 0; i -= 1) {
    if (indices[i]! < current) return indices[i]!;
  }
  return indices[0]!;
}

/** The last snapshot record of an actor at or before `cursor` (null = the end). */
export function snapshotAt(
  records: readonly InspectionRecord[],
  sessionId: string | null,
  cursor: number | null,
): InspectionRecord | null {
  if (sessionId === null) return null;
  const last = cursor === null ? records.length - 1 : Math.min(cursor, records.length - 1);
  for (let index = last; index >= 0; index -= 1) {
    const record = records[index]!;
    if (record.sessionId === sessionId && record.type === 'snapshot') return record;
  }
  return null;
}

/** Every actor that appears in the records, in order of appearance, with its last status. */
export function actorsInRecords(records: readonly InspectionRecord[]): ActorSummary[] {
  const actors = new Map<string, ActorSummary>();
  for (const record of records) {
    const known = actors.get(record.sessionId);
    const status = record.type === 'snapshot' ? (record.status ?? 'active') : (known?.status ?? 'active');
    actors.set(record.sessionId, {
      actorId: record.actorId,
      sessionId: record.sessionId,
      machineId: record.machineId,
      status,
    });
  }
  return [...actors.values()];
}

