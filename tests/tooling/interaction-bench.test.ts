import { describe, expect, it } from 'vitest';
import { interactionOverBudget, interactionTable, type InteractionResults } from '../../bench/interaction.ts';

const results: InteractionResults = {
  cpuSlowdown: 4,
  load: 1.5,
  scenarios: [
    { name: 'Text to Image: typing a prompt', inpMs: 96, slowest: 'keydown', interactions: 59 },
    { name: 'Text to Image: switching the model', inpMs: 232, slowest: 'pointerdown', interactions: 2 },
    { name: 'AI Story: on to Elements', inpMs: 200, slowest: 'pointerdown', interactions: 1 },
  ],
};

describe('the interaction bench', () => {
  it('names the scenarios whose INP is over the budget, and only those (the budget itself is within)', () => {
    expect(interactionOverBudget(results, 200)).toEqual(['INP Text to Image: switching the model']);
    expect(interactionOverBudget(results, 250)).toEqual([]);
  });

  it('prints one row per scenario with its INP, slowest event, count and verdict', () => {
    const table = interactionTable(results, 200).split('\n');
    expect(table[0]).toContain('CPU 4× slower (load 1.5)');
    expect(table).toHaveLength(2 + results.scenarios.length);
    expect(table[2]).toBe('| Text to Image: typing a prompt | 96 ms | keydown | 59 | ≤ 200 ms | yes |');
    expect(table[3]).toBe('| Text to Image: switching the model | 232 ms | pointerdown | 2 | ≤ 200 ms | no |');
    expect(table[4]).toContain('| 200 ms | pointerdown | 1 | ≤ 200 ms | yes |');
  });
});
