import { expect, test, type Page } from '@playwright/test';
import { createAccount, freshHandle } from './helpers/accounts';
import { jobsButton, jobsDrawer, signInAs } from './helpers/a11y-pages';
import { JOB_END_MS } from './helpers/stack';
import { balance, watchPageErrors } from './helpers/ui';

/**
 * Jobs from any device (issue 21 item 1) on `npm start`'s stack: a job started in one browser is
 * followed and cancelled from a second one signed in as the same person, and the History page
 * searches the person's jobs, shows a job's exact parameters, runs it again and remixes it; the
 * finished jobs are in the Library (issue 21 item 7), kept in a folder and opened from History;
 * History follows a job it lists, started in the other browser, from running to cancelled.
 */

async function startTextToImage(page: Page, prompt: string): Promise<void> {
  await page.goto('/ai-image/text-to-image');
  await expect(page.getByRole('heading', { name: 'Text to Image', level: 1 })).toBeVisible();
  await page.getByRole('textbox', { name: 'Prompt' }).fill(prompt);
  await page.getByRole('button', { name: 'Generate' }).click();
}

test('a job followed and cancelled from a second browser; History searches, re-runs and remixes it; the Library keeps the results', async ({ browser, page, request }) => {
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

  // The Library (issue 21 item 7): the re-run and the varied job, once finished, are among the
  // person's results; a folder is made and one put in it; History's row opens its result there.
  await jobsButton(page).click();
  await expect(jobsDrawer(page).getByRole('listitem').filter({ hasText: 'Succeeded' })).toHaveCount(2, { timeout: JOB_END_MS });
  await jobsDrawer(page).getByRole('link', { name: 'All results (library)' }).click();
  await expect(page.getByRole('heading', { name: 'Library', level: 1 })).toBeVisible();
  const results = page.getByRole('list', { name: 'Your results' });
  await expect(results.getByRole('article', { name: `Text to Image: ${prompt}` })).toHaveCount(2);
  const folders = page.getByRole('navigation', { name: 'Folders' });
  await folders.getByRole('button', { name: 'New folder' }).click();
  const newFolder = page.getByRole('dialog', { name: 'New folder' });
  await newFolder.getByRole('textbox', { name: 'Folder name' }).fill('Lanterns');
  await newFolder.getByRole('button', { name: 'Create' }).click();
  await expect(newFolder).toBeHidden();
  await results.getByRole('article').first().getByRole('button', { name: /^Folders of / }).click();
  await page.getByRole('checkbox', { name: 'Lanterns' }).click();
  await expect(folders.getByRole('button', { name: /Lanterns/ })).toContainText('1 result');
  await page.keyboard.press('Escape');
  await folders.getByRole('button', { name: /Lanterns/ }).click();
  await expect(page.getByRole('heading', { name: 'Folder: Lanterns' })).toBeVisible();
  await expect(results.getByRole('article')).toHaveCount(1);

  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Job history' }).click();
  await page.getByRole('link', { name: 'Open the Text to Image result in the Library' }).first().click();
  await expect(page).toHaveURL(/\/library\?item=/);
  const opened = results.locator('article[aria-current="true"]');
  await expect(opened).toHaveAccessibleName(`Text to Image: ${prompt}`);
  await expect(opened).toBeFocused();

  // History follows its live rows: a long job started in the second browser is listed running in
  // the first one's History, and turns cancelled there, without a reload, once the second browser
  // cancels it ([slow]: the stand-in takes ten times as long, so it is still running when seen).
  const slow = `[slow] ${prompt} by the mill`;
  await startTextToImage(second, slow);
  await expect(balance(second)).toHaveText('88 credits');
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Job history' }).click();
  await page.getByRole('searchbox', { name: 'Prompt text' }).fill('by the mill');
  await expect(jobs.getByRole('row')).toHaveCount(2);
  const live = jobs.getByRole('row').nth(1);
  await expect(live.getByRole('cell').nth(1)).toHaveText(/^(Queued|Running)/);
  await jobsButton(second).click();
  await jobsDrawer(second).getByRole('listitem').filter({ has: second.getByRole('button', { name: 'Cancel' }) }).getByRole('button', { name: 'Cancel' }).click();
  await expect(live.getByRole('cell').nth(1)).toHaveText('Cancelled');
  await expect(jobs.getByRole('row')).toHaveCount(2);
  // A finished run shows its picture with its seed in the row.
  await page.getByRole('searchbox', { name: 'Prompt text' }).fill(prompt.split(' ').slice(-2).join(' '));
  const finished = jobs.getByRole('row').filter({ hasText: 'Succeeded' }).first();
  await expect(finished.getByRole('group', { name: 'Pictures of the Text to Image job' }).getByRole('button')).toHaveAccessibleName(/^Picture 1 of 1, seed \d+$/);

  expect(errors).toEqual([]);
  expect(secondErrors).toEqual([]);
  await other.close();
});
