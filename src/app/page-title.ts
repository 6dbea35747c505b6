import { useEffect } from 'react';
import { useMatches, type UIMatch } from 'react-router-dom';

export const APP_NAME = 'Kinora';

/** What a route puts in its `handle` to name its page; a function reads the route's loader data. */
export interface PageHandle {
  title: string | ((loaderData: unknown) => string);
}

const isPageHandle = (handle: unknown): handle is PageHandle =>
  typeof handle === 'object' && handle !== null && 'title' in handle;

/**
 * "Text to Image · Kinora"; the home page, which has no title of its own, is just "Kinora". While
 * jobs run, their number leads, "(2) Text to Image · Kinora", so a background tab shows progress.
 */
export const documentTitle = (pageTitle: string | null, runningJobs = 0): string => {
  const title = pageTitle ? `${pageTitle} · ${APP_NAME}` : APP_NAME;
  return runningJobs > 0 ? `(${runningJobs}) ${title}` : title;
};

/** The title of the deepest matched route that names its page. */
export function pageTitleOf(matches: readonly UIMatch[]): string | null {
  for (const { handle, loaderData } of [...matches].reverse()) {
    if (isPageHandle(handle)) return typeof handle.title === 'function' ? handle.title(loaderData) : handle.title;
  }
  return null;
}

/**
 * Keeps `document.title` in step with the page, so each route change is announced by name, and
 * with the number of jobs running.
 */
export function useDocumentTitle(runningJobs = 0): void {
  const title = documentTitle(pageTitleOf(useMatches()), runningJobs);
  useEffect(() => {
    document.title = title;
  }, [title]);
}
