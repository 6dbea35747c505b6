import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { render as rtlRender, type RenderOptions } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { createMemoryRouter, MemoryRouter, RouterProvider } from 'react-router-dom';
import { AppProviders } from '@/app/app';
import { routes } from '@/app/router';
import { sessionInputFrom } from '@/app/session-input';
import { theme } from '@/app/theme';
import { AppConfigActorContext } from '@/components/app-config/app-config-context';
import { ModalsHost } from '@/components/confirm/modals-host';
import { SessionActorContext } from '@/components/session/session-context';
import { loadEnv } from '@/config/env';
import type { SessionInput } from '@/machines/session/session.machine';
import { disabledTelemetry, type Telemetry } from '@/services/telemetry';

interface Options extends Omit<RenderOptions, 'wrapper'> {
  /** Starting URL for the in-memory router. */
  route?: string;
}

/**
 * Renders with Mantine (test env: no transitions, no portals), the app-config and session actors
 * and a router, as STYLE.md asks.
 */
export function render(ui: ReactElement, { route = '/', ...options }: Options = {}) {
  const sessionInput = testSessionInput(route);
  function Wrapper({ children }: { children: ReactNode }) {
    return (
      <MantineProvider theme={theme} env="test">
        <Notifications />
        <AppConfigActorContext.Provider>
          <SessionActorContext.Provider options={{ input: sessionInput }}>
            <MemoryRouter initialEntries={[route]}>
              {children}
              <ModalsHost />
            </MemoryRouter>
          </SessionActorContext.Provider>
        </AppConfigActorContext.Provider>
      </MantineProvider>
    );
  }
  return rtlRender(ui, { wrapper: Wrapper, ...options });
}

interface AppOptions {
  /** Defaults to telemetry that reports nothing. */
  telemetry?: Telemetry;
  /** Changes to the session input the test env gives (guest password, allowlist, providers…). */
  session?: Partial<SessionInput>;
}

/** The session input of the test env (vite.config.ts) for an app opened at `route`. */
export function testSessionInput(route = '/', overrides: Partial<SessionInput> = {}): SessionInput {
  const url = new URL(route, 'http://localhost');
  return { ...sessionInputFrom(loadEnv(), { pathname: url.pathname, search: url.search }), ...overrides };
}

/**
 * Renders the whole app (providers with the real session machine, shell and the real route
 * table) at `route`, with an in-memory router instead of the browser one. Returns the router so
 * tests can navigate.
 */
export function renderApp(route = '/', { telemetry = disabledTelemetry, session }: AppOptions = {}) {
  const router = createMemoryRouter(routes, { initialEntries: [route] });
  const result = rtlRender(
    <AppProviders telemetry={telemetry} sessionInput={testSessionInput(route, session)} mantineEnv="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, router };
}

export * from '@testing-library/react';
export { default as userEvent } from '@testing-library/user-event';
