import { expect, test, type Page } from '@playwright/test';
import { createAccount, freshHandle } from './helpers/accounts';
import { balance, signIn, watchPageErrors } from './helpers/ui';

/**
 * Credits as a person meets them on `npm start`'s stack (issue 7): a pack bought through the local
 * checkout page (the stand-in for the card provider), declined and cancelled payments that charge
 * nothing, the history and receipt that follow, and auto-refill firing when a generation leaves the
 * balance under its threshold. Real server, real ledger, real job engine.
 */

test.describe.configure({ timeout: 180_000 });

/** Fills the local checkout's card form. */
async function fillCard(page: Page, number: string): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Checkout', level: 1 })).toBeVisible();
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry date (MM/YY)').fill('12/34');
  await page.getByLabel('Security code (CVC)').fill('123');
  await page.getByLabel('Name on the card').fill('Ada Lovelace');
}

const history = (page: Page) => page.getByRole('region', { name: 'Credit history' });

test('buy a pack through the checkout: a declined card and a cancel charge nothing, paying adds the credits once', async ({ page, request }) => {
  const errors = watchPageErrors(page);
  const { email } = await createAccount(request, { prefix: 'buy', handle: freshHandle('buy') });
  await page.goto('/authentication');
  await signIn(page, email);
  await expect(balance(page)).toHaveText('100 credits');

  // The header balance opens the credits page.
  await balance(page).click();
  await expect(page).toHaveURL(/\/credits$/);
  await expect(page.getByRole('heading', { name: 'Credits and billing', level: 1 })).toBeVisible();
  await expect(history(page).getByRole('cell', { name: 'Welcome credits' })).toBeVisible();

  // A cancelled checkout: back on /credits, nothing charged.
  await page.getByRole('button', { name: 'Buy Starter: 100 credits for $10.00' }).click();
  await expect(page).toHaveURL(/\/local\/checkout\//);
  await expect(page.getByText('Starter: 100 credits')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/credits/);
  await expect(page.getByText('Payment cancelled: nothing was charged.')).toBeVisible();
  await expect(balance(page)).toHaveText('100 credits');

  // A declined card stays on the checkout with the reason; then the test card pays.
  await page.getByRole('button', { name: 'Buy Starter: 100 credits for $10.00' }).click();
  await fillCard(page, '4000 0000 0000 0002');
  await page.getByRole('button', { name: 'Pay $10.00' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Your card was declined. Try another card.' })).toBeVisible();
  await fillCard(page, '4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Pay $10.00' }).click();
  await expect(page).toHaveURL(/\/credits/);
  await expect(page.getByText('Payment received: 100 credits were added.')).toBeVisible();
  await expect(balance(page)).toHaveText('200 credits');
  await expect(page).not.toHaveURL(/checkout=/);

  // The history shows the purchase once, with its receipt.
  const purchases = history(page).getByRole('row').filter({ hasText: 'Purchase' });
  await expect(purchases).toHaveCount(1);
  await expect(purchases.first()).toContainText('+100');
  await expect(purchases.first()).toContainText('200');
  // A reload of the return address does not add the credits again.
  await page.reload();
  await expect(balance(page)).toHaveText('200 credits');
  await expect(history(page).getByRole('row').filter({ hasText: 'Purchase' })).toHaveCount(1);

  await history(page).getByRole('button', { name: /^Receipt: / }).click();
  await expect(page.getByRole('heading', { name: 'Receipt', level: 1 })).toBeVisible();
  await expect(page.getByText('$10.00').first()).toBeVisible();
  await expect(page.getByText(/4242/).first()).toBeVisible();
  await page.goBack();

  // The billing portal lists the payment and the saved card.
  await page.getByRole('button', { name: 'Billing portal' }).click();
  await expect(page.getByRole('heading', { name: 'Billing', level: 1 })).toBeVisible();
  await expect(page.getByText(/4242/).first()).toBeVisible();
  await expect(page.getByRole('link', { name: /Receipt/ }).first()).toBeVisible();
  await page.getByRole('link', { name: 'Back to Kinora' }).click();
  await expect(page).toHaveURL(/\/credits$/);
  expect(errors).toEqual([]);
});

test('auto-refill: once a card is saved, a generation that leaves the balance under the threshold buys the pack', async ({ page, request }) => {
  const errors = watchPageErrors(page);
  const { email } = await createAccount(request, { prefix: 'refill', handle: freshHandle('refill') });
  await page.goto('/authentication');
  await signIn(page, email);
  await expect(balance(page)).toHaveText('100 credits');
  await page.goto('/credits');

  // Without a saved card only "Off" can be chosen.
  const refill = page.getByRole('radiogroup', { name: 'Auto-refill' });
  await expect(page.getByText(/Auto-refill needs a saved card/)).toBeVisible();
  await expect(refill.getByRole('radio', { name: /Under 200 credits, buy 2000/ })).toBeDisabled();

  // Buying a pack saves the card.
  await page.getByRole('button', { name: 'Buy Starter: 100 credits for $10.00' }).click();
  await fillCard(page, '4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Pay $10.00' }).click();
  await expect(page.getByText('Payment received: 100 credits were added.')).toBeVisible();
  await expect(balance(page)).toHaveText('200 credits');
  await expect(page.getByText('Saved card: Visa ending in 4242')).toBeVisible();

  // Under 200 credits, buy 2000: the next debit (200 → 196) fires it.
  await refill.getByRole('radio', { name: /Under 200 credits, buy 2000/ }).check();
  await expect(page.getByText('You set auto-refill for credits.')).toBeVisible();

  await page.goto('/ai-image/text-to-image');
  await page.getByRole('textbox', { name: 'Prompt' }).fill('a lighthouse at dusk, oil painting');
  await page.getByRole('button', { name: 'Generate' }).click();
  await expect(balance(page)).toHaveText('2196 credits');

  await page.goto('/credits');
  const rows = history(page).getByRole('row');
  await expect(rows.filter({ hasText: 'Auto-refill: bought 2000 credits (Studio)' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'Spent' })).toHaveCount(1);
  expect(errors).toEqual([]);
});
