import { expect, type Locator, type Page } from '@playwright/test';
import { PASSWORD } from './accounts';

/** Uncaught errors of the page, to assert there were none. */
export function watchPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** Fills and sends the sign-in form of /authentication. */
export async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Sign in', exact: true })).toBeVisible();
  await page.getByRole('textbox', { name: 'E-mail' }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** The header's "{n} credits". */
export const balance = (page: Page): Locator => page.getByLabel('Credit balance');

/** The header's "Sign in" link, shown only while nobody is signed in. */
export const headerSignInLink = (page: Page): Locator => page.getByRole('banner').getByRole('link', { name: 'Sign in', exact: true });

/** The sign-in flow's failure alert ("That did not work" + the message). */
export const authAlert = (page: Page): Locator => page.getByRole('alert').filter({ hasText: 'That did not work' });

/**
 * Picks files in a file input as a person would, once the page is live. Playwright's
 * setInputFiles does not wait for the input to be usable: on a prerendered page the input is
 * drawn (disabled) before React has taken the page over, and files set on it then are lost.
 */
export async function pickFiles(input: Locator, files: Parameters<Locator['setInputFiles']>[0]): Promise<void> {
  await expect(input).toBeEnabled();
  await input.setInputFiles(files);
}
