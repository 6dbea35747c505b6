import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@/config/messages';
import { ApiError, errorMessageOf, isNetworkFailure, isRetryable, isRetryableSubmit, statusOf } from '@/services/api-error';

describe('errorMessageOf', () => {
  it('reads the error’s message (the server detail), else the fallback', () => {
    expect(errorMessageOf(new ApiError('No upload file', { kind: 'http', status: 400 }))).toBe('No upload file');
    expect(errorMessageOf(new Error('  '))).toBe(MESSAGES.apiError);
    expect(errorMessageOf('boom')).toBe(MESSAGES.apiError);
    expect(errorMessageOf(undefined, 'Other')).toBe('Other');
  });
});

describe('retry rules shared by every machine', () => {
  const http = (status: number) => new ApiError('x', { kind: 'http', status });
  const network = new ApiError('offline', { kind: 'network' });

  it('reads the status of an answered call and nothing else', () => {
    expect(statusOf(http(412))).toBe(412);
    expect(statusOf(network)).toBeUndefined();
    expect(statusOf(new Error('plain'))).toBeUndefined();
  });

  it('sends a paid submit again only without an answer or on 409, 502, 503, 504', () => {
    expect(isNetworkFailure(network)).toBe(true);
    expect(isRetryableSubmit(network)).toBe(true);
    for (const status of [409, 502, 503, 504]) expect(isRetryableSubmit(http(status))).toBe(true);
    for (const status of [400, 402, 404, 412, 500]) expect(isRetryableSubmit(http(status))).toBe(false);
  });

  it('sends any other call again on any 5xx too, never on a 4xx outside the list', () => {
    expect(isRetryable(http(500))).toBe(true);
    expect(isRetryable(http(409))).toBe(true);
    expect(isRetryable(http(402))).toBe(false);
    expect(isRetryable(new ApiError('bad', { kind: 'parse' }))).toBe(false);
  });
});
