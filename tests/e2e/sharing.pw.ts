import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { createAccount, freshHandle } from './helpers/accounts';
import { expectPlayable } from './helpers/media';
import { balance, pickFiles, signIn, watchPageErrors } from './helpers/ui';

/**
 * Sharing as a creator meets it on `npm start`'s stack (issue 7): a real video made with Parallax
 * Motion is shared with a title and a description, then found by a signed-out visitor on the
 * creator's profile (searchable) and on the Latest page, where it plays.
 */

test.describe.configure({ timeout: 180_000 });

async function picture(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="320">
    <rect width="480" height="320" fill="#2b6cb0"/><circle cx="170" cy="150" r="70" fill="#fff8"/>
    <rect x="300" y="170" width="120" height="110" fill="#0006"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function makeVideo(page: Page): Promise<void> {
  await page.goto('/ai-video/parallax-motion');
  await pickFiles(page.locator('input[type="file"]').first(), { name: 'harbour.png', mimeType: 'image/png', buffer: await picture() });
  await expect(page.getByRole('img', { name: /harbour\.png/ }).first()).toBeVisible({ timeout: 20_000 });
  await page.getByRole('group', { name: 'Camera paths' }).getByRole('checkbox', { name: 'Horizontal' }).check();
  await page.getByRole('textbox', { name: 'Length (seconds)' }).fill('2');
  await page.getByRole('button', { name: 'Generate' }).click();
  await expect(balance(page)).toHaveText('80 credits');
  await expect(page.getByRole('region', { name: 'Results' }).locator('video')).toHaveCount(1, { timeout: 90_000 });
}

test('share a video: a signed-out visitor finds it on the profile and the Latest page, and it plays', async ({ page, browser, request }) => {
  const errors = watchPageErrors(page);
  const handle = freshHandle('share');
  const { email } = await createAccount(request, { prefix: 'share', handle });
  await page.goto('/authentication');
  await signIn(page, email);
  await expect(balance(page)).toHaveText('100 credits');
  await makeVideo(page);

  const title = `Harbour at noon ${Date.now().toString(36)}`;
  const results = page.getByRole('region', { name: 'Results' });
  await results.getByRole('button', { name: /^Share / }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Share this result' });
  await dialog.getByRole('textbox', { name: 'Title' }).fill('');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Give it a title.')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Title' }).fill(title);
  await dialog.getByRole('textbox', { name: 'Description' }).fill('A slow horizontal drift over the harbour.');
  await dialog.getByRole('radio', { name: /^Public/ }).check();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Saved.')).toBeVisible();
  const link = await dialog.getByRole('textbox', { name: 'Link' }).inputValue();
  expect(link).toMatch(/\/shared\/[^/]+$/);
  await page.keyboard.press('Escape');

  // Someone who is not signed in.
  const visitor = await (await browser.newContext()).newPage();
  const visitorErrors = watchPageErrors(visitor);
  await visitor.goto(`/@${handle}`);
  await expect(visitor.getByRole('heading', { name: `@${handle}`, level: 1 })).toBeVisible();
  await expect(visitor.getByText(title)).toBeVisible();
  await expectPlayable(visitor.locator('video').first(), 2);
  await visitor.getByRole('searchbox', { name: 'Search' }).fill('drift');
  await expect(visitor.getByText(title)).toBeVisible();
  await visitor.getByRole('searchbox', { name: 'Search' }).fill('volcano');
  await expect(visitor.getByText('No results for "volcano".')).toBeVisible();

  await visitor.goto('/latest');
  await expect(visitor.getByRole('heading', { name: 'Latest', level: 1 })).toBeVisible();
  const item = visitor.getByRole('article').filter({ hasText: title });
  await expect(item).toBeVisible();
  await expect(item.getByRole('link', { name: `@${handle}` })).toBeVisible();

  // The shared page opens from its link.
  await visitor.goto(link);
  await expect(visitor.getByRole('heading', { name: title })).toBeVisible();
  await expect(visitor.getByText('A slow horizontal drift over the harbour.')).toBeVisible();
  await expectPlayable(visitor.locator('video').first(), 2);
  expect(visitorErrors).toEqual([]);
  expect(errors).toEqual([]);
});
