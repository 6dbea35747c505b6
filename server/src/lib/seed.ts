import { SEED_MAX } from '../../../src/config/limits.ts';

/**
 * A job's seed (issue 21 item 7): the whole number a model is given (fal's `seed`), recorded on
 * every generation job and shown with its result, so a person can make it again or Vary it.
 */
export { SEED_MAX };

/** A whole-number seed from a render seed (hex): its first 32 bits, within what models take. */
export function numericSeed(hex: string): number {
  const parsed = Number.parseInt(hex.slice(0, 8), 16);
  return Number.isFinite(parsed) ? parsed % (SEED_MAX + 1) : 0;
}

/** A render seed that starts with the chosen seed, so `numericSeed` of it gives that seed back. */
export const seededHex = (seed: number, hex: string): string => seed.toString(16).padStart(8, '0') + hex.slice(8);

/** A seed a person gave: a whole number from 0 to SEED_MAX, else null. */
export function parseSeed(value: unknown): number | null {
  const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  return Number.isInteger(number) && number >= 0 && number <= SEED_MAX ? number : null;
}
