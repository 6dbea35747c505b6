import { expect, test } from '@playwright/test';
import { createAccount, freshHandle } from './helpers/accounts';
import { expectPlayable } from './helpers/media';
import { balance, signIn, watchPageErrors } from './helpers/ui';
import { JOB_END_MS } from './helpers/stack';

/**
 * AI Story as a creator meets it on `npm start`'s stack (issue 6): an idea becomes a storyboard,
 * pictures of its elements and scenes, a video per scene and a narration, joined into one film that
 * plays — with a reload in the middle of the scenes step, and one scene changed and made again
 * without redoing the others. Real server, real job engine, real MP4s.
 */

test.describe.configure({ timeout: 300_000 });

const IDEA =
  'Mara, a young lighthouse keeper, finds a glowing map on the beach. She sails her small boat across the stormy sea. ' +
  'At dawn she reaches a hidden island full of singing birds.';

test('an idea becomes a film; a reload mid-scenes resumes; one changed scene is made again alone', async ({ page, request }) => {
  const errors = watchPageErrors(page);
  const { email } = await createAccount(request, { prefix: 'story', handle: freshHandle('story') });
  await page.goto('/authentication');
  await signIn(page, email);
  await expect(balance(page)).toHaveText('100 credits');
  await page.goto('/?coupon_code=WELCOME50');
  await expect(page.getByRole('dialog', { name: 'Congratulations!' })).toBeVisible();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(balance(page)).toHaveText('150 credits');

  // Idea → storyboard (free).
  await page.goto('/ai-production/ai-story');
  await expect(page.getByRole('heading', { name: 'AI Story', level: 1 })).toBeVisible();
  await page.getByRole('textbox', { name: 'Your idea' }).fill(IDEA);
  await page.getByRole('combobox', { name: 'Film length' }).click();
  await page.getByRole('option', { name: '15 seconds' }).click();
  await page.getByRole('button', { name: 'Write storyboard' }).click();
  await expect(page).toHaveURL(/\/ai-production\/ai-story\/[^/]+$/);
  const storyUrl = page.url();
  await expect(page.getByRole('heading', { name: 'Storyboard', level: 2 })).toBeVisible();
  await expect(page.getByText('3 scenes · 15 s in all')).toBeVisible();
  await expect(balance(page)).toHaveText('150 credits');

  // Elements: one picture each, paid before they are made.
  await page.getByRole('button', { name: 'Next: Elements' }).click();
  const pictureCost = page.getByText(/^\d+ pictures × 4 credits = \d+ credits/);
  await expect(pictureCost).toBeVisible();
  const elementCount = Number(/^(\d+)/.exec((await pictureCost.textContent()) ?? '')?.[1]);
  expect(elementCount).toBeGreaterThanOrEqual(2);
  await page.getByRole('button', { name: 'Make pictures' }).click();
  await expect(balance(page)).toHaveText(`${150 - elementCount * 4} credits`);
  await expect(page.getByText('Ready', { exact: true })).toHaveCount(elementCount, { timeout: 60_000 });

  // Scenes: start them, reload while they are being made, and the page resumes where it was.
  await page.getByRole('button', { name: 'Next: Scenes' }).click();
  await expect(page.getByText('3 scene pictures × 4 credits = 12 credits', { exact: false })).toBeVisible();
  await page.getByRole('button', { name: 'Make scene pictures' }).click();
  const afterScenes = 150 - elementCount * 4 - 12;
  await expect(balance(page)).toHaveText(`${afterScenes} credits`);
  await page.reload();
  await expect(page).toHaveURL(storyUrl);
  await expect(page.getByRole('heading', { name: 'Scenes', level: 2 })).toBeVisible();
  for (const number of [1, 2, 3]) {
    await expect(page.getByRole('img', { name: `Picture of scene ${number}` })).toBeVisible({ timeout: 60_000 });
  }
  await expect(page.getByText('Ready', { exact: true })).toHaveCount(3, { timeout: 60_000 });
  await expect(balance(page)).toHaveText(`${afterScenes} credits`);

  // Change scene 2's words: only its picture turns stale; making again sends only scene 2.
  // The files, not their links: a link is signed afresh (a new expiry) each time the story is read.
  const pictureFiles = () =>
    Promise.all(
      [1, 3].map(async (number) => {
        const src = await page.getByRole('img', { name: `Picture of scene ${number}` }).getAttribute('src');
        return src ? new URL(src, page.url()).pathname : null;
      }),
    );
  const firstPictures = await pictureFiles();
  await page.getByRole('button', { name: 'Back' }).click();
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByRole('heading', { name: 'Storyboard', level: 2 })).toBeVisible();
  await page.getByRole('textbox', { name: 'What happens' }).nth(1).fill('She rows her small boat through towering waves under a purple sky.');
  await page.getByRole('button', { name: 'Next: Elements' }).click();
  await page.getByRole('button', { name: 'Next: Scenes' }).click();
  await expect(page.getByText('Stale', { exact: true })).toHaveCount(1);
  await expect(page.getByText('Ready', { exact: true })).toHaveCount(2);
  await expect(page.getByText('1 scene picture × 4 credits = 4 credits', { exact: false })).toBeVisible();
  const regenerate = page.waitForRequest((sent) => /\/api\/story\/[^/]+\/scenes$/.test(sent.url()) && sent.method() === 'POST');
  await page.getByRole('button', { name: 'Regenerate the picture of scene 2' }).click();
  const body = (await regenerate).postData() ?? '';
  expect(body.match(/name="ids"/g)).toHaveLength(1);
  expect(body).toContain('scene-2');
  await expect(balance(page)).toHaveText(`${afterScenes - 4} credits`);
  await expect(page.getByText('Ready', { exact: true })).toHaveCount(3, { timeout: 60_000 });
  // The other two scenes kept their pictures.
  expect(await pictureFiles()).toEqual(firstPictures);
  expect(firstPictures.every((path) => path?.startsWith('/api/files/'))).toBe(true);

  // Scriptboard: a video per scene, the narration, then the film.
  await page.getByRole('button', { name: 'Next: Scriptboard' }).click();
  await expect(page.getByText('3 videos × 20 credits = 60 credits', { exact: false })).toBeVisible();
  await page.getByRole('button', { name: 'Make videos' }).click();
  await page.getByRole('button', { name: 'Make sound' }).click();
  const spent = elementCount * 4 + 12 + 4 + 60 + 8;
  await expect(balance(page)).toHaveText(`${150 - spent} credits`);
  const timeline = page.getByRole('list', { name: 'Timeline' });
  await expect(timeline.locator('video')).toHaveCount(3, { timeout: 120_000 });
  await expect(page.getByRole('button', { name: 'Make the film' })).toBeEnabled({ timeout: 120_000 });
  await page.getByRole('button', { name: 'Make the film' }).click();
  await expect(page.getByText('Your film is ready')).toBeVisible({ timeout: 120_000 });
  const film = page.locator('video[aria-label="The film"]').first();
  await expectPlayable(film, 15, 0.6);
  await expect(page.getByRole('link', { name: 'Download MP4' })).toHaveAttribute('download', /\.mp4$/);
  // Joining is free.
  await expect(balance(page)).toHaveText(`${150 - spent} credits`);

  // Leave and come back: the story is listed and reopens on its film.
  await page.goto('/ai-production/ai-story');
  await page.getByRole('link', { name: /Open Mara/ }).click();
  await expect(page.getByText('Your film is ready')).toBeVisible({ timeout: JOB_END_MS });
  expect(errors).toEqual([]);
});
