import { useEffect, useRef, type RefObject } from 'react';

/**
 * After a route change (not on the first load, where the browser starts at the top), focus moves
 * to the new page's h1, or to the main region while the page is still loading, so keyboard and
 * screen-reader users start reading the new page instead of staying on the link they followed.
 */
export function useRouteFocus(pathname: string, mainRef: RefObject<HTMLElement | null>): void {
  const shownPathname = useRef(pathname);
  useEffect(() => {
    if (shownPathname.current === pathname) return;
    shownPathname.current = pathname;
    const main = mainRef.current;
    if (!main) return;
    const heading = main.querySelector('h1');
    if (heading) {
      // Headings are not focusable by default; -1 makes them focusable by script only.
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus();
    } else {
      main.focus();
    }
  }, [pathname, mainRef]);
}
