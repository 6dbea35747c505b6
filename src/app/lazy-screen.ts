import { lazy, type ComponentType } from 'react';
import { LAZY_IMPORT_RETRY_DELAYS_MS } from '@/config/limits';
import { retryImport } from '@/lib/chunk-load';

/**
 * A screen split into its own chunk, so the first page loads little JS. A failed download is tried
 * again (see LAZY_IMPORT_RETRY_DELAYS_MS); if it still fails the error reaches the error boundary,
 * whose "Try again?" reloads the page for a chunk-load error.
 */
export function lazyScreen<P extends object, K extends string>(
  load: () => Promise<Record<K, ComponentType<P>>>,
  name: K,
  retryDelaysMs: readonly number[] = LAZY_IMPORT_RETRY_DELAYS_MS,
): ComponentType<P> {
  return lazy<ComponentType<P>>(async () => ({ default: (await retryImport(load, retryDelaysMs))[name] }));
}
