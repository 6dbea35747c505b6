import { assertEvent, assign, fromCallback, fromPromise, setup } from 'xstate';
import type { InspectionHub } from '@/lib/inspection/hub';
import { buildInspectorLog, downloadInspectorLog, InspectorLogError } from '@/lib/inspection/log-file';
import type { InspectorLog } from '@/lib/inspection/log-file';
import { extractStatechart } from '@/lib/inspection/statechart-graph';
import { clampZoom, findInChart, ZOOM_STEP } from '@/lib/inspection/chart-find';
import { layoutStatechart, type StatechartLayout } from '@/lib/inspection/statechart-layout';
import { INSPECTOR_TEXTS } from '@/config/inspector-texts';
import { catalogEntry } from '@/machines/catalog';
import { JOB_MACHINE_ID, savedSessionId } from '@/lib/inspection/job-log-keeper';
import { savedJobRecords, savedJobSummaries } from '@/lib/inspection/saved-job-logs';
import { fetchProblemReport, listProblemReports } from '@/services/inspection';
import { inspectorFileOf, parseInspectorFile } from '@/lib/inspection/problem-report';
import { actorsInRecords, stepCursor, visibleIndices, type ActorSummary, type LogScope } from '@/machines/inspector/inspector-log';
import { readSavedPath, storedMediaId, type SavedPath } from '@/machines/inspector/inspector-saved-path';
import { sendToActor } from '@/machines/inspector/inspector-send';
import type { InspectorContext, InspectorEvent, InspectorInput, ProblemReportSummary } from '@/machines/inspector/inspector.types';

/** How long a replayed step shows before the next. */
export const REPLAY_STEP_MS = 400;

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

const visible = (context: InspectorContext) => visibleIndices(context.records, context.logScope, context.selectedSessionId);

/**
 * The inspector's named implementations (its actors wrap one service call each; its actions,
 * guards and delays), apart from its states in inspector.machine.ts.
 */
export const inspectorSetup = setup({
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
});
