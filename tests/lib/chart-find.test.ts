import { describe, expect, it } from 'vitest';
import { clampZoom, findInChart, fitZoom, ZOOM_MAX, ZOOM_MIN } from '@/lib/inspection/chart-find';
import type { PlacedEdge, PlacedNode, StatechartLayout } from '@/lib/inspection/statechart-layout';

const node = (path: string, x: number, y: number, parentId: string | null = 'root'): PlacedNode =>
  ({ id: path, path, key: path.split('.').at(-1) ?? path, parentId, kind: 'atomic', initial: false, invokes: [], x, y, width: 80, height: 30, depth: 1 }) as unknown as PlacedNode;
const edge = (id: string, label: string, x: number, y: number): PlacedEdge =>
  ({ id, label, source: 'a', target: 'b', kind: 'event', trigger: label, guard: null, points: [{ x, y }, { x: x + 10, y }], labelBox: { x, y, width: 40, height: 16 } }) as unknown as PlacedEdge;

const layout: StatechartLayout = {
  machineId: 'job',
  width: 4900,
  height: 600,
  nodes: [node('job', 0, 0, null), node('processing', 900, 40), node('queued', 100, 40), node('processingFailed', 300, 400)],
  edges: [edge('e1', 'job.cancel', 2000, 300), edge('e2', 'done: submit', 50, 200), edge('e3', 'JOB.Cancel [canCancel]', 10, 300)],
};

describe('finding on a chart', () => {
  it('finds states by name and transitions by event, ignoring case, in reading order', () => {
    expect(findInChart(layout, ' CANCEL ').map((match) => [match.kind, match.id])).toEqual([
      ['event', 'e3'],
      ['event', 'e1'],
    ]);
    expect(findInChart(layout, 'processing').map((match) => match.id)).toEqual(['processing', 'processingFailed']);
  });

  it('finds nothing for an empty query and never the machine box itself', () => {
    expect(findInChart(layout, '   ')).toEqual([]);
    expect(findInChart(layout, 'job').map((match) => match.id)).toEqual(['e3', 'e1']);
  });
});

describe('zooming', () => {
  it('keeps the scale between the bounds, in whole percent', () => {
    expect(clampZoom(1.2345)).toBe(1.23);
    expect(clampZoom(50)).toBe(ZOOM_MAX);
    expect(clampZoom(0.001)).toBe(ZOOM_MIN);
    expect(clampZoom(Number.NaN)).toBe(1);
  });

  it('fits a wide chart to the view and never enlarges a small one', () => {
    expect(fitZoom(980, 4920)).toBe(0.2);
    expect(fitZoom(2460, 4920)).toBe(0.5);
    expect(fitZoom(1200, 600)).toBe(1);
    expect(fitZoom(0, 600)).toBe(1);
  });
});
