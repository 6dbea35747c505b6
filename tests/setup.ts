import '@testing-library/jest-dom/vitest';
import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { loadEnv } from '@/config/env';
import { Amplify } from 'aws-amplify';
import { buildAuthConfig, configureAuth } from '@/services/auth';
import { installMatchMedia, resetViewport } from './media-query';
import { resetFakePool } from './msw/cognito';
import { resetFakeApi } from './msw/handlers';
import { server } from './msw/server';

// Mantine needs these in jsdom (ARCHITECTURE.md §1 facts). matchMedia answers width queries for a
// desktop viewport unless a test calls `setViewportWidth` or `setMobileViewport`.
installMatchMedia();
// findBy/waitFor give up after 1 s by default. `npm test` runs these beside the server tests'
// databases and the browser tests on 2 cores, where a render and its fake API's answer took over
// 4 s (CI, a double-clicked Generate's one submission). Only a failing wait lasts this long.
configure({ asyncUtilTimeout: 10_000 });
class ResizeObserverShim {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverShim as unknown as typeof ResizeObserver;
window.scrollTo = () => {};
Element.prototype.scrollIntoView ??= () => {};

// Amplify as the app configures it, pointed at the fake user pool of tests/msw/cognito.ts. Its
// warning that the endpoint is custom is expected here (the fake pool is the point) and would
// otherwise fill every test file's output; anything else it says still reaches the console.
const warn = console.warn;
console.warn = (...args: unknown[]) => {
  if (!args.some((arg) => typeof arg === 'string' && arg.includes('custom Amazon Amazon Cognito User Pool endpoint'))) {
    warn(...args);
  }
};
const env = loadEnv();
await configureAuth(env);
// The app loads Amplify only once a session may exist (services/auth.ts); the helpers that sign a
// person in before the app renders (tests/screens/session-helpers.ts) call Amplify themselves.
Amplify.configure(buildAuthConfig(env, window.location.origin));
console.warn = warn;

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
// Many web test files share one jsdom and module cache per worker (vite.config.ts, `isolate:
// false`), and this file runs again before each of them: whatever a test leaves in the page,
// the stores below, web storage or the clock would otherwise reach the next file.
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  // Mantine keeps its toasts in a store outside React: none may carry over into the next test.
  notifications.clean();
  resetViewport();
  server.resetHandlers();
  resetFakePool();
  resetFakeApi();
  // Amplify keeps its tokens (and a sign-in in progress) in web storage: nobody stays signed in.
  localStorage.clear();
  sessionStorage.clear();
});
afterAll(() => server.close());
