import { createHash } from 'node:crypto';

/**
 * Seeded randomness for the local render engine. Everything it draws comes from a SHA-256 of the
 * request's own text, so the same request always gives the same file (the render provider's
 * determinism promise) and a different prompt, model or seed gives a different one.
 */

export type Random = () => number;

/** A 32-bit unsigned hash of the parts (the first four bytes of their SHA-256). */
export function hashParts(...parts: readonly unknown[]): number {
  const digest = createHash('sha256')
    .update(parts.map((part) => (typeof part === 'string' ? part : JSON.stringify(part) ?? '')).join('\u0000'))
    .digest();
  return digest.readUInt32BE(0);
}

/** mulberry32: a small, fast generator whose whole state is one 32-bit number. */
export function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A generator seeded by the SHA-256 of the parts. */
export function seededRandom(...parts: readonly unknown[]): Random {
  return mulberry32(hashParts(...parts));
}

/** A number in [min, max). */
export function between(random: Random, min: number, max: number): number {
  return min + (max - min) * random();
}

/** An integer in [min, max] (both included). */
export function integerBetween(random: Random, min: number, max: number): number {
  return Math.min(max, Math.floor(between(random, min, max + 1)));
}

export function pick<T>(random: Random, items: readonly T[]): T {
  if (items.length === 0) throw new RangeError('pick needs at least one item');
  return items[Math.min(items.length - 1, Math.floor(random() * items.length))] as T;
}
