import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { CREDIT_TIERS } from '@/config/credit-tiers';
import { MESSAGES } from '@/config/messages';
import {
  CHECKOUT_RECHECK_DELAY_MS,
  CHECKOUT_RECHECKS,
  checkoutReturnFrom,
  creditsPageMachine,
  LEAVE_GRACE_MS,
  type CheckoutReturn,
  type CreditsPageEmitted,
} from '@/machines/credits-page/credits-page.machine';
import {
  comparisonCredits,
  costComparison,
  selectAccountStatus,
  selectAutoRefillValue,
  selectBuyingPackId,
  selectCheckoutChecking,
  selectCheckoutResult,
  selectHasMoreHistory,
  selectHistory,
  selectHistoryMoreFailed,
  selectHistoryStatus,
  selectIsLeaving,
  selectReceiptPaymentId,
} from '@/machines/credits-page/credits-page.selectors';
import type { UserCredits } from '@/services/schemas/credits';
import type { AutoRefill, Checkout, CheckoutStatus, CreditHistory, CreditHistoryEntry, ProviderUrl } from '@/services/schemas/payments';
import { httpError } from '../generation-job/generation-job.fixtures';

const entry = (n: number, overrides: Partial<CreditHistoryEntry> = {}): CreditHistoryEntry => ({
  id: `ledger-${n}`,
  amount: -4,
  kind: 'debit',
  reason: `Job ${n}`,
  job_id: `job-${n}`,
  payment_id: null,
  balance_after: 100 - n,
  created_at: '2025-03-01T12:00:00.000Z',
  ...overrides,
});
const page = (from: number, count: number, next: string | null): CreditHistory => ({
  items: Array.from({ length: count }, (_, index) => entry(from + index)),
  next_start_keys: next,
});
const status = (overrides: Partial<CheckoutStatus> = {}): CheckoutStatus => ({
  session_id: 'cs_1',
  status: 'paid',
  pack_id: 'pack-100',
  credits: 100,
  amount_cents: 1000,
  currency: 'USD',
  customer_id: null,
  payment_id: 'pay-1',
  ...overrides,
});
const VISA = { brand: 'Visa', last4: '4242' };

let account = vi.fn(async (): Promise<UserCredits> => ({ credit: 30, auto_refill: 'off', card: VISA }));
let saveAutoRefill = vi.fn(async (option: string): Promise<AutoRefill> => ({
  auto_refill: option,
  threshold: 20,
  pack_id: 'pack-100',
  card: VISA,
}));
let checkout = vi.fn(async (_sessionId: string): Promise<CheckoutStatus> => status());
let history = vi.fn(async (_next: string | null): Promise<CreditHistory> => page(1, 20, '20'));
let purchase = vi.fn(async (packId: string): Promise<Checkout> => ({ session_id: 'cs_9', checkout_url: `/local/checkout/cs_9?pack=${packId}` }));
let portal = vi.fn(async (): Promise<ProviderUrl> => ({ url: '/local/billing-portal/token' }));
let receipt = vi.fn(async (paymentId: string): Promise<ProviderUrl> => ({ url: `/local/receipts/${paymentId}` }));

beforeEach(() => {
  vi.useFakeTimers();
  account = vi.fn(async (): Promise<UserCredits> => ({ credit: 30, auto_refill: 'off', card: VISA }));
  saveAutoRefill = vi.fn(async (option: string): Promise<AutoRefill> => ({
    auto_refill: option,
    threshold: 20,
    pack_id: 'pack-100',
    card: VISA,
  }));
  checkout = vi.fn(async (): Promise<CheckoutStatus> => status());
  history = vi.fn(async (): Promise<CreditHistory> => page(1, 20, '20'));
  purchase = vi.fn(async (packId: string): Promise<Checkout> => ({
    session_id: 'cs_9',
    checkout_url: `/local/checkout/cs_9?pack=${packId}`,
  }));
  portal = vi.fn(async (): Promise<ProviderUrl> => ({ url: '/local/billing-portal/token' }));
  receipt = vi.fn(async (paymentId: string): Promise<ProviderUrl> => ({ url: `/local/receipts/${paymentId}` }));
});
afterEach(() => vi.useRealTimers());

function start(checkoutReturn: CheckoutReturn | null = null) {
  const machine = creditsPageMachine.provide({
    actors: {
      loadAccount: fromPromise<UserCredits>(() => account()),
      saveAutoRefill: fromPromise<AutoRefill, { option: string }>(({ input }) => saveAutoRefill(input.option)),
      checkCheckout: fromPromise<CheckoutStatus, { sessionId: string }>(({ input }) => checkout(input.sessionId)),
      loadHistory: fromPromise<CreditHistory, { nextStartKeys: string | null }>(({ input }) => history(input.nextStartKeys)),
      buyPack: fromPromise<Checkout, { packId: string }>(({ input }) => purchase(input.packId)),
      openPortal: fromPromise<ProviderUrl>(() => portal()),
      fetchReceiptUrl: fromPromise<ProviderUrl, { paymentId: string }>(({ input }) => receipt(input.paymentId)),
    },
  });
  const actor = createActor(machine, { input: { checkoutReturn } });
  const emitted: CreditsPageEmitted[] = [];
  actor.on('*', (event) => emitted.push(event));
  actor.start();
  return { actor, emitted };
}

const flush = () => vi.advanceTimersByTimeAsync(0);
const ofType = <T extends CreditsPageEmitted['type']>(emitted: CreditsPageEmitted[], type: T) =>
  emitted.filter((event): event is Extract<CreditsPageEmitted, { type: T }> => event.type === type);
const toasts = (emitted: CreditsPageEmitted[]) =>
  ofType(emitted, 'creditsPage.notify').map(({ tone, title, message }) => ({ tone, title, message }));

describe('the checkout query', () => {
  it('reads a success or cancelled return with its session, and nothing else', () => {
    expect(checkoutReturnFrom('?checkout=success&session_id=cs_1')).toEqual({ outcome: 'success', sessionId: 'cs_1' });
    expect(checkoutReturnFrom('?checkout=cancelled&session_id=cs_2')).toEqual({ outcome: 'cancelled', sessionId: 'cs_2' });
    expect(checkoutReturnFrom('?checkout=success')).toBeNull();
    expect(checkoutReturnFrom('?checkout=maybe&session_id=cs_1')).toBeNull();
    expect(checkoutReturnFrom('')).toBeNull();
  });
});

describe('buying a pack', () => {
  it('asks for a checkout of the pack and leaves for its checkout_url', async () => {
    const { actor, emitted } = start();
    await flush();
    actor.send({ type: 'pack.buy', packId: 'pack-500' });
    expect(selectBuyingPackId(actor.getSnapshot())).toBe('pack-500');
    expect(selectIsLeaving(actor.getSnapshot())).toBe(true);
    await flush();
    expect(purchase).toHaveBeenCalledExactlyOnceWith('pack-500');
    expect(ofType(emitted, 'creditsPage.leave')).toEqual([{ type: 'creditsPage.leave', url: '/local/checkout/cs_9?pack=pack-500' }]);
    // A second click while the browser leaves opens no second checkout.
    actor.send({ type: 'pack.buy', packId: 'pack-100' });
    await flush();
    expect(purchase).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().matches({ exit: 'leaving' })).toBe(true);
    // Back on the page (kept in memory), the buttons work again.
    await vi.advanceTimersByTimeAsync(LEAVE_GRACE_MS);
    expect(selectIsLeaving(actor.getSnapshot())).toBe(false);
    expect(selectBuyingPackId(actor.getSnapshot())).toBeNull();
  });

  it('refuses a pack that does not exist without calling', async () => {
    const { actor } = start();
    await flush();
    actor.send({ type: 'pack.buy', packId: 'pack-free' });
    await flush();
    expect(purchase).not.toHaveBeenCalled();
    expect(selectIsLeaving(actor.getSnapshot())).toBe(false);
  });

  it('shows SPEC §8 "Failed to buy credits" when the purchase fails, and stays on the page', async () => {
    purchase.mockRejectedValueOnce(httpError(500, 'Boom'));
    const { actor, emitted } = start();
    await flush();
    actor.send({ type: 'pack.buy', packId: 'pack-100' });
    await flush();
    expect(toasts(emitted)).toEqual([{ tone: 'error', ...MESSAGES.buyCreditsFailed }]);
    expect(ofType(emitted, 'creditsPage.leave')).toEqual([]);
    expect(selectIsLeaving(actor.getSnapshot())).toBe(false);
    expect(selectBuyingPackId(actor.getSnapshot())).toBeNull();
    actor.send({ type: 'pack.buy', packId: 'pack-100' });
    await flush();
    expect(ofType(emitted, 'creditsPage.leave')).toHaveLength(1);
  });
});

describe('coming back from the checkout', () => {
  it('announces a paid checkout, refreshes the balance, the history and the card, then drops the query', async () => {
    const { actor, emitted } = start({ outcome: 'success', sessionId: 'cs_1' });
    expect(selectCheckoutChecking(actor.getSnapshot())).toBe(true);
    await flush();
    expect(checkout).toHaveBeenCalledExactlyOnceWith('cs_1');
    expect(selectCheckoutResult(actor.getSnapshot())).toEqual({ outcome: 'paid', credits: 100 });
    expect(ofType(emitted, 'creditsPage.creditsChanged')).toHaveLength(1);
    expect(ofType(emitted, 'creditsPage.returnHandled')).toHaveLength(1);
    // The first page and the account are read again, so the purchase and the new card show.
    await flush();
    expect(history).toHaveBeenCalledTimes(2);
    expect(account).toHaveBeenCalledTimes(2);
    actor.send({ type: 'checkout.dismiss' });
    expect(selectCheckoutResult(actor.getSnapshot())).toBeNull();
  });

  it('announces a cancelled checkout without touching the balance', async () => {
    checkout.mockResolvedValueOnce(status({ status: 'cancelled', payment_id: null }));
    const { actor, emitted } = start({ outcome: 'cancelled', sessionId: 'cs_1' });
    await flush();
    expect(selectCheckoutResult(actor.getSnapshot())).toEqual({ outcome: 'cancelled', credits: 100 });
    expect(ofType(emitted, 'creditsPage.creditsChanged')).toEqual([]);
    expect(ofType(emitted, 'creditsPage.returnHandled')).toHaveLength(1);
  });

  it('checks a checkout that is still open again, a few times, before calling it pending', async () => {
    checkout.mockResolvedValue(status({ status: 'open', payment_id: null }));
    const { actor, emitted } = start({ outcome: 'success', sessionId: 'cs_1' });
    await flush();
    expect(checkout).toHaveBeenCalledTimes(1);
    expect(selectCheckoutChecking(actor.getSnapshot())).toBe(true);
    await vi.advanceTimersByTimeAsync(CHECKOUT_RECHECK_DELAY_MS);
    expect(checkout).toHaveBeenCalledTimes(2);
    // Paid on the third check.
    checkout.mockResolvedValueOnce(status());
    await vi.advanceTimersByTimeAsync(CHECKOUT_RECHECK_DELAY_MS);
    expect(checkout).toHaveBeenCalledTimes(3);
    expect(selectCheckoutResult(actor.getSnapshot())).toEqual({ outcome: 'paid', credits: 100 });
    expect(ofType(emitted, 'creditsPage.creditsChanged')).toHaveLength(1);
  });

  it('gives up after the last check of a checkout that stays open', async () => {
    checkout.mockResolvedValue(status({ status: 'open', payment_id: null }));
    const { actor, emitted } = start({ outcome: 'success', sessionId: 'cs_1' });
    await vi.advanceTimersByTimeAsync(CHECKOUT_RECHECK_DELAY_MS * (CHECKOUT_RECHECKS + 2));
    expect(checkout).toHaveBeenCalledTimes(CHECKOUT_RECHECKS + 1);
    expect(selectCheckoutResult(actor.getSnapshot())).toEqual({ outcome: 'pending', credits: 100 });
    expect(ofType(emitted, 'creditsPage.creditsChanged')).toEqual([]);
  });

  it('says it could not check a checkout the server does not know', async () => {
    checkout.mockRejectedValueOnce(httpError(404, 'This checkout does not exist.'));
    const { actor, emitted } = start({ outcome: 'success', sessionId: 'cs_x' });
    await flush();
    expect(selectCheckoutResult(actor.getSnapshot())).toEqual({ outcome: 'unknown', credits: 0 });
    expect(ofType(emitted, 'creditsPage.returnHandled')).toHaveLength(1);
  });

  it('checks nothing on an ordinary visit', async () => {
    const { actor } = start();
    await flush();
    expect(checkout).not.toHaveBeenCalled();
    expect(selectCheckoutChecking(actor.getSnapshot())).toBe(false);
    expect(selectCheckoutResult(actor.getSnapshot())).toBeNull();
  });
});

describe('auto-refill', () => {
  it('saves an option, shows SPEC §8 "You set auto-refill for credits." and refreshes the balance', async () => {
    const { actor, emitted } = start();
    await flush();
    expect(selectAccountStatus(actor.getSnapshot())).toBe('ready');
    actor.send({ type: 'autoRefill.set', option: 'below-20-buy-100' });
    expect(selectAccountStatus(actor.getSnapshot())).toBe('saving');
    expect(selectAutoRefillValue(actor.getSnapshot())).toBe('below-20-buy-100');
    await flush();
    expect(saveAutoRefill).toHaveBeenCalledExactlyOnceWith('below-20-buy-100');
    expect(selectAutoRefillValue(actor.getSnapshot())).toBe('below-20-buy-100');
    expect(toasts(emitted)).toEqual([{ tone: 'success', ...MESSAGES.autoRefillSet }]);
    expect(ofType(emitted, 'creditsPage.creditsChanged')).toHaveLength(1);
  });

  it('shows SPEC §8 "Failed to set auto-refill" and keeps the option in force when saving fails', async () => {
    saveAutoRefill.mockRejectedValueOnce(httpError(409, 'Add a card first'));
    const { actor, emitted } = start();
    await flush();
    actor.send({ type: 'autoRefill.set', option: 'below-50-buy-500' });
    await flush();
    expect(toasts(emitted)).toEqual([{ tone: 'error', ...MESSAGES.autoRefillFailed }]);
    expect(selectAutoRefillValue(actor.getSnapshot())).toBe('off');
    expect(selectAccountStatus(actor.getSnapshot())).toBe('ready');
    expect(ofType(emitted, 'creditsPage.creditsChanged')).toEqual([]);
  });

  it('without a saved card only "off" can be chosen', async () => {
    account.mockResolvedValueOnce({ credit: 0, auto_refill: 'below-20-buy-100', card: null });
    const { actor } = start();
    await flush();
    actor.send({ type: 'autoRefill.set', option: 'below-50-buy-500' });
    expect(selectAccountStatus(actor.getSnapshot())).toBe('ready');
    actor.send({ type: 'autoRefill.set', option: 'off' });
    expect(selectAccountStatus(actor.getSnapshot())).toBe('saving');
    await flush();
    expect(saveAutoRefill).toHaveBeenCalledExactlyOnceWith('off');
  });

  it('offers a retry when the account cannot be read (silently, SPEC §8 "Other calls fail")', async () => {
    account.mockRejectedValueOnce(httpError(500, 'Boom'));
    const { actor, emitted } = start();
    await flush();
    expect(selectAccountStatus(actor.getSnapshot())).toBe('failed');
    expect(toasts(emitted)).toEqual([]);
    actor.send({ type: 'account.retry' });
    await flush();
    expect(selectAccountStatus(actor.getSnapshot())).toBe('ready');
  });
});

describe('the credit history', () => {
  it('loads the first page, then the next by next_start_keys, until there is no more', async () => {
    history.mockResolvedValueOnce(page(1, 20, '20')).mockResolvedValueOnce(page(21, 5, null));
    const { actor } = start();
    expect(selectHistoryStatus(actor.getSnapshot())).toBe('loading');
    await flush();
    expect(history).toHaveBeenLastCalledWith(null);
    expect(selectHistory(actor.getSnapshot())).toHaveLength(20);
    expect(selectHasMoreHistory(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'history.more' });
    expect(selectHistoryStatus(actor.getSnapshot())).toBe('loadingMore');
    await flush();
    expect(history).toHaveBeenLastCalledWith('20');
    expect(selectHistory(actor.getSnapshot()).map((row) => row.id).slice(18)).toEqual([
      'ledger-19',
      'ledger-20',
      'ledger-21',
      'ledger-22',
      'ledger-23',
      'ledger-24',
      'ledger-25',
    ]);
    expect(selectHasMoreHistory(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'history.more' });
    expect(selectHistoryStatus(actor.getSnapshot())).toBe('ready');
    expect(history).toHaveBeenCalledTimes(2);
  });

  it('shows SPEC §8 "Failed to get credit history" when the first page fails, and retries', async () => {
    history.mockRejectedValueOnce(httpError(500, 'Boom'));
    const { actor, emitted } = start();
    await flush();
    expect(selectHistoryStatus(actor.getSnapshot())).toBe('failed');
    expect(toasts(emitted)).toEqual([{ tone: 'error', ...MESSAGES.creditHistoryFailed }]);
    actor.send({ type: 'history.retry' });
    await flush();
    expect(selectHistoryStatus(actor.getSnapshot())).toBe('ready');
    expect(selectHistory(actor.getSnapshot())).toHaveLength(20);
  });

  it('keeps the rows when "Load more" fails, says so, and retries that page', async () => {
    history
      .mockResolvedValueOnce(page(1, 20, '20'))
      .mockRejectedValueOnce(httpError(500, 'Boom'))
      .mockResolvedValueOnce(page(21, 1, null));
    const { actor, emitted } = start();
    await flush();
    actor.send({ type: 'history.more' });
    await flush();
    expect(selectHistoryStatus(actor.getSnapshot())).toBe('ready');
    expect(selectHistory(actor.getSnapshot())).toHaveLength(20);
    expect(selectHistoryMoreFailed(actor.getSnapshot())).toBe(true);
    expect(toasts(emitted)).toEqual([{ tone: 'error', ...MESSAGES.creditHistoryFailed }]);
    actor.send({ type: 'history.retry' });
    await flush();
    expect(history).toHaveBeenLastCalledWith('20');
    expect(selectHistory(actor.getSnapshot())).toHaveLength(21);
    expect(selectHistoryMoreFailed(actor.getSnapshot())).toBe(false);
  });
});

describe('the billing portal and receipts', () => {
  it('leaves for the portal', async () => {
    const { actor, emitted } = start();
    await flush();
    actor.send({ type: 'portal.open' });
    await flush();
    expect(portal).toHaveBeenCalledTimes(1);
    expect(ofType(emitted, 'creditsPage.leave')).toEqual([{ type: 'creditsPage.leave', url: '/local/billing-portal/token' }]);
  });

  it('leaves for the receipt of one payment', async () => {
    const { actor, emitted } = start();
    await flush();
    actor.send({ type: 'receipt.open', paymentId: 'pay-7' });
    expect(selectReceiptPaymentId(actor.getSnapshot())).toBe('pay-7');
    await flush();
    expect(receipt).toHaveBeenCalledExactlyOnceWith('pay-7');
    expect(ofType(emitted, 'creditsPage.leave')).toEqual([{ type: 'creditsPage.leave', url: '/local/receipts/pay-7' }]);
  });

  it('says so when the portal or a receipt cannot be opened', async () => {
    portal.mockRejectedValueOnce(httpError(500, 'Boom'));
    receipt.mockRejectedValueOnce(httpError(404, 'This payment does not exist.'));
    const { actor, emitted } = start();
    await flush();
    actor.send({ type: 'portal.open' });
    await flush();
    actor.send({ type: 'receipt.open', paymentId: 'pay-7' });
    await flush();
    expect(toasts(emitted)).toEqual([
      { tone: 'error', title: 'Error', message: 'We could not open the billing portal. Try again later.' },
      { tone: 'error', title: 'Error', message: 'We could not open this receipt. Try again later.' },
    ]);
    expect(ofType(emitted, 'creditsPage.leave')).toEqual([]);
    expect(selectIsLeaving(actor.getSnapshot())).toBe(false);
  });
});

describe('the cost comparison', () => {
  it('uses the balance until a number is typed, and 0 when neither is known (SPEC §3)', () => {
    expect(comparisonCredits(null, 130)).toBe(130);
    expect(comparisonCredits(null, null)).toBe(0);
    expect(comparisonCredits('85', 130)).toBe(85);
    expect(comparisonCredits('', 130)).toBe(0);
    expect(comparisonCredits('-5', 130)).toBe(0);
  });

  it('counts what the credits buy per tier, with no count where the tier does not price a kind', () => {
    const rows = costComparison(CREDIT_TIERS, 100);
    expect(rows[0]).toEqual({ id: 'tier-1', label: CREDIT_TIERS[0]?.label, video: 5, image: 25, audio: 25 });
    expect(rows.find((row) => row.id === 'tier-6')).toMatchObject({ video: 0, image: 1, audio: 1 });
    const free = costComparison([{ ...CREDIT_TIERS[0]!, credits: { Video: 0, Image: 4, Audio: 0, Text: 0 } }], 10);
    expect(free[0]).toMatchObject({ video: null, image: 2, audio: null });
  });

  it('keeps what the person typed', async () => {
    const { actor } = start();
    actor.send({ type: 'comparison.set', credits: '250' });
    expect(actor.getSnapshot().context.comparisonInput).toBe('250');
  });
});
