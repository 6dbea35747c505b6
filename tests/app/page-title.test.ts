import { describe, expect, it } from 'vitest';
import { documentTitle } from '@/app/page-title';

describe('documentTitle', () => {
  it('names the page, or just Kinora for the home page', () => {
    expect(documentTitle('Text to Image')).toBe('Text to Image · Kinora');
    expect(documentTitle(null)).toBe('Kinora');
  });

  it('leads with the number of running jobs while there are any', () => {
    expect(documentTitle('Text to Image', 2)).toBe('(2) Text to Image · Kinora');
    expect(documentTitle(null, 1)).toBe('(1) Kinora');
    expect(documentTitle('Text to Image', 0)).toBe('Text to Image · Kinora');
  });
});
