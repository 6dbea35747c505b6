import type { StatechartLayout } from '@/lib/inspection/statechart-layout';

/**
 * Zoom and find on a laid-out statechart (issue 22 item 4): wide charts (the generation job's is
 * about 4,900 px) are read by zooming out to see their shape, finding a state or an event by name
 * and stepping from match to match.
 */

export const ZOOM_MIN = 0.2;
export const ZOOM_MAX = 2;
/** Each zoom-in multiplies the scale by this; each zoom-out divides by it. */
export const ZOOM_STEP = 1.25;

/** A scale within [ZOOM_MIN, ZOOM_MAX], rounded to whole percent; 1 for anything not a number. */
export function clampZoom(scale: number): number {
  if (!Number.isFinite(scale) || scale <= 0) return 1;
  return Math.round(Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, scale)) * 100) / 100;
}

/** The scale at which a chart of `chartWidth` fills `viewWidth` (never above 100 %: fitting only shrinks). */
export const fitZoom = (viewWidth: number, chartWidth: number): number =>
  viewWidth > 0 && chartWidth > 0 ? clampZoom(Math.min(1, viewWidth / chartWidth)) : 1;

/** One place the query names: a state (by its dotted path) or a transition (by its edge id). */
export interface ChartMatch {
  kind: 'state' | 'event';
  /** The state's path or the edge's id, as the diagram marks them. */
  id: string;
  label: string;
  x: number;
  y: number;
}

/**
 * Every state whose name and every transition whose event contains `query` (ignoring case and
 * surrounding spaces), in reading order: top to bottom, then left to right. An empty query finds
 * nothing; the machine's root box is not a match.
 */
export function findInChart(layout: StatechartLayout, query: string): ChartMatch[] {
  const wanted = query.trim().toLowerCase();
  if (wanted === '') return [];
  const states: ChartMatch[] = layout.nodes
    .filter((node) => node.parentId !== null && node.key.toLowerCase().includes(wanted))
    .map((node) => ({ kind: 'state', id: node.path, label: node.key, x: node.x, y: node.y }));
  const events: ChartMatch[] = layout.edges
    .filter((edge) => edge.label.toLowerCase().includes(wanted))
    .map((edge) => {
      const at = edge.labelBox ?? edge.points[0] ?? { x: 0, y: 0 };
      return { kind: 'event', id: edge.id, label: edge.label, x: at.x, y: at.y };
    });
  return [...states, ...events].sort((a, b) => a.y - b.y || a.x - b.x);
}
