import { describe, expect, it } from 'vitest';
import { assign, setup } from 'xstate';
import { activePaths, machineGraph } from './graph-coverage';

/**
 * The graph-coverage helper finds what a machine's graph test must flag: a state nothing reaches,
 * a guarded branch never taken, an eventless edge taken on the way, and an edge taken at the start.
 */

const machine = setup({
  types: { context: {} as { count: number }, events: {} as { type: 'add' } | { type: 'reset' }, input: {} as { count: number } },
  guards: { big: ({ context }) => context.count >= 2, huge: ({ context }) => context.count >= 100 },
}).createMachine({
  id: 'counter',
  context: ({ input }) => ({ count: input.count }),
  initial: 'deciding',
  states: {
    deciding: { always: 'counting' },
    counting: {
      on: {
        add: [
          { guard: 'huge', target: 'orphan' },
          { guard: 'big', target: 'full' },
          { actions: assign({ count: ({ context }) => context.count + 1 }) },
        ],
      },
    },
    full: { on: { reset: { target: 'counting', actions: assign({ count: 0 }) } } },
    orphan: {},
  },
});

const graph = machineGraph(machine, {
  inputs: [{ count: 0 }],
  events: () => [{ type: 'add' as const }, { type: 'reset' as const }],
  serializeState: (snapshot) => JSON.stringify({ value: snapshot.value, count: snapshot.context.count }),
});

describe('graph coverage helper', () => {
  it('reaches the states a path leads to and not the orphan', () => {
    const reached = new Set(graph.paths.flatMap((path) => activePaths(path.state.value)));
    expect([...reached].sort()).toEqual(['counting', 'full']);
    expect(graph.nodes.map((node) => node.path.join('.'))).toContain('orphan');
  });

  it('names the untaken guarded branch and counts the start and eventless edges as taken', () => {
    expect([...graph.defined].sort()).toEqual(['counting · add #0', 'counting · add #1', 'counting · add #2', 'deciding · (always) #0', 'full · reset #0']);
    expect([...graph.defined].filter((edge) => !graph.taken.has(edge))).toEqual(['counting · add #0']);
  });

  it('lists every step of the graph once per start', () => {
    expect(graph.adjacency).toHaveLength(1);
    const steps = graph.adjacency[0]!.map(({ state, event, nextState }) => `${String(state.value)}:${state.context.count} ${event.type} → ${String(nextState.value)}:${nextState.context.count}`);
    expect(steps).toContain('counting:2 add → full:2');
    expect(steps).toContain('full:2 reset → counting:0');
  });

  it('names edges without their branch when asked', () => {
    const plain = machineGraph(machine, { inputs: [{ count: 5 }], events: () => [{ type: 'add' as const }], serializeState: (snapshot) => JSON.stringify(snapshot.value), branches: false });
    expect([...plain.taken].sort()).toEqual(['counting · add', 'deciding · (always)']);
  });
});
