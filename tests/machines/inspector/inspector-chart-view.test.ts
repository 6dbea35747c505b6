import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { createInspectionHub } from '@/lib/inspection/hub';
import type { StatechartLayout } from '@/lib/inspection/statechart-layout';
import { inspectorMachine } from '@/machines/inspector/inspector.machine';
import { selectChartFind, selectZoom } from '@/machines/inspector/inspector.selectors';

/** Issue 22 item 4: the chart's zoom and the find box, owned by the inspector machine. */

const chart = (machineId: string): StatechartLayout =>
  ({
    machineId,
    width: 4900,
    height: 400,
    nodes: [
      { id: 'r', path: machineId, key: machineId, parentId: null, x: 0, y: 0 },
      { id: 'a', path: 'queued', key: 'queued', parentId: 'r', x: 10, y: 10 },
      { id: 'b', path: 'processing', key: 'processing', parentId: 'r', x: 500, y: 10 },
    ],
    edges: [
      { id: 'e1', label: 'job.cancel', points: [{ x: 100, y: 200 }], labelBox: null },
      { id: 'e2', label: 'job.process', points: [{ x: 300, y: 50 }], labelBox: null },
    ],
  }) as unknown as StatechartLayout;

function start() {
  const machine = inspectorMachine.provide({
    actors: { layout: fromPromise<StatechartLayout, { machineId: string }>(async ({ input }) => chart(input.machineId)) },
  });
  return createActor(machine, { input: { hub: createInspectionHub(), machineId: 'banner' } }).start();
}

describe('the inspector chart view', () => {
  it('zooms in and out by steps within the bounds, to a scale, and back to 100 % for another machine', async () => {
    const inspector = start();
    await waitFor(inspector, (snapshot) => snapshot.matches({ diagram: 'ready' }));
    expect(selectZoom(inspector.getSnapshot())).toBe(1);
    inspector.send({ type: 'inspector.zoomIn' });
    expect(selectZoom(inspector.getSnapshot())).toBe(1.25);
    for (let i = 0; i < 10; i += 1) inspector.send({ type: 'inspector.zoomIn' });
    expect(selectZoom(inspector.getSnapshot())).toBe(2);
    inspector.send({ type: 'inspector.zoomTo', scale: 0.01 });
    expect(selectZoom(inspector.getSnapshot())).toBe(0.2);
    inspector.send({ type: 'inspector.zoomOut' });
    expect(selectZoom(inspector.getSnapshot())).toBe(0.2);
    inspector.send({ type: 'inspector.zoomTo', scale: 0.5 });

    inspector.send({ type: 'inspector.selectMachine', machineId: 'session' });
    await waitFor(inspector, (snapshot) => snapshot.matches({ diagram: 'ready' }) && snapshot.context.layout?.machineId === 'session');
    expect(selectZoom(inspector.getSnapshot())).toBe(1);
    inspector.stop();
  });

  it('finds states and events, steps through the matches both ways with wrap-around, and keeps the query for the next machine', async () => {
    const inspector = start();
    await waitFor(inspector, (snapshot) => snapshot.matches({ diagram: 'ready' }));
    inspector.send({ type: 'inspector.find', query: 'job.' });
    const found = () => selectChartFind(inspector.getSnapshot());
    // Reading order: job.process (y 50) before job.cancel (y 200).
    expect(found().matches.map((match) => match.id)).toEqual(['e2', 'e1']);
    expect(found().current?.id).toBe('e2');
    inspector.send({ type: 'inspector.findNext' });
    expect(found().current?.id).toBe('e1');
    inspector.send({ type: 'inspector.findNext' });
    expect(found().current?.id).toBe('e2');
    inspector.send({ type: 'inspector.findNext', back: true });
    expect(found().current?.id).toBe('e1');

    inspector.send({ type: 'inspector.find', query: 'PROCESS' });
    expect(found()).toMatchObject({ index: 0, current: { kind: 'state', id: 'processing' } });
    expect(found().matches).toHaveLength(2);
    inspector.send({ type: 'inspector.find', query: 'nothing like it' });
    expect(found()).toEqual({ matches: [], current: null, index: 0 });
    inspector.send({ type: 'inspector.findNext' });
    expect(found().index).toBe(0);

    inspector.send({ type: 'inspector.find', query: 'queued' });
    inspector.send({ type: 'inspector.selectMachine', machineId: 'session' });
    await waitFor(inspector, (snapshot) => snapshot.matches({ diagram: 'ready' }) && snapshot.context.layout?.machineId === 'session');
    expect(found().current?.id).toBe('queued');
    inspector.stop();
  });
});
