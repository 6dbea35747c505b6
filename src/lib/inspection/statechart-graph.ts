import { and, not, or, type AnyStateMachine } from 'xstate';

/**
 * A machine's statechart as plain nodes and edges, read from `machine.root` (XState's StateNode
 * tree): nested states, event transitions with their guards, `always`, `after`, and the
 * done/error transitions of invoked actors. The inspector lays it out with ELK and draws it.
 */
export type StateKind = 'atomic' | 'compound' | 'parallel' | 'final' | 'history';

export interface StatechartNode {
  /** The state node's id, e.g. "session.signedIn.flow". */
  id: string;
  /** Its key in the parent ("flow"); the machine id for the root. */
  key: string;
  parentId: string | null;
  kind: StateKind;
  /** The parent's initial state (drawn with a marker). */
  initial: boolean;
  /** Invoked actors' sources ("loadUser"), listed inside the box. */
  invokes: string[];
  /** Its path from the root as a dotted string ("signedIn.flow"): matches state values. */
  path: string;
}

export type EdgeKind = 'event' | 'always' | 'after' | 'done' | 'error';

export interface StatechartEdge {
  id: string;
  source: string;
  target: string;
  kind: EdgeKind;
  /** What triggers it: the event type, "after 3000", "done: loadUser", "always". */
  trigger: string;
  guard: string | null;
  /** `trigger [guard]`. */
  label: string;
  /** No target: the transition only runs actions (drawn as a loop on its source). */
  internal: boolean;
}

export interface Statechart {
  machineId: string;
  nodes: StatechartNode[];
  edges: StatechartEdge[];
}

interface GuardLike {
  type?: unknown;
  name?: unknown;
  guards?: unknown;
  check?: unknown;
}

// Combinators are told apart by their `check` function, not their names (a build minifies those).
const COMBINATORS = new Map<unknown, string>([
  [(and([]) as GuardLike).check, 'and'],
  [(or([]) as GuardLike).check, 'or'],
  [(not('x') as GuardLike).check, 'not'],
]);

/** A guard's name: "hasCredit", "not(isGuest)", "and(a, b)". */
export function guardName(guard: unknown): string | null {
  if (guard === undefined || guard === null) return null;
  if (typeof guard === 'string') return guard;
  const like = guard as GuardLike;
  if (typeof guard === 'function' && Array.isArray(like.guards)) {
    const inner = (like.guards as unknown[]).map((item) => guardName(item) ?? '?').join(', ');
    const combinator = COMBINATORS.get(like.check) ?? 'guard';
    return `${combinator}(${inner})`;
  }
  if (typeof like.type === 'string') return like.type;
  if (typeof guard === 'function') return typeof like.name === 'string' && like.name ? like.name : 'inline guard';
  return 'guard';
}

/** The trigger of an event descriptor, in words. */
export function describeTrigger(eventType: string): { kind: EdgeKind; trigger: string } {
  if (eventType === '') return { kind: 'always', trigger: 'always' };
  const after = /^xstate\.after\.([^.]+)\./.exec(eventType);
  if (after) return { kind: 'after', trigger: `after ${after[1]}` };
  const done = /^xstate\.done\.actor\.(.+)$/.exec(eventType);
  if (done) return { kind: 'done', trigger: `done: ${done[1]}` };
  const error = /^xstate\.error\.actor\.(.+)$/.exec(eventType);
  if (error) return { kind: 'error', trigger: `error: ${error[1]}` };
  if (eventType.startsWith('xstate.done.state.')) return { kind: 'done', trigger: 'done' };
  return { kind: 'event', trigger: eventType };
}

interface StateNodeLike {
  id: string;
  key: string;
  type: StateKind;
  path: string[];
  states: Record<string, StateNodeLike>;
  parent?: StateNodeLike;
  transitions: Map<string, TransitionLike[]>;
  always?: TransitionLike[];
  invoke: { src: unknown; id: string }[];
  initial?: { target: readonly StateNodeLike[] };
}

interface TransitionLike {
  target?: readonly StateNodeLike[];
  guard?: unknown;
  eventType: string;
}

const srcName = (src: unknown, id: string): string => (typeof src === 'string' ? src : id);

/** Nodes (parents before children) and edges of a machine's statechart. */
export function extractStatechart(machine: AnyStateMachine): Statechart {
  const nodes: StatechartNode[] = [];
  const edges: StatechartEdge[] = [];
  const root = machine.root as unknown as StateNodeLike;

  const addEdges = (node: StateNodeLike, transitions: readonly TransitionLike[]) => {
    // Invokes without an explicit id get a generated one ("0.job.submitting"): show the source instead.
    const invokeNames = new Map(node.invoke.map((definition) => [definition.id, srcName(definition.src, definition.id)]));
    for (const transition of transitions) {
      const described = describeTrigger(transition.eventType);
      const { kind } = described;
      const actorId = kind === 'done' || kind === 'error' ? described.trigger.slice(kind.length + 2) : '';
      const trigger = invokeNames.has(actorId) ? `${kind}: ${invokeNames.get(actorId)}` : described.trigger;
      const guard = guardName(transition.guard);
      const label = guard ? `${trigger} [${guard}]` : trigger;
      const targets = transition.target && transition.target.length > 0 ? transition.target : null;
      for (const target of targets ?? [node]) {
        edges.push({
          id: `e${edges.length}`,
          source: node.id,
          target: target.id,
          kind,
          trigger,
          guard,
          label,
          internal: targets === null,
        });
      }
    }
  };

  const walk = (node: StateNodeLike, parent: StateNodeLike | null) => {
    const initialIds = parent?.initial?.target.map((target) => target.id) ?? [];
    nodes.push({
      id: node.id,
      key: parent ? node.key : machine.id,
      parentId: parent ? parent.id : null,
      kind: node.type,
      initial: initialIds.includes(node.id),
      invokes: node.invoke.map((definition) => srcName(definition.src, definition.id)),
      path: node.path.join('.'),
    });
    for (const transitions of node.transitions.values()) addEdges(node, transitions);
    if (node.always) addEdges(node, node.always);
    for (const child of Object.values(node.states)) walk(child, node);
  };

  walk(root, null);
  return { machineId: machine.id, nodes, edges };
}

type StateValueLike = string | { [key: string]: StateValueLike } | null | undefined | unknown;

/** The dotted paths of every active state node of a state value ("signedIn", "signedIn.flow", …). */
export function activePaths(value: StateValueLike): Set<string> {
  const paths = new Set<string>();
  const visit = (current: unknown, prefix: string) => {
    if (typeof current === 'string') {
      paths.add(prefix ? `${prefix}.${current}` : current);
      return;
    }
    if (current && typeof current === 'object' && !Array.isArray(current)) {
      for (const [key, child] of Object.entries(current as Record<string, unknown>)) {
        const path = prefix ? `${prefix}.${key}` : key;
        paths.add(path);
        visit(child, path);
      }
    }
  };
  visit(value, '');
  return paths;
}
