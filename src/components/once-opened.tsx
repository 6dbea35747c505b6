import { useState, type ReactNode } from 'react';

/**
 * Draws a dialog from the first time it opens, and keeps it after (so its closing transition
 * still plays). Mantine's closed Modal still mounts its portal, scroll lock and transitions, and
 * updates itself synchronously right after mounting: on a tool page with results, a closed dialog
 * per result made the first render a long task (issue 19).
 */
export function OnceOpened({ opened, children }: { opened: boolean; children: ReactNode }) {
  const [drawn, setDrawn] = useState(opened);
  if (opened && !drawn) setDrawn(true);
  return drawn ? children : null;
}
