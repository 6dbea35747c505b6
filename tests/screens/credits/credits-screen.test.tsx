import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultAppConfiguration } from '@/config/app-config';
import { MESSAGES } from '@/config/messages';
import { leavePage } from '@/components/navigation/leave-page';
import { addLedgerEntry, cancelCheckout, fakeCredits, openCheckout, payCheckout } from '../../msw/credits';
import { API, fakeApi } from '../../msw/handlers';
import { server } from '../../msw/server';
import { renderApp, screen, userEvent, waitFor, within } from '../../test-utils';
import { PAGE_LOAD } from '../generation-helpers';
import { alice, signedInAs } from '../session-helpers';

vi.mock('@/components/navigation/leave-page', () => ({ leavePage: vi.fn() }));

const user = userEvent.setup();
const VISA = { brand: 'Visa', last4: '4242' };
const region = (name: string) => screen.getByRole('region', { name });
const findRegion = (name: string) => screen.findByRole('region', { name }, PAGE_LOAD);

beforeEach(() => vi.mocked(leavePage).mockClear());

/** Signs alice in and opens /credits (or `route`), waiting for the page's balance. */
async function openCreditsPage(route = '/credits') {
  await signedInAs(alice);
  const app = renderApp(route);
  const balance = await findRegion('Your balance');
  await within(balance).findByText(`${fakeApi.credits} credits`, undefined, PAGE_LOAD);
  return app;
}

describe('the credits page signed out', () => {
  it('asks to sign in and calls nothing', async () => {
    renderApp('/credits');
    expect(await screen.findByRole('heading', { level: 1, name: 'Credits and billing' }, PAGE_LOAD)).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Sign in to see your credits' })).toHaveAttribute('href', '/authentication');
    expect(screen.queryByRole('button', { name: /^Buy/ })).not.toBeInTheDocument();
    expect(fakeCredits.calls).toEqual([]);
  });
});

describe('buying credits', () => {
  it('shows the balance and sends the person to the checkout of the pack they chose', async () => {
    await openCreditsPage();
    const packs = region('Buy credits');
    expect(within(packs).getByText('$10.00')).toBeInTheDocument();
    await user.click(within(packs).getByRole('button', { name: 'Buy Creator: 500 credits for $45.00' }));
    await waitFor(() => expect(leavePage).toHaveBeenCalledExactlyOnceWith('/local/checkout/cs_1'));
    expect(fakeCredits.checkouts.get('cs_1')?.packId).toBe('pack-500');
  });

  it('shows SPEC §8 "Failed to buy credits" when the purchase fails', async () => {
    fakeCredits.failing.add('purchase');
    await openCreditsPage();
    await user.click(screen.getByRole('button', { name: 'Buy Starter: 100 credits for $10.00' }));
    expect(await screen.findByText(MESSAGES.buyCreditsFailed.message)).toBeInTheDocument();
    expect(leavePage).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Buy Starter: 100 credits for $10.00' })).toBeEnabled();
  });
});

describe('coming back from the checkout', () => {
  it('announces the payment, shows the new balance and the purchase, and drops the query', async () => {
    const sessionId = openCheckout('pack-100');
    payCheckout(sessionId);
    await signedInAs(alice);
    const { router } = renderApp(`/credits?checkout=success&session_id=${sessionId}`);
    const received = await screen.findByText('Payment received: 100 credits were added.', undefined, PAGE_LOAD);
    // Issue 17: a returned payment is an account-level event: the top banner says it (SPEC §2.9 item 5).
    expect(received.closest('[role="status"]')).toHaveTextContent('Success');
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(router.state.location.pathname).toBe('/credits');
    expect(within(region('Your balance')).getByText('200 credits')).toBeInTheDocument();
    // The balance was read again after the payment was confirmed.
    await waitFor(() => expect(fakeApi.calls.filter((call) => call === 'GET credits/get').length).toBeGreaterThanOrEqual(3));

    const history = region('Credit history');
    const row = (await within(history).findByText('Bought 100 credits (Starter)')).closest('tr');
    expect(row).not.toBeNull();
    expect(within(row as HTMLElement).getByText('Purchase')).toBeInTheDocument();
    expect(within(row as HTMLElement).getByText('+100')).toBeInTheDocument();
    expect(within(row as HTMLElement).getByText('200')).toBeInTheDocument();

    // Paying saved the card: auto-refill can be chosen now.
    expect(await within(region('Auto-refill')).findByText('Saved card: Visa ending in 4242')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Dismiss notice' }));
    expect(screen.queryByText('Payment received: 100 credits were added.')).not.toBeInTheDocument();
  });

  it('announces a cancelled payment', async () => {
    const sessionId = openCheckout('pack-100');
    cancelCheckout(sessionId);
    await signedInAs(alice);
    renderApp(`/credits?checkout=cancelled&session_id=${sessionId}`);
    expect(await screen.findByText('Payment cancelled: nothing was charged.', undefined, PAGE_LOAD)).toBeInTheDocument();
    expect(within(region('Your balance')).getByText('100 credits')).toBeInTheDocument();
  });
});

describe('auto-refill', () => {
  it('offers only "Off" until a card is saved, and says how to save one', async () => {
    await openCreditsPage();
    const section = region('Auto-refill');
    expect(await within(section).findByText(/Auto-refill needs a saved card/)).toBeInTheDocument();
    expect(within(section).getByRole('radio', { name: 'Off' })).toBeChecked();
    expect(within(section).getByRole('radio', { name: 'Under 20 credits, buy 100 ($10.00)' })).toBeDisabled();
  });

  it('saves an option with SPEC §8 "You set auto-refill for credits."', async () => {
    fakeCredits.card = VISA;
    await openCreditsPage();
    const section = region('Auto-refill');
    const option = await within(section).findByRole('radio', { name: 'Under 50 credits, buy 500 ($45.00)' });
    await user.click(option);
    expect(await screen.findByText(MESSAGES.autoRefillSet.message)).toBeInTheDocument();
    expect(fakeCredits.autoRefill).toBe('below-50-buy-500');
    expect(within(section).getByRole('radio', { name: 'Under 50 credits, buy 500 ($45.00)' })).toBeChecked();
  });

  it('shows SPEC §8 "Failed to set auto-refill" and keeps the option in force', async () => {
    fakeCredits.card = VISA;
    fakeCredits.failing.add('auto-refill');
    await openCreditsPage();
    const section = region('Auto-refill');
    await user.click(await within(section).findByRole('radio', { name: 'Under 20 credits, buy 100 ($10.00)' }));
    expect(await screen.findByText(MESSAGES.autoRefillFailed.message)).toBeInTheDocument();
    await waitFor(() => expect(within(section).getByRole('radio', { name: 'Off' })).toBeChecked());
  });
});

describe('the credit history', () => {
  it('lists the rows newest first, 20 at a time, with the job named and receipts for purchases', async () => {
    for (let n = 1; n <= 24; n += 1) addLedgerEntry({ amount: -4, kind: 'debit', reason: `Text to Image ${n}`, job_id: `job-${n}` });
    addLedgerEntry({ amount: 100, kind: 'purchase', reason: 'Bought 100 credits (Starter)', payment_id: 'pay-1' });
    await openCreditsPage();
    const history = region('Credit history');
    expect(await within(history).findByText('Bought 100 credits (Starter)', undefined, PAGE_LOAD)).toBeInTheDocument();
    // 20 rows and the header row.
    expect(within(history).getAllByRole('row')).toHaveLength(21);
    const debit = within(history).getByText('Text to Image 24').closest('tr') as HTMLElement;
    expect(within(debit).getByText('−4')).toBeInTheDocument();
    expect(within(debit).getByText('job job-24')).toBeInTheDocument();
    expect(within(debit).queryByRole('link')).toBeNull();

    await user.click(within(history).getByRole('button', { name: 'Load more' }));
    expect(await within(history).findByText('Text to Image 1')).toBeInTheDocument();
    expect(within(history).getAllByRole('row')).toHaveLength(26);
    expect(within(history).queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(fakeCredits.calls).toContain('GET credits/history?next_start_keys=20');

    await user.click(within(history).getByRole('button', { name: 'Receipt: Bought 100 credits (Starter)' }));
    await waitFor(() => expect(leavePage).toHaveBeenCalledExactlyOnceWith('/local/receipts/pay-1'));
  });

  it('says so when there is nothing yet', async () => {
    await openCreditsPage();
    expect(
      await within(region('Credit history')).findByText('No credit activity yet. Buy a pack or make something, and it shows here.'),
    ).toBeInTheDocument();
  });

  it('shows SPEC §8 "Failed to get credit history" with a retry', async () => {
    addLedgerEntry({ amount: 50, kind: 'coupon', reason: 'Coupon WELCOME' });
    fakeCredits.failing.add('history');
    await openCreditsPage();
    expect(await screen.findByText(MESSAGES.creditHistoryFailed.message)).toBeInTheDocument();
    const history = region('Credit history');
    expect(within(history).getByRole('alert')).toHaveTextContent('Your credit history could not be loaded.');
    fakeCredits.failing.delete('history');
    await user.click(within(history).getByRole('button', { name: 'Try again' }));
    expect(await within(history).findByText('Coupon WELCOME')).toBeInTheDocument();
    expect(within(history).getByText('Coupon')).toBeInTheDocument();
  });
});

describe('the billing portal', () => {
  it('opens the portal of the card provider', async () => {
    await openCreditsPage();
    await user.click(screen.getByRole('button', { name: 'Billing portal' }));
    await waitFor(() => expect(leavePage).toHaveBeenCalledExactlyOnceWith('/local/billing-portal/portal-token'));
    expect(fakeCredits.calls).toContain('POST stripe/customer-portal');
  });
});

describe('the cost comparison', () => {
  const tierRow = (label: string) => within(region('What your credits buy')).getByRole('row', { name: new RegExp(`^${label}`) });

  it('starts from the balance and counts again for the number typed', async () => {
    await openCreditsPage();
    const tier1 = defaultAppConfiguration.tier_information[0]!;
    expect(screen.getByRole('textbox', { name: 'Credits' })).toHaveValue('100');
    expect(within(tierRow(tier1.label)).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['5', '25', '25']);
    const input = screen.getByRole('textbox', { name: 'Credits' });
    await user.clear(input);
    await user.type(input, '400');
    await waitFor(() =>
      expect(within(tierRow(tier1.label)).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['20', '100', '100']),
    );
  });

  it('shows "—" where a tier does not price a kind', async () => {
    const [first, ...rest] = defaultAppConfiguration.tier_information;
    server.use(
      http.get(`${API}/frontend-configurations`, () =>
        HttpResponse.json({
          data: { ...defaultAppConfiguration, tier_information: [{ ...first!, credits: { ...first!.credits, Audio: 0 } }, ...rest] },
        }),
      ),
    );
    await openCreditsPage();
    await waitFor(() =>
      expect(within(tierRow(first!.label)).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['5', '25', '—']),
    );
  });
});
