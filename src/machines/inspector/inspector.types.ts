import type { InspectionHub, InspectionMessage, InspectionRecord } from '@/lib/inspection/hub';
import type { StatechartLayout } from '@/lib/inspection/statechart-layout';
import type { SavedJobSummary } from '@/lib/inspection/saved-job-logs';
import type { ActorSummary, LogScope } from '@/machines/inspector/inspector-log';

// The inspector's input, context and events, apart from its implementations (inspector.setup.ts)
// and its states (inspector.machine.ts), so each file reads as one thing.

export interface InspectorInput {
  hub: InspectionHub;
  /** `?actor=` of the URL: an actor id (a job's local id, "session") or a session id. */
  preselectActorId?: string | null;
  /** Initial machine to draw. */
  machineId?: string | null;
  /** `?media=` of the URL: a job the server knows, whose kept path is opened. */
  preselectMediaId?: string | null;
  /** The jobs' kept paths (job-log-keeper.ts) as stored; tests give their own. */
  readSavedLogs?: () => unknown;
  /** Whether the server keeps problem reports (a local Kinora); defaults to the app's mode. */
  local?: boolean;
}

export interface ProblemReportSummary {
  id: string;
  title: string;
  created_at: string;
  bytes: number;
}

export interface InspectorContext {
  hub: InspectionHub;
  records: readonly InspectionRecord[];
  /** The messages between actors (the sequence view), live from the hub or from a loaded log. */
  messages: readonly InspectionMessage[];
  liveActors: readonly ActorSummary[];
  /** Index into `records` the view shows; null = the newest. */
  cursor: number | null;
  selectedSessionId: string | null;
  preselectActorId: string | null;
  machineId: string | null;
  logScope: LogScope;
  loadedName: string | null;
  loadError: string | null;
  layout: StatechartLayout | null;
  /** The machine being (or last) laid out. */
  layoutFor: string | null;
  /** The chart's scale (1 = 100 %), back to 1 for each machine drawn. */
  zoom: number;
  /** What the find box names (a state or an event); kept across machines. */
  find: string;
  /** Which of the find's matches is shown (chart-find.ts orders them). */
  findIndex: number;
  /** Send an event (issue 22 item 2): the type chosen, the payload typed, what came of the last send. */
  sendType: string | null;
  sendPayload: string;
  sendOutcome: SendOutcome | null;
  preselectMediaId: string | null;
  readSavedLogs: () => unknown;
  /** The jobs' paths this browser keeps (issue 22 item 1), newest first. */
  savedJobs: readonly SavedJobSummary[];
  /** Why a job's kept path could not be opened (shown as a note; the view stays live). */
  savedNote: string | null;
  local: boolean;
  /** The server's problem reports (local mode), newest first. */
  reports: readonly ProblemReportSummary[];
}

export interface SendOutcome {
  kind: 'sent' | 'refused';
  message: string;
}

export type InspectorEvent =
  | { type: 'inspector.hubChanged' }
  | { type: 'inspector.pause' }
  | { type: 'inspector.resume' }
  | { type: 'inspector.stepBack' }
  | { type: 'inspector.stepForward' }
  | { type: 'inspector.seek'; index: number }
  | { type: 'inspector.selectActor'; sessionId: string }
  | { type: 'inspector.selectMachine'; machineId: string }
  | { type: 'inspector.setLogScope'; scope: LogScope }
  | { type: 'inspector.export' }
  | { type: 'inspector.load'; file: File }
  | { type: 'inspector.play' }
  | { type: 'inspector.stop' }
  | { type: 'inspector.live' }
  | { type: 'inspector.zoomIn' }
  | { type: 'inspector.zoomOut' }
  /** Fit to the view (the screen measures it) or back to 100 %. */
  | { type: 'inspector.zoomTo'; scale: number }
  | { type: 'inspector.find'; query: string }
  /** The next (or, with `back`, the previous) match, wrapping around. */
  | { type: 'inspector.findNext'; back?: boolean }
  | { type: 'inspector.chooseEvent'; eventType: string }
  | { type: 'inspector.editPayload'; text: string }
  /** Sends the chosen event with the payload to the chosen live actor, if its current state takes it. */
  | { type: 'inspector.sendEvent' }
  /** Opens a job's kept path (issue 22 item 1): by its local id, or by its media id. */
  | { type: 'inspector.openSaved'; actorId: string | null; mediaId?: string | null }
  /** Replays a problem report the server keeps (local mode). */
  | { type: 'inspector.openReport'; id: string; title: string }
  | { type: 'inspector.refreshReports' };
