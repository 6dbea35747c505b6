import { expect, test, type Page } from '@playwright/test';
import { MESSAGES } from '../../src/config/messages';
import { createAccount, freshEmail, freshHandle, mailboxCode, PASSWORD, readCodeFromMailbox } from './helpers/accounts';
import { balance, signIn, watchPageErrors } from './helpers/ui';

/**
 * The session lifecycle as a person lives it, against `npm start`'s stack: the real API server,
 * PGlite and the cognito-local emulator behind the /cognito front (playwright.config.ts).
 */

/** Opens a URL signed out, lets the app read its query, then goes to sign in through the header link. */
async function openThenSignIn(page: Page, url: string, email: string): Promise<void> {
  await page.goto(url);
  await page.getByRole('banner').getByRole('link', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/authentication/);
  await signIn(page, email);
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign in', exact: true })).toBeVisible();
}

test('sign up, confirm, verify the e-mail, choose a handle, reload, sign out', async ({ page, request }) => {
  test.setTimeout(120_000);
  const errors = watchPageErrors(page);
  const email = freshEmail('newcomer');
  const handle = freshHandle('newcomer');

  await test.step('sign up and confirm with the code from the mailbox', async () => {
    await page.goto('/authentication');
    await page.getByRole('button', { name: 'Create an account' }).or(page.getByRole('link', { name: 'Create an account' })).click();
    await expect(page.getByRole('heading', { name: 'Create an account' })).toBeVisible();
    await page.getByRole('textbox', { name: 'E-mail' }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('heading', { name: 'Confirm your e-mail' })).toBeVisible();
    const code = await readCodeFromMailbox(page, email, 'Sign-up confirmation');
    await page.getByRole('textbox', { name: 'Confirmation code' }).fill(code);
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
  });

  await test.step('sign in', async () => {
    await signIn(page, email);
  });

  await test.step('the Verify Email modal: Resend, the code from the mailbox, Verify', async () => {
    const modal = page.getByRole('dialog', { name: MESSAGES.verifyEmail.title });
    await expect(modal).toBeVisible();
    await expect(modal.getByText(MESSAGES.verifyEmail.text)).toBeVisible();
    const before = await mailboxCode(request, email, 'E-mail verification');
    await modal.getByRole('button', { name: 'Resend' }).click();
    const code = await readCodeFromMailbox(page, email, 'E-mail verification', before);
    await modal.getByPlaceholder(MESSAGES.verifyEmail.codePlaceholder).fill(code);
    await modal.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByText(MESSAGES.emailVerified.title, { exact: true })).toBeVisible();
    await expect(page.getByText(MESSAGES.emailVerified.message)).toBeVisible();
    await expect(modal).toBeHidden();
  });

  await test.step('choose a handle on /account and land on /@handle with the balance', async () => {
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();
    await page.getByRole('textbox', { name: 'Handle' }).fill(handle);
    await page.getByRole('button', { name: 'Save handle' }).click();
    await expect(page).toHaveURL(new RegExp(`/@${handle}$`));
    await expect(balance(page)).toHaveText('100 credits');
  });

  await test.step('a reload keeps the user signed in', async () => {
    await page.reload();
    await expect(page).toHaveURL(new RegExp(`/@${handle}$`));
    await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
    await expect(balance(page)).toHaveText('100 credits');
  });

  await test.step('sign out returns to /', async () => {
    await signOut(page);
  });
  expect(errors).toEqual([]);
});

test('"Continue as guest" signs in as the shared guest and shows the welcome modal', async ({ page }) => {
  const errors = watchPageErrors(page);
  await page.goto('/authentication');
  await page.getByRole('button', { name: 'Continue as guest' }).click();
  const modal = page.getByRole('dialog', { name: MESSAGES.guestWelcome.title });
  await expect(modal).toBeVisible();
  for (const point of MESSAGES.guestWelcome.points) await expect(modal.getByText(point)).toBeVisible();
  await modal.getByRole('button', { name: 'Confirm' }).click();
  await expect(modal).toBeHidden();
  await expect(balance(page)).toHaveText(/^\d+ credits$/);

  // The account signed in is the seeded guest (guest@kinora.local), not merely someone.
  const menu = page.getByRole('button', { name: 'Account menu' });
  await expect(menu).toHaveText(/guest/i);
  await menu.click();
  await page.getByRole('menuitem', { name: 'Account' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();
  await expect(page.getByText('Signed in as the shared guest account.')).toBeVisible();
  await expect(page.getByText(/The guest account is shared, so its handle cannot be changed and it cannot be deleted/)).toBeVisible();
  // The guest's page is the limited one: no handle to choose, nothing to delete.
  await expect(page.getByRole('textbox', { name: 'Handle' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete my account' })).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('a coupon in the URL while signed out is redeemed once after sign-in; a second use adds nothing', async ({ page, request }) => {
  test.setTimeout(90_000);
  const account = await createAccount(request, { prefix: 'coupon', handle: freshHandle('coupon') });

  await openThenSignIn(page, '/?coupon_code=WELCOME50', account.email);
  const modal = page.getByRole('dialog', { name: MESSAGES.couponSuccess.title });
  await expect(modal).toBeVisible();
  await expect(modal.getByText(MESSAGES.couponSuccess.message(50))).toBeVisible();
  await modal.getByRole('button', { name: 'Confirm' }).click();
  await expect(modal).toBeHidden();
  await expect(balance(page)).toHaveText('150 credits');
  await signOut(page);

  // The second redemption's answer (the server refuses a coupon used before), then two frames for
  // the app to show whatever it would show about it.
  const refused = page.waitForResponse((answer) => new URL(answer.url()).pathname === '/api/coupon/WELCOME50');
  await openThenSignIn(page, '/?coupon_code=WELCOME50', account.email);
  await expect(page).toHaveURL(new RegExp(`/@${account.handle}$`));
  await expect(balance(page)).toHaveText('150 credits');
  const answer = await refused;
  expect(answer.status()).toBe(409);
  await answer.finished();
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
  // Failure is silent (SPEC §4): no modal, no toast, and the balance stays.
  await expect(page.getByRole('dialog', { name: MESSAGES.couponSuccess.title })).toHaveCount(0);
  await page.reload();
  await expect(balance(page)).toHaveText('150 credits');
});

test('an allowlisted redirect_uri receives the code and the state after sign-in', async ({ page, request, baseURL }) => {
  const account = await createAccount(request, { prefix: 'partner', handle: freshHandle('partner') });
  const target = `${baseURL ?? ''}/local/redirect-target`;

  await openThenSignIn(page, `/?redirect_uri=${target}&state=xyz`, account.email);

  await expect(page).toHaveURL((url) => `${url.origin}${url.pathname}` === target && url.searchParams.get('state') === 'xyz');
  const url = new URL(page.url());
  expect(url.searchParams.get('code')).toBeTruthy();
  await expect(page.getByRole('heading', { name: 'Signed in to the partner app' })).toBeVisible();
  await expect(page.locator('#state')).toHaveText('xyz');
  await expect(page.getByText(`The code is a valid access token for user ${account.email}.`)).toBeVisible();
});

test('a redirect_uri not on the allowlist is refused: the user stays signed in and nothing leaves', async ({ page, request, baseURL }) => {
  const account = await createAccount(request, { prefix: 'refused', handle: freshHandle('refused') });
  const evil = 'https://evil.example/cb';
  const leaked: string[] = [];
  await page.route('https://evil.example/**', (route) => {
    leaked.push(route.request().url());
    return route.abort();
  });

  await openThenSignIn(page, `/?redirect_uri=${encodeURIComponent(evil)}&state=xyz`, account.email);

  const modal = page.getByRole('dialog', { name: 'Sign-in not sent' });
  await expect(modal).toBeVisible();
  await expect(modal).toContainText(evil);
  await modal.getByRole('button', { name: 'Confirm' }).click();
  await expect(modal).toBeHidden();
  expect(new URL(page.url()).origin).toBe(new URL(baseURL ?? page.url()).origin);
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  expect(leaked).toEqual([]);
});
