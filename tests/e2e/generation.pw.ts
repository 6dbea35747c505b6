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

test('two pictures in one run with a negative prompt: each with its seed, compared side by side, one upscaled', async ({ page, request }) => {
  const errors = watchPageErrors(page);
  const { email } = await createAccount(request, { prefix: 'gen-runs', handle: freshHandle('gen-ru') });
  await signInAs(page, email);
  await page.goto('/ai-image/text-to-image');
  await expect(page.getByRole('heading', { name: 'Text to Image', level: 1 })).toBeVisible();

  // Issue 21 item 7: a model that makes several pictures per run and takes a negative prompt.
  await page.getByRole('combobox', { name: 'Model' }).click();
  await page.getByRole('option', { name: 'Stable Diffusion 3.5 · 4 credits' }).click();
  await page.getByRole('radiogroup', { name: 'Images' }).getByText('2', { exact: true }).click();
  await expect(page.getByTestId('generation-cost')).toHaveText('Costs 8 credits (2 images × 4 credits) · you have 100');
  await page.getByRole('textbox', { name: 'Prompt', exact: true }).fill('a misty forest lake at night');
  await page.getByRole('textbox', { name: 'Negative prompt (optional)' }).fill('night');
  await page.getByRole('textbox', { name: 'Seed (optional)' }).fill('4242');
  await page.getByRole('button', { name: 'Generate' }).click();
  await expect(balance(page)).toHaveText('92 credits');

  // One result card with both pictures, each showing the seed it was made with.
  const card = page.getByRole('article').filter({ hasText: 'a misty forest lake at night' });
  const first = card.getByRole('img', { name: '1.1.StableDiffusion3.5: a misty forest lake at night' });
  const second = card.getByRole('img', { name: '1.2.StableDiffusion3.5: a misty forest lake at night' });
  await expect(second).toBeVisible({ timeout: JOB_END_MS });
  await expect(first).toBeVisible();
  await expect(card.getByText('Seed 4243')).toBeVisible();
  await expect(card.getByText('Seed 4242')).toHaveCount(2);

  // Compare them: the split moves from the keyboard and by dragging; each side says what made it.
  await card.getByRole('checkbox', { name: 'Compare 1.1.StableDiffusion3.5' }).check();
  await card.getByRole('checkbox', { name: 'Compare 1.2.StableDiffusion3.5' }).check();
  await page.getByRole('button', { name: 'Compare side by side' }).click();
  const compare = page.getByRole('dialog', { name: 'Compare two results' });
  const slider = compare.getByRole('slider', { name: 'Split between the two pictures' });
  await slider.focus();
  await page.keyboard.press('ArrowRight');
  await expect(slider).toHaveAttribute('aria-valuenow', '51');
  const area = await compare.getByTestId('compare-split').boundingBox();
  if (!area) throw new Error('the compare view has no size');
  await page.mouse.move(area.x + area.width * 0.5, area.y + area.height / 2);
  await page.mouse.down();
  await page.mouse.move(area.x + area.width * 0.25, area.y + area.height / 2, { steps: 4 });
  await page.mouse.up();
  await expect(slider).toHaveAttribute('aria-valuenow', '25');
  await expect(compare.getByRole('region', { name: '1.2.StableDiffusion3.5' })).toContainText('4243');
  await expect(compare.getByRole('region', { name: '1.1.StableDiffusion3.5' })).toContainText('8 credits for the run of 2');
  await page.keyboard.press('Escape');
  await expect(compare).toBeHidden();

  // Upscale the second picture: Edit Image's Upscale job, charged, in the jobs panel.
  await card.getByRole('button', { name: 'Upscale 1.2.StableDiffusion3.5 (4 credits)' }).click();
  await expect(balance(page)).toHaveText('88 credits');
  await jobsButton(page).click();
  await expect(jobsDrawer(page).getByRole('listitem').filter({ hasText: 'Edit Image' })).toHaveCount(1);
  expect(errors).toEqual([]);
});
