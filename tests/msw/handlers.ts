import { http, HttpResponse } from 'msw';
import { defaultAppConfiguration } from '@/config/app-config';

export const API = 'http://localhost/api';

/**
 * Calls every rendered app makes on its own (the appConfig actor fetches the configuration at
 * start). Tests override them with `server.use(...)`; anything else unhandled is an error.
 */
export const defaultHandlers = [
  http.get(`${API}/frontend-configurations`, () => HttpResponse.json({ data: defaultAppConfiguration })),
];
