import { defineConfig } from '@playwright/test';
import { E2E_DATA_DIR, E2E_DIST_DIR } from './tests/e2e/helpers/stack';

/**
 * Browser tests run against `npm start`'s stack (API server, PGlite, sign-in emulator) on its own
 * port and data folder, in Debian's Chromium (never a downloaded browser).
 */
const port = Number(process.env.E2E_PORT ?? 8797);

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.pw.ts',
  timeout: 60_000,
  retries: 0,
  // One worker unless E2E_WORKERS says more: the spec files use their own accounts and data on the
  // shared stack (faults.pw.ts loses calls in its own page only; fal.pw.ts runs its own stack on
  // port 8799), so two can run side by side once a whole run has shown it on this machine.
  workers: Number(process.env.E2E_WORKERS ?? 1),
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    baseURL: `http://localhost:${port}`,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: 'node --import tsx scripts/start.ts',
    url: `http://localhost:${port}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    // start.ts stops the API server and the emulator on SIGTERM; a SIGKILL would orphan them.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    stdout: 'pipe',
    env: {
      PORT: String(port),
      KINORA_DATA_DIR: E2E_DATA_DIR,
      KINORA_DIST_DIR: E2E_DIST_DIR,
      KINORA_FRESH: '1',
      // Long enough to watch a job in the jobs panel, cancel it, or reload in its middle.
      KINORA_JOB_DURATION_MS: '6000',
    },
  },
});
