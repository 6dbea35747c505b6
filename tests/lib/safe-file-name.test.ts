import { describe, expect, it } from 'vitest';
import { safeFileName } from '@/lib/safe-file-name';

describe('safeFileName', () => {
  it('keeps letters, digits, _ and .', () => {
    expect(safeFileName('My_photo.2024.png')).toBe('My_photo.2024.png');
  });

  it('replaces every other character with _', () => {
    expect(safeFileName('my photo (1)-final!.jpg')).toBe('my_photo__1__final_.jpg');
    expect(safeFileName('café/ü.mp4')).toBe('caf___.mp4');
  });
});
