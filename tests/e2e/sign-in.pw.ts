import { expect, test } from '@playwright/test';
import { createAccount, enableAuthenticatorApp, freshHandle, PASSWORD, readCodeFromMailbox } from './helpers/accounts';
import { freshTotp, wrongTotp } from '../helpers/totp';
import { authAlert, balance, headerSignInLink, signIn, watchPageErrors } from './helpers/ui';

/**
 * Sign-in paths besides the plain one, as a person uses them in the browser against the real
 * stack: a forgotten password, an authenticator app, a wrong password. The error texts are the
 * sign-in emulator's own (cognito-local), shown as they arrive.
 */

const EMULATOR = {
  wrongPassword: 'Invalid password',
  wrongCode: 'Incorrect confirmation code',
};

test('a wrong password shows the emulator\'s error and the person stays signed out', async ({ page, request }) => {
  const errors = watchPageErrors(page);
  const account = await createAccount(request, { prefix: 'wrongpw', handle: freshHandle('wrongpw') });

  await page.goto('/authentication');
  await signIn(page, account.email, 'not-the-password');

  await expect(authAlert(page)).toContainText(EMULATOR.wrongPassword);
  await expect(page).toHaveURL(/\/authentication/);
  await expect(page.getByRole('heading', { name: 'Sign in', exact: true })).toBeVisible();
  await expect(headerSignInLink(page)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Account menu' })).toHaveCount(0);
  await expect(balance(page)).toHaveCount(0);

  // Still signed out after a reload: nothing was kept.
  await page.reload();
  await expect(headerSignInLink(page)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Account menu' })).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('forgot password: the mailbox\'s code sets a new password; the old one no longer works', async ({ page, request }) => {
  test.setTimeout(90_000);
  const errors = watchPageErrors(page);
  const account = await createAccount(request, { prefix: 'forgot', handle: freshHandle('forgot') });
  const newPassword = 'brand-new-secret-2';

  await test.step('ask for a code', async () => {
    await page.goto('/authentication');
    await page.getByRole('button', { name: 'Forgot password?' }).or(page.getByRole('link', { name: 'Forgot password?' })).click();
    await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
    await page.getByRole('textbox', { name: 'E-mail' }).fill(account.email);
    await page.getByRole('button', { name: 'Send code' }).click();
    await expect(page.getByRole('textbox', { name: 'Code' })).toBeVisible();
  });

  await test.step('type the code from the mailbox and a new password', async () => {
    const code = await readCodeFromMailbox(page, account.email, 'Password reset');
    await page.getByRole('textbox', { name: 'Code' }).fill(code);
    await page.getByLabel('New password').fill(newPassword);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in', exact: true })).toBeVisible();
    await expect(authAlert(page)).toHaveCount(0);
  });

  await test.step('the old password is refused', async () => {
    await signIn(page, account.email, PASSWORD);
    await expect(authAlert(page)).toContainText(EMULATOR.wrongPassword);
    await expect(headerSignInLink(page)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Account menu' })).toHaveCount(0);
  });

  await test.step('the new password signs in', async () => {
    await signIn(page, account.email, newPassword);
    await expect(page).toHaveURL(new RegExp(`/@${account.handle ?? ''}$`));
    // The text a person sees (the phone's initial badge is in the DOM but hidden at this width).
    await expect(page.getByRole('button', { name: 'Account menu' })).toHaveText(account.handle ?? '', { useInnerText: true });
    await expect(balance(page)).toHaveText('100 credits');
  });
  expect(errors).toEqual([]);
});

test('an authenticator app: a wrong code is refused and stays on the code step, the current one signs in', async ({ page, request }) => {
  test.setTimeout(90_000);
  const errors = watchPageErrors(page);
  const account = await createAccount(request, { prefix: 'totp', handle: freshHandle('totp') });
  const secret = await enableAuthenticatorApp(request, account.email);

  await page.goto('/authentication');
  await signIn(page, account.email);
  const codeStep = page.getByRole('heading', { name: 'Enter your sign-in code' });
  await expect(codeStep).toBeVisible();
  await expect(page.getByRole('button', { name: 'Account menu' })).toHaveCount(0);

  await test.step('a wrong code', async () => {
    await page.getByRole('textbox', { name: 'Code' }).fill(wrongTotp(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(authAlert(page)).toContainText(EMULATOR.wrongCode);
    await expect(codeStep).toBeVisible();
    await expect(headerSignInLink(page)).toBeVisible();
  });

  await test.step('the code the app shows now', async () => {
    await page.getByRole('textbox', { name: 'Code' }).fill(await freshTotp(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(new RegExp(`/@${account.handle ?? ''}$`));
    // The text a person sees (the phone's initial badge is in the DOM but hidden at this width).
    await expect(page.getByRole('button', { name: 'Account menu' })).toHaveText(account.handle ?? '', { useInnerText: true });
    await expect(balance(page)).toHaveText('100 credits');
  });
  expect(errors).toEqual([]);
});
