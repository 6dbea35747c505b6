import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@/app/reduced-motion.css';
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from '@/app/app';
import { EnvErrorPage } from '@/app/env-error-page';
import { createAppRouter, preloadScreens } from '@/app/router';
import { sessionInputFrom } from '@/app/session-input';
import { EnvError, loadEnv, type Env } from '@/config/env';
import { configureAuth, mayHaveSessionAt } from '@/services/auth';
import { initTelemetry } from '@/services/telemetry';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

function readEnv(): Env | EnvError {
  try {
    return loadEnv();
  } catch (error) {
    if (error instanceof EnvError) return error;
    throw error;
  }
}

const env = readEnv();
if (env instanceof EnvError) {
  // Also in the console, for whoever deployed the build and is looking there.
  console.error(env.message);
  createRoot(container).render(<EnvErrorPage issues={env.issues} />);
} else {
  // Amplify loads beside the first render when a session may be stored (otherwise on the first
  // sign-in call); a failed download is retried by the first auth call.
  configureAuth(env).catch(() => undefined);
  const telemetry = initTelemetry(env);
  // Nothing stored says someone is signed in: the session starts signed out, as on the pages
  // prerendered for visitors.
  const visitor = !mayHaveSessionAt(env.cognitoClientId, window.location.search);
  // A public page arrives drawn as a visitor sees it (prerendered at build time,
  // src/app/prerender.tsx): for a visitor React takes that markup over instead of drawing it
  // again. Markup that does not match is drawn again by React (a recoverable error), reported as
  // React reports it by default, so a test or Sentry sees it. Someone who may be signed in gets the
  // page drawn afresh, which replaces the visitor's markup.
  const hydrate = visitor && container.hasAttribute('data-prerendered');
  const app = (
    <StrictMode>
      <App
        telemetry={telemetry}
        router={createAppRouter()}
        sessionInput={sessionInputFrom(env, window.location, visitor)}
        hydrating={hydrate}
      />
    </StrictMode>
  );
  // In a transition, React cuts the first render into short tasks the browser can answer input
  // between, instead of one long task (issue 19: total blocking time).
  const start = () =>
    startTransition(() => {
      if (hydrate) {
        hydrateRoot(container, app, {
          onRecoverableError: (error, info) => {
            console.error(error);
            telemetry.reportError(error, info.componentStack);
          },
        });
      } else createRoot(container).render(app);
    });
  // The page's screen first (see lazyScreen's preload), so React takes the whole page over in one
  // pass; should the download fail, the screen tries again itself when it is drawn.
  if (hydrate) void preloadScreens(window.location.pathname).then(start, start);
  else start();
}
