import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/**
 * False while the page is prerendered (src/app/prerender.tsx) and while React takes over that
 * markup in the browser (React reads the server value then), true right after, and true at once
 * in a page React draws itself.
 */
export const useHydrated = (): boolean =>
  useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
