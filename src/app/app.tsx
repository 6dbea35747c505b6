import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';
import { RouterProvider } from 'react-router-dom';
import { ErrorBoundary } from '@/app/error-boundary';
import { TelemetryProvider } from '@/app/telemetry-context';
import { theme } from '@/app/theme';
import { AppConfigActorContext } from '@/components/app-config/app-config-context';
import { BannerActorContext } from '@/components/banner/banner-context';
import { TOAST } from '@/config/limits';
import type { Telemetry } from '@/services/telemetry';
import type { AppRouter } from '@/app/router';

interface AppProvidersProps {
  telemetry: Telemetry;
  children: ReactNode;
  /** Tests pass "test" (no transitions, no portals), as ARCHITECTURE.md §1 notes. */
  mantineEnv?: 'default' | 'test';
}

/** Everything around the router: theme, toasts, telemetry, the app-config and banner actors, a last-resort boundary. */
export function AppProviders({ telemetry, children, mantineEnv = 'default' }: AppProvidersProps) {
  return (
    <MantineProvider theme={theme} env={mantineEnv}>
      {/* SPEC §2.9 item 6: top-right, 5000 ms, paused while hovered. */}
      <Notifications position={TOAST.position} autoClose={TOAST.autoCloseMs} pauseResetOnHover={TOAST.pauseResetOnHover} />
      <TelemetryProvider telemetry={telemetry}>
        <AppConfigActorContext.Provider>
          <BannerActorContext.Provider>
            <ErrorBoundary onError={telemetry.reportError}>{children}</ErrorBoundary>
          </BannerActorContext.Provider>
        </AppConfigActorContext.Provider>
      </TelemetryProvider>
    </MantineProvider>
  );
}

export function App({ telemetry, router }: { telemetry: Telemetry; router: AppRouter }) {
  return (
    <AppProviders telemetry={telemetry}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
