import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultAppConfiguration } from '@/config/app-config';
import { STORAGE_KEYS } from '@/config/limits';
import { readStored, removeStored, writeStored } from '@/services/storage';
import { buildAppConfiguration } from '../fixtures/app-configuration';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('local storage keys', () => {
  it('round-trips each key under its SPEC §9 name as JSON', () => {
    const configuration = buildAppConfiguration();
    writeStored(STORAGE_KEYS.appConfiguration, configuration);
    writeStored(STORAGE_KEYS.appConfigExpiry, 1_700_003_600_000);
    writeStored(STORAGE_KEYS.couponCode, 'SPRING50');
    writeStored(STORAGE_KEYS.redirectUri, 'https://partner.example/callback');
    writeStored(STORAGE_KEYS.redirectState, 'xyz');

    expect(JSON.parse(localStorage.getItem('app_configuration')!)).toEqual(configuration);
    expect(localStorage.getItem('app_config_exp')).toBe('1700003600000');
    expect(localStorage.getItem('coupon_code')).toBe('"SPRING50"');
    expect(readStored(STORAGE_KEYS.appConfiguration)).toEqual(configuration);
    expect(readStored(STORAGE_KEYS.appConfigExpiry)).toBe(1_700_003_600_000);
    expect(readStored(STORAGE_KEYS.couponCode)).toBe('SPRING50');
    expect(readStored(STORAGE_KEYS.redirectUri)).toBe('https://partner.example/callback');
    expect(readStored(STORAGE_KEYS.redirectState)).toBe('xyz');
  });

  it('reads absent keys as null and removes keys', () => {
    expect(readStored(STORAGE_KEYS.couponCode)).toBeNull();
    writeStored(STORAGE_KEYS.couponCode, 'SPRING50');
    removeStored(STORAGE_KEYS.couponCode);
    expect(localStorage.getItem('coupon_code')).toBeNull();
  });

  it('reads a plain string that was not stored as JSON', () => {
    localStorage.setItem('coupon_code', 'SPRING50');
    localStorage.setItem('redirect_state', '12345');
    expect(readStored(STORAGE_KEYS.couponCode)).toBe('SPRING50');
    expect(readStored(STORAGE_KEYS.redirectState)).toBe('12345');
  });

  it('reads corrupt or wrongly shaped values as null instead of throwing', () => {
    localStorage.setItem('app_configuration', '{"tier_information": [');
    localStorage.setItem('app_config_exp', '"tomorrow"');
    expect(readStored(STORAGE_KEYS.appConfiguration)).toBeNull();
    expect(readStored(STORAGE_KEYS.appConfigExpiry)).toBeNull();

    localStorage.setItem('app_configuration', JSON.stringify({ camera_movements: 'zoom' }));
    expect(readStored(STORAGE_KEYS.appConfiguration)).toBeNull();
  });

  it('fills parts missing from a stored configuration with the defaults', () => {
    localStorage.setItem('app_configuration', JSON.stringify({ camera_movements: [] }));
    expect(readStored(STORAGE_KEYS.appConfiguration)).toEqual({ ...defaultAppConfiguration, camera_movements: [] });
  });

  it('reports a refused write and survives a storage that throws', () => {
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('Quota exceeded', 'QuotaExceededError');
    });
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('Denied', 'SecurityError');
    });

    expect(writeStored(STORAGE_KEYS.couponCode, 'SPRING50')).toBe(false);
    expect(readStored(STORAGE_KEYS.couponCode)).toBeNull();
  });
});
