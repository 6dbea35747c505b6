import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@/config/messages';
import { ApiError, errorMessageOf } from '@/services/api-error';

describe('errorMessageOf', () => {
  it('reads the error’s message (the server detail), else the fallback', () => {
    expect(errorMessageOf(new ApiError('No upload file', { kind: 'http', status: 400 }))).toBe('No upload file');
    expect(errorMessageOf(new Error('  '))).toBe(MESSAGES.apiError);
    expect(errorMessageOf('boom')).toBe(MESSAGES.apiError);
    expect(errorMessageOf(undefined, 'Other')).toBe('Other');
  });
});
