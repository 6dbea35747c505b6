import { assign, fromPromise, setup } from 'xstate';
import { defaultAppConfiguration } from '@/config/app-config';
import type { AppConfiguration } from '@/config/app-config';
import { APP_CONFIG_CACHE_MS, APP_CONFIG_RETRY_MS, STORAGE_KEYS } from '@/config/limits';
import { getFrontendConfigurations } from '@/services/config';
import { readStored, writeStored } from '@/services/storage';

/** Where the configuration in use came from. */
export type AppConfigSource = 'storage' | 'network' | 'defaults';

export interface AppConfigContext {
  /** The configuration in use; null only before the first check has finished. */
  configuration: AppConfiguration | null;
  /** Epoch ms after which the configuration is stale; null for the built-in defaults. */
  expiresAt: number | null;
  source: AppConfigSource | null;
}

export type AppConfigEvent = { type: 'config.refresh' };

interface CachedConfiguration {
  configuration: AppConfiguration;
  expiresAt: number;
}

/**
 * Fresh means not expired, and not further ahead than one cache period: an expiry beyond that was
 * written under a skewed or since-corrected clock and would otherwise pin a stale configuration.
 */
const isFresh = (expiresAt: number | null, now: number): expiresAt is number =>
  expiresAt !== null && expiresAt > now && expiresAt - now <= APP_CONFIG_CACHE_MS;

/** The configuration another visit (or another tab) stored, when it is fresh. */
const readFreshStoredCache = (now: number): CachedConfiguration | null => {
  const expiresAt = readStored(STORAGE_KEYS.appConfigExpiry);
  if (!isFresh(expiresAt, now)) return null;
  const configuration = readStored(STORAGE_KEYS.appConfiguration);
  return configuration ? { configuration, expiresAt } : null;
};

/**
 * SPEC §4 "App configuration": taken from the in-memory or local cache while not expired,
 * otherwise fetched, stored and given an expiry one hour ahead; on a failed fetch the built-in
 * defaults are used with a warning only, and the fetch is tried again a minute later. While
 * ready, the configuration is checked again when it expires, so a long-open tab stays current.
 */
export const appConfigMachine = setup({
  types: {
    context: {} as AppConfigContext,
    events: {} as AppConfigEvent,
  },
  actors: {
    fetchConfiguration: fromPromise<AppConfiguration>(() => getFrontendConfigurations()),
  },
  guards: {
    hasFreshConfiguration: ({ context }) => context.configuration !== null && isFresh(context.expiresAt, Date.now()),
  },
  actions: {
    /**
     * When the in-memory copy is stale, local storage is read once here (a guard would read it a
     * second time), so the `always` branch below only looks at context.
     */
    restoreStoredCache: assign(({ context }) => {
      const now = Date.now();
      if (context.configuration !== null && isFresh(context.expiresAt, now)) return {};
      const cached = readFreshStoredCache(now);
      return cached ? { ...cached, source: 'storage' as const } : {};
    }),
    cacheConfiguration: assign((_, params: { configuration: AppConfiguration }) => ({
      configuration: params.configuration,
      expiresAt: Date.now() + APP_CONFIG_CACHE_MS,
      source: 'network' as const,
    })),
    persistConfiguration: ({ context }) => {
      if (context.configuration === null || context.expiresAt === null) return;
      // The expiry is written last, so a reader never pairs a new expiry with an old configuration.
      writeStored(STORAGE_KEYS.appConfiguration, context.configuration);
      writeStored(STORAGE_KEYS.appConfigExpiry, context.expiresAt);
    },
    useDefaults: assign(() => ({
      configuration: structuredClone(defaultAppConfiguration),
      expiresAt: null,
      source: 'defaults' as const,
    })),
    warn: (_, params: { error: unknown }) => {
      console.warn('Kinora: the app configuration could not be fetched; using the built-in defaults.', params.error);
    },
  },
  delays: {
    // Clamped to one cache period, so even an expiry set under a skewed clock is checked within the hour.
    untilExpiry: ({ context }) =>
      Math.min(APP_CONFIG_CACHE_MS, Math.max(0, (context.expiresAt ?? Date.now()) - Date.now())),
    retryAfterDefaults: APP_CONFIG_RETRY_MS,
  },
}).createMachine({
  id: 'appConfig',
  context: { configuration: null, expiresAt: null, source: null },
  initial: 'checkingCache',
  states: {
    checkingCache: {
      entry: 'restoreStoredCache',
      always: [{ guard: 'hasFreshConfiguration', target: 'ready' }, { target: 'fetching' }],
    },
    fetching: {
      invoke: {
        src: 'fetchConfiguration',
        onDone: {
          target: 'ready',
          actions: [
            { type: 'cacheConfiguration', params: ({ event }) => ({ configuration: event.output }) },
            'persistConfiguration',
          ],
        },
        onError: {
          target: 'usingDefaults',
          actions: [{ type: 'warn', params: ({ event }) => ({ error: event.error }) }, 'useDefaults'],
        },
      },
    },
    ready: {
      after: { untilExpiry: 'checkingCache' },
      on: { 'config.refresh': 'checkingCache' },
    },
    usingDefaults: {
      // Nothing else sends `config.refresh`, so the app retries by itself.
      after: { retryAfterDefaults: 'checkingCache' },
      on: { 'config.refresh': 'checkingCache' },
    },
  },
});
