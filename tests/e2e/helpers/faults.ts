import type { Page, Request, Route } from '@playwright/test';
import { mulberry32 } from '../../../server/src/render/seeded-random';

/**
 * Seeded network faults for the browser tests: a share of the app's API calls is lost, either
 * before it reaches the server (`route.abort()`) or after the server has handled it and before
 * the answer gets back (`route.fetch()` then `route.abort()`): the second kind is what proves the
 * app's retries are idempotent (the server did the work; the app never heard about it).
 *
 * Whether a call is hit does not depend on timing: it is a hash of the seed, the call (method and
 * path, without the query, media ids numbered in order of first sight) and how many times that
 * same call has been made before. So with one seed, the n-th submit (or the k-th poll of the n-th
 * job) is always treated the same way, however the calls interleave.
 */

export type FaultKind = 'before' | 'after';

export interface FaultRecord {
  method: string;
  /** The path, media ids numbered in order of first sight (`/api/media/#2`). */
  path: string;
  /** 0 for the first time this method + path was called, 1 for the second… */
  occurrence: number;
  kind: FaultKind | null;
  /** The server's status when the answer was fetched and then thrown away (kind `after`). */
  status?: number;
}

export interface FaultInjector {
  readonly seed: number;
  readonly rate: number;
  /** Every API call seen while active, in order. */
  readonly calls: FaultRecord[];
  /** The headers of the last call that carried the user's token (to ask the API as them). */
  readonly lastAuthHeaders: () => Record<string, string> | null;
  /** Faults on or off (calls are still recorded while off, and always let through). */
  setActive: (active: boolean) => void;
  /** Removes the route. */
  dispose: () => Promise<void>;
}

/** FNV-1a of a string: turns (seed, call, occurrence) into a PRNG seed. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/**
 * What happens to the `occurrence`-th call of `method path` under `seed`: null (let through), or
 * the fault. Half the faults of each rate are of each kind.
 */
export function faultFor(seed: number, rate: number, method: string, path: string, occurrence: number): FaultKind | null {
  const next = mulberry32(fnv1a(`${seed}|${method} ${path}|${occurrence}`));
  // One draw to warm the generator up (neighbouring seeds give close first values otherwise).
  next();
  const roll = next();
  if (roll >= rate) return null;
  return roll < rate / 2 ? 'before' : 'after';
}

/** The seed of this run: FAULT_SEED when given, else `fallback`. */
export function faultSeed(fallback: number): number {
  const raw = process.env.FAULT_SEED;
  if (raw === undefined || raw.trim() === '') return fallback;
  const seed = Number(raw);
  if (!Number.isInteger(seed) || seed < 0) throw new Error(`FAULT_SEED must be a whole number ≥ 0, not ${raw}`);
  return seed;
}

const API_RESOURCE_TYPES = new Set(['xhr', 'fetch']);

const pathOf = (request: Request): string => new URL(request.url()).pathname;

/**
 * The path with the server's random media ids replaced by the order they were first seen in
 * (`/api/media/#3/processing-status`), so the n-th job's polls are treated alike on every run.
 */
function stablePath(path: string, ids: Map<string, number>): string {
  return path.replace(/(\/api\/media\/)([^/]+)/, (_, prefix: string, id: string) => {
    if (!ids.has(id)) ids.set(id, ids.size + 1);
    return `${prefix}#${ids.get(id)}`;
  });
}

/**
 * Routes the page's API calls (`**\/api/**`, made with XHR or fetch) through the seeded faults
 * (active from the start).
 */
export async function injectApiFaults(page: Page, options: { seed: number; rate: number }): Promise<FaultInjector> {
  const { seed, rate } = options;
  const calls: FaultRecord[] = [];
  const seen = new Map<string, number>();
  const mediaIds = new Map<string, number>();
  let active = true;
  let authHeaders: Record<string, string> | null = null;

  const handler = async (route: Route): Promise<void> => {
    const request = route.request();
    // The app's own calls only: files the browser loads for <img>/<video> from signed links
    // (under /api/files here, a media host in production) are not API calls of the app.
    if (!API_RESOURCE_TYPES.has(request.resourceType())) {
      await route.continue();
      return;
    }
    const method = request.method();
    const path = stablePath(pathOf(request), mediaIds);
    const headers = request.headers();
    if (headers.authorization) {
      authHeaders = Object.fromEntries(
        Object.entries(headers).filter(([name]) => ['authorization', 'x-api-key', 'x-client-type'].includes(name)),
      );
    }
    const key = `${method} ${path}`;
    const occurrence = seen.get(key) ?? 0;
    seen.set(key, occurrence + 1);
    const kind = active ? faultFor(seed, rate, method, path, occurrence) : null;
    const record: FaultRecord = { method, path, occurrence, kind };
    calls.push(record);
    if (kind === 'before') {
      await route.abort('failed');
      return;
    }
    if (kind === 'after') {
      // The server handles the call in full; the browser never gets the answer.
      const response = await route.fetch();
      record.status = response.status();
      await route.abort('failed');
      return;
    }
    await route.continue();
  };

  await page.route('**/api/**', handler);
  return {
    seed,
    rate,
    calls,
    lastAuthHeaders: () => authHeaders,
    setActive: (value) => {
      active = value;
    },
    dispose: () => page.unroute('**/api/**', handler),
  };
}

/** A one-line summary of what was done, for the test's output. */
export function describeFaults(injector: FaultInjector): string {
  const before = injector.calls.filter((call) => call.kind === 'before').length;
  const after = injector.calls.filter((call) => call.kind === 'after').length;
  const total = injector.calls.length;
  return `seed ${injector.seed}: ${total} API calls, ${before} aborted before the server, ${after} answers lost after it (${((100 * (before + after)) / Math.max(total, 1)).toFixed(1)} %)`;
}
