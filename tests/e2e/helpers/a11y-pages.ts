import { expect, type Browser, type Page } from '@playwright/test';
import sharp from 'sharp';
import { MENU } from '../../../src/config/menu';
import { ROUTES } from '../../../src/config/routes';
import { USE_CASE_PAGES } from '../../../src/config/use-cases';
import { A11yAudit } from './axe';
import { balance, signIn } from './ui';

/** The pages and steps the accessibility tests (tests/e2e/a11y-*.pw.ts) share. */

/** Every tool page: the menu's groups and tools, the pages without a menu link, the upload pages. */
export const TOOL_PAGES = [
  ...MENU.flatMap((group) => [group.path, ...group.items.map((item) => item.path)]),
  ROUTES.aiVideo.parallaxMotion,
  ROUTES.aiImage.reimagine,
  ROUTES.aiImage.uploadImage,
  ROUTES.aiAudio.uploadAudio,
  ROUTES.aiVideo.uploadVideo,
];

/** The router's other pages without an id. */
export const PLAIN_PAGES = [
  ROUTES.home,
  ROUTES.notFound,
  ROUTES.latest,
  ROUTES.contact,
  ROUTES.credits,
  ROUTES.account,
  ROUTES.assets,
  ROUTES.organisation,
  ROUTES.aiVideo.albums,
  ROUTES.inspector,
  ROUTES.history,
  ROUTES.library,
  ...USE_CASE_PAGES.map((page) => page.path),
];

/** Opens a route and waits for its page heading and for its loading notices to go. */
export async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await settle(page);
}

/**
 * Walks to a route inside the app already loaded, as a person following a link does: the router's
 * client-side navigation (history.pushState and a popstate, which React Router follows), not a new
 * page load. A full load costs the browser about a second of CPU on this 2-core machine, and the
 * every-route walks make a hundred (issue 18 item 8); a deep link's direct load has its own test
 * (shell.pw.ts). The first route of a walk, or a page without the app's main region, is loaded.
 * The new page is there once the main region's text changed (each route has its own heading).
 */
export async function visit(page: Page, path: string): Promise<void> {
  const main = page.locator('#main-content');
  if (!page.url().startsWith('http') || (await main.count()) === 0) {
    await open(page, path);
    return;
  }
  const before = await main.innerText();
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, path);
  await expect(main).not.toHaveText(before, { timeout: 20_000 });
  await settle(page);
}

export async function settle(page: Page): Promise<void> {
  // Generous: the machine running the tests may be busy building or running other stacks.
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText(/^Loading/)).toHaveCount(0, { timeout: 20_000 });
  // A prerendered page shows its heading before its scripts run; its controls stay disabled (in
  // the shell's fieldset) until React has the page, and keys pressed before then are lost.
  await expect(page.locator('#main-content fieldset[disabled]')).toHaveCount(0, { timeout: 20_000 });
}

export async function signInAs(page: Page, email: string): Promise<void> {
  await page.goto(ROUTES.authentication);
  await signIn(page, email);
  await expect(balance(page)).toHaveText(/\d+ credits/);
}

/** A real picture, as a person would pick from their disk. */
export async function picture(seed: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="240">
    <rect width="320" height="240" fill="#${(0x2b6cb0 + seed * 0x111111).toString(16).slice(-6)}"/>
    <circle cx="${100 + seed * 10}" cy="110" r="50" fill="#fff8"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

export const jobsButton = (page: Page) => page.getByRole('button', { name: /^Jobs/ });
export const jobsDrawer = (page: Page) => page.getByRole('dialog', { name: 'Jobs' });

export async function generateImage(page: Page, prompt: string): Promise<void> {
  await page.goto(ROUTES.aiImage.textToImage);
  await page.getByRole('textbox', { name: 'Prompt' }).fill(prompt);
  await page.getByRole('button', { name: 'Generate' }).click();
}

/**
 * The top banner (SPEC §2.9 item 5) has no sender in the app yet, so the test shows it as a screen
 * would: by sending `banner.show` to the app's banner actor, found through React's tree.
 */
export async function showBanner(page: Page, kind: 'success' | 'error', message: string): Promise<void> {
  const sent = await page.evaluate(
    ({ kind, message }) => {
      const root = document.getElementById('root') as (HTMLElement & Record<string, unknown>) | null;
      const key = root ? Object.keys(root).find((name) => name.startsWith('__reactContainer$')) : undefined;
      type Fiber = { child: Fiber | null; sibling: Fiber | null; memoizedProps?: { value?: unknown } | null };
      const stack: Fiber[] = key && root ? [root[key] as Fiber] : [];
      while (stack.length > 0) {
        const fiber = stack.pop() as Fiber;
        const value = fiber.memoizedProps?.value as { logic?: { id?: string }; send?: (event: unknown) => void } | undefined;
        if (value?.logic?.id === 'banner' && typeof value.send === 'function') {
          value.send({ type: 'banner.show', kind, message });
          return true;
        }
        if (fiber.sibling) stack.push(fiber.sibling);
        if (fiber.child) stack.push(fiber.child);
      }
      return false;
    },
    { kind, message },
  );
  expect(sent, 'the banner actor was found').toBe(true);
}

/** "Continue as guest" and its welcome modal, in a context of its own (the guest is another person). */
export async function guestWelcome(browser: Browser): Promise<void> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const audit = new A11yAudit(page);
  await open(page, ROUTES.authentication);
  await page.getByRole('button', { name: 'Continue as guest' }).click();
  await expect(page.getByRole('dialog').first()).toBeVisible();
  await audit.check('guest welcome modal');
  await context.close();
  audit.expectClean();
}
