import { describe, expect, it } from 'vitest';
import { affordability, canAfford, refusalMessage } from '@/lib/affordability';

const MEMBER = { attributes: { user_groups: ['b2b_members_acme'] } };

describe('affordability (SPEC §6, the one rule)', () => {
  it('refuses without a user or without attributes, as signed out', () => {
    expect(affordability({ user: null, cost: 0, credit: 100 })).toEqual({ affordable: false, reason: 'signedOut', cost: 0, balance: 100 });
    expect(affordability({ user: {}, cost: 0, credit: 100 })).toMatchObject({ affordable: false, reason: 'signedOut' });
  });

  it('allows a user with no groups, or in the Developer group, whatever the balance', () => {
    expect(affordability({ user: { attributes: {} }, cost: 400, credit: 0 })).toEqual({ affordable: true });
    expect(affordability({ user: { attributes: { user_groups: [] } }, cost: 400 })).toEqual({ affordable: true });
    expect(affordability({ user: { attributes: { user_groups: ['Developer'] } }, cost: 400, credit: 0 })).toEqual({ affordable: true });
  });

  it('otherwise compares the cost with the balance, an unknown balance counting as 0', () => {
    expect(affordability({ user: MEMBER, cost: 40, credit: 40 })).toEqual({ affordable: true });
    expect(affordability({ user: MEMBER, cost: 41, credit: 40 })).toEqual({ affordable: false, reason: 'notEnoughCredits', cost: 41, balance: 40 });
    expect(affordability({ user: MEMBER, cost: 0, credit: null })).toEqual({ affordable: true });
    expect(canAfford({ user: MEMBER, cost: 4 })).toBe(false);
  });

  it('says the balance is loading only while it is unknown and being fetched', () => {
    expect(affordability({ user: MEMBER, cost: 4, credit: null, creditLoading: true })).toMatchObject({ reason: 'balanceLoading' });
    expect(affordability({ user: MEMBER, cost: 4, credit: 2, creditLoading: true })).toMatchObject({ reason: 'notEnoughCredits' });
  });

  it('words a refusal for a tool (as the server’s 402) or for a story step', () => {
    const short = affordability({ user: MEMBER, cost: 8, credit: 5 });
    if (short.affordable) throw new Error('expected a refusal');
    expect(refusalMessage(short, 'job')).toBe('Not enough credits: this costs 8 credits and you have 5.');
    expect(refusalMessage(short, 'story')).toBe('Not enough credits: this step costs 8 credits and you have 5.');
    const signedOut = affordability({ user: null, cost: 8, credit: 5 });
    if (signedOut.affordable) throw new Error('expected a refusal');
    expect(refusalMessage(signedOut, 'story')).toBe('User needs to be authenticated to call this API.');
    const loading = affordability({ user: MEMBER, cost: 8, credit: null, creditLoading: true });
    if (loading.affordable) throw new Error('expected a refusal');
    expect(refusalMessage(loading, 'job')).toBe('Loading your balance…');
  });
});

describe('canAfford (SPEC §6, as the machines ask it)', () => {
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
