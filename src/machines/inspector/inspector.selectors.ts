import type { SnapshotFrom } from 'xstate';
import type { InspectionMessage, InspectionRecord } from '@/lib/inspection/hub';
import { findInChart, type ChartMatch } from '@/lib/inspection/chart-find';
import type { JsonValue } from '@/lib/inspection/json-safe';
import { activePaths } from '@/lib/inspection/statechart-graph';
import type { inspectorMachine } from '@/machines/inspector/inspector.machine';
import { actorsInRecords, snapshotAt, visibleIndices, type ActorSummary, type LogScope } from '@/machines/inspector/inspector-log';

export type InspectorSnapshot = SnapshotFrom<typeof inspectorMachine>;

export type InspectorMode = 'following' | 'paused' | 'loading' | 'replayStopped' | 'replayPlaying';

export const selectMode = (snapshot: InspectorSnapshot): InspectorMode => {
  if (snapshot.matches({ view: { live: 'paused' } })) return 'paused';
  if (snapshot.matches({ view: 'loading' })) return 'loading';
  if (snapshot.matches({ view: { replay: 'playing' } })) return 'replayPlaying';
  if (snapshot.matches({ view: 'replay' })) return 'replayStopped';
  return 'following';
};

export const selectIsReplay = (snapshot: InspectorSnapshot): boolean => snapshot.matches({ view: 'replay' });
export const selectRecords = (snapshot: InspectorSnapshot): readonly InspectionRecord[] => snapshot.context.records;
export const selectMessages = (snapshot: InspectorSnapshot): readonly InspectionMessage[] => snapshot.context.messages;

/** Where the sequence view ends: the time of the record the view is at (null = the newest, live). */
export const sequenceUntil = (records: readonly InspectionRecord[], cursor: number | null): number | null =>
  cursor === null ? null : (records[Math.min(cursor, records.length - 1)]?.time ?? null);
export const selectLiveActors = (snapshot: InspectorSnapshot): readonly ActorSummary[] => snapshot.context.liveActors;
export const selectCursor = (snapshot: InspectorSnapshot): number | null => snapshot.context.cursor;
export const selectSelectedSessionId = (snapshot: InspectorSnapshot): string | null => snapshot.context.selectedSessionId;
export const selectMachineId = (snapshot: InspectorSnapshot): string | null => snapshot.context.machineId;
export const selectLogScope = (snapshot: InspectorSnapshot): LogScope => snapshot.context.logScope;
export const selectLoadedName = (snapshot: InspectorSnapshot): string | null => snapshot.context.loadedName;
export const selectLoadError = (snapshot: InspectorSnapshot): string | null => snapshot.context.loadError;
export const selectLayout = (snapshot: InspectorSnapshot) => snapshot.context.layout;

export const selectSendType = (snapshot: InspectorSnapshot): string | null => snapshot.context.sendType;
export const selectSendPayload = (snapshot: InspectorSnapshot): string => snapshot.context.sendPayload;
export const selectSendOutcome = (snapshot: InspectorSnapshot) => snapshot.context.sendOutcome;

export const selectZoom = (snapshot: InspectorSnapshot): number => snapshot.context.zoom;
export const selectFindQuery = (snapshot: InspectorSnapshot): string => snapshot.context.find;

/** The find box's matches on the chart drawn, and the one shown (null when nothing matches). */
export interface ChartFind {
  matches: readonly ChartMatch[];
  current: ChartMatch | null;
  /** 0-based position of `current` among the matches. */
  index: number;
}

const NO_MATCHES: ChartFind = { matches: [], current: null, index: 0 };

export function selectChartFind(snapshot: InspectorSnapshot): ChartFind {
  const { layout, find, findIndex } = snapshot.context;
  if (!layout) return NO_MATCHES;
  const matches = findInChart(layout, find);
  if (matches.length === 0) return NO_MATCHES;
  const index = Math.min(findIndex, matches.length - 1);
  return { matches, current: matches[index] ?? null, index };
}

/** For useSelector: the same find answers equal, so the chart does not redraw on every hub record. */
export const sameChartFind = (a: ChartFind, b: ChartFind): boolean =>
  a.index === b.index && a.matches.length === b.matches.length && a.matches.every((match, i) => match.id === b.matches[i]?.id);

export type DiagramStatus = 'idle' | 'layingOut' | 'ready' | 'failed';
export const selectDiagramStatus = (snapshot: InspectorSnapshot): DiagramStatus => {
  for (const status of ['layingOut', 'ready', 'failed'] as const) {
    if (snapshot.matches({ diagram: status })) return status;
  }
  return 'idle';
};

/** The actors to list: the live ones, plus the chosen one after it ended; in replay, those of the log. */
export function actorsToList(
  replay: boolean,
  liveActors: readonly ActorSummary[],
  records: readonly InspectionRecord[],
  selectedSessionId: string | null,
): ActorSummary[] {
  const fromRecords = actorsInRecords(records);
  if (replay) return fromRecords;
  const list = [...liveActors];
  if (selectedSessionId && !list.some((actor) => actor.sessionId === selectedSessionId)) {
    const ended = fromRecords.find((actor) => actor.sessionId === selectedSessionId);
    if (ended) list.push(ended);
  }
  return list;
}

export interface ViewedState {
  record: InspectionRecord | null;
  value: JsonValue;
  context: JsonValue;
  status: string | null;
}

/** The chosen actor's state at the view's position. */
export function viewedState(
  records: readonly InspectionRecord[],
  sessionId: string | null,
  cursor: number | null,
): ViewedState {
  const record = snapshotAt(records, sessionId, cursor);
  return { record, value: record?.snapshotValue ?? null, context: record?.context ?? null, status: record?.status ?? null };
}

export interface LogView {
  rows: { index: number; record: InspectionRecord }[];
  /** Position of the cursor among all visible records (0-based) and how many there are. */
  position: number;
  total: number;
}

const LOG_WINDOW = 200;

/** The event log rows to show (a window around the cursor) and where the cursor is. */
export function logView(
  records: readonly InspectionRecord[],
  scope: LogScope,
  sessionId: string | null,
  cursor: number | null,
): LogView {
  const indices = visibleIndices(records, scope, sessionId);
  const total = indices.length;
  let position = total - 1;
  if (cursor !== null) {
    const at = indices.findIndex((index) => index >= cursor);
    position = at === -1 ? total - 1 : indices[at] === cursor ? at : Math.max(0, at - 1);
  }
  const end = Math.min(total, Math.max(position + LOG_WINDOW / 2, LOG_WINDOW));
  const start = Math.max(0, end - LOG_WINDOW);
  return {
    rows: indices.slice(start, end).map((index) => ({ index, record: records[index]! })),
    position: Math.max(0, position),
    total,
  };
}

export const selectSavedJobs = (snapshot: InspectorSnapshot) => snapshot.context.savedJobs;
export const selectSavedNote = (snapshot: InspectorSnapshot): string | null => snapshot.context.savedNote;

/**
 * Every state the chosen actor was in up to the view's position: the path the chart marks (issue
 * 22 item 1), so a finished job's way through its machine shows at a glance.
 */
export function visitedPaths(records: readonly InspectionRecord[], sessionId: string | null, cursor: number | null): Set<string> {
  const visited = new Set<string>();
  if (sessionId === null) return visited;
  const last = cursor === null ? records.length - 1 : Math.min(cursor, records.length - 1);
  for (let index = 0; index <= last; index += 1) {
    const record = records[index]!;
    if (record.sessionId !== sessionId || record.type !== 'snapshot') continue;
    for (const path of activePaths(record.snapshotValue ?? null)) visited.add(path);
  }
  return visited;
}

export type ReportsStatus = 'off' | 'loading' | 'ready' | 'failed';
export const selectReportsStatus = (snapshot: InspectorSnapshot): ReportsStatus => {
  for (const status of ['loading', 'ready', 'failed'] as const) {
    if (snapshot.matches({ reports: status })) return status;
  }
  return 'off';
};
export const selectReports = (snapshot: InspectorSnapshot) => snapshot.context.reports;
