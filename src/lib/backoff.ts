/** The bounds of an exponential back-off: the first ceiling and the largest one. */
export interface BackoffBounds {
  baseMs: number;
  capMs: number;
}

/**
 * The ceiling of attempt `attempt` (0 for the first wait): base × 2^attempt, never above the cap.
 * Negative or fractional attempts count as the nearest whole attempt at or above 0.
 */
export function backoffCeiling(attempt: number, { baseMs, capMs }: BackoffBounds): number {
  const step = Math.max(0, Math.floor(attempt));
  // 2 ** step overflows to Infinity for huge steps; Math.min still gives the cap.
  return Math.min(capMs, baseMs * 2 ** step);
}

/**
 * "Full jitter" back-off: a wait drawn uniformly from 0 up to (not including) the ceiling of this
 * attempt, so many clients that failed together do not all come back at the same moment.
 * `random` is injectable for tests; it must return a number in [0, 1) like Math.random.
 */
export function fullJitterDelay(attempt: number, bounds: BackoffBounds, random: () => number = Math.random): number {
  const ceiling = backoffCeiling(attempt, bounds);
  const fraction = Math.min(Math.max(random(), 0), 1);
  return Math.min(Math.floor(fraction * ceiling), Math.max(ceiling - 1, 0));
}
