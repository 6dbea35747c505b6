import { describe, expect, it } from 'vitest';
import {
  APP_CONFIG_CACHE_MS,
  ASYNC_MODE_DEFAULT,
  BREAKPOINTS,
  CREDITS_FETCH_RETRIES,
  DEVELOPER_GROUP,
  FINETUNE_LIMITS,
  GUEST_USERNAME,
  HELP_POPOVER,
  IDENTITY_CREDENTIALS_REFRESH_MS,
  IDENTITY_RETRY_BACKOFF_CAP_MS,
  IDENTITY_RETRY_STATUSES,
  MOTION_PRESET_DEFAULTS,
  PASSWORD_MIN_LENGTH,
  SENTRY_RATES,
  SOUND_EFFECT_DURATION_DEFAULT,
  STORAGE_KEYS,
  TOAST,
  UPLOAD_RULES,
} from '@/config/limits';

describe('upload rules of SPEC §5', () => {
  it('accepts the image types and extensions', () => {
    expect(UPLOAD_RULES.image.accept).toEqual({
      'image/jpeg': ['.png', '.jpg', '.svg', '.heif', '.webp', '.tif', '.tiff', '.bmp', '.avif', '.jfif'],
      'image/heic': [],
      'image/psd': ['.psd'],
    });
    expect(UPLOAD_RULES.video.accept).toEqual({ 'video/mp4': ['.mp4'] });
    expect(UPLOAD_RULES.audio.accept).toEqual({ 'audio/*': ['.mp3', '.wav', '.ogg'] });
  });

  it('limits sizes to 30 MB image, 100 MB video, 50 MB audio', () => {
    expect(UPLOAD_RULES.image.maxBytes).toBe(30_000_000);
    expect(UPLOAD_RULES.video.maxBytes).toBe(100_000_000);
    expect(UPLOAD_RULES.audio.maxBytes).toBe(50_000_000);
  });
});

describe('defaults and limits of SPEC §9', () => {
  it('holds the account, cache and storage values', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(6);
    expect(APP_CONFIG_CACHE_MS).toBe(3_600_000);
    expect(STORAGE_KEYS).toEqual({
      appConfiguration: 'app_configuration',
      appConfigExpiry: 'app_config_exp',
      couponCode: 'coupon_code',
      redirectUri: 'redirect_uri',
      redirectState: 'redirect_state',
      jobs: 'kinora_jobs',
      // Issue 17: the guest welcome and Verify Email come once per sign-in.
      overlaysSeen: 'kinora_overlays_seen',
      // Issue 22: each job's path through its machine, kept a week for the inspector.
      jobLogs: 'kinora_job_logs',
    });
    expect(CREDITS_FETCH_RETRIES).toBe(2);
    expect(GUEST_USERNAME).toBe('guest');
    expect(DEVELOPER_GROUP).toBe('Developer');
  });

  it('holds the identity timings', () => {
    expect(IDENTITY_CREDENTIALS_REFRESH_MS).toBe(3_000_000);
    expect(IDENTITY_RETRY_BACKOFF_CAP_MS).toBe(300_000);
    expect(IDENTITY_RETRY_STATUSES).toEqual([429, 500, 502, 503, 504]);
  });

  it('holds the interface values', () => {
    expect(TOAST).toEqual({ autoCloseMs: 5000, position: 'top-right', pauseResetOnHover: 'all' });
    expect(HELP_POPOVER).toEqual({
      topicCount: 41,
      widthPx: 500,
      viewportMarginPx: 15,
      heightWithVideoPx: 400,
      heightWithoutVideoPx: 200,
    });
    expect(BREAKPOINTS).toEqual({ mobile: 768, tablet: 1024 });
    expect(SENTRY_RATES).toEqual({ tracesSampleRate: 1, replaysSessionSampleRate: 0.1, replaysOnErrorSampleRate: 1 });
  });

  it('holds the generation defaults', () => {
    expect(SOUND_EFFECT_DURATION_DEFAULT).toBe(5);
    expect(ASYNC_MODE_DEFAULT).toBe(true);
    expect(MOTION_PRESET_DEFAULTS).toEqual({
      motion_type: 'Auto',
      motion_amount: 5,
      motion_length: 5,
      loop: 1,
      quantity: 1,
      prompt: '',
      model: '',
    });
  });

  it('holds the fine-tune image counts and training times', () => {
    expect(FINETUNE_LIMITS.FluxFinetune).toMatchObject({ minImages: 5, maxImages: 20, approxTrainingMinutes: 2 });
    expect(FINETUNE_LIMITS.FluxProFinetune).toMatchObject({ minImages: 1, maxImages: 10, approxTrainingMinutes: 20 });
    expect(FINETUNE_LIMITS.FluxKontextFinetune).toMatchObject({
      minImages: 1,
      maxImages: 20,
      imagePairs: true,
      requiresPrompt: true,
      approxTrainingMinutes: 30,
    });
  });
});
