import { describe, expect, it } from 'vitest';
import { JOB_POLL } from '@/config/limits';
import { backoffCeiling, fullJitterDelay } from '@/lib/backoff';

describe('backoffCeiling', () => {
  it.each([
    [0, 2000],
    [1, 4000],
    [2, 8000],
    [3, 16_000],
    [4, 30_000],
    [10, 30_000],
    [5000, 30_000],
    [-3, 2000],
  ])('attempt %i → %i ms', (attempt, ceiling) => {
    expect(backoffCeiling(attempt, JOB_POLL)).toBe(ceiling);
  });
});

describe('fullJitterDelay (full jitter: 0 … ceiling)', () => {
  it.each([
    [0, 0, 0],
    [0, 0.5, 1000],
    [0, 0.999, 1998],
    [1, 0.999, 3996],
    [3, 0.25, 4000],
    [4, 0.999, 29_970],
    [20, 0.999, 29_970],
    [20, 0, 0],
  ])('attempt %i, random %f → %i ms', (attempt, random, delay) => {
    expect(fullJitterDelay(attempt, JOB_POLL, () => random)).toBe(delay);
  });

  it('stays below the ceiling even when the random source misbehaves', () => {
    expect(fullJitterDelay(0, JOB_POLL, () => 1)).toBe(1999);
    expect(fullJitterDelay(0, JOB_POLL, () => 7)).toBe(1999);
    expect(fullJitterDelay(0, JOB_POLL, () => -1)).toBe(0);
  });

  it('uses Math.random by default and always lands in range', () => {
    for (let attempt = 0; attempt < 8; attempt += 1) {
      const delay = fullJitterDelay(attempt, JOB_POLL);
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThan(backoffCeiling(attempt, JOB_POLL));
      expect(Number.isInteger(delay)).toBe(true);
    }
  });
});
