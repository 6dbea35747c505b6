import { NETWORK_RETRY_BASE_MS, NETWORK_RETRY_MAX_MS } from '@/config/limits';

/**
 * The wait before the next attempt while the network seems down: 2 s, 4 s, 8 s, … up to a minute.
 * Each machine that waits keeps its own count of attempts (issue 18: one shared count made two
 * waits reset each other and the back-off double twice as fast).
 */
export const networkRetryDelay = (retries: number): number =>
  Math.min(NETWORK_RETRY_BASE_MS * 2 ** retries, NETWORK_RETRY_MAX_MS);
