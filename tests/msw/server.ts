import { setupServer } from 'msw/node';
import { defaultHandlers } from './handlers';

/** One msw server for every web test; each test adds its own handlers with `server.use(...)`. */
export const server = setupServer(...defaultHandlers);
