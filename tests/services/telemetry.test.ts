import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import {
  buildSentryOptions,
  createAnalytics,
  createBeaconAnalytics,
  createBeforeSend,
  initTelemetry,
  noAnalytics,
  PATHNAME_TAG,
  scrubBreadcrumb,
  scrubEvent,
  scrubQueryString,
  scrubText,
  shouldDropEvent,
  type EventLike,
  type SentryLoader,
} from '@/services/telemetry';
import { server } from '../msw/server';

const JWT =
  'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwidXNlcm5hbWUiOiJhbGljZSJ9.c2lnbmF0dXJlLXBhcnQ';
const event: EventLike & { event_id: string; message: string } = { event_id: 'e1', message: 'boom' };

describe('Sentry rules', () => {
  it('drops error events raised on /404 and keeps the others', () => {
    expect(shouldDropEvent('/404')).toBe(true);
    expect(shouldDropEvent('/')).toBe(false);
    expect(shouldDropEvent('/ai-audio/text-to-speech')).toBe(false);

    let pathname = '/404';
    const beforeSend = createBeforeSend(() => pathname);
    expect(beforeSend(event)).toBeNull();
    pathname = '/account';
    expect(beforeSend(event)).toEqual(event);
  });

  it('decides the /404 drop from the path tagged when the error was reported, not from where the user is now', () => {
    let pathname = '/account';
    const beforeSend = createBeforeSend(() => pathname);
    const reportedOnNotFound = { ...event, tags: { [PATHNAME_TAG]: '/404' } };
    const reportedElsewhere = { ...event, tags: { [PATHNAME_TAG]: '/account' } };

    expect(beforeSend(reportedOnNotFound)).toBeNull();
    pathname = '/404';
    expect(beforeSend(reportedElsewhere)).toEqual(reportedElsewhere);
    // An error the SDK caught by itself has no tag: the current location decides.
    expect(beforeSend(event)).toBeNull();
  });

  it('scrubs OAuth codes, state, redirect targets and tokens from the request of an error event', () => {
    const beforeSend = createBeforeSend(() => '/authentication');
    const sent = beforeSend({
      ...event,
      request: {
        url: `http://localhost/authentication?code=abc123&state=xyz&redirect_uri=%2Faccount#id_token=${JWT}&access_token=opaque`,
        query_string: 'code=abc123&state=xyz&redirect_uri=%2Faccount&tab=1',
        headers: { Authorization: JWT, 'User-Agent': 'test' },
      },
    });
    expect(sent?.request).toEqual({
      url: 'http://localhost/authentication?code=[Filtered]&state=[Filtered]&redirect_uri=[Filtered]#id_token=[Filtered]&access_token=[Filtered]',
      query_string: 'code=[Filtered]&state=[Filtered]&redirect_uri=[Filtered]&tab=1',
      headers: { 'User-Agent': 'test' },
    });
    expect(JSON.stringify(sent)).not.toMatch(/abc123|xyz|opaque|eyJ|%2Faccount/);
  });

  it('scrubs every shape of query string Sentry uses', () => {
    expect(scrubQueryString({ code: 'abc', State: 'xyz', page: '2', note: JWT })).toEqual({
      code: '[Filtered]',
      State: '[Filtered]',
      page: '2',
      note: '[Filtered]',
    });
    expect(
      scrubQueryString([
        ['redirect_uri', '/account'],
        ['access_token', 'opaque'],
        ['id_token', JWT],
        ['tab', 'credits'],
      ]),
    ).toEqual([
      ['redirect_uri', '[Filtered]'],
      ['access_token', '[Filtered]'],
      ['id_token', '[Filtered]'],
      ['tab', 'credits'],
    ]);
  });

  it('scrubs transaction names, request URLs and span descriptions before a transaction is sent', () => {
    const options = buildSentryOptions({ sentryDsn: 'https://key@sentry.example/1', sentryEnvironment: 'test' }, () => '/404');
    const transaction = {
      transaction: '/authentication?code=abc123&state=xyz',
      request: { url: `http://localhost/#access_token=${JWT}`, query_string: [['code', 'abc123']] as [string, string][] },
      spans: [{ description: `GET http://localhost/api/users/me?id_token=${JWT}`, data: { url: '/cb?redirect_uri=/x' } }],
    };
    const sent = options.beforeSendTransaction(transaction);
    // Transactions are not errors: they are scrubbed but never dropped, even on /404.
    expect(sent).toEqual({
      transaction: '/authentication?code=[Filtered]&state=[Filtered]',
      request: { url: 'http://localhost/#access_token=[Filtered]', query_string: [['code', '[Filtered]']] },
      spans: [{ description: 'GET http://localhost/api/users/me?id_token=[Filtered]', data: { url: '/cb?redirect_uri=[Filtered]' } }],
    });
    expect(transaction.transaction).toBe('/authentication?code=abc123&state=xyz');
    expect(scrubEvent({ transaction: '/ai-image/text-to-image' })).toEqual({ transaction: '/ai-image/text-to-image' });
  });

  it('removes the Authorization header from breadcrumb data, whatever its case or nesting', () => {
    const crumb = scrubBreadcrumb({
      category: 'xhr',
      data: {
        method: 'GET',
        url: 'http://localhost/api/credits/get',
        Authorization: JWT,
        request_headers: { authorization: 'raw-token', 'X-CLIENT-TYPE': 'web-frontend' },
        status_code: 200,
      },
    });
    expect(crumb.data).toEqual({
      method: 'GET',
      url: 'http://localhost/api/credits/get',
      request_headers: { 'X-CLIENT-TYPE': 'web-frontend' },
      status_code: 200,
    });
    expect(JSON.stringify(crumb)).not.toMatch(/authorization|raw-token|eyJ/i);
  });

  it('masks token-looking values: JWTs, bearer tokens, access_token, id_token and code= in URLs', () => {
    const crumb = scrubBreadcrumb({
      category: 'navigation',
      message: `token found: ${JWT}`,
      data: {
        from: '/authentication?code=abc123&state=xyz',
        to: `/#access_token=${JWT}&id_token=${JWT}&token_type=Bearer`,
        header: 'Bearer abc.def.ghi',
        accessToken: 'opaque-secret',
        nested: [{ refresh_token: 'r-secret' }],
      },
    });
    const text = JSON.stringify(crumb);
    for (const secret of ['abc123', 'xyz', 'eyJ', 'abc.def.ghi', 'opaque-secret', 'r-secret']) {
      expect(text).not.toContain(secret);
    }
    expect(crumb.message).toBe('token found: [Filtered]');
    expect(crumb.data?.from).toBe('/authentication?code=[Filtered]&state=[Filtered]');
    expect(crumb.data?.to).toBe('/#access_token=[Filtered]&id_token=[Filtered]&token_type=Bearer');
    expect(crumb.data?.header).toBe('Bearer [Filtered]');
  });

  it('leaves harmless text alone', () => {
    expect(scrubText('/ai-video/lip-sync?coupon_code=WELCOME')).toBe('/ai-video/lip-sync?coupon_code=WELCOME');
    const crumb = { category: 'ui.click', message: 'button.mantine-Button' };
    expect(scrubBreadcrumb(crumb)).toEqual(crumb);
  });

  it('builds the init options from env with the SPEC §9 sample rates', () => {
    const options = buildSentryOptions(
      { sentryDsn: 'https://key@sentry.example/1', sentryEnvironment: 'staging' },
      () => '/404',
    );
    expect(options).toMatchObject({
      dsn: 'https://key@sentry.example/1',
      environment: 'staging',
      tracesSampleRate: 1.0,
      replaysSessionSampleRate: 0.1,
      replaysOnErrorSampleRate: 1.0,
    });
    expect(options.beforeSend(event)).toBeNull();
    expect(options.beforeBreadcrumb({ data: { Authorization: 'x' } })).toEqual({ data: {} });
  });
});

describe('initTelemetry', () => {
  const env = { sentryDsn: undefined, sentryEnvironment: 'production', analyticsEndpoint: undefined };

  it('does not load Sentry without a DSN', () => {
    const loadSentry = vi.fn<SentryLoader>();
    const telemetry = initTelemetry(env, { loadSentry });
    telemetry.reportError(new Error('ignored'));
    expect(loadSentry).not.toHaveBeenCalled();
    expect(telemetry.analytics).toBe(noAnalytics);
  });

  it('loads Sentry lazily with a DSN, initialises it once and reports errors through it', async () => {
    const init = vi.fn();
    const captureException = vi.fn();
    const sdk = {
      init,
      captureException,
      browserTracingIntegration: () => ({ name: 'BrowserTracing' }),
      replayIntegration: () => ({ name: 'Replay' }),
    };
    const loadSentry = vi.fn<SentryLoader>(async () => sdk);
    const telemetry = initTelemetry({ ...env, sentryDsn: 'https://key@sentry.example/1' }, { loadSentry });

    const error = new Error('boom');
    telemetry.reportError(error, '\n    at Fragile');
    await vi.waitFor(() => expect(captureException).toHaveBeenCalledTimes(1));

    expect(loadSentry).toHaveBeenCalledTimes(1);
    expect(init).toHaveBeenCalledTimes(1);
    expect(init.mock.calls[0]?.[0]).toMatchObject({
      dsn: 'https://key@sentry.example/1',
      tracesSampleRate: 1.0,
      replaysSessionSampleRate: 0.1,
      replaysOnErrorSampleRate: 1.0,
      integrations: [{ name: 'BrowserTracing' }, { name: 'Replay' }],
    });
    expect(captureException).toHaveBeenCalledWith(error, {
      tags: { [PATHNAME_TAG]: '/' },
      contexts: { react: { componentStack: '\n    at Fragile' } },
    });
  });

  it('tags each error with the path it was reported on, so one raised on /404 stays dropped after the user leaves', async () => {
    let resolveSdk: (sdk: Awaited<ReturnType<SentryLoader>>) => void = () => {};
    const captureException = vi.fn();
    const init = vi.fn();
    const loadSentry: SentryLoader = () => new Promise((resolve) => (resolveSdk = resolve));
    let pathname = '/404';
    const telemetry = initTelemetry(
      { ...env, sentryDsn: 'https://key@sentry.example/1' },
      { loadSentry, currentPathname: () => pathname },
    );

    telemetry.reportError(new Error('on the not-found page'));
    // The SDK arrives only after the user has moved on.
    pathname = '/account';
    resolveSdk({
      init,
      captureException,
      browserTracingIntegration: () => ({ name: 'BrowserTracing' }),
      replayIntegration: () => ({ name: 'Replay' }),
    });
    await vi.waitFor(() => expect(captureException).toHaveBeenCalledTimes(1));

    const captureContext = captureException.mock.calls[0]?.[1] as { tags: Record<string, string> };
    expect(captureContext).toEqual({ tags: { [PATHNAME_TAG]: '/404' } });
    const { beforeSend } = init.mock.calls[0]?.[0] as { beforeSend: (event: EventLike) => EventLike | null };
    expect(beforeSend({ tags: captureContext.tags })).toBeNull();
    expect(beforeSend({ tags: { [PATHNAME_TAG]: '/account' } })).not.toBeNull();
  });

  it('keeps the app running when the Sentry download fails', async () => {
    const loadSentry: SentryLoader = () => Promise.reject(new Error('blocked by the browser'));
    const telemetry = initTelemetry({ ...env, sentryDsn: 'https://key@sentry.example/1' }, { loadSentry });
    expect(() => telemetry.reportError(new Error('boom'))).not.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
});

describe('analytics', () => {
  it('is silent without an endpoint', () => {
    expect(createAnalytics({ analyticsEndpoint: undefined })).toBe(noAnalytics);
    expect(() => noAnalytics.pageView('/')).not.toThrow();
  });

  it('sends one beacon per page view with the path, tokens masked', () => {
    const sent: { url: string; body: string }[] = [];
    const analytics = createBeaconAnalytics('https://stats.example/pv', (url, body) => sent.push({ url, body }));
    analytics.pageView('/ai-image/text-to-image');
    analytics.pageView(`/authentication?code=${JWT}`);
    expect(sent).toEqual([
      { url: 'https://stats.example/pv', body: JSON.stringify({ path: '/ai-image/text-to-image' }) },
      { url: 'https://stats.example/pv', body: JSON.stringify({ path: '/authentication?code=[Filtered]' }) },
    ]);
  });

  it('posts the page view over HTTP when the browser has no sendBeacon', async () => {
    const received: unknown[] = [];
    server.use(
      http.post('http://localhost/analytics/pageview', async ({ request }) => {
        received.push(await request.json());
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const analytics = createAnalytics({ analyticsEndpoint: 'http://localhost/analytics/pageview' });
    analytics.pageView('/@alice');
    await vi.waitFor(() => expect(received).toEqual([{ path: '/@alice' }]));
  });
});
