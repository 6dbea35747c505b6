import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { installMatchMedia, resetViewport } from './media-query';
import { server } from './msw/server';

// Mantine needs these in jsdom (ARCHITECTURE.md §1 facts). matchMedia answers width queries for a
// desktop viewport unless a test calls `setViewportWidth` or `setMobileViewport`.
installMatchMedia();
class ResizeObserverShim {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverShim as unknown as typeof ResizeObserver;
window.scrollTo = () => {};
Element.prototype.scrollIntoView ??= () => {};

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  cleanup();
  resetViewport();
  server.resetHandlers();
  localStorage.clear();
});
afterAll(() => server.close());
