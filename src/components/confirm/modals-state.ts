/**
 * Whether the dialogs' host (modals-host.tsx) is wanted and mounted, apart from the host so its
 * lazily loaded provider (modals-provider.tsx) can report without importing the host back.
 */
let wanted = false;
const listeners = new Set<() => void>();
let mounted = false;
let waiting: Array<() => void> = [];

export const subscribeToModalsHost = (listener: () => void) => {
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

/** Whether a screen has asked for the host (it then stays). */
export const modalsWanted = (): boolean => wanted;
