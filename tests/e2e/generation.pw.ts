import { writeFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { createAccount, freshHandle } from './helpers/accounts';
import { balance, pickFiles, signIn, watchPageErrors } from './helpers/ui';
import { JOB_END_MS } from './helpers/stack';

/**
 * Generation jobs as a person meets them on `npm start`'s stack: the real job engine, ledger and
 * local render engine behind the real API server. The stack runs jobs for E2E_JOB_DURATION_MS
 * (playwright.config.ts), long enough to watch, cancel and reload in the middle of one.
 */

/** Signs in a person who has a handle (SPEC §2.1 sends anyone without one to /account on every load). */
async function signInAs(page: Page, email: string): Promise<void> {
  await page.goto('/authentication');
  await signIn(page, email);
  await expect(balance(page)).toHaveText('100 credits');
}

const jobsButton = (page: Page) => page.getByRole('button', { name: /^Jobs/ });
const jobsDrawer = (page: Page) => page.getByRole('dialog', { name: 'Jobs' });

async function generateImage(page: Page, prompt: string): Promise<void> {
  await page.goto('/ai-image/text-to-image');
  await expect(page.getByRole('heading', { name: 'Text to Image', level: 1 })).toBeVisible();
  await page.getByRole('textbox', { name: 'Prompt' }).fill(prompt);
  await page.getByRole('button', { name: 'Generate' }).click();
}

test('generate an image: the jobs panel shows its progress and the result image loads', async ({ page, request }) => {
  const errors = watchPageErrors(page);
  const { email } = await createAccount(request, { prefix: 'gen-image', handle: freshHandle('gen-im') });
  await signInAs(page, email);

  await generateImage(page, 'a lighthouse on a cliff at sunset');
  // The cheapest default model costs 4 credits; the debit shows at once.
  await expect(balance(page)).toHaveText('96 credits');
  await expect(page).toHaveTitle(/^\(1\) /);

  await jobsButton(page).click();
  const drawer = jobsDrawer(page);
  await expect(drawer).toBeVisible();
  const job = drawer.getByRole('listitem').filter({ hasText: 'Text to Image' }).first();
  await expect(job).toContainText(/Queued|Processing/);
  await expect(job.getByRole('progressbar')).toBeVisible();
  await expect(job).toContainText('Succeeded', { timeout: JOB_END_MS });
  await page.keyboard.press('Escape');

  const result = page.getByRole('img', { name: /lighthouse on a cliff/ }).first();
  await expect(result).toBeVisible();
  await expect.poll(() => result.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(page).not.toHaveTitle(/^\(\d+\) /);
  expect(errors).toEqual([]);
});

test('cancel a running job from the jobs panel: it ends cancelled and the credits come back', async ({ page, request }) => {
  const { email } = await createAccount(request, { prefix: 'gen-cancel', handle: freshHandle('gen-ca') });
  await signInAs(page, email);

  await generateImage(page, 'a slow painting of a forest');
  await expect(balance(page)).toHaveText('96 credits');
  await jobsButton(page).click();
  const job = jobsDrawer(page).getByRole('listitem').filter({ hasText: 'Text to Image' }).first();
  await job.getByRole('button', { name: 'Cancel' }).click();
  await expect(job).toContainText('Cancelled');
  await expect(job).toContainText('Refunded');
  await expect(balance(page)).toHaveText('100 credits');
});

test('reload in the middle of a job: monitoring resumes and the job finishes', async ({ page, request }) => {
  const { email } = await createAccount(request, { prefix: 'gen-reload', handle: freshHandle('gen-re') });
  await signInAs(page, email);

  await generateImage(page, 'a harbour at dawn with boats');
  await expect(page).toHaveTitle(/^\(1\) /);
  await page.reload();
  await expect(page).toHaveTitle(/^\(1\) /);
  await jobsButton(page).click();
  const job = jobsDrawer(page).getByRole('listitem').filter({ hasText: 'Text to Image' }).first();
  await expect(job).toContainText('Succeeded', { timeout: JOB_END_MS });
  await page.keyboard.press('Escape');
  await expect(page.getByRole('img', { name: /harbour at dawn/ }).first()).toBeVisible();
  await expect(balance(page)).toHaveText('96 credits');
});

test('text to speech makes audio that plays', async ({ page, request }) => {
  const { email } = await createAccount(request, { prefix: 'gen-speech', handle: freshHandle('gen-sp') });
  await signInAs(page, email);

  await page.goto('/ai-audio/text-to-speech');
  await page.getByRole('textbox', { name: 'Text' }).fill('Hello from Kinora. This is a test of the speech tool.');
  await page.getByRole('button', { name: 'Generate' }).click();
  const audio = page.locator('audio').first();
  await expect(audio).toBeAttached({ timeout: JOB_END_MS });
  await expect.poll(() => audio.evaluate((element: HTMLAudioElement) => element.readyState >= 1 && element.duration > 0), { timeout: 15_000 }).toBe(true);
  await audio.evaluate(async (element: HTMLAudioElement) => {
    element.muted = true;
    await element.play();
  });
  // Time advances while it plays: waited on as it happens, not after a fixed pause.
  await expect.poll(() => audio.evaluate((element: HTMLAudioElement) => element.currentTime), { timeout: 15_000 }).toBeGreaterThan(0);
});

test('an oversized upload is refused with a clear message and nothing is sent', async ({ page, request }) => {
  const { email } = await createAccount(request, { prefix: 'gen-upload', handle: freshHandle('gen-up') });
  await signInAs(page, email);
  const uploads: string[] = [];
  page.on('request', (sent) => {
    if (sent.method() === 'POST' && /\/api\/(image|audio|video|users\/me\/file)(\?|$)/.test(sent.url())) uploads.push(sent.url());
  });

  await page.goto('/ai-image/image-to-image');
  // 30 000 001 bytes: one byte over the image limit of SPEC §5. Picked from a file on disk, as a
  // person would: a buffer this size would be sent to the browser over Playwright's protocol
  // (half a minute on a busy machine), a path is handed to the local browser as it is.
  const big = Buffer.alloc(30_000_001, 0);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(big);
  const file = test.info().outputPath('huge photo.png');
  await writeFile(file, big);
  await pickFiles(page.locator('input[type="file"]').first(), file);
  await expect(page.getByText(/30 MB/).first()).toBeVisible();
  await expect(page.getByText(/huge_photo\.png|huge photo\.png/).first()).toBeVisible();
  expect(uploads).toEqual([]);

  // And image to image without a picture says what SPEC says.
  await page.getByRole('textbox', { name: 'Prompt' }).fill('make it blue');
  await page.getByRole('button', { name: 'Generate' }).click();
  await expect(page.getByText('No upload file')).toBeVisible();
  expect(uploads).toEqual([]);
});

test('upload a picture and turn it into a new one with image to image', async ({ page, request }) => {
  const { email } = await createAccount(request, { prefix: 'gen-i2i', handle: freshHandle('gen-i2') });
  await signInAs(page, email);

  await page.goto('/ai-image/image-to-image');
  // A real 64×48 PNG, red: what a person picks from their disk.
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAEAAAAAwCAIAAAAuKetIAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAdUlEQVR4nO2SAQkAQBCD7F/ajyHHDwygYwinITdwAeQrugtxF3IDF0C+orsQdyE3cAHkK7oLcRdyAxdAvqK7EHchN3AB5Cu6C3EXcgMXQL6iuxB3ITdwAeQrugtxF3IDF0C+orsQdyE3cAHkK7oLcRdyAz8PeKXB9KYqDI8cAAAAAElFTkSuQmCC',
    'base64',
  );
  await pickFiles(page.locator('input[type="file"]').first(), { name: 'my photo.png', mimeType: 'image/png', buffer: png });
  await expect(page.getByRole('img', { name: /my photo\.png/ }).first()).toBeVisible({ timeout: 15_000 });
  await page.getByRole('textbox', { name: 'Prompt' }).fill('the same scene in deep blue');
  await page.getByRole('button', { name: 'Generate' }).click();
  const result = page.getByRole('img', { name: /same scene in deep blue/ }).first();
  await expect(result).toBeVisible({ timeout: JOB_END_MS });
  await expect.poll(() => result.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
});
