import { expect, test, type Page } from '@playwright/test';
import { MENU } from '../../src/config/menu';

/** Fails the test on any uncaught error in the page. */
function watchPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

test('home renders the shell with every menu group', async ({ page }) => {
  const errors = watchPageErrors(page);
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main menu' });
  for (const group of MENU) {
    await expect(nav.getByRole('link', { name: group.label, exact: true })).toBeVisible();
  }
  // The credits table comes from the server's frontend-configurations through the appConfig actor.
  const credits = page.getByRole('table', { name: 'Credits per generation' });
  await expect(credits.getByRole('row', { name: /Tier 6/ })).toContainText('320');
  // The table is in the prerendered page from the start: the configuration is stored once fetched.
  await expect.poll(() => page.evaluate(() => localStorage.getItem('app_config_exp'))).not.toBeNull();
  await expect(page.getByText('Oops, there is an error!')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/home.png', fullPage: true });
  expect(errors).toEqual([]);
});

test('every menu link opens its page without the error fallback', async ({ page }) => {
  const errors = watchPageErrors(page);
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main menu' });
  // Each group's page comes first: reaching it unfolds the group's links (issue 17), SPEC's and Kinora's.
  const links = MENU.flatMap((group) => [{ label: group.label, path: group.path }, ...group.items, ...group.extras]);
  expect(links.length).toBeGreaterThan(30);
  for (const link of links) {
    // Labels repeat across groups ("Replace Background"), so match the name and the target together.
    await nav.getByRole('link', { name: link.label, exact: true }).and(page.locator(`[href="${link.path}"]`)).click();
    await expect(page).toHaveURL(new RegExp(`${link.path.replace(/\/$/, '')}/?$`));
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByText('Oops, there is an error!')).toHaveCount(0);
  }
  expect(errors).toEqual([]);
});

test('a deep link loads directly and an unknown path lands on /404', async ({ page }) => {
  await page.goto('/ai-video/lip-sync');
  await expect(page.getByRole('heading', { level: 1, name: 'Lip Sync' })).toBeVisible();
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/404$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('the server answers with the security headers and the app config', async ({ request }) => {
  const index = await request.get('/');
  const csp = index.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("base-uri 'none'");
  expect(csp).toMatch(/frame-ancestors/);
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(index.headers()['x-content-type-options']).toBe('nosniff');
  const config = await request.get('/api/frontend-configurations');
  expect(config.ok()).toBe(true);
  const body = (await config.json()) as { data: { tier_information: unknown[] } };
  expect(body.data.tier_information.length).toBe(7);
});

test('below 768 px the menu folds behind a burger that opens it', async ({ page }) => {
  await page.setViewportSize({ width: 400, height: 800 });
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main menu' });
  const link = page.locator('#main-menu a[href="/ai-audio/"]');
  await expect(link).toBeAttached();
  await expect(link).not.toBeInViewport();
  await expect(page.locator('#main-menu')).toHaveAttribute('inert');
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(nav.getByRole('link', { name: 'AI Audio', exact: true })).toBeInViewport();
  // Fully slid in, not just partly on screen.
  await expect.poll(async () => (await page.locator('#main-menu').boundingBox())?.x).toBe(0);
  await expect(page.locator('#main-menu')).not.toHaveAttribute('inert');
  await page.screenshot({ path: 'test-results/home-mobile.png' });
});

test('the local mailbox page is served in local mode', async ({ page }) => {
  await page.goto('/local/mailbox');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});
