import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { render as rtlRender, type RenderOptions } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { createMemoryRouter, MemoryRouter, RouterProvider } from 'react-router-dom';
import { AppProviders } from '@/app/app';
import { routes } from '@/app/router';
import { theme } from '@/app/theme';
import { AppConfigActorContext } from '@/components/app-config/app-config-context';
import { disabledTelemetry, type Telemetry } from '@/services/telemetry';

interface Options extends Omit<RenderOptions, 'wrapper'> {
  /** Starting URL for the in-memory router. */
  route?: string;
}

/**
 * Renders with Mantine (test env: no transitions, no portals), the app-config actor and a router,
 * as STYLE.md asks.
 */
export function render(ui: ReactElement, { route = '/', ...options }: Options = {}) {
  function Wrapper({ children }: { children: ReactNode }) {
    return (
      <MantineProvider theme={theme} env="test">
        <Notifications />
        <AppConfigActorContext.Provider>
          <MemoryRouter initialEntries={[route]}>{children}</MemoryRouter>
        </AppConfigActorContext.Provider>
      </MantineProvider>
    );
  }
  return rtlRender(ui, { wrapper: Wrapper, ...options });
}

interface AppOptions {
  /** Defaults to telemetry that reports nothing. */
  telemetry?: Telemetry;
}

/**
 * Renders the whole app (providers, shell and the real route table) at `route`, with an
 * in-memory router instead of the browser one. Returns the router so tests can navigate.
 */
export function renderApp(route = '/', { telemetry = disabledTelemetry }: AppOptions = {}) {
  const router = createMemoryRouter(routes, { initialEntries: [route] });
  const result = rtlRender(
    <AppProviders telemetry={telemetry} mantineEnv="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, router };
}

export * from '@testing-library/react';
export { default as userEvent } from '@testing-library/user-event';
