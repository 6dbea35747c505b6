import { expect, test } from '@playwright/test';
import { ROUTES } from '../../src/config/routes';
import { A11yAudit } from './helpers/axe';
import { createAccount, freshHandle } from './helpers/accounts';
import { balance } from './helpers/ui';
import { open, signInAs, showBanner, guestWelcome } from './helpers/a11y-pages';

/**
 * Issue 8 Build 3: axe-core (WCAG 2.0/2.1 A and AA, WCAG 2.2 AA) finds nothing on every route of the
 * router and on every overlay, modal, popover and job state a person can reach on `npm start`'s
 * stack; the shell is usable by keyboard alone. Nothing is excluded from axe and no rule is turned
 * off. Each test collects the violations of all its places and prints them per place (rule id and
 * element), so one bad page does not hide the others.
 */

test.describe.configure({ timeout: 600_000 });

test('overlays: account menu, mobile navbar, coupon and guest modals, help popover, banner, error fallback pass axe', async ({ page, browser, request }) => {
  const audit = new A11yAudit(page);
  const { email } = await createAccount(request, { prefix: 'a11y-ov', handle: freshHandle('a11y-ov') });
  await signInAs(page, email);

  await open(page, '/?coupon_code=WELCOME50');
  const coupon = page.getByRole('dialog', { name: 'Congratulations!' });
  await expect(coupon).toBeVisible();
  await audit.check('coupon success modal');
  await coupon.getByRole('button', { name: 'Confirm' }).click();
  await expect(balance(page)).toHaveText('150 credits');

  await page.getByRole('button', { name: 'Account menu' }).click();
  await expect(page.getByRole('menu')).toBeVisible();
  await audit.check('account menu');
  await page.keyboard.press('Escape');

  await open(page, ROUTES.aiImage.textToImage);
  await page.getByRole('button', { name: /^Help: / }).first().click();
  await expect(page.getByRole('dialog').last()).toBeVisible();
  await audit.check('help popover');
  await page.keyboard.press('Escape');

  await showBanner(page, 'success', 'Your settings were saved.');
  await expect(page.getByRole('status').filter({ hasText: 'Your settings were saved.' })).toBeVisible();
  await audit.check('top banner (success)');
  await showBanner(page, 'error', 'That did not work. Try again.');
  await expect(page.getByRole('alert').filter({ hasText: 'That did not work. Try again.' })).toBeVisible();
  await audit.check('top banner (error)');

  await page.setViewportSize({ width: 375, height: 740 });
  await open(page, ROUTES.home);
  await audit.check('home at 375 px');
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect.poll(async () => (await page.locator('#main-menu').boundingBox())?.x).toBe(0);
  await audit.check('mobile navbar (375 px)');
  await page.setViewportSize({ width: 1280, height: 720 });

  // A screen whose code cannot be downloaded: the error fallback.
  await page.route('**/assets/contact-screen-*.js', (route) => route.abort());
  await page.goto(ROUTES.contact);
  await expect(page.getByRole('alert').filter({ hasText: /error/i })).toBeVisible({ timeout: 20_000 });
  await audit.check('error fallback');
  audit.expectClean();

  await guestWelcome(browser);
});
