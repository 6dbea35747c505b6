import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import {
  buildSentryOptions,
  createAnalytics,
  createBeaconAnalytics,
  createBeforeSend,
  initTelemetry,
  noAnalytics,
  scrubBreadcrumb,
  scrubText,
  shouldDropEvent,
  type SentryLoader,
} from '@/services/telemetry';
import { server } from '../msw/server';

const JWT =
  'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwidXNlcm5hbWUiOiJhbGljZSJ9.c2lnbmF0dXJlLXBhcnQ';
const event = { event_id: 'e1', message: 'boom' };

describe('Sentry rules', () => {
  it('drops error events raised on /404 and keeps the others', () => {
    expect(shouldDropEvent('/404')).toBe(true);
    expect(shouldDropEvent('/')).toBe(false);
    expect(shouldDropEvent('/ai-audio/text-to-speech')).toBe(false);

    let pathname = '/404';
    const beforeSend = createBeforeSend(() => pathname);
    expect(beforeSend(event)).toBeNull();
    pathname = '/account';
    expect(beforeSend(event)).toBe(event);
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
    expect(captureException).toHaveBeenCalledWith(error, { contexts: { react: { componentStack: '\n    at Fragile' } } });
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
