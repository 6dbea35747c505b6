import { describe, expect, it } from 'vitest';
import { newIdempotencyKey } from '@/lib/idempotency-key';

describe('newIdempotencyKey', () => {
  it('gives a fresh UUID each time', () => {
    const keys = Array.from({ length: 50 }, () => newIdempotencyKey());
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(keys).size).toBe(50);
  });
});
