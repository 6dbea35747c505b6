import { readFileSync } from 'node:fs';
import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { bootPrefetch } from './scripts/boot-prefetch';
import { precompress } from './scripts/precompress';
import { prerender } from './scripts/prerender';
import { reactRouterProduction } from './scripts/react-router-production';

const apiPort = Number(process.env.PORT ?? 8787);
/** The app's version, as package.json names it: a problem report says which build it came from. */
const appVersion = (JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string }).version;

const WEB_TESTS = ['tests/**/*.test.{ts,tsx}'];
const WEB_EXCLUDE = ['tests/server/**', 'tests/tooling/**', 'tests/e2e/**', 'node_modules/**'];

/**
 * Web test files that keep a module cache and jsdom of their own: they replace a module with
 * `vi.mock`, which only takes effect in a fresh module cache. Every other web file shares (the
 * screens and the shell too: a run with the files in shuffled order, `--sequence.shuffle.files`,
 * passed whole, so no file depends on what another leaves behind).
 */
const ISOLATED_WEB_TESTS = [
  'tests/app/lazy-screen.test.tsx',
  'tests/screens/credits/credits-screen.test.tsx',
  'tests/screens/session-overlays.test.tsx',
  'tests/lib/redirect-target.test.ts',
  'tests/machines/session/session.machine.test.ts',
  'tests/services/**/*.test.ts',
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
  plugins: [react(), reactRouterProduction(), bootPrefetch(), prerender(), precompress()],
  define: { __KINORA_VERSION__: JSON.stringify(appVersion) },
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    manifest: true,
    // Sizes are gated by `npm run bench` against bench/budget.json, not by Vite's generic warning.
    chunkSizeWarningLimit: 1024,
    // One stylesheet, in the page's head: main.tsx loads the app's modules in parts after the first
    // paint, and a prerendered page must be styled before them (the shell's frame, the page's
    // modules), not when the part that imports its CSS arrives. The screens' own CSS is small.
    cssCodeSplit: false,
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
      // The web tests in two projects (issue 18 item 8). Most files share one jsdom and one module
      // cache per worker (`isolate: false`): a fresh jsdom with Mantine, Amplify, msw and the app's
      // modules costs about 2.5 s of CPU per file, more than most files' tests. What one file
      // leaves behind is reset after each test by tests/setup.ts. The files in ISOLATED_WEB_TESTS
      // keep vitest's default isolation. Sharing the screens and the server files' modules took a
      // clean unit run from 10 min 48 s and 20.2 CPU-minutes to 8 min 21 s and 15.4.
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
          // One module cache per worker: each file still starts its own server, database and
          // emulator (below), but the server's modules, Fastify and PGlite's WebAssembly load once
          // per worker instead of once per file (the server files alone: 13.1 → 7.9 CPU-minutes).
          isolate: false,
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
