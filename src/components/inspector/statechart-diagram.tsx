import { useEffect, useRef } from 'react';
import type { StatechartLayout, PlacedEdge, PlacedNode } from '@/lib/inspection/statechart-layout';

interface StatechartDiagramProps {
  layout: StatechartLayout;
  /** Dotted paths of the active states ("signedIn", "signedIn.flow", …). */
  active: ReadonlySet<string>;
  title: string;
}

const ACTIVE_STROKE = 'var(--mantine-color-orange-7)';
const STROKE = 'var(--mantine-color-gray-6)';
const TEXT = 'var(--mantine-color-text)';
const EDGE = 'var(--mantine-color-blue-8)';

function StateBox({ node, active }: { node: PlacedNode; active: boolean }) {
  const isRoot = node.parentId === null;
  const final = node.kind === 'final';
  return (
    <g
      data-state-path={node.path}
      data-active={active ? 'true' : 'false'}
      data-kind={node.kind}
      aria-label={`${isRoot ? 'machine' : 'state'} ${node.key}${active ? ' (current)' : ''}`}
      role="group"
    >
      <rect
        x={node.x}
        y={node.y}
        width={node.width}
        height={node.height}
        rx={8}
        fill={active ? 'var(--mantine-color-orange-0)' : 'var(--mantine-color-body)'}
        fillOpacity={isRoot ? 0 : 1}
        stroke={active ? ACTIVE_STROKE : STROKE}
        strokeWidth={active ? 3 : 1}
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

function Edge({ edge }: { edge: PlacedEdge }) {
  if (edge.points.length < 2) return null;
  const points = edge.points.map((point) => `${point.x},${point.y}`).join(' ');
  return (
    <g data-edge={edge.label} aria-label={`transition ${edge.label}`}>
      <polyline points={points} fill="none" stroke={EDGE} strokeWidth={1.2} markerEnd="url(#statechart-arrow)" strokeDasharray={edge.kind === 'always' ? '4 3' : undefined} />
      {edge.labelBox && (
        <text x={edge.labelBox.x + 3} y={edge.labelBox.y + 12} fontSize={11} fill={EDGE}>
          {edge.label}
        </text>
      )}
    </g>
  );
}

/** A laid-out statechart as SVG: nested state boxes, initial markers, final states, labelled transitions. */
export function StatechartDiagram({ layout, active, title }: StatechartDiagramProps) {
  const width = Math.ceil(layout.width) + 20;
  const height = Math.ceil(layout.height) + 20;
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
  return (
    <svg ref={svg} role="img" aria-label={title} width={width} height={height} viewBox={`-10 -10 ${width} ${height}`} style={{ display: 'block' }}>
      <title>{title}</title>
      <defs>
        <marker id="statechart-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M 0 0 L 10 5 L 0 10 z" fill={EDGE} />
        </marker>
      </defs>
      {nodes.map((node) => (
        <StateBox key={node.id} node={node} active={node.parentId !== null && active.has(node.path)} />
      ))}
      {layout.edges.map((edge) => (
        <Edge key={edge.id} edge={edge} />
      ))}
    </svg>
  );
}
