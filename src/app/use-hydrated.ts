import { createContext, startTransition, useContext, useEffect, useState } from 'react';

/**
 * True around a tree that is prerendered at build time (src/app/prerender.tsx) or that React
 * takes over from that markup in the browser (main.tsx's `hydrateRoot`); false when React draws
 * the page itself. AppProviders provides it.
 */
export const HydrationContext = createContext(false);

/**
 * False while the page is prerendered and while React takes that markup over, true right after
 * (and at once when React draws the page itself). The change is a transition: a synchronous
 * update here would make React take over every part of the page still waiting below it
 * (a Suspense boundary) in one long task (issue 19: total blocking time).
 */
export function useHydrated(): boolean {
  const hydrating = useContext(HydrationContext);
  const [hydrated, setHydrated] = useState(!hydrating);
  useEffect(() => {
    if (!hydrated) startTransition(() => setHydrated(true));
  }, [hydrated]);
  return hydrated;
}
