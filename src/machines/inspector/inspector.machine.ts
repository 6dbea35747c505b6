import { assertEvent, assign, fromCallback, fromPromise, setup } from 'xstate';
import type { InspectionHub, InspectionMessage, InspectionRecord } from '@/lib/inspection/hub';
import { buildInspectorLog, downloadInspectorLog, InspectorLogError } from '@/lib/inspection/log-file';
import type { InspectorLog } from '@/lib/inspection/log-file';
import { extractStatechart } from '@/lib/inspection/statechart-graph';
import { clampZoom, findInChart, ZOOM_STEP } from '@/lib/inspection/chart-find';
import { parsePayload } from '@/lib/inspection/send-event';
import { layoutStatechart, type StatechartLayout } from '@/lib/inspection/statechart-layout';
import { INSPECTOR_TEXTS } from '@/config/inspector-texts';
import { catalogEntry } from '@/machines/catalog';
import { JOB_MACHINE_ID, savedSessionId } from '@/lib/inspection/job-log-keeper';
import { checkedRecords, savedJobRecords, savedJobSummaries, type SavedJobSummary } from '@/lib/inspection/saved-job-logs';
import { STORAGE_KEYS } from '@/config/limits';
import { fetchJobLog, fetchProblemReport, listProblemReports } from '@/services/inspection';
import { inspectorFileOf, parseInspectorFile } from '@/lib/inspection/problem-report';
import { isLocalMode } from '@/machines/inspector/inspector-access';
import { readStored } from '@/services/storage';
import { actorsInRecords, stepCursor, visibleIndices, type ActorSummary, type LogScope } from '@/machines/inspector/inspector-log';

/**
 * The QA inspector (issue 8): follows the inspection hub live, freezes on pause, steps through
 * the log, exports it, loads an exported log and replays it. A parallel region lays out the
 * chosen machine's statechart and keeps how it is viewed: its zoom and what the find box names
 * (issue 22 item 4).
 */
export const REPLAY_STEP_MS = 400;

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

// A machine's layout never changes while the page lives: lay each one out once.
const layouts = new Map<string, Promise<StatechartLayout>>();

function layoutOf(machineId: string): Promise<StatechartLayout> {
  let layout = layouts.get(machineId);
  if (!layout) {
    const entry = catalogEntry(machineId);
    if (!entry) return Promise.reject(new Error(`No machine ${machineId} in the catalog`));
    layout = layoutStatechart(extractStatechart(entry.machine));
    // A failure is not kept: the next pick tries again.
    layout.catch(() => layouts.delete(machineId));
    layouts.set(machineId, layout);
  }
  return layout;
}

const liveSummaries = (hub: InspectionHub): ActorSummary[] =>
  hub.liveActors().map(({ actorId, sessionId, machineId, status }) => ({ actorId, sessionId, machineId, status }));

/** The actor the URL asked for, once it exists. */
function findPreselected(actors: readonly ActorSummary[], wanted: string | null): ActorSummary | undefined {
  if (!wanted) return undefined;
  return actors.find((actor) => actor.actorId === wanted || actor.sessionId === wanted);
}

/**
 * What came of sending the chosen event to the chosen actor: sent only to a live actor whose
 * current state takes it with this payload (snapshot.can runs its guards), so the inspector never
 * pushes an actor down a path it would refuse.
 */
function sendToActor(context: InspectorContext): SendOutcome {
  const type = context.sendType;
  if (!type) return { kind: 'refused', message: INSPECTOR_TEXTS.send.chooseFirst };
  const actor = context.hub.liveActors().find((candidate) => candidate.sessionId === context.selectedSessionId);
  if (!actor) return { kind: 'refused', message: INSPECTOR_TEXTS.send.notLive };
  const payload = parsePayload(context.sendPayload);
  if (!payload.ok) return { kind: 'refused', message: payload.error };
  const event = { ...payload.payload, type };
  let accepted: boolean;
  try {
    accepted = actor.ref.getSnapshot().can(event);
  } catch (error) {
    // A guard that reads a field the payload lacks throws instead of answering.
    return { kind: 'refused', message: INSPECTOR_TEXTS.send.guardFailed(type, error instanceof Error ? error.message : String(error)) };
  }
  if (!accepted) return { kind: 'refused', message: INSPECTOR_TEXTS.send.notAccepted(type) };
  actor.ref.send(event);
  return { kind: 'sent', message: INSPECTOR_TEXTS.send.sent(type) };
}

export interface SavedPath {
  actorId: string;
  records: InspectionRecord[];
  /** Where it was kept: this browser, or the server (a job this browser did not run). */
  where: 'browser' | 'server';
}

/** The media id the jobs registry stored for a job's local id, whoever's list it is in. */
function storedMediaId(actorId: string | null): string | null {
  if (!actorId) return null;
  const lists = Object.values(readStored(STORAGE_KEYS.jobs) ?? {});
  return lists.flat().find((job) => job.localId === actorId)?.mediaId ?? null;
}

/** A job's kept path: this browser's first, else the one its media keeps on the server. */
async function readSavedPath(input: { actorId: string | null; mediaId: string | null; stored: unknown }): Promise<SavedPath> {
  const local = savedJobRecords(input.stored, Date.now(), input);
  if (local && local.length > 0) return { actorId: local[0]!.actorId, records: local, where: 'browser' };
  const mediaId = input.mediaId ?? storedMediaId(input.actorId);
  const kept = mediaId ? await fetchJobLog(mediaId) : null;
  const records = kept ? checkedRecords(kept.records) : null;
  if (!records || records.length === 0) throw new Error(INSPECTOR_TEXTS.saved.none);
  const actorId = records[0]!.actorId;
  return { actorId, records: records.map((record) => ({ ...record, sessionId: savedSessionId(actorId) })), where: 'server' };
}

const visible = (context: InspectorContext) => visibleIndices(context.records, context.logScope, context.selectedSessionId);

export const inspectorMachine = setup({
  types: {
    context: {} as InspectorContext,
    events: {} as InspectorEvent,
    input: {} as InspectorInput,
  },
  actors: {
    watchHub: fromCallback<InspectorEvent, InspectionHub>(({ input: hub, sendBack }) => {
      sendBack({ type: 'inspector.hubChanged' });
      return hub.subscribe(() => sendBack({ type: 'inspector.hubChanged' }));
    }),
    readLog: fromPromise<InspectorLog, { file: File }>(async ({ input }) => {
      let text: string;
      try {
        text = await input.file.text();
      } catch {
        throw new InspectorLogError(INSPECTOR_TEXTS.unreadable);
      }
      // An exported log, or a problem report (issue 22 item 5), replayed from the log it carries.
      return parseInspectorFile(text).log;
    }),
    listReports: fromPromise<ProblemReportSummary[]>(async () => (await listProblemReports()).reports),
    readReport: fromPromise<InspectorLog, { id: string }>(async ({ input }) => inspectorFileOf(await fetchProblemReport(input.id)).log),
    layout: fromPromise<StatechartLayout, { machineId: string }>(({ input }) => layoutOf(input.machineId)),
    readSavedPath: fromPromise<SavedPath, { actorId: string | null; mediaId: string | null; stored: unknown }>(({ input }) => readSavedPath(input)),
  },
  actions: {
    takeHub: assign(({ context }) => {
      const records = context.hub.records();
      const messages = context.hub.messages();
      const liveActors = liveSummaries(context.hub);
      if (context.selectedSessionId !== null || !context.preselectActorId) return { records, messages, liveActors };
      // A job's actor may be gone already (finished): look in the log as well.
      const wanted = findPreselected(liveActors, context.preselectActorId) ?? findPreselected(actorsInRecords(records), context.preselectActorId);
      if (!wanted) return { records, messages, liveActors };
      return { records, messages, liveActors, selectedSessionId: wanted.sessionId, machineId: wanted.machineId, preselectActorId: null };
    }),
    freeze: assign({ cursor: ({ context }) => context.cursor ?? (context.records.length > 0 ? context.records.length - 1 : null) }),
    follow: assign({ cursor: null }),
    stepBack: assign({ cursor: ({ context }) => stepCursor(visible(context), context.cursor, -1) }),
    stepForward: assign({ cursor: ({ context }) => stepCursor(visible(context), context.cursor, 1) }),
    seek: assign({
      cursor: ({ context, event }) => {
        assertEvent(event, 'inspector.seek');
        if (context.records.length === 0) return null;
        return Math.max(0, Math.min(event.index, context.records.length - 1));
      },
    }),
    selectActor: assign(({ context, event }) => {
      assertEvent(event, 'inspector.selectActor');
      const actor = [...context.liveActors, ...actorsInRecords(context.records)].find(
        (candidate) => candidate.sessionId === event.sessionId,
      );
      // Another actor takes other events: the choice and the last outcome were for the previous one.
      const forget = event.sessionId === context.selectedSessionId ? {} : { sendType: null, sendOutcome: null };
      return { selectedSessionId: event.sessionId, machineId: actor?.machineId ?? context.machineId, ...forget };
    }),
    selectMachine: assign(({ context, event }) => {
      assertEvent(event, 'inspector.selectMachine');
      if (event.machineId === context.machineId) return {};
      // A machine on its own: no actor's state is highlighted on it.
      return { machineId: event.machineId, selectedSessionId: null };
    }),
    setLogScope: assign({
      logScope: ({ event }) => {
        assertEvent(event, 'inspector.setLogScope');
        return event.scope;
      },
    }),
    downloadLog: ({ context }) => downloadInspectorLog(buildInspectorLog(context.hub.records(), new Date(), context.hub.messages())),
    takeLoadedLog: assign(({ context, event }) => {
      const { output } = event as unknown as { output: InspectorLog };
      const records = output.records;
      const actors = actorsInRecords(records);
      const keep = actors.find((actor) => actor.sessionId === context.selectedSessionId);
      const selected = keep ?? actors.find((actor) => records.some((record) => record.sessionId === actor.sessionId && record.type === 'snapshot'));
      return {
        records,
        // A log exported before the sequence view has none.
        messages: output.messages ?? [],
        loadError: null,
        selectedSessionId: selected?.sessionId ?? null,
        machineId: selected?.machineId ?? context.machineId,
        logScope: 'actor' as LogScope,
        cursor: null,
      };
    }),
    rememberFileName: assign({
      loadedName: ({ event }) => {
        assertEvent(event, 'inspector.load');
        return event.file.name;
      },
      loadError: null,
    }),
    rewind: assign({ cursor: ({ context }) => visible(context)[0] ?? null }),
    showLoadError: assign({
      loadError: ({ event }) => {
        const { error } = event as unknown as { error: unknown };
        const detail = error instanceof Error ? error.message : String(error);
        return INSPECTOR_TEXTS.loadError(detail);
      },
      loadedName: null,
    }),
    clearLoaded: assign({ loadedName: null, loadError: null }),
    rememberReportName: assign({
      loadedName: ({ event }) => {
        assertEvent(event, 'inspector.openReport');
        return event.title;
      },
      loadError: null,
    }),
    takeReports: assign({ reports: ({ event }) => (event as unknown as { output: ProblemReportSummary[] }).output }),
    listSavedJobs: assign({ savedJobs: ({ context }) => savedJobSummaries(context.readSavedLogs(), Date.now()) }),
    takeSavedPath: assign(({ event }) => {
      const { output } = event as unknown as { output: SavedPath };
      return {
        records: output.records,
        // A kept path holds one job's records only: no messages between actors.
        messages: [],
        loadError: null,
        savedNote: null,
        selectedSessionId: savedSessionId(output.actorId),
        machineId: output.records[0]?.machineId ?? JOB_MACHINE_ID,
        logScope: 'actor' as LogScope,
        cursor: null,
        preselectActorId: null,
        preselectMediaId: null,
        loadedName: output.where === 'browser' ? INSPECTOR_TEXTS.saved.fromBrowser : INSPECTOR_TEXTS.saved.fromServer,
      };
    }),
    showSavedMissing: assign({
      savedNote: ({ event }) => {
        const { error } = event as unknown as { error: unknown };
        return error instanceof Error ? error.message : INSPECTOR_TEXTS.saved.none;
      },
      preselectMediaId: null,
    }),
    startLayout: assign({ layout: null, layoutFor: ({ context }) => context.machineId, zoom: 1, findIndex: 0 }),
    chooseEvent: assign(({ event }) => {
      assertEvent(event, 'inspector.chooseEvent');
      return { sendType: event.eventType, sendOutcome: null };
    }),
    editPayload: assign(({ event }) => {
      assertEvent(event, 'inspector.editPayload');
      return { sendPayload: event.text, sendOutcome: null };
    }),
    sendEvent: assign({ sendOutcome: ({ context }) => sendToActor(context) }),
    zoomIn: assign({ zoom: ({ context }) => clampZoom(context.zoom * ZOOM_STEP) }),
    zoomOut: assign({ zoom: ({ context }) => clampZoom(context.zoom / ZOOM_STEP) }),
    zoomTo: assign({
      zoom: ({ event }) => {
        assertEvent(event, 'inspector.zoomTo');
        return clampZoom(event.scale);
      },
    }),
    find: assign(({ event }) => {
      assertEvent(event, 'inspector.find');
      return { find: event.query, findIndex: 0 };
    }),
    findNext: assign({
      findIndex: ({ context, event }) => {
        assertEvent(event, 'inspector.findNext');
        const count = context.layout ? findInChart(context.layout, context.find).length : 0;
        if (count === 0) return 0;
        return (context.findIndex + (event.back ? count - 1 : 1)) % count;
      },
    }),
    takeLayout: assign({ layout: ({ event }) => (event as unknown as { output: StatechartLayout }).output }),
  },
  guards: {
    atEnd: ({ context }) => {
      const indices = visible(context);
      return indices.length === 0 || context.cursor === null || context.cursor >= indices[indices.length - 1]!;
    },
    /**
     * The URL names a job that is neither alive in this page nor in its log (a reload, another
     * tab's job, a job from the server): its kept path is opened instead.
     */
    wantsSavedPath: ({ context }) => {
      if (context.preselectMediaId) return true;
      const wanted = context.preselectActorId;
      if (!wanted) return false;
      const known = [...liveSummaries(context.hub), ...actorsInRecords(context.hub.records())];
      if (findPreselected(known, wanted)) return false;
      // Only a job with a kept path (here, or on the server under its media id); any other actor
      // the URL names may still start (the view follows the hub and picks it when it does).
      return savedJobRecords(context.readSavedLogs(), Date.now(), { actorId: wanted }) !== null || storedMediaId(wanted) !== null;
    },
    serverKeepsReports: ({ context }) => context.local,
    machineChanged: ({ context }) => context.machineId !== null && context.machineId !== context.layoutFor,
  },
  delays: {
    replayStep: REPLAY_STEP_MS,
  },
}).createMachine({
  id: 'inspector',
  type: 'parallel',
  context: ({ input }) => ({
    hub: input.hub,
    records: [],
    messages: [],
    liveActors: [],
    cursor: null,
    selectedSessionId: null,
    preselectActorId: input.preselectActorId ?? null,
    machineId: input.machineId ?? null,
    logScope: 'actor',
    loadedName: null,
    loadError: null,
    layout: null,
    layoutFor: null,
    zoom: 1,
    find: '',
    findIndex: 0,
    sendType: null,
    sendPayload: '',
    sendOutcome: null,
    preselectMediaId: input.preselectMediaId ?? null,
    readSavedLogs: input.readSavedLogs ?? (() => readStored(STORAGE_KEYS.jobLogs)),
    savedJobs: [],
    savedNote: null,
    local: input.local ?? isLocalMode(),
    reports: [],
  }),
  states: {
    view: {
      initial: 'starting',
      entry: 'listSavedJobs',
      on: {
        'inspector.openSaved': { target: '.openingSaved' },
        'inspector.openReport': { target: '.openingReport', actions: 'rememberReportName' },
        'inspector.selectActor': { actions: 'selectActor' },
        'inspector.selectMachine': { actions: 'selectMachine' },
        'inspector.setLogScope': { actions: 'setLogScope' },
        'inspector.export': { actions: 'downloadLog' },
        'inspector.load': { target: '.loading', actions: 'rememberFileName' },
      },
      states: {
        starting: { always: [{ guard: 'wantsSavedPath', target: 'openingSaved' }, { target: 'live' }] },
        openingSaved: {
          invoke: {
            src: 'readSavedPath',
            input: ({ context, event }) =>
              event.type === 'inspector.openSaved'
                ? { actorId: event.actorId, mediaId: event.mediaId ?? null, stored: context.readSavedLogs() }
                : { actorId: context.preselectActorId, mediaId: context.preselectMediaId, stored: context.readSavedLogs() },
            onDone: { target: 'replay', actions: 'takeSavedPath' },
            onError: { target: 'live', actions: 'showSavedMissing' },
          },
        },
        openingReport: {
          invoke: {
            src: 'readReport',
            input: ({ event }) => {
              assertEvent(event, 'inspector.openReport');
              return { id: event.id };
            },
            onDone: { target: 'replay', actions: 'takeLoadedLog' },
            onError: { target: 'live', actions: 'showLoadError' },
          },
        },
        live: {
          initial: 'following',
          invoke: { src: 'watchHub', input: ({ context }) => context.hub },
          states: {
            following: {
              on: {
                'inspector.chooseEvent': { actions: 'chooseEvent' },
                'inspector.editPayload': { actions: 'editPayload' },
                'inspector.sendEvent': { actions: 'sendEvent' },
                'inspector.hubChanged': { actions: 'takeHub' },
                'inspector.pause': { target: 'paused', actions: 'freeze' },
                'inspector.stepBack': { target: 'paused', actions: ['freeze', 'stepBack'] },
                'inspector.seek': { target: 'paused', actions: 'seek' },
              },
            },
            // Records keep arriving in the hub; the view stays where it is.
            paused: {
              on: {
                'inspector.resume': { target: 'following', actions: ['follow', 'takeHub'] },
                'inspector.stepBack': { actions: 'stepBack' },
                'inspector.stepForward': { actions: 'stepForward' },
                'inspector.seek': { actions: 'seek' },
              },
            },
          },
        },
        loading: {
          invoke: {
            src: 'readLog',
            input: ({ event }) => {
              assertEvent(event, 'inspector.load');
              return { file: event.file };
            },
            onDone: { target: 'replay', actions: 'takeLoadedLog' },
            onError: { target: 'live', actions: 'showLoadError' },
          },
        },
        replay: {
          initial: 'stopped',
          entry: 'rewind',
          on: {
            'inspector.live': { target: 'live', actions: ['clearLoaded', 'follow'] },
            'inspector.stepBack': { target: '.stopped', actions: 'stepBack' },
            'inspector.stepForward': { target: '.stopped', actions: 'stepForward' },
            'inspector.seek': { actions: 'seek' },
          },
          states: {
            stopped: {
              on: { 'inspector.play': [{ guard: 'atEnd', target: 'playing', actions: 'rewind' }, { target: 'playing' }] },
            },
            playing: {
              on: { 'inspector.stop': 'stopped' },
              after: {
                replayStep: [
                  { guard: 'atEnd', target: 'stopped' },
                  { target: 'playing', reenter: true, actions: 'stepForward' },
                ],
              },
            },
          },
        },
      },
    },
    // Whatever changed the machine (a pick, an actor, the URL, a loaded log), draw the new one.
    diagram: {
      initial: 'idle',
      on: {
        'inspector.zoomIn': { actions: 'zoomIn' },
        'inspector.zoomOut': { actions: 'zoomOut' },
        'inspector.zoomTo': { actions: 'zoomTo' },
        'inspector.find': { actions: 'find' },
        'inspector.findNext': { actions: 'findNext' },
      },
      states: {
        idle: { always: { guard: 'machineChanged', target: 'layingOut' } },
        layingOut: {
          entry: 'startLayout',
          always: { guard: 'machineChanged', target: 'layingOut', reenter: true },
          invoke: {
            src: 'layout',
            input: ({ context }) => ({ machineId: context.layoutFor ?? '' }),
            onDone: { target: 'ready', actions: 'takeLayout' },
            onError: 'failed',
          },
        },
        ready: { always: { guard: 'machineChanged', target: 'layingOut' } },
        failed: { always: { guard: 'machineChanged', target: 'layingOut' } },
      },
    },
    // The server's problem reports (issue 22 item 5), on a local Kinora only.
    reports: {
      initial: 'checking',
      states: {
        checking: { always: [{ guard: 'serverKeepsReports', target: 'loading' }, { target: 'off' }] },
        off: {},
        loading: {
          invoke: { src: 'listReports', onDone: { target: 'ready', actions: 'takeReports' }, onError: 'failed' },
        },
        ready: { on: { 'inspector.refreshReports': 'loading' } },
        failed: { on: { 'inspector.refreshReports': 'loading' } },
      },
    },
  },
});
