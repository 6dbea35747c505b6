import { http, HttpResponse } from 'msw';
import { defaultAppConfiguration } from '@/config/app-config';
import { assetHandlers, resetFakeAssets } from './assets';
import { cognitoHandlers } from './cognito';
import { creditsHandlers, resetFakeCredits } from './credits';
import { contentHandlers } from './content';
import { mediaHandlers, resetFakeMedia } from './media';
import { customerHandlers } from './customers';
import { answer, API, callOf, isSignedIn } from './data';

export { API } from './data';

/**
 * A small stand-in for the API the session needs (credits, coupons, handles, account deletion),
 * answering in SPEC §7's `{ data }` envelope, shaped per test through `fakeApi` and reset after
 * each test by `resetFakeApi()`.
 */
interface FakeApiState {
  /** The balance `GET credits/get` answers with. */
  credits: number;
  /** Code → credits granted; a redeemed code is removed. */
  coupons: Map<string, number>;
  /** Handles `users/available-username` reports as taken. */
  takenHandles: Set<string>;
  /** Paths requested, e.g. "GET credits/get", in order. */
  calls: string[];
}

export const fakeApi: FakeApiState = {
  credits: 100,
  coupons: new Map(),
  takenHandles: new Set(),
  calls: [],
};

export function resetFakeApi(): void {
  fakeApi.credits = 100;
  fakeApi.coupons = new Map();
  fakeApi.takenHandles = new Set();
  fakeApi.calls = [];
  resetFakeMedia();
  resetFakeCredits();
  resetFakeAssets();
}

const record = (request: Request): void => {
  fakeApi.calls.push(callOf(request));
};
const unauthorized = () => HttpResponse.json({ message: 'Unauthorized' }, { status: 401 });

/**
 * Calls every rendered app makes on its own: the appConfig actor fetches the configuration at
 * start, Amplify talks to the fake user pool, and a signed-in session reads credits. Tests
 * override them with `server.use(...)`; anything else unhandled is an error.
 */
export const defaultHandlers = [
  http.get(`${API}/frontend-configurations`, () => answer(defaultAppConfiguration)),
  ...cognitoHandlers,
  // Credits and payments (issue 7): tests/msw/credits.ts; its credits/get adds card and auto-refill.
  ...creditsHandlers,
  http.get(`${API}/credits/get`, ({ request }) => {
    record(request);
    return isSignedIn(request) ? answer({ credit: fakeApi.credits }) : unauthorized();
  }),
  http.get(`${API}/coupon/:code`, ({ request, params }) => {
    record(request);
    if (!isSignedIn(request)) return unauthorized();
    const code = String(params.code);
    const credits = fakeApi.coupons.get(code);
    if (credits === undefined) return HttpResponse.json({ message: 'Coupon not found' }, { status: 404 });
    fakeApi.coupons.delete(code);
    fakeApi.credits += credits;
    return answer({ code, credits });
  }),
  http.post(`${API}/users/available-username`, async ({ request }) => {
    record(request);
    if (!isSignedIn(request)) return unauthorized();
    const { preferred_username: handle } = (await request.json()) as { preferred_username: string };
    return answer({ preferred_username: handle, available: !fakeApi.takenHandles.has(handle.toLowerCase()) });
  }),
  http.delete(`${API}/users`, ({ request }) => {
    record(request);
    return isSignedIn(request) ? answer({ deleted: true }) : unauthorized();
  }),
  // Jobs, uploads and the prompt helper (issue 4): tests/msw/media.ts.
  ...mediaHandlers,
  // Assets (issue 7): tests/msw/assets.ts.
  ...assetHandlers,
  // Organisations (issue 7): tests/msw/customers.ts.
  ...customerHandlers,
  // Profiles, Latest, sharing and the promo videos (issue 7): tests/msw/content.ts.
  ...contentHandlers,
];
