import { expect, test, type Page } from '@playwright/test';
import { createAccount, freshHandle } from './helpers/accounts';
import { balance, signIn, watchPageErrors } from './helpers/ui';

/**
 * Organisations on `npm start`'s stack (issue 7): an owner buys credits for the organisation through
 * the local checkout, adds a member by handle and transfers credits; the member sees the
 * organisation and spends the credits on a generation.
 */

test.describe.configure({ timeout: 180_000 });

async function pay(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Checkout', level: 1 })).toBeVisible();
  await expect(page.getByText('for your organisation')).toBeVisible();
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry date (MM/YY)').fill('12/34');
  await page.getByLabel('Security code (CVC)').fill('123');
  await page.getByLabel('Name on the card').fill('Grace Hopper');
  await page.getByRole('button', { name: 'Pay $10.00' }).click();
}

test('an owner funds an organisation, adds a member and transfers credits the member then spends', async ({ page, browser, request }) => {
  const errors = watchPageErrors(page);
  const ownerHandle = freshHandle('owner');
  const memberHandle = freshHandle('member');
  const owner = await createAccount(request, { prefix: 'org-owner', handle: ownerHandle });
  const member = await createAccount(request, { prefix: 'org-member', handle: memberHandle });

  await page.goto('/authentication');
  await signIn(page, owner.email);
  await expect(balance(page)).toHaveText('100 credits');
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Organisation' }).click();
  await expect(page.getByRole('heading', { name: 'Organisation', level: 1 })).toBeVisible();
  await page.getByRole('textbox', { name: 'Organisation name' }).fill('Harbour Films');
  await page.getByRole('button', { name: 'Create organisation' }).click();
  await expect(page).toHaveURL(/\/organisation\/[^/]+$/);
  const organisationUrl = page.url();
  await expect(page.getByRole('heading', { name: 'Harbour Films', level: 1 })).toBeVisible();

  // Credits for the organisation, through the checkout; the owner's own balance does not change.
  await page.getByRole('button', { name: 'Buy Starter' }).click();
  await pay(page);
  await expect(page).toHaveURL(/\/organisation\/[^/?]+/);
  await expect(page.getByText('Payment received: 100 credits were added to the organisation.')).toBeVisible();
  const balanceCard = page.getByRole('region', { name: 'Organisation balance' });
  await expect(balanceCard).toContainText('100 credits');
  await expect(balance(page)).toHaveText('100 credits');

  // Add the member by handle; the member key is shown.
  await page.getByRole('textbox', { name: 'E-mail or @handle' }).fill(`@${memberHandle}`);
  await page.getByRole('button', { name: 'Add member' }).click();
  const members = page.getByRole('table', { name: 'Members of the organisation' });
  const memberRow = members.getByRole('row').filter({ hasText: memberHandle });
  await expect(memberRow).toBeVisible();
  await expect(memberRow).toContainText(member.email);
  await expect(memberRow.getByLabel(/^Business member key: b2b_members_/)).toBeVisible();

  // Transfer 30: more than the balance is refused before sending.
  await memberRow.getByRole('button', { name: /^Transfer credits to / }).click();
  const transfer = page.getByRole('dialog', { name: /^Transfer credits to / });
  await transfer.getByRole('textbox', { name: 'Credits' }).fill('500');
  await transfer.getByRole('button', { name: 'Transfer' }).click();
  await expect(transfer.getByText('The organisation has 100 credits; transfer at most that.')).toBeVisible();
  await transfer.getByRole('textbox', { name: 'Credits' }).fill('30');
  await transfer.getByRole('button', { name: 'Transfer' }).click();
  await expect(balanceCard).toContainText('70 credits');
  await expect(memberRow).toContainText('30');
  await expect(page.getByRole('table', { name: 'Recent transfers' }).getByRole('row')).toHaveCount(2);

  // The member: 130 credits, the organisation listed as a member, and a generation paid from them.
  const memberPage = await (await browser.newContext()).newPage();
  const memberErrors = watchPageErrors(memberPage);
  await memberPage.goto('/authentication');
  await signIn(memberPage, member.email);
  await expect(balance(memberPage)).toHaveText('130 credits');
  await memberPage.goto('/organisation');
  const listed = memberPage.getByRole('listitem').filter({ hasText: 'Harbour Films' });
  await expect(listed).toContainText('Member');
  await listed.getByRole('link', { name: 'Open Harbour Films' }).click();
  await expect(memberPage.getByText(`Owned by @${ownerHandle}`)).toBeVisible();
  await expect(memberPage.getByRole('region', { name: 'Organisation balance' })).toHaveCount(0);
  await expect(memberPage.getByRole('button', { name: 'Add member' })).toHaveCount(0);

  await memberPage.goto('/ai-image/text-to-image');
  await memberPage.getByRole('textbox', { name: 'Prompt' }).fill('a harbour at dawn with fishing boats');
  await memberPage.getByRole('button', { name: 'Generate' }).click();
  await expect(balance(memberPage)).toHaveText('126 credits');
  await memberPage.goto('/credits');
  const memberHistory = memberPage.getByRole('region', { name: 'Credit history' });
  await expect(memberHistory.getByRole('row').filter({ hasText: 'From Harbour Films' })).toContainText('+30');

  // The owner's page after a reload still shows one transfer (nothing moved twice).
  await page.goto(organisationUrl);
  await expect(page.getByRole('table', { name: 'Recent transfers' }).getByRole('row')).toHaveCount(2);
  expect(memberErrors).toEqual([]);
  expect(errors).toEqual([]);
});
