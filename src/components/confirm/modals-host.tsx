import { lazy, Suspense, useSyncExternalStore } from 'react';
import { modalsWanted, subscribeToModalsHost } from '@/components/confirm/modals-state';

/**
 * Where `@mantine/modals` draws its dialogs, mounted on first need instead of with every page:
 * its Modal brings Mantine's ScrollArea and floating-ui (about 35 KB gzipped), which a first
 * visit never uses (issue 19). A screen that can ask for a confirmation asks for the host when it
 * mounts (`useConfirm`), so the host is usually there before the first question; a question asked
 * earlier waits until it is (`whenModalsReady` in modals-state.ts).
 *
 * `@mantine/modals` opens a dialog with a window event that only a mounted provider hears, hence
 * the wait. The host renders beside the page, inside the app's actors, so a dialog still has them
 * in reach.
 */
const ModalsProviderHost = lazy(() =>
  import('@/components/confirm/modals-provider').then((module) => ({ default: module.ModalsProviderHost })),
);

export function ModalsHost() {
  const shown = useSyncExternalStore(subscribeToModalsHost, modalsWanted, () => false);
  if (!shown) return null;
  return (
    <Suspense fallback={null}>
      <ModalsProviderHost />
    </Suspense>
  );
}
