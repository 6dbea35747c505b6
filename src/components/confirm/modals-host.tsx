import { lazy, Suspense, useSyncExternalStore } from 'react';

/**
 * Where `@mantine/modals` draws its dialogs, mounted on first need instead of with every page:
 * its Modal brings Mantine's ScrollArea and floating-ui (about 35 KB gzipped), which a first
 * visit never uses (issue 19). A screen that can ask for a confirmation asks for the host when it
 * mounts (`useConfirm`), so the host is usually there before the first question; a question asked
 * earlier waits until it is (`whenModalsReady`).
 *
 * `@mantine/modals` opens a dialog with a window event that only a mounted provider hears, hence
 * the wait. The host renders beside the page, inside the app's actors, so a dialog still has them
 * in reach.
 */
const ModalsProviderHost = lazy(() =>
  import('@/components/confirm/modals-provider').then((module) => ({ default: module.ModalsProviderHost })),
);

let wanted = false;
const listeners = new Set<() => void>();
let mounted = false;
let waiting: Array<() => void> = [];

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Called by the provider once it listens (its effects run before its host's), and on unmount. */
export function setModalsMounted(isMounted: boolean): void {
  mounted = isMounted;
  if (!isMounted) return;
  const resolved = waiting;
  waiting = [];
  for (const resolve of resolved) resolve();
}

/** Asks for the host (downloading it once); resolves when it listens for dialogs. */
export function whenModalsReady(): Promise<void> {
  if (!wanted) {
    wanted = true;
    for (const listener of listeners) listener();
  }
  if (mounted) return Promise.resolve();
  return new Promise((resolve) => waiting.push(resolve));
}

/** True when a dialog can be opened at once (the host is mounted). */
export const modalsMounted = (): boolean => mounted;

export function ModalsHost() {
  const shown = useSyncExternalStore(
    subscribe,
    () => wanted,
    () => false,
  );
  if (!shown) return null;
  return (
    <Suspense fallback={null}>
      <ModalsProviderHost />
    </Suspense>
  );
}
