/**
 * Whether the page is hidden (another tab, a minimised window): polling and timers pause then.
 * False where there is no document (a page prerendered at build time, src/app/prerender.tsx).
 */
export const isPageHidden = (): boolean => typeof document !== 'undefined' && document.visibilityState === 'hidden';
