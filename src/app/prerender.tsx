import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import { AppProviders } from '@/app/app';
import { documentTitle, pageTitleOf } from '@/app/page-title';
import { routes } from '@/app/router';
import { sessionInputFrom } from '@/app/session-input';
import { EnvError, loadEnv } from '@/config/env';
import { MENU } from '@/config/menu';
import { ROUTES } from '@/config/routes';
import { USE_CASE_PAGES } from '@/config/use-cases';
import { disabledTelemetry } from '@/services/telemetry';

/**
 * Issue 19 item 1: the public pages a visitor can open first, as a visitor sees them, rendered to HTML at build time
 * (scripts/prerender.ts) so the shell, the menu and the page's heading and text are drawn from the
 * HTML itself, before any script has run; `main.tsx` then hydrates them. Pages that need a
 * signed-in person, an id or the server's answer are left to the browser.
 */
export const PRERENDERED_PATHS: readonly string[] = [
  ROUTES.home,
  ROUTES.authentication,
  ROUTES.notFound,
  ...MENU.flatMap((group) => [group.path, ...group.items.map((item) => item.path)]),
  ...USE_CASE_PAGES.map((page) => page.path),
];

/** False when the build lacks VITE_* settings: the browser then shows the env error page, not a prerendered one. */
export function envComplete(): boolean {
  try {
    loadEnv();
    return true;
  } catch (error) {
    if (error instanceof EnvError) return false;
    throw error;
  }
}

/**
 * The page at `pathname` as the browser's first render draws it: the same providers and actors in
 * their first state (nothing starts on the server), the same routes, so `hydrateRoot` in main.tsx
 * meets the markup it would have made. Lazy screens are waited for (`prerender`, not
 * `renderToString`), so their markup is in the page too.
 */
export async function prerenderPage(pathname: string): Promise<{ html: string; title: string }> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://localhost${pathname}`));
  if (context instanceof Response) throw new Error(`${pathname} redirects: it cannot be prerendered`);
  const page = () => (
    <StrictMode>
      <AppProviders telemetry={disabledTelemetry} sessionInput={sessionInputFrom(loadEnv(), { pathname, search: '' }, true)} hydrating>
        <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />
      </AppProviders>
    </StrictMode>
  );
  // No progressive chunks: React would otherwise write a large page part after the page, put in
  // place by an inline script, which the CSP forbids. Every part comes in page order.
  // A part that throws here would be sent as a "render me in the browser" hole: the build fails
  // instead, naming the page and the error.
  const errors: unknown[] = [];
  const { prelude } = await prerender(page(), {
    progressiveChunkSize: Number.POSITIVE_INFINITY,
    onError: (error) => void errors.push(error),
  });
  if (errors.length > 0) throw new Error(`prerendering ${pathname} failed`, { cause: errors[0] });
  const title = documentTitle(
    pageTitleOf(context.matches.map((match) => ({ ...match, id: match.route.id, handle: match.route.handle, loaderData: undefined, data: undefined }))),
  );
  return { html: await new Response(prelude).text(), title };
}
