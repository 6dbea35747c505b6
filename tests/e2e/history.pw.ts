import { expect, test, type Page } from '@playwright/test';
import { createAccount, freshHandle } from './helpers/accounts';
import { jobsButton, jobsDrawer, signInAs } from './helpers/a11y-pages';
import { JOB_END_MS } from './helpers/stack';
import { balance, watchPageErrors } from './helpers/ui';

/**
 * Jobs from any device (issue 21 item 1) on `npm start`'s stack: a job started in one browser is
 * followed and cancelled from a second one signed in as the same person, and the History page
 * searches the person's jobs, shows a job's exact parameters, runs it again and remixes it.
 */

async function startTextToImage(page: Page, prompt: string): Promise<void> {
  await page.goto('/ai-image/text-to-image');
  await expect(page.getByRole('heading', { name: 'Text to Image', level: 1 })).toBeVisible();
  await page.getByRole('textbox', { name: 'Prompt' }).fill(prompt);
  await page.getByRole('button', { name: 'Generate' }).click();
}

test('a job followed and cancelled from a second browser; History searches, re-runs and remixes it', async ({ browser, page, request }) => {
  test.setTimeout(120_000);
  const errors = watchPageErrors(page);
  const { email } = await createAccount(request, { prefix: 'history', handle: freshHandle('hist') });
  const prompt = `a paper lantern on a night river ${Date.now().toString(36)}`;

  // The second browser (its own storage: nothing of the first one's jobs) is signed in first.
  const other = await browser.newContext();
  const second = await other.newPage();
  const secondErrors = watchPageErrors(second);
  await signInAs(second, email);
  await signInAs(page, email);

  // The job starts in the first browser; the second one is opened again and asks the server.
  await startTextToImage(page, prompt);
  await expect(balance(page)).toHaveText('96 credits');
  await second.reload();
  await expect(balance(second)).toHaveText('96 credits');
  await expect(second).toHaveTitle(/^\(1\) /);
  await jobsButton(second).click();
  const remote = jobsDrawer(second).getByRole('listitem').filter({ hasText: 'Text to Image' }).first();
  await expect(remote).toContainText(/Queued|Processing/);
  await expect(remote.getByRole('progressbar')).toBeVisible();
  await expect(remote.getByRole('link', { name: 'Inspect Text to Image job' })).toBeVisible();
  await remote.getByRole('button', { name: 'Cancel' }).click();
  await expect(remote).toContainText('Cancelled');
  await expect(balance(second)).toHaveText('100 credits');

  // The first browser's own job actor finds it cancelled.
  await jobsButton(page).click();
  const own = jobsDrawer(page).getByRole('listitem').filter({ hasText: 'Text to Image' }).first();
  await expect(own).toContainText('Cancelled', { timeout: JOB_END_MS });
  await jobsDrawer(page).getByRole('link', { name: 'All jobs (history)' }).click();

  // History: the job found by its prompt text, its exact parameters.
  await expect(page.getByRole('heading', { name: 'History', level: 1 })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Prompt text' }).fill(prompt.split(' ').slice(-2).join(' '));
  const jobs = page.getByRole('table', { name: 'Your jobs' });
  await expect(jobs.getByRole('row')).toHaveCount(2);
  const row = jobs.getByRole('row').nth(1);
  await expect(row).toContainText('Cancelled');
  await row.getByRole('button', { name: 'Parameters of the Text to Image job' }).click();
  const parameters = page.getByRole('dialog', { name: 'Text to Image job parameters' });
  await expect(parameters.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'prompt', exact: true }) })).toContainText(prompt);
  await parameters.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(parameters).toBeHidden();

  // Re-run: the same parameters as a new job, paid for, followed in the jobs panel.
  await row.getByRole('button', { name: 'Re-run the Text to Image job with the same parameters' }).click();
  await expect(page.getByText('Text to Image started again: follow it in the jobs panel.')).toBeVisible();
  await expect(balance(page)).toHaveText('96 credits');
  // The panel lists it beside the cancelled one (running, or already done on a quick machine).
  await jobsButton(page).click();
  await expect(jobsDrawer(page).getByRole('listitem').filter({ hasText: 'Text to Image' })).toHaveCount(2);
  await page.keyboard.press('Escape');

  // The job recorded its seed (issue 21 item 7); Vary runs the same settings with a new one.
  await expect(row.getByRole('cell').nth(3)).toHaveText(/^\d+$/);
  await row.getByRole('button', { name: 'Vary the Text to Image job: the same settings with a new seed' }).click();
  await expect(balance(page)).toHaveText('92 credits');
  await jobsButton(page).click();
  await expect(jobsDrawer(page).getByRole('listitem').filter({ hasText: 'Text to Image' })).toHaveCount(3);
  await page.keyboard.press('Escape');

  // Remix: Text to Image with the job's prompt filled in.
  await row.getByRole('link', { name: /^Remix the Text to Image job/ }).click();
  await expect(page).toHaveURL(/\/ai-image\/text-to-image\?remix=/);
  await expect(page.getByText('Filled in from a previous job — check and press Generate')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Prompt' })).toHaveValue(prompt);
  await expect(page.getByRole('textbox', { name: 'Seed (optional)' })).toHaveValue(/^\d+$/);

  expect(errors).toEqual([]);
  expect(secondErrors).toEqual([]);
  await other.close();
});
