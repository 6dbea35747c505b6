import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { render as rtlRender, type RenderOptions } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { theme } from '@/app/theme';

interface Options extends Omit<RenderOptions, 'wrapper'> {
  /** Starting URL for the in-memory router. */
  route?: string;
}

/** Renders with Mantine (test env: no transitions, no portals) and a router, as STYLE.md asks. */
export function render(ui: ReactElement, { route = '/', ...options }: Options = {}) {
  function Wrapper({ children }: { children: ReactNode }) {
    return (
      <MantineProvider theme={theme} env="test">
        <Notifications />
        <MemoryRouter initialEntries={[route]}>{children}</MemoryRouter>
      </MantineProvider>
    );
  }
  return rtlRender(ui, { wrapper: Wrapper, ...options });
}

export * from '@testing-library/react';
export { default as userEvent } from '@testing-library/user-event';
