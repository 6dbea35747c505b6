import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';
import type { Statechart, StatechartEdge, StatechartNode } from '@/lib/inspection/statechart-graph';

/**
 * Lays a statechart out with ELK (layered, compound nodes, edges across levels), entirely in the
 * page: no network. ELK itself (~1.5 MB) is loaded only when a diagram is first drawn, so it
 * stays out of every bundle but the inspector's.
 */
export interface PlacedNode extends StatechartNode {
  x: number;
  y: number;
  width: number;
  height: number;
  depth: number;
}

export interface PlacedEdge extends StatechartEdge {
  points: { x: number; y: number }[];
  labelBox: { x: number; y: number; width: number; height: number } | null;
}

export interface StatechartLayout {
  machineId: string;
  width: number;
  height: number;
  nodes: PlacedNode[];
  edges: PlacedEdge[];
}

const CHAR_WIDTH = 7;
const LINE_HEIGHT = 16;
const LABEL_HEIGHT = 16;

interface ElkLike {
  layout: (graph: ElkNode) => Promise<ElkNode>;
}

let elkPromise: Promise<ElkLike> | null = null;

function loadElk(): Promise<ElkLike> {
  elkPromise ??= import('elkjs/lib/elk.bundled.js').then(({ default: ELK }) => new ELK() as unknown as ElkLike);
  return elkPromise;
}

const textWidth = (text: string): number => text.length * CHAR_WIDTH;

function leafSize(node: StatechartNode): { width: number; height: number } {
  const lines = [node.key, ...node.invokes.map((src) => `invoke ${src}`)];
  return {
    width: Math.max(80, ...lines.map(textWidth)) + 24,
    height: 20 + lines.length * LINE_HEIGHT,
  };
}

function toElk(chart: Statechart): ElkNode {
  const byParent = new Map<string | null, StatechartNode[]>();
  for (const node of chart.nodes) {
    const siblings = byParent.get(node.parentId) ?? [];
    siblings.push(node);
    byParent.set(node.parentId, siblings);
  }
  const build = (node: StatechartNode): ElkNode => {
    const children = byParent.get(node.id) ?? [];
    if (children.length === 0) return { id: node.id, ...leafSize(node) };
    const header = 12 + (1 + node.invokes.length) * LINE_HEIGHT;
    return {
      id: node.id,
      layoutOptions: {
        'elk.padding': `[top=${header},left=14,bottom=14,right=14]`,
        'elk.direction': node.kind === 'parallel' ? 'DOWN' : 'RIGHT',
        // Room for the box's own name above its children.
        'elk.nodeSize.constraints': 'MINIMUM_SIZE',
        'elk.nodeSize.minimum': `(${textWidth(node.key) + 30}, ${header + 20})`,
      },
      children: children.map(build),
    };
  };
  const root = chart.nodes.find((node) => node.parentId === null);
  if (!root) throw new Error(`${chart.machineId} has no root state`);
  const edges: ElkExtendedEdge[] = chart.edges.map((edge) => ({
    id: edge.id,
    sources: [edge.source],
    targets: [edge.target],
    labels: [{ text: edge.label, width: textWidth(edge.label) + 6, height: LABEL_HEIGHT }],
  }));
  return {
    id: '__graph',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
      'elk.direction': 'RIGHT',
      'elk.edgeRouting': 'ORTHOGONAL',
      'elk.layered.spacing.nodeNodeBetweenLayers': '40',
      'elk.spacing.nodeNode': '24',
      'elk.spacing.edgeLabel': '2',
      'elk.edgeLabels.inline': 'false',
      'org.eclipse.elk.json.shapeCoords': 'ROOT',
      'org.eclipse.elk.json.edgeCoords': 'ROOT',
    },
    children: [build(root)],
    edges,
  };
}

function collectNodes(
  elk: ElkNode,
  byId: Map<string, StatechartNode>,
  depth: number,
  out: PlacedNode[],
): void {
  const node = byId.get(elk.id);
  if (node) {
    out.push({ ...node, x: elk.x ?? 0, y: elk.y ?? 0, width: elk.width ?? 0, height: elk.height ?? 0, depth });
  }
  for (const child of elk.children ?? []) collectNodes(child, byId, node ? depth + 1 : depth, out);
}

function collectEdges(elk: ElkNode, out: ElkExtendedEdge[]): void {
  out.push(...(elk.edges ?? []));
  for (const child of elk.children ?? []) collectEdges(child, out);
}

/** Positions (absolute, in px) for every node and edge of the chart. */
export async function layoutStatechart(chart: Statechart): Promise<StatechartLayout> {
  const elk = await loadElk();
  const result = await elk.layout(toElk(chart));
  const nodes: PlacedNode[] = [];
  collectNodes(result, new Map(chart.nodes.map((node) => [node.id, node])), 0, nodes);
  const laidOutEdges: ElkExtendedEdge[] = [];
  collectEdges(result, laidOutEdges);
  const edgeById = new Map(chart.edges.map((edge) => [edge.id, edge]));
  const edges: PlacedEdge[] = laidOutEdges.flatMap((laidOut) => {
    const edge = edgeById.get(laidOut.id);
    if (!edge) return [];
    const points = (laidOut.sections ?? []).flatMap((section) => [
      section.startPoint,
      ...(section.bendPoints ?? []),
      section.endPoint,
    ]);
    const label = laidOut.labels?.[0];
    const labelBox =
      label && label.x !== undefined && label.y !== undefined
        ? { x: label.x, y: label.y, width: label.width ?? 0, height: label.height ?? 0 }
        : null;
    return [{ ...edge, points, labelBox }];
  });
  return { machineId: chart.machineId, width: result.width ?? 0, height: result.height ?? 0, nodes, edges };
}
