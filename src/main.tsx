import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@/app/reduced-motion.css';
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BOOT_CHUNKS_META } from '@/config/boot';
import type { Env } from '@/config/env';
import { LAZY_IMPORT_RETRY_DELAYS_MS } from '@/config/limits';
import { retryImport } from '@/lib/chunk-load';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const root = container;

/**
 * Asks for every part's file at once (listed by scripts/boot-prefetch.ts in index.html; see there
 * why a low-priority prefetch), so the parts below do not wait for each other's download.
 */
function preloadBootChunks(): void {
  const files = document.querySelector<HTMLMetaElement>(`meta[name="${BOOT_CHUNKS_META}"]`)?.content.split(' ') ?? [];
  for (const href of files) {
    if (!href) continue;
    const link = document.createElement('link');
    link.rel = 'prefetch';
    link.as = 'script';
    link.crossOrigin = '';
    link.href = href;
    document.head.append(link);
  }
}

/** Lets the browser answer input (and paint) before the next part of the start runs. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** A part of the app, downloaded again after a failure, as a lazy screen is. */
const part = <T,>(load: () => Promise<T>): Promise<T> => retryImport(load, LAZY_IMPORT_RETRY_DELAYS_MS);

async function start(env: Env): Promise<void> {
  // The app's modules are evaluated in parts, each in a task of its own, instead of all in one
  // long task (issue 19: total blocking time on a phone). The two largest libraries first, each
  // alone: evaluated with the part that first imports them, they made it the longest task.
  await part(() => import('@/app/boot/xstate'));
  await nextTask();
  await part(() => import('@/app/boot/react-router'));
  await nextTask();
  const { configureAuth, mayHaveSessionAt } = await part(() => import('@/services/auth'));
  const { initTelemetry } = await part(() => import('@/services/telemetry'));
  // Amplify loads beside the first render when a session may be stored (otherwise on the first
  // sign-in call); a failed download is retried by the first auth call.
  configureAuth(env).catch(() => undefined);
  const telemetry = initTelemetry(env);
  await nextTask();
  await part(() => import('@/components/session/session-context'));
  await nextTask();
  const { App } = await part(() => import('@/app/app'));
  await nextTask();
  const { createAppRouter, preloadScreens } = await part(() => import('@/app/router'));
  const { sessionInputFrom } = await part(() => import('@/app/session-input'));
  // Nothing stored says someone is signed in: the session starts signed out, as on the pages
  // prerendered for visitors.
  const visitor = !mayHaveSessionAt(env.cognitoClientId, window.location.search);
  // A public page arrives drawn as a visitor sees it (prerendered at build time,
  // src/app/prerender.tsx): for a visitor React takes that markup over instead of drawing it
  // again. Markup that does not match is drawn again by React (a recoverable error), reported as
  // React reports it by default, so a test or Sentry sees it. Someone who may be signed in gets the
  // page drawn afresh, which replaces the visitor's markup.
  const hydrate = visitor && root.hasAttribute('data-prerendered');
  // The page's screen first (see lazyScreen's preload), so React takes the whole page over in one
  // pass; should the download fail, the screen tries again itself when it is drawn.
  if (hydrate) await preloadScreens(window.location.pathname).catch(() => undefined);
  await nextTask();
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
  startTransition(() => {
    if (hydrate) {
      hydrateRoot(root, app, {
        onRecoverableError: (error, info) => {
          console.error(error);
          telemetry.reportError(error, info.componentStack);
        },
      });
    } else createRoot(root).render(app);
  });
}

/**
 * The build's settings are checked first. The check (and zod, which it uses) is a part of its own:
 * in the first file, beside React, it lengthened the first task.
 */
async function boot(): Promise<void> {
  preloadBootChunks();
  const { EnvError, loadEnv } = await part(() => import('@/config/env'));
  let env: Env;
  try {
    env = loadEnv();
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    // Also in the console, for whoever deployed the build and is looking there.
    console.error(error.message);
    const { EnvErrorPage } = await import('@/app/env-error-page');
    createRoot(root).render(<EnvErrorPage issues={error.issues} />);
    return;
  }
  await nextTask();
  await start(env);
}

void boot();
