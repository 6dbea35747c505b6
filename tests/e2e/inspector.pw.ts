import { readFile } from 'node:fs/promises';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { createAccount, freshHandle } from './helpers/accounts';
import { balance, signIn, watchPageErrors } from './helpers/ui';

/**
 * The QA machine inspector on `npm start`'s stack (local mode, so any signed-in person may open
 * it): follow a generation job's actor live from the jobs panel to its final state, export the
 * log, load it back and replay it on the diagram.
 */

const diagram = (page: Page): Locator => page.getByRole('img', { name: 'Statechart of Generation job' });
const activeState = (page: Page, path: string): Locator => diagram(page).locator(`[data-state-path="${path}"][data-active="true"]`);
/** The active leaf states' paths (the deepest highlighted boxes). */
async function activeLeaves(page: Page): Promise<string[]> {
  const paths = await diagram(page)
    .locator('[data-active="true"]')
    .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-state-path') ?? ''));
  return paths.filter((path) => !paths.some((other) => other.startsWith(`${path}.`)));
}

test('inspect a generation job live, export its log, load it back and replay it', async ({ page, request }) => {
  test.setTimeout(150_000);
  const errors = watchPageErrors(page);
  const { email } = await createAccount(request, { prefix: 'inspector', handle: freshHandle('insp') });
  await page.goto('/authentication');
  await signIn(page, email);
  await expect(balance(page)).toHaveText('100 credits');

  // The account menu offers the inspector in local mode. A QA person looks at the job machine
  // first (its layout is then ready when the job's actor is opened).
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Machine inspector' }).click();
  await expect(page.getByRole('heading', { name: 'Machine inspector', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: /Session.*session/ })).toBeVisible();
  await page.getByRole('combobox', { name: 'Machine' }).selectOption({ label: 'Generation job' });
  await expect(diagram(page)).toBeVisible({ timeout: 30_000 });
  await expect(diagram(page).getByText('always [and(isResume, isHidden)]')).toBeVisible();

  // The job's chart is wide (issue 22 item 4): fit it to the view and back to 100 %, then find an
  // event by name and step to its next place on the chart, which is brought into view.
  const view = page.getByRole('toolbar', { name: 'Chart view' });
  const fullWidth = Number(await diagram(page).getAttribute('width'));
  await view.getByRole('button', { name: 'Fit to width' }).click();
  await expect(view.getByRole('status', { name: 'Zoom' })).not.toHaveText('100 %');
  expect(Number(await diagram(page).getAttribute('width'))).toBeLessThan(fullWidth);
  await view.getByRole('button', { name: '100 %' }).click();
  expect(Number(await diagram(page).getAttribute('width'))).toBe(fullWidth);
  const find = view.getByRole('searchbox', { name: 'Find a state or event' });
  await find.fill('VISIBILITY');
  await expect(view.getByText(/^1 of ([2-9]|\d\d)$/)).toBeVisible();
  const shown = diagram(page).locator('[data-found="current"]');
  await expect(shown).toHaveCount(1);
  const firstShown = await shown.getAttribute('data-edge-id');
  await find.press('Enter');
  await expect(view.getByText(/^2 of \d+$/)).toBeVisible();
  await expect(shown).not.toHaveAttribute('data-edge-id', firstShown ?? '');
  // Its label, that is: a straight transition's line is a box of no height, never "in view".
  await expect(shown.locator('text').first()).toBeInViewport();
  await find.fill('');

  // Send an event (issue 22 item 2): the app's top banner takes banner.show with its payload, and
  // the page shows it at once.
  await page.getByRole('button', { name: /^Top banner/ }).click();
  const panel = page.getByRole('region', { name: 'Send an event' });
  await panel.getByRole('combobox', { name: 'Event' }).selectOption('banner.show');
  await panel.getByRole('textbox', { name: /Payload/ }).fill('{"kind": "success", "message": "Hello from the inspector"}');
  await panel.getByRole('button', { name: 'Send' }).click();
  await expect(panel.getByRole('status')).toHaveText('Sent banner.show.');
  await expect(page.getByText('Hello from the inspector').first()).toBeVisible();
  await page.getByRole('combobox', { name: 'Machine' }).selectOption({ label: 'Generation job' });
  await expect(diagram(page)).toBeVisible({ timeout: 30_000 });

  // In-app navigation keeps the page (and its inspection log). The menu's groups are folded here (issue 17).
  await page.getByRole('button', { name: 'AI Image tools' }).click();
  await page.getByRole('link', { name: 'Text to Image' }).first().click();
  await page.getByRole('textbox', { name: 'Prompt' }).fill('a red lantern in the fog');
  await page.getByRole('button', { name: 'Generate' }).click();
  await expect(balance(page)).toHaveText('96 credits');

  await page.getByRole('button', { name: /^Jobs/ }).click();
  const drawer = page.getByRole('dialog', { name: 'Jobs' });
  const job = drawer.getByRole('listitem').filter({ hasText: 'Text to Image' }).first();
  await expect(job).toContainText(/Queued|Processing/);
  await job.getByRole('link', { name: 'Inspect Text to Image job' }).click();

  await expect(page).toHaveURL(/\/inspector\?actor=job-/);
  await expect(diagram(page)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: /Generation job/, pressed: true })).toBeVisible();
  // While the job runs, a polling state is highlighted; then the highlight moves to "succeeded".
  await expect(activeState(page, 'polling')).toHaveCount(1);
  expect((await activeLeaves(page)).some((path) => path.startsWith('polling.'))).toBe(true);
  await expect(activeState(page, 'succeeded')).toHaveCount(0);
  await expect(activeState(page, 'succeeded')).toHaveCount(1, { timeout: 45_000 });
  await expect(activeState(page, 'polling')).toHaveCount(0);
  await expect(page.getByTestId('inspector-current-state')).toHaveText('succeeded');
  await expect(page.getByRole('table', { name: 'Event log' }).getByRole('row').filter({ hasText: '→ succeeded' })).toHaveCount(1);

  // Export: a JSON download with the schema, holding the job's way to "succeeded".
  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^kinora-inspector-.*\.json$/);
  const file = await download.path();
  const log = JSON.parse(await readFile(file, 'utf8')) as { schema: string; version: number; records: { machineId: string; to?: unknown }[] };
  expect(log.schema).toBe('kinora.inspector-log');
  expect(log.version).toBe(1);
  const jobStates = log.records.filter((record) => record.machineId === 'generationJob' && record.to !== undefined).map((record) => record.to);
  expect(jobStates).toContain('succeeded');
  expect(jobStates.length).toBeGreaterThan(2);

  // A file that is not a log is refused with a clear error.
  await page.locator('input[type="file"]').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"hello": 1}') });
  await expect(page.getByRole('alert', { name: 'Load a log' })).toContainText('This file is not an inspector log');

  // Load the exported log: replay starts at the job's first state.
  await page.locator('input[type="file"]').setInputFiles(file);
  await expect(page.getByText(/^Loaded \d+ records from /)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Actors in the loaded log' })).toBeVisible();
  await expect(diagram(page)).toBeVisible({ timeout: 30_000 });
  await expect(activeState(page, 'succeeded')).toHaveCount(0);
  const first = await activeLeaves(page);
  expect(first.length).toBeGreaterThan(0);

  await page.getByRole('button', { name: 'Play' }).click();
  await expect.poll(async () => (await activeLeaves(page)).join(','), { timeout: 30_000 }).not.toBe(first.join(','));
  await expect(activeState(page, 'succeeded')).toHaveCount(1, { timeout: 60_000 });
  await expect(page.getByRole('button', { name: 'Play' })).toBeVisible({ timeout: 10_000 });

  // The position slider goes back to the start.
  const slider = page.getByRole('slider');
  await slider.focus();
  await page.keyboard.press('Home');
  await expect(activeState(page, 'succeeded')).toHaveCount(0);
  expect(errors).toEqual([]);
});
