import { MantineProvider } from '@mantine/core';
import type { ReactNode } from 'react';
import { RouterProvider } from 'react-router-dom';
import { ErrorBoundary } from '@/app/error-boundary';
import { LazyNotifications } from '@/app/lazy-notifications';
import { TelemetryProvider } from '@/app/telemetry-context';
import { HydrationContext } from '@/app/use-hydrated';
import { theme } from '@/app/theme';
import { useJobLogKeeper } from '@/app/use-job-log-keeper';
import toastClasses from '@/app/toasts.module.css';
import { AppConfigActorContext } from '@/components/app-config/app-config-context';
import { BannerActorContext } from '@/components/banner/banner-context';
import { ModalsHost } from '@/components/confirm/modals-host';
import { JobsActorContext } from '@/components/jobs/jobs-context';
import { SessionActorContext } from '@/components/session/session-context';
import { TOAST, TOAST_TOP_OFFSET_PX } from '@/config/limits';
import { inspect } from '@/lib/inspection/hub';
import type { SessionInput } from '@/machines/session/session.machine';
import type { Telemetry } from '@/services/telemetry';
import type { AppRouter } from '@/app/router';
import { isPageHidden } from '@/lib/page-hidden';

/**
 * The jobs registry, given the session actor as input: it follows who is signed in and their
 * balance through its own `account` actor (and the page through `watchPage`), not through React
 * effects. The session lives in its own actor system, so a ref is how the registry reaches it.
 */
function JobsRegistry({ children }: { children: ReactNode }) {
  const session = SessionActorContext.useActorRef();
  useJobLogKeeper();
  return (
    <JobsActorContext.Provider options={{ id: 'jobs', input: { hidden: isPageHidden(), session }, inspect }}>
      {children}
    </JobsActorContext.Provider>
  );
}

interface AppProvidersProps {
  telemetry: Telemetry;
  /** Where the app opened and the sign-in settings (see `sessionInputFrom`). */
  sessionInput: SessionInput;
  children: ReactNode;
  /** Tests pass "test" (no transitions, no portals), as ARCHITECTURE.md §1 notes. */
  mantineEnv?: 'default' | 'test';
  /** The tree is prerendered, or taken over from prerendered markup (see HydrationContext). */
  hydrating?: boolean;
}

/**
 * Everything around the router: theme, toasts, telemetry, the app-config, banner, session and
 * jobs actors (each reporting to the inspection hub, which the QA inspector reads), a last-resort
 * boundary.
 */
export function AppProviders({ telemetry, sessionInput, children, mantineEnv = 'default', hydrating = false }: AppProvidersProps) {
  return (
    <HydrationContext.Provider value={hydrating}>
      <MantineProvider theme={theme} env={mantineEnv}>
        {/* SPEC §2.9 item 6: top-right, 5000 ms, paused while hovered; below the header. */}
        <LazyNotifications
          position={TOAST.position}
          autoClose={TOAST.autoCloseMs}
          pauseResetOnHover={TOAST.pauseResetOnHover}
          classNames={{ root: toastClasses.toasts }}
          style={{ '--toast-top': `${TOAST_TOP_OFFSET_PX}px` }}
        />
        <TelemetryProvider telemetry={telemetry}>
          <AppConfigActorContext.Provider options={{ id: 'appConfig', inspect }}>
            <BannerActorContext.Provider options={{ id: 'banner', inspect }}>
              <SessionActorContext.Provider options={{ id: 'session', input: sessionInput, inspect }}>
                {/* Inside the session: the registry follows who is signed in through it. */}
                <JobsRegistry>
                  <ErrorBoundary onError={telemetry.reportError}>
                    {children}
                    {/* Confirmations (useConfirm) render here, with the actors above in reach. */}
                    <ModalsHost />
                  </ErrorBoundary>
                </JobsRegistry>
              </SessionActorContext.Provider>
            </BannerActorContext.Provider>
          </AppConfigActorContext.Provider>
        </TelemetryProvider>
      </MantineProvider>
    </HydrationContext.Provider>
  );
}

interface AppProps {
  telemetry: Telemetry;
  router: AppRouter;
  sessionInput: SessionInput;
  /** React takes the page over from its prerendered markup. */
  hydrating?: boolean;
}

export function App({ telemetry, router, sessionInput, hydrating = false }: AppProps) {
  return (
    <AppProviders telemetry={telemetry} sessionInput={sessionInput} hydrating={hydrating}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
