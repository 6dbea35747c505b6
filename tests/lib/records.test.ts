import { describe, expect, it } from 'vitest';
import { isRecord, stringArg } from '@/lib/records';

describe('records', () => {
  it('isRecord accepts plain objects only', () => {
    expect(isRecord({ a: 1 })).toBe(true);
    expect(isRecord([])).toBe(false);
    expect(isRecord(null)).toBe(false);
    expect(isRecord('x')).toBe(false);
  });

  it('stringArg reads non-empty strings only', () => {
    expect(stringArg({ prompt: 'fox' }, 'prompt')).toBe('fox');
    expect(stringArg({ prompt: '' }, 'prompt')).toBeUndefined();
    expect(stringArg({ prompt: 3 }, 'prompt')).toBeUndefined();
    expect(stringArg(undefined, 'prompt')).toBeUndefined();
  });
});
