import { useEffect, useRef } from 'react';
import type { ChartMatch } from '@/lib/inspection/chart-find';
import type { StatechartLayout, PlacedEdge, PlacedNode } from '@/lib/inspection/statechart-layout';

interface StatechartDiagramProps {
  layout: StatechartLayout;
  /** Dotted paths of the active states ("signedIn", "signedIn.flow", …). */
  active: ReadonlySet<string>;
  title: string;
  /** 1 = 100 %: the drawing's size on the page (the chart's own coordinates stay). */
  scale?: number;
  /** What the find box names: these states and transitions are marked. */
  matches?: readonly ChartMatch[];
  /** The match shown: marked more strongly and scrolled into view. */
  current?: ChartMatch | null;
  /** Dotted paths of the states the actor passed through (its recorded path). */
  visited?: ReadonlySet<string>;
}

const ACTIVE_STROKE = 'var(--mantine-color-orange-7)';
const STROKE = 'var(--mantine-color-gray-6)';
const TEXT = 'var(--mantine-color-text)';
const EDGE = 'var(--mantine-color-blue-8)';
const MATCH = 'var(--mantine-color-grape-7)';
const MATCH_FILL = 'var(--mantine-color-grape-0)';

type Found = 'current' | 'match' | null;
const foundText = (found: Found): string => (found === 'current' ? ' (found, shown)' : found === 'match' ? ' (found)' : '');

const VISITED_FILL = 'var(--mantine-color-blue-0)';
const VISITED_STROKE = 'var(--mantine-color-blue-7)';

function StateBox({ node, active, found, visited }: { node: PlacedNode; active: boolean; found: Found; visited: boolean }) {
  const isRoot = node.parentId === null;
  const final = node.kind === 'final';
  return (
    <g
      data-state-path={node.path}
      data-active={active ? 'true' : 'false'}
      data-found={found ?? undefined}
      data-visited={visited ? 'true' : undefined}
      data-kind={node.kind}
      aria-label={`${isRoot ? 'machine' : 'state'} ${node.key}${active ? ' (current)' : visited ? ' (passed through)' : ''}${foundText(found)}`}
      role="group"
    >
      <rect
        x={node.x}
        y={node.y}
        width={node.width}
        height={node.height}
        rx={8}
        fill={active ? 'var(--mantine-color-orange-0)' : found ? MATCH_FILL : visited ? VISITED_FILL : 'var(--mantine-color-body)'}
        fillOpacity={isRoot ? 0 : 1}
        stroke={active ? ACTIVE_STROKE : found ? MATCH : visited ? VISITED_STROKE : STROKE}
        strokeWidth={active || found === 'current' ? 3 : found || visited ? 2 : 1}
        strokeDasharray={node.kind === 'parallel' ? '6 3' : undefined}
      />
      {final && (
        <rect x={node.x + 3} y={node.y + 3} width={node.width - 6} height={node.height - 6} rx={6} fill="none" stroke={STROKE} />
      )}
      <text x={node.x + 10} y={node.y + 18} fontSize={13} fontWeight={active ? 700 : 600} fill={TEXT}>
        {node.key}
      </text>
      {node.invokes.map((src, index) => (
        <text key={`${src}-${index}`} x={node.x + 10} y={node.y + 34 + index * 16} fontSize={11} fill={TEXT} fontStyle="italic">
          {`invoke ${src}`}
        </text>
      ))}
      {node.initial && (
        <g aria-hidden="true">
          <circle cx={node.x - 10} cy={node.y + 12} r={4} fill={TEXT} />
          <line x1={node.x - 6} y1={node.y + 12} x2={node.x} y2={node.y + 12} stroke={TEXT} strokeWidth={1.5} />
        </g>
      )}
    </g>
  );
}

function Edge({ edge, found }: { edge: PlacedEdge; found: Found }) {
  if (edge.points.length < 2) return null;
  const points = edge.points.map((point) => `${point.x},${point.y}`).join(' ');
  const colour = found ? MATCH : EDGE;
  return (
    <g data-edge={edge.label} data-edge-id={edge.id} data-found={found ?? undefined} aria-label={`transition ${edge.label}${foundText(found)}`} role="group">
      <polyline
        points={points}
        fill="none"
        stroke={colour}
        strokeWidth={found === 'current' ? 3 : found ? 2 : 1.2}
        markerEnd="url(#statechart-arrow)"
        strokeDasharray={edge.kind === 'always' ? '4 3' : undefined}
      />
      {edge.labelBox && (
        <text x={edge.labelBox.x + 3} y={edge.labelBox.y + 12} fontSize={11} fill={colour} fontWeight={found ? 700 : undefined}>
          {edge.label}
        </text>
      )}
    </g>
  );
}

/** A laid-out statechart as SVG: nested state boxes, initial markers, final states, labelled transitions. */
export function StatechartDiagram({ layout, active, title, scale = 1, matches = [], current = null, visited }: StatechartDiagramProps) {
  const width = Math.ceil(layout.width) + 20;
  const height = Math.ceil(layout.height) + 20;
  const foundStates = new Set(matches.filter((match) => match.kind === 'state').map((match) => match.id));
  const foundEdges = new Set(matches.filter((match) => match.kind === 'event').map((match) => match.id));
  const foundAs = (kind: ChartMatch['kind'], id: string, set: ReadonlySet<string>): Found =>
    current?.kind === kind && current.id === id ? 'current' : set.has(id) ? 'match' : null;
  // Parents first so children draw on top of them.
  const nodes = [...layout.nodes].sort((a, b) => a.depth - b.depth);
  const svg = useRef<SVGSVGElement>(null);
  const deepest = nodes.filter((node) => node.parentId !== null && active.has(node.path)).at(-1)?.path ?? null;
  // Big charts scroll: keep the current state in view as it moves.
  useEffect(() => {
    if (!deepest) return;
    const boxes = svg.current ? [...svg.current.querySelectorAll('[data-state-path]')] : [];
    boxes.find((box) => box.getAttribute('data-state-path') === deepest)?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [deepest]);
  // The match the find box shows is brought into view when it changes (a new query, next, previous).
  const shown = current ? `${current.kind}:${current.id}` : null;
  useEffect(() => {
    if (!shown || !svg.current) return;
    const marked = svg.current.querySelector('[data-found="current"]');
    // Its name, not its whole box: a transition's line or a compound state can span the chart, and
    // centring that box would leave the name out of view.
    (marked?.querySelector('text') ?? marked)?.scrollIntoView({ block: 'center', inline: 'center' });
  }, [shown]);
  return (
    <svg
      ref={svg}
      role="img"
      aria-label={title}
      width={Math.round(width * scale)}
      height={Math.round(height * scale)}
      viewBox={`-10 -10 ${width} ${height}`}
      style={{ display: 'block' }}
    >
      <title>{title}</title>
      <defs>
        <marker id="statechart-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M 0 0 L 10 5 L 0 10 z" fill={EDGE} />
        </marker>
      </defs>
      {nodes.map((node) => (
        <StateBox
          key={node.id}
          node={node}
          active={node.parentId !== null && active.has(node.path)}
          visited={node.parentId !== null && (visited?.has(node.path) ?? false)}
          found={node.parentId === null ? null : foundAs('state', node.path, foundStates)}
        />
      ))}
      {layout.edges.map((edge) => (
        <Edge key={edge.id} edge={edge} found={foundAs('event', edge.id, foundEdges)} />
      ))}
    </svg>
  );
}
