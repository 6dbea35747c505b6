import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@/app/reduced-motion.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/app';
import { EnvErrorPage } from '@/app/env-error-page';
import { createAppRouter } from '@/app/router';
import { sessionInputFrom } from '@/app/session-input';
import { EnvError, loadEnv, type Env } from '@/config/env';
import { configureAuth } from '@/services/auth';
import { initTelemetry } from '@/services/telemetry';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const root = createRoot(container);

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
  root.render(<EnvErrorPage issues={env.issues} />);
} else {
  // Amplify loads beside the first render when a session may be stored (otherwise on the first
  // sign-in call); a failed download is retried by the first auth call.
  configureAuth(env).catch(() => undefined);
  const telemetry = initTelemetry(env);
  root.render(
    <StrictMode>
      <App telemetry={telemetry} router={createAppRouter()} sessionInput={sessionInputFrom(env, window.location)} />
    </StrictMode>,
  );
}
