import { act, waitFor } from '@testing-library/react';
import { StrictMode } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { prerender } from 'react-dom/static';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '@/app/app';
import { PRERENDERED_PATHS, prerenderPage } from '@/app/prerender';
import { routes } from '@/app/router';
import { sessionInputFrom } from '@/app/session-input';
import { HOME_TEXTS } from '@/config/home-texts';
import { loadEnv } from '@/config/env';
import { ROUTES } from '@/config/routes';
import { disabledTelemetry } from '@/services/telemetry';

let root: Root | undefined;
let container: HTMLElement | undefined;
afterEach(() => {
  act(() => root?.unmount());
  container?.remove();
  root = undefined;
  vi.restoreAllMocks();
});

/**
 * The page's markup, as the build makes it. React's server renderer leaves the context values of
 * its last task in place (it never runs beside a browser renderer): a last, empty render starts
 * from the root and puts every context back, so the hydration below reads its own values.
 */
async function prerendered(pathname: string): Promise<string> {
  const { html } = await prerenderPage(pathname);
  await prerender(<div />);
  return html;
}

/** Hydrates `html` as main.tsx does and returns every error React reported (mismatches included). */
async function hydrate(pathname: string, html: string): Promise<string[]> {
  const errors: string[] = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    const message = args.map(String).join(' ');
    // React's development check that the server renderer run just before (in this same process,
    // never so in a browser) is not rendering too; the values themselves were put back above.
    if (!message.startsWith('Detected multiple renderers concurrently rendering the same context provider')) errors.push(message);
  });
  container = document.createElement('div');
  container.innerHTML = html;
  document.body.append(container);
  const router = createMemoryRouter(routes, { initialEntries: [pathname] });
  await act(async () => {
    root = hydrateRoot(
      container!,
      <StrictMode>
        <AppProviders telemetry={disabledTelemetry} sessionInput={sessionInputFrom(loadEnv(), { pathname, search: '' }, true)} hydrating>
          <RouterProvider router={router} />
        </AppProviders>
      </StrictMode>,
      { onRecoverableError: (error) => void errors.push(`recoverable: ${String(error)}`) },
    );
  });
  return errors;
}

describe('prerendered public pages (issue 19 item 1)', () => {
  it('draws the home page with its heading and text, and no inline script (the CSP forbids them)', async () => {
    const { html, title } = await prerenderPage(ROUTES.home);
    expect(title).toBe('Kinora');
    expect(html).toContain(HOME_TEXTS.tagline);
    expect(html).toContain('aria-label="Main menu"');
    expect(html).not.toContain('<script');
  });

  it('draws the sign-in form a visitor gets, not a loader', async () => {
    const { html } = await prerenderPage(ROUTES.authentication);
    expect(html).toMatch(/<h1[^>]*>Sign in<\/h1>/);
    expect(html).toContain('type="password"');
  });

  it("keeps a page's forms disabled until React has taken the page over, then enables them", async () => {
    const html = await prerendered(ROUTES.authentication);
    const drawn = document.createElement('div');
    drawn.innerHTML = html;
    const password = drawn.querySelector('input[type="password"]');
    expect(password?.closest('fieldset')?.disabled).toBe(true);
    expect(await hydrate(ROUTES.authentication, html)).toEqual([]);
    // Enabled in a transition once React has the page (see useHydrated).
    await waitFor(() => expect(container?.querySelector('input[type="password"]')?.closest('fieldset')?.disabled).toBe(false));
  });

  it('names each page in its title', async () => {
    expect((await prerenderPage(ROUTES.authentication)).title).toBe('Sign in · Kinora');
    expect((await prerenderPage(ROUTES.notFound)).title).toBe('Page not found · Kinora');
  });

  // The lazy screens are loaded by the prerender above them, as the browser loads them before it
  // hydrates their part: React then meets every part of the markup in one pass.
  it.each(PRERENDERED_PATHS)('%s hydrates without a mismatch', async (pathname) => {
    expect(await hydrate(pathname, await prerendered(pathname))).toEqual([]);
  });

  it('reports a page that does not match: the check above can fail', async () => {
    await prerendered(ROUTES.authentication);
    const errors = await hydrate(ROUTES.authentication, await prerendered(ROUTES.home));
    expect(errors.join('\n')).toMatch(/Hydration failed because the server rendered HTML didn't match the client/);
  });
});
