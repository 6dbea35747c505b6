import { readFile } from 'node:fs/promises';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { createAccount, freshHandle, PASSWORD } from './helpers/accounts';
import { balance, signIn, watchPageErrors } from './helpers/ui';

/**
 * The QA machine inspector on `npm start`'s stack (local mode, so any signed-in person may open
 * it): follow a generation job's actor live from the jobs panel to its final state, export the
 * log, load it back and replay it on the diagram.
 */

const diagram = (page: Page): Locator => page.getByRole('img', { name: 'Statechart of Generation job' });
const activeState = (page: Page, path: string): Locator => diagram(page).locator(`[data-state-path="${path}"][data-active="true"]`);
/**
 * Picks what the chart area shows. Mantine's SegmentedControl keeps its radios visually hidden
 * under their labels: a person clicks the label, and the radio is then checked.
 */
async function chartKind(page: Page, name: 'Statechart' | 'Sequence' | 'Side by side'): Promise<void> {
  const choices = page.getByRole('radiogroup', { name: 'Chart' });
  await choices.getByText(name, { exact: true }).click();
  await expect(choices.getByRole('radio', { name })).toBeChecked();
}
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
  // The sequence view (issue 22 item 3), in the chart's place: the job's lane with arrows into it
  // (the registry starting it), and its calls to its services, a poll among them once its first
  // wait is over. (After the checks above, which need the job still polling.)
  await chartKind(page, 'Sequence');
  const sequence = page.getByRole('img', { name: 'Sequence of actors' });
  await expect(sequence).toBeVisible();
  await expect(diagram(page)).toBeHidden();
  await expect(sequence.locator('[data-lane^="job-"][data-lane-kind="machine"]')).toHaveCount(1);
  await expect(sequence.locator('[data-to^="job-"]').first()).toBeVisible();
  await expect(sequence.locator('[data-from^="job-"][data-to="pollStatus"][data-type="invoke"]').first()).toBeVisible({ timeout: 15_000 });
  await expect(sequence.locator('[data-lane="pollStatus"][data-lane-kind="service"]')).toHaveCount(1);
  // Side by side: the sequence beside the statechart.
  await chartKind(page, 'Side by side');
  await expect(diagram(page)).toBeVisible();
  await expect(sequence).toBeVisible();
  await chartKind(page, 'Statechart');
  await expect(diagram(page)).toBeVisible();
  await expect(sequence).toHaveCount(0);
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

  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await expect.poll(async () => (await activeLeaves(page)).join(','), { timeout: 30_000 }).not.toBe(first.join(','));
  await expect(activeState(page, 'succeeded')).toHaveCount(1, { timeout: 60_000 });
  await expect(page.getByRole('button', { name: 'Play', exact: true })).toBeVisible({ timeout: 10_000 });

  // The position slider goes back to the start.
  const slider = page.getByRole('slider');
  await slider.focus();
  await page.keyboard.press('Home');
  await expect(activeState(page, 'succeeded')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('a finished job opens from its kept path after a reload; a failed job’s problem report replays in a fresh browser', async ({ page, request, browser }) => {
  test.setTimeout(180_000);
  const errors = watchPageErrors(page);
  const { email } = await createAccount(request, { prefix: 'inspector-kept', handle: freshHandle('inspk') });
  await page.goto('/authentication');
  await signIn(page, email);
  await expect(balance(page)).toHaveText('100 credits');

  // Two jobs at once: one that succeeds, one the local engine fails on purpose (README "Failures on purpose").
  await page.getByRole('button', { name: 'AI Image tools' }).click();
  await page.getByRole('link', { name: 'Text to Image' }).first().click();
  const prompt = page.getByRole('textbox', { name: 'Prompt' });
  await prompt.fill('a paper boat on a pond');
  await page.getByRole('button', { name: 'Generate' }).click();
  await expect(balance(page)).toHaveText('96 credits');
  await prompt.fill('a storm that cannot be painted [fail]');
  await page.getByRole('button', { name: 'Generate' }).click();
  await expect(balance(page)).toHaveText('92 credits');
  await page.getByRole('button', { name: /^Jobs/ }).click();
  const drawer = page.getByRole('dialog', { name: 'Jobs' });
  await expect(drawer.getByRole('listitem', { name: 'Text to Image, Succeeded' })).toHaveCount(1, { timeout: 60_000 });
  await expect(drawer.getByRole('listitem', { name: /^Text to Image, Failed/ })).toHaveCount(1, { timeout: 60_000 });
  await page.keyboard.press('Escape');

  // Item 1: after a reload no job actor is left; the succeeded job opens from the path it kept.
  await page.reload();
  await expect(balance(page)).toHaveText('96 credits');
  await page.getByRole('button', { name: /^Jobs/ }).click();
  await drawer.getByRole('listitem', { name: 'Text to Image, Succeeded' }).getByRole('link', { name: 'Inspect Text to Image job' }).click();
  await expect(page).toHaveURL(/\/inspector\?actor=job-/);
  await expect(page.getByText(/^Loaded \d+ records from this job’s kept path \(this browser\)\.$/)).toBeVisible();
  await expect(diagram(page)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('table', { name: 'Event log' }).getByRole('row').filter({ hasText: '→ succeeded' })).toHaveCount(1);
  const slider = page.getByRole('slider');
  await slider.focus();
  await page.keyboard.press('End');
  await expect(activeState(page, 'succeeded')).toHaveCount(1);
  await expect(page.getByTestId('inspector-current-state')).toHaveText('succeeded');
  // The chart marks the way the job went: it passed through its polling states.
  await expect(diagram(page).locator('[data-visited="true"][data-state-path^="polling"]').first()).toBeAttached();
  await expect(page.getByRole('button', { name: /^Open the path of Text to Image to succeeded, / })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Open the path of Text to Image to failed, / })).toBeVisible();

  // Item 5: "Report a problem" on the failed job's row: a downloaded file, also kept by this local Kinora.
  await page.getByRole('button', { name: /^Jobs/ }).click();
  await drawer.getByRole('listitem', { name: /^Text to Image, Failed/ }).getByRole('button', { name: 'Report a problem with Text to Image job' }).click();
  const dialog = page.getByRole('dialog', { name: 'Report a problem' });
  await dialog.getByRole('textbox', { name: 'What happened? (optional)' }).fill('The storm never came');
  const downloadPromise = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Create the report' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^kinora-problem-.*\.json$/);
  await expect(dialog.getByText('Also kept in this Kinora’s problem reports (machine inspector).')).toBeVisible();
  const file = await download.path();
  const text = await readFile(file, 'utf8');
  const report = JSON.parse(text) as {
    schema: string;
    note: string;
    job: { outcome: string; refunded: boolean };
    serverHistory: { status: string; events: { kind: string }[] };
    log: { records: { machineId: string; to?: unknown }[] };
  };
  expect(report.schema).toBe('kinora.problem-report');
  expect(report.note).toBe('The storm never came');
  expect(report.job).toMatchObject({ outcome: 'failed' });
  expect(report.serverHistory.status).toBe('failed');
  expect(report.serverHistory.events.map((event) => event.kind)).toEqual(expect.arrayContaining(['queued', 'charged', 'finished', 'refunded']));
  expect(report.log.records.filter((record) => record.machineId === 'generationJob').map((record) => record.to)).toContain('failed');
  // Nothing secret left: not the password, not one of the sign-in tokens this browser holds.
  const tokens = await page.evaluate(() => Object.keys(localStorage).filter((key) => /Token$/.test(key)).map((key) => localStorage.getItem(key) ?? ''));
  expect(tokens.length).toBeGreaterThan(0);
  for (const secret of [PASSWORD, ...tokens]) expect(text).not.toContain(secret);
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();

  // A fresh browser: the same person loads the file in the inspector and replays the failed job.
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto('/authentication');
  await signIn(other, email);
  await expect(balance(other)).toHaveText('96 credits');
  await other.goto('/inspector');
  await expect(other.getByRole('heading', { name: 'Machine inspector', level: 1 })).toBeVisible();
  await other.locator('input[type="file"]').setInputFiles({ name: download.suggestedFilename(), mimeType: 'application/json', buffer: Buffer.from(text) });
  await expect(other.getByText(/^Loaded \d+ records from kinora-problem-/)).toBeVisible();
  await expect(other.getByRole('button', { name: /Generation job/, pressed: true })).toBeVisible();
  await expect(diagram(other)).toBeVisible({ timeout: 30_000 });
  await other.getByRole('button', { name: 'Play', exact: true }).click();
  await expect(activeState(other, 'failed')).toHaveCount(1, { timeout: 60_000 });
  // The report kept on the server replays too, from the inspector's list.
  await other.getByRole('button', { name: 'Back to live' }).click();
  await other.getByRole('button', { name: /^Replay Text to Image · failed, / }).click();
  await expect(other.getByText(/^Loaded \d+ records from Text to Image · failed\.$/)).toBeVisible();
  await fresh.close();
  expect(errors).toEqual([]);
});
