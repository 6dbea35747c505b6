import { SEED_MAX } from '@/config/limits';

/** A fresh seed for Vary (issue 21 item 7): the same job, another picture. */
export function randomSeed(): number {
  const [value = 0] = crypto.getRandomValues(new Uint32Array(1));
  return value % (SEED_MAX + 1);
}
