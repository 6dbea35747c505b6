import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { assign, createActor, fromPromise, setup, waitFor } from 'xstate';
import { createInspectionHub, type InspectionHub } from '@/lib/inspection/hub';
import { buildInspectorLog, INSPECTOR_LOG_SCHEMA, parseInspectorLog, type InspectorLog } from '@/lib/inspection/log-file';
import type { StatechartLayout } from '@/lib/inspection/statechart-layout';
import { inspectorMachine, REPLAY_STEP_MS } from '@/machines/inspector/inspector.machine';
import { selectMode, viewedState } from '@/machines/inspector/inspector.selectors';

const lamp = setup({
  types: { context: {} as { flips: number }, events: {} as { type: 'lamp.flip' } },
}).createMachine({
  id: 'banner',
  context: { flips: 0 },
  initial: 'off',
  states: {
    off: { on: { 'lamp.flip': { target: 'on', actions: assign({ flips: ({ context }) => context.flips + 1 }) } } },
    on: { on: { 'lamp.flip': { target: 'off', actions: assign({ flips: ({ context }) => context.flips + 1 }) } } },
  },
});

const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function startInspector(hub: InspectionHub, preselectActorId: string | null = 'lamp') {
  const laidOut: string[] = [];
  const machine = inspectorMachine.provide({
    actors: {
      layout: fromPromise<StatechartLayout, { machineId: string }>(async ({ input }) => {
        laidOut.push(input.machineId);
        return { machineId: input.machineId, width: 10, height: 10, nodes: [], edges: [] };
      }),
    },
  });
  const inspector = createActor(machine, { input: { hub, preselectActorId } }).start();
  return { inspector, laidOut };
}

const viewedValue = (inspector: ReturnType<typeof startInspector>['inspector']) => {
  const { records, selectedSessionId, cursor } = inspector.getSnapshot().context;
  return viewedState(records, selectedSessionId, cursor).value;
};

describe('inspector machine', () => {
  let hub: InspectionHub;
  beforeEach(() => {
    hub = createInspectionHub();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('follows the hub live, preselects the actor of the URL and lays out its machine', async () => {
    const { inspector, laidOut } = startInspector(hub);
    const lampActor = createActor(lamp, { id: 'lamp', inspect: hub.inspect }).start();
    await flush();
    const { context } = inspector.getSnapshot();
    expect(context.selectedSessionId).toBe(lampActor.sessionId);
    expect(context.machineId).toBe('banner');
    await waitFor(inspector, (snapshot) => snapshot.matches({ diagram: 'ready' }));
    expect(laidOut).toEqual(['banner']);
    expect(viewedValue(inspector)).toBe('off');
    lampActor.send({ type: 'lamp.flip' });
    await flush();
    expect(viewedValue(inspector)).toBe('on');
    expect(inspector.getSnapshot().context.liveActors.map((actor) => actor.actorId)).toEqual(['lamp']);
  });

  it('pause freezes the view while the hub keeps collecting; step back/forward move through the log', async () => {
    const { inspector } = startInspector(hub);
    const lampActor = createActor(lamp, { id: 'lamp', inspect: hub.inspect }).start();
    lampActor.send({ type: 'lamp.flip' });
    await flush();
    inspector.send({ type: 'inspector.pause' });
    expect(selectMode(inspector.getSnapshot())).toBe('paused');
    lampActor.send({ type: 'lamp.flip' });
    await flush();
    expect(hub.records().at(-1)?.to).toBe('off');
    expect(viewedValue(inspector)).toBe('on');

    inspector.send({ type: 'inspector.stepBack' });
    expect(viewedValue(inspector)).toBe('off');
    inspector.send({ type: 'inspector.stepBack' });
    expect(viewedValue(inspector)).toBe('off');
    inspector.send({ type: 'inspector.stepForward' });
    expect(viewedValue(inspector)).toBe('on');

    inspector.send({ type: 'inspector.resume' });
    expect(selectMode(inspector.getSnapshot())).toBe('following');
    expect(viewedValue(inspector)).toBe('off');
    expect(inspector.getSnapshot().context.records).toHaveLength(hub.records().length);
  });

  it('exports the session log as a versioned JSON download', async () => {
    const blobs: Blob[] = [];
    // A URL of this test's own, not the global one changed in place: later files of the same
    // worker share the global (vite.config.ts, isolate: false).
    class DownloadUrl extends URL {
      static override createObjectURL = (blob: Blob) => (blobs.push(blob), 'blob:log');
      static override revokeObjectURL = () => undefined;
    }
    vi.stubGlobal('URL', DownloadUrl);
    const clicked: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    const { inspector } = startInspector(hub);
    const lampActor = createActor(lamp, { id: 'lamp', inspect: hub.inspect }).start();
    lampActor.send({ type: 'lamp.flip' });
    await flush();
    inspector.send({ type: 'inspector.export' });
    click.mockRestore();
    expect(clicked).toHaveLength(1);
    expect(clicked[0]).toMatch(/^kinora-inspector-.*\.json$/);
    const log = parseInspectorLog(await blobs[0]!.text());
    expect(log.schema).toBe(INSPECTOR_LOG_SCHEMA);
    expect(log.version).toBe(1);
    expect(log.records.map((record) => record.to).filter(Boolean)).toEqual(['off', 'on']);
  });

  it('loads an exported log and replays it step by step on a timer', async () => {
    const source = createInspectionHub();
    const lampActor = createActor(lamp, { id: 'lamp', inspect: source.inspect }).start();
    lampActor.send({ type: 'lamp.flip' });
    lampActor.send({ type: 'lamp.flip' });
    const file = new File([JSON.stringify(buildInspectorLog(source.records()))], 'session.json', { type: 'application/json' });

    vi.useFakeTimers();
    const { inspector } = startInspector(hub, null);
    inspector.send({ type: 'inspector.load', file });
    await vi.waitFor(() => expect(selectMode(inspector.getSnapshot())).toBe('replayStopped'));
    const { context } = inspector.getSnapshot();
    expect(context.loadedName).toBe('session.json');
    expect(context.records).toHaveLength(source.records().length);
    expect(context.machineId).toBe('banner');
    // Rewound to the first transition of the log.
    expect(viewedValue(inspector)).toBe('off');

    inspector.send({ type: 'inspector.play' });
    expect(selectMode(inspector.getSnapshot())).toBe('replayPlaying');
    await vi.advanceTimersByTimeAsync(REPLAY_STEP_MS);
    expect(viewedValue(inspector)).toBe('on');
    await vi.advanceTimersByTimeAsync(REPLAY_STEP_MS);
    expect(viewedValue(inspector)).toBe('off');
    await vi.advanceTimersByTimeAsync(REPLAY_STEP_MS);
    expect(selectMode(inspector.getSnapshot())).toBe('replayStopped');

    // The slider seeks anywhere; "Back to live" returns to the hub.
    const firstFlip = inspector.getSnapshot().context.records.findIndex((record) => record.to === 'on');
    inspector.send({ type: 'inspector.seek', index: firstFlip });
    expect(viewedValue(inspector)).toBe('on');
    inspector.send({ type: 'inspector.live' });
    expect(selectMode(inspector.getSnapshot())).toBe('following');
    expect(inspector.getSnapshot().context.loadedName).toBeNull();
  });

  it('rejects a file that is not an inspector log with a clear error and stays live', async () => {
    const { inspector } = startInspector(hub, null);
    const bad: Partial<InspectorLog> = { schema: INSPECTOR_LOG_SCHEMA, version: 1, exportedAt: 'now' };
    inspector.send({ type: 'inspector.load', file: new File([JSON.stringify(bad)], 'bad.json') });
    await waitFor(inspector, (snapshot) => snapshot.context.loadError !== null);
    expect(inspector.getSnapshot().context.loadError).toMatch(/^This file is not an inspector log: records: /);
    expect(selectMode(inspector.getSnapshot())).toBe('following');

    inspector.send({ type: 'inspector.load', file: new File(['{not json'], 'broken.json') });
    await waitFor(inspector, (snapshot) => snapshot.context.loadError?.includes('it is not JSON') ?? false);
  });

  it('picking a machine on its own clears the actor and lays the new machine out', async () => {
    const { inspector, laidOut } = startInspector(hub);
    createActor(lamp, { id: 'lamp', inspect: hub.inspect }).start();
    await waitFor(inspector, (snapshot) => snapshot.matches({ diagram: 'ready' }));
    inspector.send({ type: 'inspector.selectMachine', machineId: 'session' });
    await waitFor(inspector, (snapshot) => snapshot.matches({ diagram: 'ready' }) && snapshot.context.layout?.machineId === 'session');
    expect(laidOut).toEqual(['banner', 'session']);
    expect(inspector.getSnapshot().context.selectedSessionId).toBeNull();
  });
});
