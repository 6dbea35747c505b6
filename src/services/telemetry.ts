import type { Env } from '@/config/env';
import { SENTRY_RATES } from '@/config/limits';
import { ROUTES } from '@/config/routes';

/**
 * Error reporting (Sentry) and page-view analytics, SPEC §1 and §2.1.
 * The Sentry SDK is fetched with a dynamic import only when a DSN is set, so it never weighs on
 * the initial bundle. This module describes the few SDK shapes it uses instead of importing the
 * SDK's types, which keeps services free of any static React-package import; the loader below
 * still has TypeScript check the real SDK against these shapes.
 */

/** The part of a Sentry breadcrumb the scrubber reads and rewrites. */
export interface BreadcrumbLike {
  message?: string;
  data?: Record<string, unknown>;
}

/** Sentry's `QueryParams`: the raw query string, or its pairs. */
export type QueryStringLike = string | Record<string, string> | [string, string][];

/** The part of an event's request the scrubber reads and rewrites. */
export interface RequestLike {
  url?: string;
  query_string?: QueryStringLike;
  headers?: Record<string, string>;
}

/** The part of a span (inside a transaction) the scrubber rewrites. */
export interface SpanLike {
  description?: string;
  data?: Record<string, unknown>;
}

/** The part of a Sentry error or transaction event the rules below read and rewrite. */
export interface EventLike {
  tags?: Record<string, unknown>;
  request?: RequestLike;
  transaction?: string;
  spans?: SpanLike[];
}

export interface SentryOptions {
  dsn: string | undefined;
  environment: string;
  tracesSampleRate: number;
  replaysSessionSampleRate: number;
  replaysOnErrorSampleRate: number;
  beforeSend: <E extends EventLike>(event: E) => E | null;
  beforeSendTransaction: <E extends EventLike>(event: E) => E;
  beforeBreadcrumb: <B extends BreadcrumbLike>(breadcrumb: B) => B;
}

export interface SentryIntegration {
  name: string;
}

/** The slice of `@sentry/react` that telemetry calls. */
export interface SentrySdk {
  init(options: SentryOptions & { integrations: SentryIntegration[] }): unknown;
  captureException(
    error: unknown,
    captureContext?: { tags: Record<string, string>; contexts?: { react: { componentStack: string } } },
  ): unknown;
  browserTracingIntegration(): SentryIntegration;
  replayIntegration(): SentryIntegration;
}

export type TelemetryEnv = Pick<Env, 'sentryDsn' | 'sentryEnvironment' | 'analyticsEndpoint'>;

/** Page-view analytics behind an interface, so the provider can change without touching the app. */
export interface Analytics {
  pageView(path: string): void;
}

export interface Telemetry {
  analytics: Analytics;
  /** Report an error caught by an error boundary. */
  reportError(error: unknown, componentStack?: string): void;
}

/** Used when no analytics endpoint is configured: page views go nowhere, silently. */
export const noAnalytics: Analytics = { pageView: () => {} };

/** Telemetry when nothing is configured (SPEC: error reporting is off without a DSN). */
export const disabledTelemetry: Telemetry = { analytics: noAnalytics, reportError: () => {} };

export type BeaconTransport = (url: string, body: string) => void;

/** `sendBeacon` survives page unloads; `fetch` with keepalive is the fallback where it is missing. */
export const sendBeaconOrFetch: BeaconTransport = (url, body) => {
  const payload = new Blob([body], { type: 'application/json' });
  if (typeof navigator !== 'undefined' && typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(url, payload)) {
    return;
  }
  // Analytics must never break the app, so a failed beacon is dropped.
  fetch(url, { method: 'POST', body, keepalive: true, headers: { 'Content-Type': 'application/json' } }).catch(() => {});
};

/** Posts `{ path }` to the analytics endpoint for every page view. */
export function createBeaconAnalytics(endpoint: string, transport: BeaconTransport = sendBeaconOrFetch): Analytics {
  return {
    pageView: (path) => transport(endpoint, JSON.stringify({ path: scrubText(path) })),
  };
}

export function createAnalytics(env: Pick<TelemetryEnv, 'analyticsEndpoint'>, transport?: BeaconTransport): Analytics {
  return env.analyticsEndpoint ? createBeaconAnalytics(env.analyticsEndpoint, transport) : noAnalytics;
}

// ---------------------------------------------------------------------------------------------
// Sentry rules, kept pure so they are tested without the SDK.

/** SPEC §2.1: error reports raised on the not-found page are dropped. */
export function shouldDropEvent(pathname: string): boolean {
  return pathname === ROUTES.notFound;
}

/**
 * The tag carrying the path an error was reported on. The SDK loads lazily and sends later, so by
 * the time `beforeSend` runs the user may be on another page; the tag keeps the path of the moment.
 */
export const PATHNAME_TAG = 'kinora.pathname';

const FILTERED = '[Filtered]';
const JWT = /\beyJ[\w-]+\.[\w-]+\.[\w-]*/g;
const BEARER = /\bBearer\s+[\w.~+/=-]+/gi;
/** Query or fragment parameters that carry secrets: OAuth codes, state, redirect targets and every kind of token. */
const SECRET_PARAM_NAMES = ['access_token', 'id_token', 'refresh_token', 'token', 'code', 'state', 'redirect_uri', 'password'];
const SECRET_PARAM = new RegExp(`([?&#;]|\\b)(${SECRET_PARAM_NAMES.join('|')})=[^&#\\s"']*`, 'gi');
const SECRET_PARAM_NAME = new RegExp(`^(${SECRET_PARAM_NAMES.join('|')})$`, 'i');
/** Object keys whose value is a credential, wherever they appear in breadcrumb data. */
const SECRET_KEY = /^(authorization|x-api-key|access_?token|id_?token|refresh_?token|token|password|code)$/i;
/** Keys that are removed outright rather than masked: the Authorization header must not appear at all. */
const REMOVED_KEY = /^authorization$/i;

/** Masks JWTs, bearer tokens and secret URL parameters in a piece of text. */
export function scrubText(text: string): string {
  return text
    .replace(JWT, FILTERED)
    .replace(BEARER, `Bearer ${FILTERED}`)
    .replace(SECRET_PARAM, (_match, prefix: string, name: string) => `${prefix}${name}=${FILTERED}`);
}

function scrubValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return scrubText(value);
  // Breadcrumb data is shallow in practice; the depth cap guards against cyclic objects.
  if (depth > 5 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, depth + 1));
  const clean: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (REMOVED_KEY.test(key)) continue;
    clean[key] = SECRET_KEY.test(key) ? FILTERED : scrubValue(inner, depth + 1);
  }
  return clean;
}

/** SPEC/issue 2: no token or Authorization header in any breadcrumb (data, URLs or message). */
export function scrubBreadcrumb<B extends BreadcrumbLike>(breadcrumb: B): B {
  const clean: B = { ...breadcrumb };
  if (clean.message !== undefined) clean.message = scrubText(clean.message);
  if (clean.data !== undefined) clean.data = scrubValue(clean.data, 0) as Record<string, unknown>;
  return clean;
}

/** Masks secret parameters in a query string, whichever of Sentry's three shapes it has. */
export function scrubQueryString(query: QueryStringLike): QueryStringLike {
  if (typeof query === 'string') return scrubText(query);
  const scrubPair = (name: string, value: string): string => (SECRET_PARAM_NAME.test(name) ? FILTERED : scrubText(value));
  if (Array.isArray(query)) return query.map(([name, value]): [string, string] => [name, scrubPair(name, value)]);
  return Object.fromEntries(Object.entries(query).map(([name, value]) => [name, scrubPair(name, value)]));
}

function scrubRequest(request: RequestLike): RequestLike {
  const clean: RequestLike = { ...request };
  if (clean.url !== undefined) clean.url = scrubText(clean.url);
  if (clean.query_string !== undefined) clean.query_string = scrubQueryString(clean.query_string);
  if (clean.headers !== undefined) clean.headers = scrubValue(clean.headers, 0) as Record<string, string>;
  return clean;
}

/** No OAuth code, state, redirect target or token in an event's URL, query, transaction name or spans. */
export function scrubEvent<E extends EventLike>(event: E): E {
  const clean: E = { ...event };
  if (clean.request !== undefined) clean.request = scrubRequest(clean.request);
  if (clean.transaction !== undefined) clean.transaction = scrubText(clean.transaction);
  if (clean.spans !== undefined) {
    clean.spans = clean.spans.map((span) => {
      const cleanSpan = { ...span };
      if (cleanSpan.description !== undefined) cleanSpan.description = scrubText(cleanSpan.description);
      if (cleanSpan.data !== undefined) cleanSpan.data = scrubValue(cleanSpan.data, 0) as Record<string, unknown>;
      return cleanSpan;
    });
  }
  return clean;
}

/**
 * Drops errors reported on /404 and scrubs the rest. The path comes from the tag `reportError`
 * set when the error happened; errors the SDK captures by itself have none and fall back to the
 * current location.
 */
export function createBeforeSend(currentPathname: () => string) {
  return <E extends EventLike>(event: E): E | null => {
    const tagged = event.tags?.[PATHNAME_TAG];
    const pathname = typeof tagged === 'string' ? tagged : currentPathname();
    return shouldDropEvent(pathname) ? null : scrubEvent(event);
  };
}

/** Every Sentry option except the integrations, which need the SDK loaded. */
export function buildSentryOptions(
  env: Pick<TelemetryEnv, 'sentryDsn' | 'sentryEnvironment'>,
  currentPathname: () => string = () => window.location.pathname,
): SentryOptions {
  return {
    dsn: env.sentryDsn,
    environment: env.sentryEnvironment,
    tracesSampleRate: SENTRY_RATES.tracesSampleRate,
    replaysSessionSampleRate: SENTRY_RATES.replaysSessionSampleRate,
    replaysOnErrorSampleRate: SENTRY_RATES.replaysOnErrorSampleRate,
    beforeSend: createBeforeSend(currentPathname),
    beforeSendTransaction: scrubEvent,
    beforeBreadcrumb: scrubBreadcrumb,
  };
}

export type SentryLoader = () => Promise<SentrySdk>;
const loadSentrySdk: SentryLoader = () => import('@sentry/react');

/**
 * Starts Sentry (only with a DSN) and analytics. Returns at once; the SDK arrives in the
 * background and errors reported before then are sent once it is ready.
 */
export function initTelemetry(
  env: TelemetryEnv,
  {
    loadSentry = loadSentrySdk,
    transport,
    currentPathname = () => window.location.pathname,
  }: { loadSentry?: SentryLoader; transport?: BeaconTransport; currentPathname?: () => string } = {},
): Telemetry {
  const analytics = createAnalytics(env, transport);
  if (!env.sentryDsn) return { analytics, reportError: () => {} };

  const options = buildSentryOptions(env, currentPathname);
  const sentry = loadSentry()
    .then((sdk) => {
      sdk.init({ ...options, integrations: [sdk.browserTracingIntegration(), sdk.replayIntegration()] });
      return sdk;
    })
    // A blocked or failed SDK download must not take the app down with it.
    .catch(() => null);

  return {
    analytics,
    reportError: (error, componentStack) => {
      // Read now: the SDK may still be loading, and the user may have left the page by then.
      const tags = { [PATHNAME_TAG]: currentPathname() };
      void sentry.then((sdk) =>
        sdk?.captureException(error, componentStack ? { tags, contexts: { react: { componentStack } } } : { tags }),
      );
    },
  };
}
