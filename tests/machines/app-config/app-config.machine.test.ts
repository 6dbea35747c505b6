import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { assign, createActor, fromPromise, waitFor } from 'xstate';
import { defaultAppConfiguration } from '@/config/app-config';
import type { AppConfiguration } from '@/config/app-config';
import { appConfigMachine } from '@/machines/app-config/app-config.machine';
import {
  selectAppConfiguration,
  selectCameraMovements,
  selectIsAppConfigLoading,
  selectIsUsingDefaultAppConfig,
} from '@/machines/app-config/app-config.selectors';
import { ApiError } from '@/services/api-error';
import { buildAppConfiguration } from '../../fixtures/app-configuration';

const NOW = Date.UTC(2025, 0, 15, 12, 0, 0);
const HOUR = 3_600_000;
const MINUTE = 60_000;

/** The machine with its fetch and warning replaced; `fetch` counts and answers each fetch. */
function startAppConfig(answer: () => Promise<AppConfiguration>) {
  const fetch = vi.fn(answer);
  const warn = vi.fn();
  const actor = createActor(
    appConfigMachine.provide({
      actors: { fetchConfiguration: fromPromise(() => fetch()) },
      actions: { warn: (_, params) => warn(params.error) },
    }),
  );
  actor.start();
  return { actor, fetch, warn };
}

const storeCache = (configuration: AppConfiguration, expiresAt: number) => {
  localStorage.setItem('app_configuration', JSON.stringify(configuration));
  localStorage.setItem('app_config_exp', JSON.stringify(expiresAt));
};

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('appConfig machine (SPEC §4 "App configuration")', () => {
  it('fetches without a cache, then stores the configuration with an expiry one hour ahead', async () => {
    const fetched = buildAppConfiguration();
    const { actor, fetch, warn } = startAppConfig(async () => fetched);

    expect(actor.getSnapshot().value).toBe('fetching');
    expect(selectIsAppConfigLoading(actor.getSnapshot())).toBe(true);
    const snapshot = await waitFor(actor, (s) => s.matches('ready'));

    expect(fetch).toHaveBeenCalledTimes(1);
    expect(selectAppConfiguration(snapshot)).toEqual(fetched);
    expect(snapshot.context).toMatchObject({ expiresAt: NOW + HOUR, source: 'network' });
    expect(JSON.parse(localStorage.getItem('app_configuration')!)).toEqual(fetched);
    expect(Number(localStorage.getItem('app_config_exp'))).toBe(NOW + 3_600_000);
    expect(selectIsAppConfigLoading(snapshot)).toBe(false);
    expect(warn).not.toHaveBeenCalled();
    actor.stop();
  });

  it('uses a fresh configuration from local storage without fetching', () => {
    const stored = buildAppConfiguration();
    storeCache(stored, NOW + 10 * MINUTE);

    const { actor, fetch } = startAppConfig(async () => defaultAppConfiguration);

    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toBe('ready');
    expect(snapshot.context).toMatchObject({ configuration: stored, expiresAt: NOW + 10 * MINUTE, source: 'storage' });
    expect(selectCameraMovements(snapshot)).toEqual(stored.camera_movements);
    expect(fetch).not.toHaveBeenCalled();
    actor.stop();
  });

  it('answers a refresh from memory while the configuration has not expired', async () => {
    const fetched = buildAppConfiguration();
    const { actor, fetch } = startAppConfig(async () => fetched);
    await waitFor(actor, (s) => s.matches('ready'));
    // With local storage gone, only the in-memory copy can answer.
    localStorage.clear();

    vi.advanceTimersByTime(59 * MINUTE);
    actor.send({ type: 'config.refresh' });

    expect(actor.getSnapshot().value).toBe('ready');
    expect(selectAppConfiguration(actor.getSnapshot())).toEqual(fetched);
    expect(actor.getSnapshot().context.expiresAt).toBe(NOW + HOUR);
    expect(fetch).toHaveBeenCalledTimes(1);
    actor.stop();
  });

  it('fetches again when the stored configuration has expired', async () => {
    storeCache(buildAppConfiguration({ camera_movements: [] }), NOW - 1);
    const fresh = buildAppConfiguration();

    const { actor, fetch } = startAppConfig(async () => fresh);
    const snapshot = await waitFor(actor, (s) => s.matches('ready'));

    expect(fetch).toHaveBeenCalledTimes(1);
    expect(selectAppConfiguration(snapshot)).toEqual(fresh);
    expect(JSON.parse(localStorage.getItem('app_configuration')!)).toEqual(fresh);
    expect(Number(localStorage.getItem('app_config_exp'))).toBe(NOW + HOUR);
    actor.stop();
  });

  it('fetches when the stored configuration is corrupt', async () => {
    localStorage.setItem('app_configuration', '{"tier_information": [');
    localStorage.setItem('app_config_exp', JSON.stringify(NOW + HOUR));

    const { actor, fetch } = startAppConfig(async () => buildAppConfiguration());
    await waitFor(actor, (s) => s.matches('ready'));

    expect(fetch).toHaveBeenCalledTimes(1);
    actor.stop();
  });

  it('refetches on refresh once the in-memory configuration has expired', async () => {
    const first = buildAppConfiguration();
    const second = buildAppConfiguration({ camera_movements: [] });
    const answers = [first, second];
    const { actor, fetch } = startAppConfig(async () => answers.shift()!);
    await waitFor(actor, (s) => s.matches('ready'));

    vi.setSystemTime(NOW + HOUR + 1);
    actor.send({ type: 'config.refresh' });
    const snapshot = await waitFor(actor, (s) => s.matches('ready') && s.context.configuration === second);

    expect(fetch).toHaveBeenCalledTimes(2);
    expect(snapshot.context.expiresAt).toBe(NOW + HOUR + 1 + HOUR);
    actor.stop();
  });

  it('checks again by itself when the hour is up', async () => {
    const { actor, fetch } = startAppConfig(async () => buildAppConfiguration());
    await waitFor(actor, (s) => s.matches('ready'));

    vi.advanceTimersByTime(HOUR - 1);
    expect(fetch).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(actor.getSnapshot().value).toBe('fetching');
    await waitFor(actor, (s) => s.matches('ready'));

    expect(fetch).toHaveBeenCalledTimes(2);
    expect(Number(localStorage.getItem('app_config_exp'))).toBe(NOW + 2 * HOUR);
    actor.stop();
  });

  it('uses the built-in defaults with a warning only when the fetch fails', async () => {
    const failure = new ApiError('api error', { kind: 'http', status: 500 });
    const { actor, warn } = startAppConfig(async () => {
      throw failure;
    });

    const snapshot = await waitFor(actor, (s) => s.matches('usingDefaults'));

    expect(selectAppConfiguration(snapshot)).toEqual(defaultAppConfiguration);
    expect(selectIsUsingDefaultAppConfig(snapshot)).toBe(true);
    expect(snapshot.context).toMatchObject({ expiresAt: null, source: 'defaults' });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith(failure);
    expect(localStorage.getItem('app_configuration')).toBeNull();
    expect(localStorage.getItem('app_config_exp')).toBeNull();
    actor.stop();
  });

  it('tries the fetch again on refresh after falling back to the defaults', async () => {
    const fetched = buildAppConfiguration();
    let fail = true;
    const { actor, fetch } = startAppConfig(async () => {
      if (fail) throw new ApiError('api error', { kind: 'network' });
      return fetched;
    });
    await waitFor(actor, (s) => s.matches('usingDefaults'));

    fail = false;
    actor.send({ type: 'config.refresh' });
    const snapshot = await waitFor(actor, (s) => s.matches('ready'));

    expect(fetch).toHaveBeenCalledTimes(2);
    expect(selectAppConfiguration(snapshot)).toEqual(fetched);
    expect(selectIsUsingDefaultAppConfig(snapshot)).toBe(false);
    actor.stop();
  });

  it('warns on the console by default', async () => {
    const consoleWarn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const failure = new Error('offline');
    const actor = createActor(
      appConfigMachine.provide({
        actors: {
          fetchConfiguration: fromPromise<AppConfiguration>(async () => {
            throw failure;
          }),
        },
      }),
    ).start();

    await waitFor(actor, (s) => s.matches('usingDefaults'));

    expect(consoleWarn).toHaveBeenCalledWith(expect.stringContaining('built-in defaults'), failure);
    consoleWarn.mockRestore();
    actor.stop();
  });

  it('treats a stored expiry more than an hour ahead as stale (clock skew) and fetches', async () => {
    storeCache(buildAppConfiguration({ camera_movements: [] }), NOW + HOUR + MINUTE);
    const fresh = buildAppConfiguration();

    const { actor, fetch } = startAppConfig(async () => fresh);
    expect(actor.getSnapshot().value).toBe('fetching');
    const snapshot = await waitFor(actor, (s) => s.matches('ready'));

    expect(fetch).toHaveBeenCalledTimes(1);
    expect(snapshot.context).toMatchObject({ configuration: fresh, expiresAt: NOW + HOUR, source: 'network' });
    expect(Number(localStorage.getItem('app_config_exp'))).toBe(NOW + HOUR);
    actor.stop();
  });

  it('still accepts a stored expiry exactly one hour ahead', () => {
    const stored = buildAppConfiguration();
    storeCache(stored, NOW + HOUR);
    const { actor, fetch } = startAppConfig(async () => defaultAppConfiguration);
    expect(actor.getSnapshot().context).toMatchObject({ configuration: stored, source: 'storage' });
    expect(fetch).not.toHaveBeenCalled();
    actor.stop();
  });

  it('checks again within the hour even when its expiry lies further ahead', async () => {
    const fetch = vi.fn(async () => buildAppConfiguration());
    const actor = createActor(
      appConfigMachine.provide({
        actors: { fetchConfiguration: fromPromise(() => fetch()) },
        // An expiry ten hours ahead, as a skewed clock could produce.
        actions: {
          cacheConfiguration: assign((_, params) => ({
            configuration: params.configuration,
            expiresAt: Date.now() + 10 * HOUR,
            source: 'network' as const,
          })),
        },
      }),
    ).start();
    await waitFor(actor, (s) => s.matches('ready'));

    vi.advanceTimersByTime(HOUR - 1);
    expect(fetch).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    // The ten-hour expiry is more than one period ahead, so it counts as stale and is fetched again.
    expect(actor.getSnapshot().value).toBe('fetching');
    await waitFor(actor, (s) => s.matches('ready'));
    expect(fetch).toHaveBeenCalledTimes(2);
    actor.stop();
  });

  it('reads each stored item once per check', () => {
    storeCache(buildAppConfiguration(), NOW + 10 * MINUTE);
    const getItem = vi.spyOn(Storage.prototype, 'getItem');

    const { actor } = startAppConfig(async () => defaultAppConfiguration);

    expect(actor.getSnapshot().value).toBe('ready');
    const reads = getItem.mock.calls.map(([key]) => key);
    expect(reads.filter((key) => key === 'app_configuration')).toHaveLength(1);
    expect(reads.filter((key) => key === 'app_config_exp')).toHaveLength(1);
    actor.stop();
  });

  it('does not read local storage while the in-memory configuration is fresh', async () => {
    const { actor } = startAppConfig(async () => buildAppConfiguration());
    await waitFor(actor, (s) => s.matches('ready'));
    const getItem = vi.spyOn(Storage.prototype, 'getItem');

    actor.send({ type: 'config.refresh' });

    expect(actor.getSnapshot().value).toBe('ready');
    expect(getItem).not.toHaveBeenCalled();
    actor.stop();
  });

  it('tries the fetch again by itself a minute after falling back to the defaults', async () => {
    const fetched = buildAppConfiguration();
    let fail = true;
    const { actor, fetch, warn } = startAppConfig(async () => {
      if (fail) throw new ApiError('api error', { kind: 'network' });
      return fetched;
    });
    await waitFor(actor, (s) => s.matches('usingDefaults'));

    // Still down a minute later: back to the defaults, with one more warning.
    vi.advanceTimersByTime(MINUTE - 1);
    expect(fetch).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    await waitFor(actor, (s) => s.matches('usingDefaults') && fetch.mock.calls.length === 2);
    expect(warn).toHaveBeenCalledTimes(2);

    fail = false;
    vi.advanceTimersByTime(MINUTE);
    const snapshot = await waitFor(actor, (s) => s.matches('ready'));

    expect(fetch).toHaveBeenCalledTimes(3);
    expect(snapshot.context).toMatchObject({ configuration: fetched, source: 'network', expiresAt: NOW + 2 * MINUTE + HOUR });
    actor.stop();
  });

  it('stands in the defaults for screens until the first answer arrives', () => {
    const { actor } = startAppConfig(() => new Promise<AppConfiguration>(() => {}));
    expect(selectAppConfiguration(actor.getSnapshot())).toEqual(defaultAppConfiguration);
    expect(selectIsUsingDefaultAppConfig(actor.getSnapshot())).toBe(false);
    actor.stop();
  });
});
