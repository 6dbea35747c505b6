import { expect, test, type Browser, type Page } from '@playwright/test';
import sharp from 'sharp';
import { MENU } from '../../src/config/menu';
import { ROUTES } from '../../src/config/routes';
import { USE_CASE_PAGES } from '../../src/config/use-cases';
import { A11yAudit } from './helpers/axe';
import { createAccount, freshEmail, freshHandle, mailboxCode, PASSWORD } from './helpers/accounts';
import { balance, signIn } from './helpers/ui';

/**
 * Issue 8 Build 3: axe-core (WCAG 2.0/2.1 A and AA, WCAG 2.2 AA) finds nothing on every route of the
 * router and on every overlay, modal, popover and job state a person can reach on `npm start`'s
 * stack; the shell is usable by keyboard alone. Nothing is excluded from axe and no rule is turned
 * off. Each test collects the violations of all its places and prints them per place (rule id and
 * element), so one bad page does not hide the others.
 */

test.describe.configure({ timeout: 600_000 });

/** Every tool page: the menu's groups and tools, the pages without a menu link, the upload pages. */
const TOOL_PAGES = [
  ...MENU.flatMap((group) => [group.path, ...group.items.map((item) => item.path)]),
  ROUTES.aiVideo.parallaxMotion,
  ROUTES.aiImage.reimagine,
  ROUTES.aiImage.uploadImage,
  ROUTES.aiAudio.uploadAudio,
  ROUTES.aiVideo.uploadVideo,
];

/** The router's other pages without an id. */
const PLAIN_PAGES = [
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
  ...USE_CASE_PAGES.map((page) => page.path),
];

/** Opens a route and waits for its page heading and for its loading notices to go. */
async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await settle(page);
}

async function settle(page: Page): Promise<void> {
  // Generous: the machine running the tests may be busy building or running other stacks.
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText(/^Loading/)).toHaveCount(0, { timeout: 20_000 });
}

async function signInAs(page: Page, email: string): Promise<void> {
  await page.goto(ROUTES.authentication);
  await signIn(page, email);
  await expect(balance(page)).toHaveText(/\d+ credits/);
}

/** A real picture, as a person would pick from their disk. */
async function picture(seed: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="240">
    <rect width="320" height="240" fill="#${(0x2b6cb0 + seed * 0x111111).toString(16).slice(-6)}"/>
    <circle cx="${100 + seed * 10}" cy="110" r="50" fill="#fff8"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

const jobsButton = (page: Page) => page.getByRole('button', { name: /^Jobs/ });
const jobsDrawer = (page: Page) => page.getByRole('dialog', { name: 'Jobs' });

async function generateImage(page: Page, prompt: string): Promise<void> {
  await page.goto(ROUTES.aiImage.textToImage);
  await page.getByRole('textbox', { name: 'Prompt' }).fill(prompt);
  await page.getByRole('button', { name: 'Generate' }).click();
}

/**
 * The top banner (SPEC §2.9 item 5) has no sender in the app yet, so the test shows it as a screen
 * would: by sending `banner.show` to the app's banner actor, found through React's tree.
 */
async function showBanner(page: Page, kind: 'success' | 'error', message: string): Promise<void> {
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

test('signed out: every route and every step of authentication passes axe', async ({ page, request }) => {
  const audit = new A11yAudit(page);
  const handle = freshHandle('a11y-prof');
  await createAccount(request, { prefix: 'a11y-prof', handle });

  for (const path of [...PLAIN_PAGES, ...TOOL_PAGES]) {
    await open(page, path);
    await audit.check(`signed out ${path}`);
  }
  await open(page, ROUTES.profile(handle));
  await audit.check('signed out profile');

  await open(page, ROUTES.authentication);
  await audit.check('authentication: sign in');
  await page.getByRole('button', { name: 'Forgot password?' }).or(page.getByRole('link', { name: 'Forgot password?' })).click();
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await audit.check('authentication: forgot password');

  // Sign up, then the confirmation step, then the Verify Email modal of a first sign-in.
  const email = freshEmail('a11y-signup');
  await open(page, ROUTES.authentication);
  await page.getByRole('button', { name: 'Create an account' }).or(page.getByRole('link', { name: 'Create an account' })).click();
  await expect(page.getByRole('heading', { name: 'Create an account' })).toBeVisible();
  await audit.check('authentication: sign up');
  await page.getByRole('textbox', { name: 'E-mail' }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Confirm your e-mail' })).toBeVisible();
  await audit.check('authentication: confirm sign-up');
  await expect.poll(() => mailboxCode(request, email, 'Sign-up confirmation')).not.toBeNull();
  await page.getByRole('textbox', { name: 'Confirmation code' }).fill((await mailboxCode(request, email, 'Sign-up confirmation')) ?? '');
  await page.getByRole('button', { name: 'Confirm', exact: true }).click();
  await signIn(page, email);
  const verify = page.getByRole('dialog', { name: 'Verify your e-mail' }).or(page.getByRole('dialog').filter({ hasText: /verif/i }));
  await expect(verify.first()).toBeVisible();
  await audit.check('Verify Email modal');

  await page.goto(ROUTES.localMailbox);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await audit.check('local mailbox page');
  audit.expectClean();
});

test('signed in: every route passes axe', async ({ page, request }) => {
  const audit = new A11yAudit(page);
  const { email } = await createAccount(request, { prefix: 'a11y-in', handle: freshHandle('a11y-in') });
  await signInAs(page, email);

  for (const path of [...PLAIN_PAGES, ...TOOL_PAGES]) {
    await open(page, path);
    await audit.check(`signed in ${path}`);
  }
  audit.expectClean();
});

test('signed in: one asset, organisation, album and story, their lists, delete confirmations and the asset picker pass axe', async ({ page, request }) => {
  const audit = new A11yAudit(page);
  const { email } = await createAccount(request, { prefix: 'a11y-items', handle: freshHandle('a11y-it') });
  await signInAs(page, email);

  // One asset, and the delete confirmation of the list.
  await open(page, ROUTES.assets);
  await page.getByRole('textbox', { name: 'Name' }).fill('Holiday pictures');
  await page.getByRole('button', { name: 'Create asset' }).click();
  await page.getByRole('button', { name: 'Delete asset Holiday pictures' }).click();
  const deleteAsset = page.getByRole('dialog', { name: 'Delete this asset?' });
  await expect(deleteAsset).toBeVisible();
  await audit.check('delete asset confirmation');
  await deleteAsset.getByRole('button', { name: 'Keep it' }).click();
  await page.getByRole('link', { name: 'Open Holiday pictures' }).click();
  await expect(page).toHaveURL(/\/assets\/[^/]+$/);
  await settle(page);
  await audit.check('one asset');

  // One organisation.
  await open(page, ROUTES.organisation);
  await page.getByRole('textbox', { name: 'Organisation name' }).fill('Harbour Films');
  await page.getByRole('button', { name: 'Create organisation' }).click();
  await expect(page).toHaveURL(/\/organisation\/[^/]+$/);
  await expect(page.getByRole('heading', { name: 'Harbour Films', level: 1 })).toBeVisible();
  await settle(page);
  await audit.check('one organisation');

  // One album (one picture), and its delete confirmation.
  await open(page, ROUTES.aiVideo.albums);
  await page.getByRole('textbox', { name: 'Title' }).fill('Summer trip');
  await page.getByRole('radio', { name: 'Parallax batch' }).check();
  await page.locator('input[type="file"]').first().setInputFiles({ name: 'beach.png', mimeType: 'image/png', buffer: await picture(1) });
  await expect(page.getByRole('img', { name: /beach\.png/ }).first()).toBeVisible({ timeout: 20_000 });
  await audit.check('new album form with a picture');
  await page.getByRole('button', { name: 'Create album' }).click();
  await expect(page.getByRole('heading', { name: 'Summer trip', level: 1 })).toBeVisible({ timeout: 20_000 });
  await settle(page);
  await audit.check('one album');
  await page.getByRole('button', { name: 'Delete album' }).click();
  const deleteAlbum = page.getByRole('dialog', { name: 'Delete this album?' });
  await expect(deleteAlbum).toBeVisible();
  await audit.check('delete album confirmation');
  await deleteAlbum.getByRole('button', { name: 'Keep it' }).click();
  await open(page, ROUTES.aiVideo.albums);
  await audit.check('albums list with an album');

  // One story (the storyboard is free), the list and its delete confirmation.
  await open(page, ROUTES.aiProduction.aiStory);
  await page
    .getByRole('textbox', { name: 'Your idea' })
    .fill('Mara, a young lighthouse keeper, finds a glowing map on the beach. She sails across the sea to a hidden island.');
  await page.getByRole('button', { name: 'Write storyboard' }).click();
  await expect(page).toHaveURL(/\/ai-production\/ai-story\/[^/]+$/);
  await expect(page.getByRole('heading', { name: 'Storyboard', level: 2 })).toBeVisible({ timeout: 20_000 });
  await settle(page);
  await audit.check('one story');
  await open(page, ROUTES.aiProduction.aiStory);
  await page.getByRole('button', { name: /^Delete / }).first().click();
  const deleteStory = page.getByRole('dialog', { name: 'Delete this story?' });
  await expect(deleteStory).toBeVisible();
  await audit.check('AI Story list and delete confirmation');
  await deleteStory.getByRole('button', { name: 'Keep it' }).click();

  // The local card provider's server-rendered checkout page (server/src/payments/pages.ts).
  await open(page, ROUTES.credits);
  await page.getByRole('button', { name: 'Buy Starter: 100 credits for $10.00' }).click();
  await expect(page.getByRole('heading', { name: 'Checkout', level: 1 })).toBeVisible();
  await audit.check('checkout page');
  // A declined card: the page comes back with its alert.
  await page.getByLabel('Card number').fill('4000 0000 0000 0002');
  await page.getByLabel('Expiry date (MM/YY)').fill('12/34');
  await page.getByLabel('Security code (CVC)').fill('123');
  await page.getByLabel('Name on the card').fill('Ada Lovelace');
  await page.getByRole('button', { name: 'Pay $10.00' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Your card was declined' })).toBeVisible();
  await audit.check('checkout page with a declined card');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/credits/);

  // The asset picker of a picture input.
  await open(page, ROUTES.aiImage.imageToImage);
  await page.getByRole('button', { name: /^Choose from assets/ }).first().click();
  const picker = page.getByRole('dialog', { name: /from your assets/ });
  await expect(picker).toBeVisible();
  await audit.check('asset picker');
  await page.keyboard.press('Escape');
  audit.expectClean();
});

test('overlays: account menu, mobile navbar, coupon and guest modals, help popover, banner, error fallback pass axe', async ({ page, browser, request }) => {
  const audit = new A11yAudit(page);
  const { email } = await createAccount(request, { prefix: 'a11y-ov', handle: freshHandle('a11y-ov') });
  await signInAs(page, email);

  await open(page, '/?coupon_code=WELCOME50');
  const coupon = page.getByRole('dialog', { name: 'Congratulations!' });
  await expect(coupon).toBeVisible();
  await audit.check('coupon success modal');
  await coupon.getByRole('button', { name: 'Confirm' }).click();
  await expect(balance(page)).toHaveText('150 credits');

  await page.getByRole('button', { name: 'Account menu' }).click();
  await expect(page.getByRole('menu')).toBeVisible();
  await audit.check('account menu');
  await page.keyboard.press('Escape');

  await open(page, ROUTES.aiImage.textToImage);
  await page.getByRole('button', { name: /^Help: / }).first().click();
  await expect(page.getByRole('dialog').last()).toBeVisible();
  await audit.check('help popover');
  await page.keyboard.press('Escape');

  await showBanner(page, 'success', 'Your settings were saved.');
  await expect(page.getByRole('status').filter({ hasText: 'Your settings were saved.' })).toBeVisible();
  await audit.check('top banner (success)');
  await showBanner(page, 'error', 'That did not work. Try again.');
  await expect(page.getByRole('alert').filter({ hasText: 'That did not work. Try again.' })).toBeVisible();
  await audit.check('top banner (error)');

  await page.setViewportSize({ width: 375, height: 740 });
  await open(page, ROUTES.home);
  await audit.check('home at 375 px');
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect.poll(async () => (await page.locator('#main-menu').boundingBox())?.x).toBe(0);
  await audit.check('mobile navbar (375 px)');
  await page.setViewportSize({ width: 1280, height: 720 });

  // A screen whose code cannot be downloaded: the error fallback.
  await page.route('**/assets/contact-screen-*.js', (route) => route.abort());
  await page.goto(ROUTES.contact);
  await expect(page.getByRole('alert').filter({ hasText: /error/i })).toBeVisible({ timeout: 20_000 });
  await audit.check('error fallback');
  audit.expectClean();

  await guestWelcome(browser);
});

/** "Continue as guest" and its welcome modal, in a context of its own (the guest is another person). */
async function guestWelcome(browser: Browser): Promise<void> {
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

test('job states: the jobs panel running, done, failed and cancelled, a toast, the share modal and a shared item pass axe', async ({ page, browser, request }) => {
  const audit = new A11yAudit(page);
  const { email } = await createAccount(request, { prefix: 'a11y-job', handle: freshHandle('a11y-job') });
  await signInAs(page, email);

  await generateImage(page, 'a lighthouse on a cliff at sunset');
  await jobsButton(page).click();
  const drawer = jobsDrawer(page);
  // Job rows name the tool, not the prompt; this person has no other job yet.
  const job = drawer.getByRole('listitem').filter({ hasText: 'Text to Image' }).first();
  await expect(job).toContainText(/Queued|Processing/);
  await audit.check('jobs panel: running job');
  await expect(job).toContainText('Succeeded', { timeout: 30_000 });
  // A finished job also shows a toast (Mantine notifications): checked while it is on screen.
  await expect(page.locator('.mantine-Notification-root').first()).toBeVisible();
  await audit.check('jobs panel: done job, and its toast');
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  const results = page.getByRole('region', { name: 'Results' });
  await expect(results.getByRole('img', { name: /lighthouse on a cliff/ }).first()).toBeVisible();
  await audit.check('tool page with a result');
  await results.getByRole('button', { name: /^Share / }).first().click();
  const share = page.getByRole('dialog', { name: 'Share this result' });
  await expect(share).toBeVisible();
  await audit.check('share modal');
  await share.getByRole('textbox', { name: 'Title' }).fill('');
  await share.getByRole('button', { name: 'Save' }).click();
  await expect(share.getByText('Give it a title.')).toBeVisible();
  await audit.check('share modal with an error');
  const title = `Lighthouse at sunset ${Date.now().toString(36)}`;
  await share.getByRole('textbox', { name: 'Title' }).fill(title);
  await share.getByRole('radio', { name: /^Public/ }).check();
  await share.getByRole('button', { name: 'Save' }).click();
  await expect(share.getByText('Saved.')).toBeVisible();
  const link = await share.getByRole('textbox', { name: 'Link' }).inputValue();
  await page.keyboard.press('Escape');

  await generateImage(page, 'a storm that cannot be painted [fail]');
  await jobsButton(page).click();
  await expect(drawer.getByRole('listitem').filter({ hasText: 'Failed' })).toHaveCount(1, { timeout: 30_000 });
  await audit.check('jobs panel: failed job');
  await page.keyboard.press('Escape');

  await generateImage(page, 'a slow painting of a forest');
  await jobsButton(page).click();
  await drawer.getByRole('listitem').filter({ hasText: /Queued|Processing/ }).first().getByRole('button', { name: 'Cancel' }).click();
  await expect(drawer.getByRole('listitem').filter({ hasText: 'Cancelled' })).toHaveCount(1);
  await audit.check('jobs panel: cancelled job');
  await page.keyboard.press('Escape');

  const visitor = await (await browser.newContext()).newPage();
  const visitorAudit = new A11yAudit(visitor);
  await open(visitor, new URL(link).pathname);
  await expect(visitor.getByRole('heading', { name: title })).toBeVisible();
  await visitorAudit.check('shared item (signed out)');
  await open(visitor, ROUTES.latest);
  await expect(visitor.getByRole('article').filter({ hasText: title })).toBeVisible();
  await visitorAudit.check('latest with a shared item');
  await visitor.context().close();
  audit.expectClean();
  visitorAudit.expectClean();
});

test('keyboard: Tab reaches the menu, the header and a tool\'s Generate button, which Enter submits; focus is visible', async ({ page, request }) => {
  const { email } = await createAccount(request, { prefix: 'a11y-kb', handle: freshHandle('a11y-kb') });
  await signInAs(page, email);
  await open(page, ROUTES.aiImage.textToImage);

  // A fresh load starts at the top of the page: the first Tab reaches the skip link, which takes focus past the header and menu to the page.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect.poll(async () => (await skip.boundingBox())?.y ?? -1).toBeGreaterThanOrEqual(0);
  await page.keyboard.press('Enter');
  await expect(page.locator('#main-content')).toBeFocused();

  // From the top again: Tab through the header and the menu into the form; type the prompt there.
  await open(page, ROUTES.aiImage.textToImage);
  const prompt = page.getByRole('textbox', { name: 'Prompt' });
  let typed = false;

  const seen: string[] = [];
  let reachedGenerate = false;
  for (let step = 0; step < 150 && !reachedGenerate; step += 1) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(async () => {
      // Inputs change their border with a short transition: look once it has run.
      const settled = () => new Promise((resolve) => setTimeout(resolve, 250));
      await settled();
      const element = document.activeElement as HTMLElement | null;
      if (!element || element === document.body) return null;
      // What shows focus: an outline (Mantine's :focus-visible ring), a shadow, or the border colour
      // of an input. Compared with the same element unfocused, then focus goes back where it was.
      // A visually hidden input (radio cards, segmented controls) shows its focus on its label.
      const shown = [element, ...(element instanceof HTMLInputElement ? [...(element.labels ?? []), element.nextElementSibling] : [])];
      const look = () =>
        shown
          .filter((node): node is Element => node !== null)
          .map((node) => {
            const style = getComputedStyle(node);
            const outline = style.outlineStyle === 'none' ? 'none' : `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}`;
            return [outline, style.boxShadow, style.borderColor].join(' | ');
          })
          .join(' || ');
      const focusedLook = look();
      element.blur();
      await settled();
      const restingLook = look();
      element.focus();
      const box = element.getBoundingClientRect();
      const name = element.getAttribute('aria-label') || element.textContent?.trim().slice(0, 40) || element.outerHTML.slice(0, 160);
      return {
        name,
        tag: element.tagName,
        inBanner: element.closest('header') !== null,
        inMenu: element.closest('nav') !== null,
        ring: focusedLook !== restingLook,
        looks: `${focusedLook} vs ${restingLook}`,
        width: box.width,
        height: box.height,
      };
    });
    if (!focused) continue;
    if (!typed && (await prompt.evaluate((element) => element === document.activeElement))) {
      await page.keyboard.type('a quiet harbour at night');
      typed = true;
    }
    seen.push(`${focused.tag} ${focused.name}`);
    // Every element reached by keyboard shows a focus ring (Mantine's :focus-visible outline).
    expect(focused.ring, `a visible focus indicator on ${focused.tag} "${focused.name}" (${focused.looks})`).toBe(true);
    if (focused.tag === 'BUTTON' && focused.name === 'Generate') reachedGenerate = true;
    if (focused.inBanner) seen.push('(header)');
    if (focused.inMenu) seen.push('(menu)');
  }
  expect(seen, 'Tab reaches the header').toContain('(header)');
  expect(seen, 'Tab reaches the menu').toContain('(menu)');
  expect(typed, 'Tab reaches the prompt').toBe(true);
  expect(reachedGenerate, `Tab reaches Generate; reached: ${seen.join(', ')}`).toBe(true);

  await page.keyboard.press('Enter');
  await expect(balance(page)).toHaveText('96 credits');
  await expect(page.getByRole('region', { name: 'Results' }).getByRole('img', { name: /quiet harbour/ }).first()).toBeVisible({ timeout: 30_000 });
});
