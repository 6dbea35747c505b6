import { describe, expect, it } from 'vitest';
import { StateMachine } from 'xstate';
import { MACHINE_CATALOG } from '@/machines/catalog';

const modules = import.meta.glob<Record<string, unknown>>('/src/machines/**/*.machine.ts', { eager: true });

describe('machine catalog', () => {
  it('lists every machine of src/machines exactly once, with a label', () => {
    const found = Object.entries(modules).flatMap(([path, exports]) =>
      Object.values(exports)
        .filter((value): value is StateMachine<never, never, never, never, never, never, never, never, never, never, never, never, never, never> => value instanceof StateMachine)
        .map((machine) => ({ path, id: machine.id })),
    );
    expect(found.length).toBeGreaterThan(20);
    const catalogIds = MACHINE_CATALOG.map((entry) => entry.id);
    expect(new Set(catalogIds).size).toBe(catalogIds.length);
    // The inspector's own machine is the one left out (it reads the catalog and is not inspected).
    const missing = found
      .filter((machine) => machine.id !== 'inspector' && !catalogIds.includes(machine.id)).map((machine) => `${machine.id} (${machine.path})`);
    expect(missing).toEqual([]);
    for (const entry of MACHINE_CATALOG) expect(entry.label.length).toBeGreaterThan(0);
  });
});
