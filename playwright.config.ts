import { defineConfig } from '@playwright/test';
import { E2E_DATA_DIR, E2E_DIST_DIR, JOB_DURATION_MS } from './tests/e2e/helpers/stack';

/**
 * Browser tests run against `npm start`'s stack (API server, PGlite, sign-in emulator) on its own
 * port and data folder, in Debian's Chromium (never a downloaded browser).
 */
const port = Number(process.env.E2E_PORT ?? 8797);

/**
 * The order the spec files run in (one worker runs them one after another; each named file is a
 * project of its own, and projects are handed to the workers in this order). `npm test` runs the
 * unit tests beside these for their first 10 minutes or so, with the CPU 100 % busy. The files that
 * mostly wait on jobs and the stack come first: they lose little to the unit tests beside them.
 * axe's every-route walks compute in the browser throughout (a clean side-by-side run: the
 * signed-out walk 2.4 min, 1.2 min alone), so they come last, when the CPU is theirs.
 */
const WAITING_FIRST = ['faults', 'story', 'video', 'providers'] as const;
const COMPUTING_LAST = ['a11y-job-states', 'a11y-overlays', 'a11y-signed-in', 'a11y-signed-out'] as const;
const specOf = (name: string): string => `**/${name}.pw.ts`;

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.pw.ts',
  // A test that waits for a job's end may wait JOB_END_MS (tests/e2e/helpers/stack.ts) after its other steps.
  timeout: 120_000,
  // Three browsers, the stack and its renders share 2 cores: a page that loads in 2 s alone can take
  // 6 s beside the others, so a web-first assertion waits up to 10 s (Playwright's default is 5 s).
  expect: { timeout: 10_000 },
  retries: 0,
  // One worker on this 2-core machine unless E2E_WORKERS says more. Every test uses its own accounts
  // and data on the shared stack and looks for its own items (faults.pw.ts loses calls in its own
  // page only; providers.pw.ts runs its own stack on port 8799 with the fal, S3 and Stripe stand-ins, its tests together), so any test may
  // run beside any other — but three browsers with the stack's renders are CPU-bound here: a clean
  // clone's run on three workers took 22 min (no less than one worker's), axe's signed-out walk
  // 8.7 min instead of 3, and three tests ran out of time (a deep link's page, the inspector, the
  // fine-tune's coupon modal). More workers are for bigger machines.
  workers: Number(process.env.E2E_WORKERS ?? 1),
  fullyParallel: true,
  projects: [
    ...WAITING_FIRST.map((name) => ({ name, testMatch: specOf(name) })),
    { name: 'rest', testIgnore: [...WAITING_FIRST, ...COMPUTING_LAST].map(specOf) },
    ...COMPUTING_LAST.map((name) => ({ name, testMatch: specOf(name) })),
  ],
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    baseURL: `http://localhost:${port}`,
    screenshot: 'only-on-failure',
    // The browser asks for less motion, as some people's systems do (src/app/reduced-motion.css):
    // spinners and striped bars that loop for as long as a job runs redrew the page every frame,
    // half of Chromium's CPU in the tests that wait on jobs (video + story: the renderer 47 s with
    // the motion, 24 s without, measured on this 2-core machine).
    reducedMotion: 'reduce',
    // E2E_TRACE=1: a failed test keeps its trace (each action with the page's DOM before and after
    // it, the network, the console), without the screencast (recording every frame doubled the
    // browser's CPU). Off by default: the DOM snapshots of every action of every test cost a
    // quarter of the browser's and the runner's CPU (generation + help + shell: 60–66 s with them,
    // 45–49 s without), and a CI log shows only its tail, where a trace is never seen. A failed test
    // still keeps its screenshot and error; run it again with E2E_TRACE=1 to get the trace.
    trace: process.env.E2E_TRACE === '1' ? { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: true } : 'off',
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
    // E2E_REUSE=1: a stack already started on the port with this config's environment (to run one
    // spec again and again without building each time); never in a full run.
    reuseExistingServer: process.env.E2E_REUSE === '1',
    // start.ts stops the API server and the emulator on SIGTERM; a SIGKILL would orphan them.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    stdout: 'pipe',
    env: {
      PORT: String(port),
      KINORA_DATA_DIR: E2E_DATA_DIR,
      KINORA_DIST_DIR: E2E_DIST_DIR,
      KINORA_FRESH: '1',
      // Long enough to watch a job in the jobs panel, cancel it, or reload in its middle.
      KINORA_JOB_DURATION_MS: String(JOB_DURATION_MS),
      // Jobs mostly wait out that duration: with several browsers (and faults.pw.ts's ten at once)
      // on one stack, the engine's default 4 at a time would queue one test's jobs behind another's.
      KINORA_JOB_CONCURRENCY: '8',
    },
  },
});
