import { expect, test, type Page } from '@playwright/test';
import { createAccount } from './helpers/accounts';
import { waitForStillness } from './helpers/axe';
import { balance, signIn, watchPageErrors } from './helpers/ui';

/**
 * Issue 17 item 7: on phones (320–414 px wide) nothing may stick out past the right edge: the
 * document does not scroll sideways, and every visible element's box lies within the viewport.
 * Content inside a sideways-scrolling or clipping container (a wide table in its scroller) counts
 * only as far as that container shows it, and the folded menu (inert, slid out) is not on screen.
 * Screenshots land in test-results/ for a person to look at.
 */

// Each signed-in run visits six pages at one width on a machine that may be busy.
test.describe.configure({ timeout: 180_000 });

const WIDTHS = [320, 375, 414] as const;
const HEIGHT = 800;

interface Overflow {
  element: string;
  left: number;
  right: number;
}

/** Every visible element whose on-screen box crosses the viewport's left or right edge. */
async function overflowing(page: Page): Promise<{ scrollWidth: number; innerWidth: number; offenders: Overflow[] }> {
  return page.evaluate(() => {
    const describe = (element: Element): string => {
      const label = element.getAttribute('aria-label') ?? (element.textContent ?? '').trim().slice(0, 40);
      const id = element.id ? `#${element.id}` : '';
      const className = typeof element.className === 'string' && element.className ? `.${element.className.trim().split(/\s+/).slice(0, 2).join('.')}` : '';
      return `<${element.tagName.toLowerCase()}${id}${className}> "${label}"`;
    };
    const offenders: { element: string; left: number; right: number }[] = [];
    for (const element of document.body.querySelectorAll('*')) {
      if (element.closest('[inert]')) continue;
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      const rect = element.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0) continue;
      let left = rect.left;
      let right = rect.right;
      // Clipped by a scroller or an overflow-hidden box: only the part it shows is on screen. (The
      // body's and the root's overflow belong to the viewport, which is what is measured here.)
      for (let ancestor = element.parentElement; ancestor && ancestor !== document.body; ancestor = ancestor.parentElement) {
        if (getComputedStyle(ancestor).overflowX === 'visible') continue;
        const box = ancestor.getBoundingClientRect();
        left = Math.max(left, box.left);
        right = Math.min(right, box.right);
      }
      if (right - left <= 0) continue;
      if (left < -0.5 || right > window.innerWidth + 0.5) {
        offenders.push({ element: describe(element), left: Math.round(left), right: Math.round(right) });
      }
    }
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, offenders };
  });
}

async function expectNoOverflow(page: Page, name: string, width: number): Promise<void> {
  await expect(page.getByText('Oops, there is an error!')).toHaveCount(0);
  await waitForStillness(page);
  await page.screenshot({ path: `test-results/responsive/${name}-${width}.png`, fullPage: true });
  const result = await overflowing(page);
  // Soft: one test reports every page that overflows, not only the first.
  expect.soft(result.offenders, `elements past the edge of ${name} at ${width} px`).toEqual([]);
  expect.soft(result.scrollWidth, `${name} scrolls sideways at ${width} px`).toBeLessThanOrEqual(result.innerWidth);
}

/** The first page of a cold stack on a busy machine can take a while to load its lazy screen. */
const PAGE_LOAD = { timeout: 30_000 };

/** Generate is at least 44 px tall on phones (issue 17: it was 36 px). */
async function expectThumbSizedGenerate(page: Page): Promise<void> {
  const generate = page.getByRole('button', { name: 'Generate', exact: true });
  await expect(generate).toBeVisible(PAGE_LOAD);
  const box = await generate.boundingBox();
  expect.soft(box?.height ?? 0, 'Generate button height').toBeGreaterThanOrEqual(44);
}

for (const width of WIDTHS) {
  test(`signed out at ${width} px: home and a tool page stay within the viewport`, async ({ page }) => {
    const errors = watchPageErrors(page);
    await page.setViewportSize({ width, height: HEIGHT });
    await page.goto('/');
    await expect(page.getByRole('table', { name: 'Credits per generation' })).toBeVisible(PAGE_LOAD);
    await expectNoOverflow(page, 'home-signed-out', width);
    await page.goto('/ai-image/text-to-image');
    await expect(page.getByRole('heading', { level: 1, name: 'Text to Image' })).toBeVisible(PAGE_LOAD);
    await expectNoOverflow(page, 'tool-signed-out', width);
    await expectThumbSizedGenerate(page);
    expect(errors).toEqual([]);
  });

  test(`signed in at ${width} px: the header, a tool page, AI Story and credits stay within the viewport`, async ({ page, request }) => {
    const errors = watchPageErrors(page);
    // The longest handle the rule allows (30 characters), so the account button is at its widest.
    const handle = `w${width}-${Date.now().toString(36)}`.padEnd(30, 'x');
    const { email } = await createAccount(request, { prefix: `responsive-${width}`, handle });
    await page.setViewportSize({ width, height: HEIGHT });
    await page.goto('/authentication');
    await expect(page.getByRole('heading', { name: 'Sign in', exact: true })).toBeVisible(PAGE_LOAD);
    await signIn(page, email);
    await expect(balance(page)).toHaveText('100 credits', PAGE_LOAD);
    await expect.soft(page.getByRole('button', { name: 'Account menu' })).toBeInViewport({ ratio: 1 });
    await expectNoOverflow(page, 'profile', width);

    await page.goto('/');
    await expect(balance(page)).toHaveText('100 credits', PAGE_LOAD);
    await expectNoOverflow(page, 'home-signed-in', width);

    // After each page load, the signed-in header first: a public page arrives as the visitor's
    // prerendered markup, which the app then replaces; measuring before that measures the markup
    // about to go (a CI run once found the Generate button gone, 0 px tall, mid-replacement).
    await page.goto('/ai-image/text-to-image');
    await expect(balance(page)).toHaveText('100 credits', PAGE_LOAD);
    await expect(page.getByRole('heading', { level: 1, name: 'Text to Image' })).toBeVisible(PAGE_LOAD);
    await expect.soft(page.getByRole('button', { name: 'Account menu' })).toBeInViewport({ ratio: 1 });
    await expectNoOverflow(page, 'tool-signed-in', width);
    await expectThumbSizedGenerate(page);

    // LoRA Finetune: one "?" beside the title, the options' own beside the options.
    await page.goto('/ai-production/finetune');
    await expect(balance(page)).toHaveText('100 credits', PAGE_LOAD);
    await expect(page.getByRole('heading', { level: 1, name: 'LoRA Finetune' })).toBeVisible(PAGE_LOAD);
    const pageHelp = await page.getByRole('button', { name: 'Help: LoRA Finetune' }).boundingBox();
    const optionsHelp = await page.getByRole('button', { name: 'Help: FineTune Options' }).boundingBox();
    expect.soft(Math.abs((pageHelp?.y ?? 0) - (optionsHelp?.y ?? 0)), 'the two help buttons are on different rows').toBeGreaterThan(40);
    await expectNoOverflow(page, 'finetune', width);
    await expectThumbSizedGenerate(page);

    await page.goto('/ai-production/ai-story');
    await expect(balance(page)).toHaveText('100 credits', PAGE_LOAD);
    await expect(page.getByRole('heading', { level: 1, name: 'AI Story' })).toBeVisible(PAGE_LOAD);
    await expectNoOverflow(page, 'ai-story', width);

    await page.goto('/credits');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible(PAGE_LOAD);
    await expect(balance(page)).toHaveText('100 credits', PAGE_LOAD);
    await expectNoOverflow(page, 'credits', width);

    // The account menu opens fully on screen.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await expect(page.getByRole('menu')).toBeInViewport({ ratio: 1 });
    await expectNoOverflow(page, 'account-menu', width);
    expect(errors).toEqual([]);
  });
}

test('at 1366 × 900 the menu shows every group, the current one open, and every tool page is one click away', async ({ page }) => {
  const errors = watchPageErrors(page);
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto('/ai-production/ai-story');
  await expect(page.getByRole('heading', { level: 1, name: 'AI Story' })).toBeVisible(PAGE_LOAD);
  const nav = page.getByRole('navigation', { name: 'Main menu' });
  for (const group of ['AI Audio', 'AI Image', 'AI Video', 'AI Production']) {
    await expect(nav.getByRole('button', { name: `${group} tools`, exact: true })).toBeInViewport({ ratio: 1 });
  }
  await expect(nav.getByRole('link', { name: 'AI Story', exact: true })).toBeInViewport({ ratio: 1 });
  await expect(nav.getByRole('link', { name: 'LoRA Finetune', exact: true })).toBeInViewport({ ratio: 1 });
  await waitForStillness(page);
  await page.screenshot({ path: 'test-results/responsive/menu-1366.png' });

  // Opening AI Video shows all its tools, Parallax Motion, Albums and Upload Video included, above the fold.
  await nav.getByRole('button', { name: 'AI Video tools', exact: true }).click();
  for (const label of ['AI Motion', 'Parallax Motion', 'Restyle Video', 'Upload Video', 'Albums']) {
    await expect(nav.getByRole('link', { name: label, exact: true })).toBeInViewport({ ratio: 1 });
  }
  await nav.getByRole('link', { name: 'Parallax Motion', exact: true }).click();
  await expect(page).toHaveURL(/\/ai-video\/parallax-motion$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Parallax Motion' })).toBeVisible(PAGE_LOAD);
  await waitForStillness(page);
  await page.screenshot({ path: 'test-results/responsive/menu-1366-video.png' });
  expect(errors).toEqual([]);
});

test("the inspector's event log keeps a job's id and each event name on one line at 1366 × 900", async ({ page, request }) => {
  const errors = watchPageErrors(page);
  const { email } = await createAccount(request, { prefix: 'responsive-inspector', handle: `insp-${Date.now().toString(36)}` });
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto('/authentication');
  await expect(page.getByRole('heading', { name: 'Sign in', exact: true })).toBeVisible(PAGE_LOAD);
  await signIn(page, email);
  await expect(balance(page)).toHaveText('100 credits', PAGE_LOAD);
  await page.goto('/ai-image/text-to-image');
  await page.getByRole('textbox', { name: 'Prompt' }).fill('a lantern on a jetty');
  await page.getByRole('button', { name: 'Generate', exact: true }).click();
  await expect(balance(page)).toHaveText('96 credits', PAGE_LOAD);
  await page.getByRole('button', { name: /^Jobs/ }).click();
  await page.getByRole('dialog', { name: 'Jobs' }).getByRole('link', { name: 'Inspect Text to Image job' }).first().click();
  await expect(page).toHaveURL(/\/inspector\?actor=job-/);

  const log = page.getByRole('table', { name: 'Event log' });
  await expect(log.getByRole('row').nth(3)).toBeVisible(PAGE_LOAD);
  await expect(log.getByRole('cell', { name: /^job-[0-9a-f]{8}…$/ }).first()).toBeVisible();
  // (No waiting for stillness here: the live inspector keeps animating while the job runs.)
  await page.screenshot({ path: 'test-results/responsive/inspector-1366.png', fullPage: true });
  // Time, actor and event cells: their text on one line, none of it cut.
  const broken = await log.evaluate((table) =>
    [...table.querySelectorAll('tbody tr')].flatMap((row) =>
      [...row.querySelectorAll('td')].slice(0, 3).flatMap((cell) => {
        // The line boxes of the cell's text (not of the elements around it, a button's box included).
        const tops: number[] = [];
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const range = document.createRange();
          range.selectNodeContents(node);
          for (const rect of range.getClientRects()) if (!tops.some((top) => Math.abs(top - rect.top) < 4)) tops.push(rect.top);
        }
        return tops.length > 1 || cell.scrollWidth > cell.clientWidth + 1 ? [`${cell.textContent} (${tops.length} lines)`] : [];
      }),
    ),
  );
  expect(broken).toEqual([]);
  expect(errors).toEqual([]);
});
