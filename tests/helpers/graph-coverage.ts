import { expect, it } from 'vitest';
import { createEmptyActor } from 'xstate';
import type { AnyActorScope, AnyStateMachine, AnyStateNode, AnyTransitionDefinition, EventFromLogic, InputFrom, StateValue } from 'xstate';
import { adjacencyMapToArray, getAdjacencyMap, getShortestPaths, getStateNodes } from 'xstate/graph';
import type { StatePath, TraversalOptions } from 'xstate/graph';

/**
 * Model-based coverage of a machine (ARCHITECTURE §3, §5), once for every machine's graph test:
 * the shortest paths from each way the machine starts, over the events a test says it accepts,
 * must reach every state node where it can rest and together take every transition of the
 * definition. Nodes and edges are read from the machine itself, so a state or transition added
 * later that nothing reaches fails the test.
 *
 * The traversal is XState's own (`xstate/graph`). Each (state, event) pair is computed once: the
 * machine handed to XState is the real one with its `transition` memoised per snapshot and event,
 * and run in a scope whose inspector collects the edges each microstep takes. So the shortest
 * paths, the adjacency list and the edges taken come from one walk of the graph, not three (the
 * story wizard's graph has tens of thousands of pairs).
 */

type Snapshot<TMachine extends AnyStateMachine> = ReturnType<TMachine['transition']>;
type Event<TMachine extends AnyStateMachine> = EventFromLogic<TMachine>;

export interface GraphOptions<TMachine extends AnyStateMachine> {
  /** Each way the machine starts: one traversal per input. */
  inputs: readonly InputFrom<TMachine>[];
  /** The events worth sending in a snapshot (the person's, the timers, the calls' answers). */
  events: (snapshot: Snapshot<TMachine>) => Event<TMachine>[];
  /** The state value plus what the guards read, so no guarded path is pruned. */
  serializeState: (snapshot: Snapshot<TMachine>) => string;
  /**
   * Whether an edge is named with its place among the guarded branches for its event (`#0`,
   * `#1`…), so a guard whose branch is never taken shows up too. On unless a test says otherwise.
   */
  branches?: boolean;
}

export interface AdjacencyStep<TMachine extends AnyStateMachine> {
  state: Snapshot<TMachine>;
  event: Event<TMachine>;
  nextState: Snapshot<TMachine>;
}

export interface MachineGraph<TMachine extends AnyStateMachine> {
  machine: TMachine;
  /** Every state node of the definition, the root excepted. */
  nodes: AnyStateNode[];
  /** The shortest path to every distinct (serialized) state, over all the starts. */
  readonly paths: StatePath<Snapshot<TMachine>, Event<TMachine>>[];
  /** Every (state, event, next state) of the graph, one list per start. */
  readonly adjacency: AdjacencyStep<TMachine>[][];
  /** Every edge the starts and the graph's steps take, eventless ones included. */
  readonly taken: Set<string>;
  /** Every edge of the definition, eventless ones included. */
  readonly defined: Set<string>;
}

/** Every active state path of a value: { a: { b: 'c' } } → a, a.b, a.b.c. */
export const activePaths = (value: StateValue, prefix: string[] = []): string[] => {
  if (typeof value === 'string') return [[...prefix, value].join('.')];
  return Object.entries(value).flatMap(([key, child]) => [
    [...prefix, key].join('.'),
    ...(child === undefined ? [] : activePaths(child, [...prefix, key])),
  ]);
};

const nodeMaps = new WeakMap<AnyStateMachine, Map<string, AnyStateNode>>();
/** A machine's state nodes by their dotted path, built once per machine (the walk asks at every step). */
const nodesByPath = (machine: AnyStateMachine): Map<string, AnyStateNode> => {
  let nodes = nodeMaps.get(machine);
  if (!nodes) {
    nodes = new Map(getStateNodes(machine.root).map((node) => [node.path.join('.'), node]));
    nodeMaps.set(machine, nodes);
  }
  return nodes;
};

/**
 * The events a snapshot can take, by their types: those the machine's root and its active states
 * handle. Each type is sent as the candidates of that type (the person's events with their
 * payloads, the calls' answers), or bare when no candidate has it (a timer, a plain signal).
 */
export const ownEventsOf = <TEvent extends { type: string }>(
  machine: AnyStateMachine,
  value: StateValue,
  candidates: readonly TEvent[],
): TEvent[] => {
  const nodes = nodesByPath(machine);
  const types = new Set([...machine.root.ownEvents, ...activePaths(value).flatMap((path) => nodes.get(path)?.ownEvents ?? [])]);
  return [...types].flatMap((type) => {
    const matching = candidates.filter((event) => event.type === type);
    return matching.length > 0 ? matching : [{ type } as TEvent];
  });
};

/** Decision nodes: an unguarded eventless transition leaves them in the same step they are entered. */
export const isDecision = (node: AnyStateNode): boolean => (node.always ?? []).some((transition) => !transition.guard);

/** An edge of the machine: the node that owns a transition, its event and (optionally) its branch. */
const edgeName =
  (branches: boolean) =>
  (transition: AnyTransitionDefinition): string => {
    const name = `${transition.source.path.join('.') || '(root)'} · ${transition.eventType || '(always)'}`;
    if (!branches) return name;
    const siblings = transition.eventType
      ? (transition.source.transitions.get(transition.eventType) ?? [])
      : (transition.source.always ?? []);
    return `${name} #${siblings.indexOf(transition)}`;
  };

/**
 * A scope whose system reports each microstep's transitions (the event's own and the eventless
 * ones that follow) to `onEdges`. XState has no public hook for the transitions a pure step takes;
 * its inspector's `@xstate.microstep` event carries them, so the system's inspection hook is
 * overridden here, in this one place.
 */
const collectingScope = (onTransitions: (transitions: AnyTransitionDefinition[]) => void): AnyActorScope => {
  const actor = createEmptyActor();
  const system = Object.assign(Object.create(actor.system) as typeof actor.system, {
    _sendInspectionEvent: (inspection: { type: string; _transitions?: AnyTransitionDefinition[] }) => {
      if (inspection.type === '@xstate.microstep') onTransitions(inspection._transitions ?? []);
    },
  });
  return {
    self: actor,
    logger: () => {},
    id: '',
    sessionId: 'graph-coverage',
    defer: () => {},
    system,
    stopChild: () => {},
    emit: () => {},
    actionExecutor: () => {},
  } as unknown as AnyActorScope;
};

/** Computes a value on first use only. */
const lazy = <T>(compute: () => T): (() => T) => {
  let value: { current: T } | null = null;
  return () => {
    value ??= { current: compute() };
    return value.current;
  };
};

/**
 * The graph of a machine from each of its starts, computed on first use and shared by every test
 * of a file (build it once at the top of the file and pass it to the `it…` helpers below).
 */
export const machineGraph = <TMachine extends AnyStateMachine>(machine: TMachine, options: GraphOptions<TMachine>): MachineGraph<TMachine> => {
  const edgeOf = edgeName(options.branches ?? true);
  const nodes = getStateNodes(machine.root);
  const taken = new Set<string>();
  let eventIdCount = 0;
  const collect = (transitions: AnyTransitionDefinition[]): void => {
    for (const transition of transitions) taken.add(edgeOf(transition));
  };
  // The real machine, with each step computed once and its edges collected (see the file's comment).
  // Every step gets a fresh scope (and actor system): children with a systemId (the story wizard's
  // poller and autosave) register in the system, and one system shared by every step of the walk
  // would hold a child of one snapshot while another snapshot's twin registers.
  // A snapshot's events, its serialized form and its next snapshots are each computed once too:
  // the walks ask for them again and again, and the story wizard's events carry whole stories that
  // XState's default event key (JSON) would serialize at every step of both walks.
  const initials = new Map<unknown, Snapshot<TMachine>>();
  const eventsOf = new WeakMap<object, Event<TMachine>[]>();
  const keysOf = new WeakMap<object, string>();
  const eventIds = new WeakMap<object, string>();
  const steps = new WeakMap<object, Map<object, Snapshot<TMachine>>>();
  const memo = <K extends object, V>(map: WeakMap<K, V>, key: K, compute: () => V): V => {
    if (!map.has(key)) map.set(key, compute());
    return map.get(key) as V;
  };
  const logic = Object.create(machine, {
    getInitialSnapshot: {
      value: (_scope: AnyActorScope, input: InputFrom<TMachine>) => {
        if (!initials.has(input)) initials.set(input, machine.getInitialSnapshot(collectingScope(collect), input) as Snapshot<TMachine>);
        return initials.get(input);
      },
    },
    transition: {
      value: (snapshot: Snapshot<TMachine>, event: Event<TMachine>) => {
        const known = memo(steps, snapshot, () => new Map<object, Snapshot<TMachine>>());
        if (!known.has(event)) known.set(event, machine.transition(snapshot, event, collectingScope(collect)) as Snapshot<TMachine>);
        return known.get(event);
      },
    },
  }) as TMachine;

  const traversals = options.inputs.map(
    (input): TraversalOptions<Snapshot<TMachine>, Event<TMachine>, InputFrom<TMachine>> => ({
      input,
      events: (snapshot) => memo(eventsOf, snapshot, () => options.events(snapshot)),
      serializeState: (snapshot) => memo(keysOf, snapshot, () => options.serializeState(snapshot)),
      // Each event object of a snapshot's list is its own edge (the list is computed once per snapshot).
      serializeEvent: (event) => memo(eventIds, event, () => String(eventIdCount++)),
    }),
  );
  const paths = lazy(() => traversals.flatMap((traversal) => getShortestPaths(logic, traversal)));
  const adjacency = lazy(() => {
    // The paths' walk fills the memo; this second walk only reads it.
    paths();
    return traversals.map(
      // getAdjacencyMap is typed for any logic; the machine's own snapshot and event types hold.
      (traversal) => adjacencyMapToArray(getAdjacencyMap(logic as AnyStateMachine, traversal as TraversalOptions<Snapshot<AnyStateMachine>, Event<AnyStateMachine>, unknown>)) as AdjacencyStep<TMachine>[],
    );
  });
  const defined = lazy(
    () =>
      new Set(
        [machine.root, ...nodes].flatMap((node) => [
          ...[...node.transitions.values()].flat().map(edgeOf),
          ...(node.always ?? []).map(edgeOf),
        ]),
      ),
  );

  return {
    machine,
    nodes,
    get paths() {
      return paths();
    },
    get adjacency() {
      return adjacency();
    },
    get taken() {
      paths();
      return taken;
    },
    get defined() {
      return defined();
    },
  };
};

export interface VisitOptions {
  /** The test's name. */
  title?: string;
  /**
   * The decision nodes the machine has (full paths): passed through, never rested in, so they are
   * not asked to be reached and must never be. Without it, every node must be reached.
   */
  decisions?: readonly string[];
  /** The number of nodes to reach must exceed this, so an empty definition cannot pass. */
  atLeast: number;
  timeout?: number;
}

/** A test: the graph's paths reach every state node where the machine can rest. */
export const itVisitsEveryState = <TMachine extends AnyStateMachine>(graph: MachineGraph<TMachine>, options: VisitOptions): void => {
  it(
    options.title ?? 'reaches every state node where the machine can rest',
    () => {
      const reached = new Set(graph.paths.flatMap((path) => activePaths(path.state.value)));
      const all = graph.nodes.map((node) => node.path.join('.'));
      const decisions = graph.nodes.filter(isDecision).map((node) => node.path.join('.'));
      const resting = all.filter((path) => !decisions.includes(path));
      expect(resting.filter((path) => !reached.has(path))).toEqual([]);
      expect(resting.length).toBeGreaterThan(options.atLeast);
      // Decision nodes are passed through, never rested in.
      expect([...decisions].sort()).toEqual([...(options.decisions ?? [])].sort());
      expect([...reached].filter((path) => decisions.includes(path))).toEqual([]);
      // Nothing is reached that the definition does not have.
      expect([...reached].filter((path) => !all.includes(path))).toEqual([]);
    },
    options.timeout,
  );
};

export interface TransitionOptions {
  /** The test's name. */
  title?: string;
  /** The number of defined edges must exceed this, so an empty definition cannot pass. */
  atLeast: number;
  /** Edges named here must be among those taken (timers, eventless edges worth naming). */
  includes?: readonly string[];
  /**
   * Edges no event sequence can take, each with the reason. Keep this short and explained: an edge
   * that lands here because nothing reaches it any more is dead code to remove instead.
   */
  unreachableByDesign?: Readonly<Record<string, string>>;
  timeout?: number;
}

/** A test: the graph's steps (and its starts) take every transition of the definition. */
export const itTakesEveryTransition = <TMachine extends AnyStateMachine>(graph: MachineGraph<TMachine>, options: TransitionOptions): void => {
  it(
    options.title ?? 'takes every transition of the machine',
    () => {
      const { taken, defined } = graph;
      const excused = options.unreachableByDesign ?? {};
      expect([...defined].filter((edge) => !taken.has(edge) && !(edge in excused)).sort()).toEqual([]);
      // Nothing is excused that is taken after all, or that the machine no longer has.
      expect(Object.keys(excused).filter((edge) => taken.has(edge) || !defined.has(edge))).toEqual([]);
      expect(defined.size).toBeGreaterThan(options.atLeast);
      for (const edge of options.includes ?? []) expect(taken).toContain(edge);
    },
    options.timeout,
  );
};
