import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { precompress } from './scripts/precompress';

const apiPort = Number(process.env.PORT ?? 8787);

const WEB_TESTS = ['tests/**/*.test.{ts,tsx}'];
const WEB_EXCLUDE = ['tests/server/**', 'tests/tooling/**', 'tests/e2e/**', 'node_modules/**'];

/**
 * Web test files that keep a module cache and jsdom of their own. The services and a few others
 * replace a module with `vi.mock`, which only takes effect in a fresh module cache. The screens
 * and the shell passed shared in file order, but a shuffled run on a machine loaded 10× over
 * failed some of them (time-outs and a few missing elements) that are not yet told apart from
 * shared state: isolated until a quiet run says which may share.
 */
const ISOLATED_WEB_TESTS = [
  'tests/app/**/*.test.{ts,tsx}',
  'tests/screens/**/*.test.{ts,tsx}',
  'tests/lib/redirect-target.test.ts',
  'tests/machines/session/session.machine.test.ts',
  'tests/services/auth-check.test.ts',
  'tests/services/auth.test.ts',
  'tests/services/batch.test.ts',
  'tests/services/config.test.ts',
  'tests/services/coupon.test.ts',
  'tests/services/credits.test.ts',
  'tests/services/finetune.test.ts',
  'tests/services/http.test.ts',
  'tests/services/media.test.ts',
  'tests/services/promo-videos.test.ts',
  'tests/services/users.test.ts',
];

/** What both web projects share: jsdom, the msw fake backend, the app's test env. */
const webTest = {
  environment: 'jsdom',
  setupFiles: ['tests/setup.ts'],
  // Screen tests render whole routes in jsdom and wait up to 10 s for a page (PAGE_LOAD);
  // on a busy 2-core CI machine a test with several such waits outlives vitest's 5 s default.
  testTimeout: 30_000,
  env: {
    VITE_API_URL: 'http://localhost/api',
    VITE_API_KEY: 'test-api-key',
    VITE_COGNITO_USER_POOL_ID: 'local_test',
    VITE_COGNITO_CLIENT_ID: 'testclient',
    // Amplify talks to the fake user pool of tests/msw/cognito.ts at this URL.
    VITE_COGNITO_ENDPOINT: 'http://localhost/cognito',
    VITE_AUTH_FLOW_TYPE: 'USER_PASSWORD_AUTH',
    VITE_GUEST_PASSWORD: 'guest-password',
    VITE_REDIRECT_ALLOWLIST: 'https://partner.example/oauth/callback',
  },
};

export default defineConfig({
  plugins: [react(), precompress()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    manifest: true,
    // Sizes are gated by `npm run bench` against bench/budget.json, not by Vite's generic warning.
    chunkSizeWarningLimit: 1024,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': `http://localhost:${apiPort}`,
      '/cognito': `http://localhost:${apiPort}`,
      '/local': `http://localhost:${apiPort}`,
      '/tutorial': `http://localhost:${apiPort}`,
    },
  },
  test: {
    // Two test files at a time across the projects (vitest's default on 2 cores is one): the
    // files wait on databases, servers and renders as much as they compute. One value for all
    // projects, since vitest refuses projects with different worker counts in one run.
    maxWorkers: 2,
    projects: [
      // The web tests in two projects (issue 18 item 8). The config, lib, machine, component and
      // msw files share one jsdom and one module cache per worker (`isolate: false`): a fresh jsdom with Mantine, Amplify, msw and the app's
      // modules costs about 2.5 s of CPU per file, more than most files' tests. What one file
      // leaves behind is reset after each test by tests/setup.ts. The files in ISOLATED_WEB_TESTS
      // keep vitest's default isolation.
      {
        extends: true,
        test: {
          ...webTest,
          name: 'web',
          isolate: false,
          include: WEB_TESTS,
          exclude: [...WEB_EXCLUDE, ...ISOLATED_WEB_TESTS],
        },
      },
      {
        extends: true,
        test: {
          ...webTest,
          name: 'web-isolated',
          include: ISOLATED_WEB_TESTS,
          exclude: WEB_EXCLUDE,
        },
      },
      {
        extends: true,
        test: {
          // Checks of the project's own tooling (lint rules), in Node.
          name: 'tooling',
          environment: 'node',
          include: ['tests/tooling/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          // Opening a PGlite database (PostgreSQL in WASM) takes seconds, more on a busy machine.
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // One migrated database per run that each test copies (tests/server/helpers/global-setup.ts).
          globalSetup: ['tests/server/helpers/global-setup.ts'],
          // Each server test file starts its own server (port 0), database (in memory), emulator
          // (a free port, its own folder) and media folder, so two files run side by side.
          fileParallelism: true,
        },
      },
    ],
  },
});
