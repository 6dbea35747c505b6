import { expect, test } from '@playwright/test';
import { ROUTES } from '../../src/config/routes';
import { A11yAudit } from './helpers/axe';
import { createAccount, freshEmail, freshHandle, mailboxCode, PASSWORD } from './helpers/accounts';
import { signIn } from './helpers/ui';
import { TOOL_PAGES, PLAIN_PAGES, open, visit } from './helpers/a11y-pages';

/**
 * Issue 8 Build 3: axe-core (WCAG 2.0/2.1 A and AA, WCAG 2.2 AA) finds nothing on every route of the
 * router and on every overlay, modal, popover and job state a person can reach on `npm start`'s
 * stack; the shell is usable by keyboard alone. Nothing is excluded from axe and no rule is turned
 * off. Each test collects the violations of all its places and prints them per place (rule id and
 * element), so one bad page does not hide the others.
 */

test.describe.configure({ timeout: 600_000 });

test('signed out: every route and every step of authentication passes axe', async ({ page, request }) => {
  const audit = new A11yAudit(page);
  const handle = freshHandle('a11y-prof');
  await createAccount(request, { prefix: 'a11y-prof', handle });

  for (const path of [...PLAIN_PAGES, ...TOOL_PAGES]) {
    await visit(page, path);
    await audit.check(`signed out ${path}`);
  }
  await open(page, ROUTES.profile(handle));
  await audit.check('signed out profile');

  await open(page, ROUTES.authentication);
  await audit.check('authentication: sign in');
  await page.getByRole('button', { name: 'Forgot password?' }).or(page.getByRole('link', { name: 'Forgot password?' })).click();
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await audit.check('authentication: forgot password');

  // Sign up, then the confirmation step, then the Verify Email modal of a first sign-in.
  const email = freshEmail('a11y-signup');
  await open(page, ROUTES.authentication);
  await page.getByRole('button', { name: 'Create an account' }).or(page.getByRole('link', { name: 'Create an account' })).click();
  await expect(page.getByRole('heading', { name: 'Create an account' })).toBeVisible();
  await audit.check('authentication: sign up');
  await page.getByRole('textbox', { name: 'E-mail' }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Confirm your e-mail' })).toBeVisible();
  await audit.check('authentication: confirm sign-up');
  await expect.poll(() => mailboxCode(request, email, 'Sign-up confirmation')).not.toBeNull();
  await page.getByRole('textbox', { name: 'Confirmation code' }).fill((await mailboxCode(request, email, 'Sign-up confirmation')) ?? '');
  await page.getByRole('button', { name: 'Confirm', exact: true }).click();
  await signIn(page, email);
  const verify = page.getByRole('dialog', { name: 'Verify your e-mail' }).or(page.getByRole('dialog').filter({ hasText: /verif/i }));
  await expect(verify.first()).toBeVisible();
  await audit.check('Verify Email modal');

  await page.goto(ROUTES.localMailbox);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await audit.check('local mailbox page');
  audit.expectClean();
});
