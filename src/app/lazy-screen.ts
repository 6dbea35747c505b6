import { createElement, lazy, useState, type ComponentType } from 'react';
import { LAZY_IMPORT_RETRY_DELAYS_MS } from '@/config/limits';
import { retryImport } from '@/lib/chunk-load';

/** A lazy screen, with a way to download it before it is first drawn. */
export type LazyScreen<P extends object> = ComponentType<P> & {
  /** Downloads the screen; once it has arrived the screen draws without suspending. */
  preload: () => Promise<void>;
};

/**
 * A screen split into its own chunk, so the first page loads little JS. A failed download is tried
 * again (see LAZY_IMPORT_RETRY_DELAYS_MS); if it still fails the error reaches the error boundary,
 * whose "Try again?" reloads the page for a chunk-load error.
 *
 * `preload` lets main.tsx download the screen of a prerendered page before React takes the page
 * over: the whole page is then hydrated in one pass cut into short tasks, instead of its screen
 * waiting, suspended, until the first answer from the server forces React to finish it in one
 * long task (issue 19: total blocking time). The markup is the same either way: React.lazy adds
 * no element of its own.
 */
export function lazyScreen<P extends object, K extends string>(
  load: () => Promise<Record<K, ComponentType<P>>>,
  name: K,
  retryDelaysMs: readonly number[] = LAZY_IMPORT_RETRY_DELAYS_MS,
): LazyScreen<P> {
  let loaded: ComponentType<P> | null = null;
  const download = async (): Promise<ComponentType<P>> => {
    loaded ??= (await retryImport(load, retryDelaysMs))[name];
    return loaded;
  };
  const Lazy = lazy<ComponentType<P>>(async () => ({ default: await download() }));
  // Chosen once per mounted screen: switching from Lazy to the loaded component later would
  // remount the screen and lose its state.
  const Screen = (props: P) => {
    const [component] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return createElement(component, props);
  };
  return Object.assign(Screen, {
    preload: async () => {
      await download();
    },
  });
}
