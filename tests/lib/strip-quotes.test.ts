import { describe, expect, it } from 'vitest';
import { stripQuotes } from '@/lib/strip-quotes';

describe('stripQuotes', () => {
  it('strips one leading and one trailing double quote', () => {
    expect(stripQuotes('"hello"')).toBe('hello');
    expect(stripQuotes('""hello""')).toBe('"hello"');
    expect(stripQuotes('"hello')).toBe('hello');
    expect(stripQuotes('hello')).toBe('hello');
  });
});
