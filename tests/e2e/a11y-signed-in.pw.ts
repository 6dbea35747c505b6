import { expect, test } from '@playwright/test';
import { ROUTES } from '../../src/config/routes';
import { A11yAudit } from './helpers/axe';
import { pickFiles } from './helpers/ui';
import { createAccount, freshHandle } from './helpers/accounts';
import { TOOL_PAGES, PLAIN_PAGES, open, visit, settle, signInAs, picture } from './helpers/a11y-pages';

/**
 * Issue 8 Build 3: axe-core (WCAG 2.0/2.1 A and AA, WCAG 2.2 AA) finds nothing on every route of the
 * router and on every overlay, modal, popover and job state a person can reach on `npm start`'s
 * stack; the shell is usable by keyboard alone. Nothing is excluded from axe and no rule is turned
 * off. Each test collects the violations of all its places and prints them per place (rule id and
 * element), so one bad page does not hide the others.
 */

test.describe.configure({ timeout: 600_000 });

test('signed in: every route passes axe', async ({ page, request }) => {
  const audit = new A11yAudit(page);
  const { email } = await createAccount(request, { prefix: 'a11y-in', handle: freshHandle('a11y-in') });
  await signInAs(page, email);

  for (const path of [...PLAIN_PAGES, ...TOOL_PAGES]) {
    await visit(page, path);
    await audit.check(`signed in ${path}`);
  }
  audit.expectClean();
});

test('signed in: one asset, organisation, album and story, their lists, delete confirmations and the asset picker pass axe', async ({ page, request }) => {
  const audit = new A11yAudit(page);
  const { email } = await createAccount(request, { prefix: 'a11y-items', handle: freshHandle('a11y-it') });
  await signInAs(page, email);

  // One asset, and the delete confirmation of the list.
  await open(page, ROUTES.assets);
  await page.getByRole('textbox', { name: 'Name' }).fill('Holiday pictures');
  await page.getByRole('button', { name: 'Create asset' }).click();
  await page.getByRole('button', { name: 'Delete asset Holiday pictures' }).click();
  const deleteAsset = page.getByRole('dialog', { name: 'Delete this asset?' });
  await expect(deleteAsset).toBeVisible();
  await audit.check('delete asset confirmation');
  await deleteAsset.getByRole('button', { name: 'Keep it' }).click();
  await page.getByRole('link', { name: 'Open Holiday pictures' }).click();
  await expect(page).toHaveURL(/\/assets\/[^/]+$/);
  await settle(page);
  await audit.check('one asset');

  // One organisation.
  await open(page, ROUTES.organisation);
  await page.getByRole('textbox', { name: 'Organisation name' }).fill('Harbour Films');
  await page.getByRole('button', { name: 'Create organisation' }).click();
  await expect(page).toHaveURL(/\/organisation\/[^/]+$/);
  await expect(page.getByRole('heading', { name: 'Harbour Films', level: 1 })).toBeVisible();
  await settle(page);
  await audit.check('one organisation');

  // One album (one picture), and its delete confirmation.
  await open(page, ROUTES.aiVideo.albums);
  await page.getByRole('textbox', { name: 'Title' }).fill('Summer trip');
  await page.getByRole('radio', { name: 'Parallax batch' }).check();
  await pickFiles(page.locator('input[type="file"]').first(), { name: 'beach.png', mimeType: 'image/png', buffer: await picture(1) });
  await expect(page.getByRole('img', { name: /beach\.png/ }).first()).toBeVisible({ timeout: 20_000 });
  await audit.check('new album form with a picture');
  await page.getByRole('button', { name: 'Create album' }).click();
  await expect(page.getByRole('heading', { name: 'Summer trip', level: 1 })).toBeVisible({ timeout: 20_000 });
  await settle(page);
  await audit.check('one album');
  await page.getByRole('button', { name: 'Delete album' }).click();
  const deleteAlbum = page.getByRole('dialog', { name: 'Delete this album?' });
  await expect(deleteAlbum).toBeVisible();
  await audit.check('delete album confirmation');
  await deleteAlbum.getByRole('button', { name: 'Keep it' }).click();
  await open(page, ROUTES.aiVideo.albums);
  await audit.check('albums list with an album');

  // One story (the storyboard is free), the list and its delete confirmation.
  await open(page, ROUTES.aiProduction.aiStory);
  await page
    .getByRole('textbox', { name: 'Your idea' })
    .fill('Mara, a young lighthouse keeper, finds a glowing map on the beach. She sails across the sea to a hidden island.');
  await page.getByRole('button', { name: 'Write storyboard' }).click();
  await expect(page).toHaveURL(/\/ai-production\/ai-story\/[^/]+$/);
  await expect(page.getByRole('heading', { name: 'Storyboard', level: 2 })).toBeVisible({ timeout: 20_000 });
  await settle(page);
  await audit.check('one story');
  await open(page, ROUTES.aiProduction.aiStory);
  await page.getByRole('button', { name: /^Delete / }).first().click();
  const deleteStory = page.getByRole('dialog', { name: 'Delete this story?' });
  await expect(deleteStory).toBeVisible();
  await audit.check('AI Story list and delete confirmation');
  await deleteStory.getByRole('button', { name: 'Keep it' }).click();

  // The local card provider's server-rendered checkout page (server/src/payments/pages.ts).
  await open(page, ROUTES.credits);
  await page.getByRole('button', { name: 'Buy Starter: 100 credits for $10.00' }).click();
  await expect(page.getByRole('heading', { name: 'Checkout', level: 1 })).toBeVisible();
  await audit.check('checkout page');
  // A declined card: the page comes back with its alert.
  await page.getByLabel('Card number').fill('4000 0000 0000 0002');
  await page.getByLabel('Expiry date (MM/YY)').fill('12/34');
  await page.getByLabel('Security code (CVC)').fill('123');
  await page.getByLabel('Name on the card').fill('Ada Lovelace');
  await page.getByRole('button', { name: 'Pay $10.00' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Your card was declined' })).toBeVisible();
  await audit.check('checkout page with a declined card');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/credits/);

  // The asset picker of a picture input.
  await open(page, ROUTES.aiImage.imageToImage);
  await page.getByRole('button', { name: /^Choose from assets/ }).first().click();
  const picker = page.getByRole('dialog', { name: /from your assets/ });
  await expect(picker).toBeVisible();
  await audit.check('asset picker');
  await page.keyboard.press('Escape');
  audit.expectClean();
});
