import { describe, expect, it } from 'vitest';
import { canAfford } from '@/lib/credit-check';

describe('canAfford (SPEC §6)', () => {
  it('denies without a user or without attributes', () => {
    expect(canAfford({ user: null, cost: 0, credit: 100 })).toBe(false);
    expect(canAfford({ user: undefined, cost: 0, credit: 100 })).toBe(false);
    expect(canAfford({ user: {}, cost: 0, credit: 100 })).toBe(false);
  });

  it('allows a user with no groups at all', () => {
    expect(canAfford({ user: { attributes: {} }, cost: 400, credit: 0 })).toBe(true);
    expect(canAfford({ user: { attributes: { user_groups: [] } }, cost: 400 })).toBe(true);
  });

  it('allows the Developer group whatever the credit', () => {
    expect(canAfford({ user: { attributes: { user_groups: ['Developer'] } }, cost: 400, credit: 0 })).toBe(true);
  });

  it('otherwise compares the cost with the credit, which defaults to 0', () => {
    const user = { attributes: { user_groups: ['b2b_members_acme'] } };
    expect(canAfford({ user, cost: 40, credit: 40 })).toBe(true);
    expect(canAfford({ user, cost: 41, credit: 40 })).toBe(false);
    expect(canAfford({ user, cost: 4 })).toBe(false);
    expect(canAfford({ user, cost: 0, credit: null })).toBe(true);
  });
});
