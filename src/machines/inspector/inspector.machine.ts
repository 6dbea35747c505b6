import { assertEvent } from 'xstate';
import { STORAGE_KEYS } from '@/config/limits';
import { isLocalMode } from '@/machines/inspector/inspector-access';
import { inspectorSetup } from '@/machines/inspector/inspector.setup';
import { readStored } from '@/services/storage';

export { REPLAY_STEP_MS } from '@/machines/inspector/inspector.setup';
export type { SavedPath } from '@/machines/inspector/inspector-saved-path';
export type { ProblemReportSummary, SendOutcome } from '@/machines/inspector/inspector.types';

/**
 * The QA inspector (issue 8): follows the inspection hub live, freezes on pause, steps through
 * the log, exports it, loads an exported log and replays it. A parallel region lays out the
 * chosen machine's statechart and keeps how it is viewed: its zoom and what the find box names
 * (issue 22 item 4). Its types are in inspector.types.ts, its implementations in
 * inspector.setup.ts, a job's kept path in inspector-saved-path.ts and the sending of an event
 * to a live actor in inspector-send.ts.
 */
export const inspectorMachine = inspectorSetup.createMachine({
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
