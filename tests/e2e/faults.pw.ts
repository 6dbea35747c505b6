import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createAccount, freshHandle } from './helpers/accounts';
import { describeFaults, faultFor, faultSeed, injectApiFaults } from './helpers/faults';
import { balance, signIn, watchPageErrors } from './helpers/ui';
import { JOB_END_MS } from './helpers/stack';

/**
 * Fault tolerance in the browser (issue 8, Build 5) on `npm start`'s stack: API calls lost on the
 * way to the server or on the way back, and the browser going offline for a minute in the middle
 * of a job. The app must end every job as the server ended it, charge each exactly once, and keep
 * the person signed in.
 */

/** Text to Image's default (cheapest) model: SPEC §9. */
const COST = 4;
const START_CREDITS = 100;
const SUBMIT_PATH = '/api/image/text-2-image';
/**
 * The default seed: with it the ten runs' submits meet both kinds of fault, an answer lost twice in
 * a row among them (the test checks that they did, so a seed that spares the submits fails).
 * FAULT_SEED=<n> picks another.
 */
const DEFAULT_SEED = 62;

interface LedgerEntry {
  id: string;
  amount: number;
  kind: string;
  job_id: string | null;
}

/** The user's whole credit history from the API (as the /credits history page reads it). */
async function ledger(request: APIRequestContext, headers: Record<string, string>): Promise<LedgerEntry[]> {
  const entries: LedgerEntry[] = [];
  let cursor: string | null = null;
  do {
    const response = await request.get('/api/credits/history', {
      headers,
      params: cursor ? { next_start_keys: cursor } : undefined,
    });
    expect(response.ok(), `credits/history answered ${response.status()}`).toBe(true);
    const { data } = (await response.json()) as { data: { items: LedgerEntry[]; next_start_keys: string | null } };
    entries.push(...data.items);
    cursor = data.next_start_keys;
  } while (cursor);
  return entries;
}

async function signInAs(page: Page, email: string): Promise<void> {
  await page.goto('/authentication');
  await signIn(page, email);
  await expect(balance(page)).toHaveText(`${START_CREDITS} credits`);
}

async function openTextToImage(page: Page): Promise<void> {
  await page.goto('/ai-image/text-to-image');
  await expect(page.getByRole('heading', { name: 'Text to Image', level: 1 })).toBeVisible();
}

const jobsButton = (page: Page) => page.getByRole('button', { name: /^Jobs/ });

/**
 * Lets the "… finished" toasts close: they sit over the header's Jobs button (top right) and stay
 * while the pointer rests on them, so the pointer is moved off them first.
 */
async function waitForToastsToClose(page: Page): Promise<void> {
  await page.mouse.move(10, 500);
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0, { timeout: 20_000 });
}
const jobsDrawer = (page: Page) => page.getByRole('dialog', { name: 'Jobs' });

/** The result image of a prompt has loaded (its file, not only its element). */
async function expectResultImage(page: Page, prompt: string, timeout: number): Promise<void> {
  const result = page.getByRole('img', { name: prompt }).first();
  await expect(result).toBeVisible({ timeout });
  await expect
    .poll(() => result.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 15_000 })
    .toBe(true);
}

test('20 % of API calls lost (before or after the server): ten generations each end succeeded with one debit', async ({
  page,
  request,
}) => {
  test.setTimeout(12 * 60_000);
  const seed = faultSeed(DEFAULT_SEED);
  console.log(`[faults] seed ${seed} (FAULT_SEED=${seed} repeats this run)`);
  test.info().annotations.push({ type: 'fault seed', description: String(seed) });
  const errors = watchPageErrors(page);
  // The schedule itself hits 20 % of calls, half of each kind (over many calls; a run's own share
  // varies with how many polls it takes).
  const sample = Array.from({ length: 20_000 }, (_, index) => faultFor(seed, 0.2, 'GET', `/api/media/m${index % 500}`, index));
  expect(Math.abs(sample.filter((kind) => kind !== null).length / sample.length - 0.2)).toBeLessThan(0.01);
  expect(Math.abs(sample.filter((kind) => kind === 'after').length / sample.length - 0.1)).toBeLessThan(0.01);

  const { email } = await createAccount(request, { prefix: 'fault-abort', handle: freshHandle('fault-ab') });
  await signInAs(page, email);
  await openTextToImage(page);

  const faults = await injectApiFaults(page, { seed, rate: 0.2 });
  const prompts = Array.from({ length: 10 }, (_, index) => `fault run ${index + 1} of seed ${seed}: a kite above green hills`);
  // One after another: each run's result is looked for while it is the newest on the page (run side
  // by side, an earlier run's image was present but hidden behind the later ones: a clean run failed so).
  for (const [index, prompt] of prompts.entries()) {
    await page.getByRole('textbox', { name: 'Prompt' }).fill(prompt);
    // Handed over: its submit has left the page (whether or not it is then lost) before anything else.
    const sent = page.waitForRequest((call) => call.method() === 'POST' && new URL(call.url()).pathname === SUBMIT_PATH && (call.postData() ?? '').includes(prompt));
    await page.getByRole('button', { name: 'Generate' }).click();
    await sent;
    // The right terminal state, as the person sees it: the run's own result image.
    await expectResultImage(page, prompt, 90_000);
    console.log(`[faults] run ${index + 1} done; ${describeFaults(faults)}`);
  }
  const summary = describeFaults(faults);
  console.log(`[faults] ${summary}`);

  // The faults really happened, of both kinds, and to the submits themselves.
  const hit = faults.calls.filter((call) => call.kind !== null);
  expect(hit.length, summary).toBeGreaterThan(0);
  expect(hit.length / faults.calls.length, summary).toBeGreaterThan(0.05);
  expect(hit.length / faults.calls.length, summary).toBeLessThan(0.4);
  const submits = faults.calls.filter((call) => call.method === 'POST' && call.path === SUBMIT_PATH);
  const lostAfter = submits.filter((call) => call.kind === 'after');
  expect(submits.filter((call) => call.kind === 'before').length, 'submits aborted before the server').toBeGreaterThan(0);
  expect(lostAfter.length, 'submits whose answer was lost after the server handled them').toBeGreaterThan(0);
  // The server did handle those (it answered; the browser never saw it).
  for (const call of lostAfter) expect(call.status).toBe(200);
  // Every run got through in the end; no run was sent as a new request.
  expect(submits.filter((call) => call.kind === null)).toHaveLength(10);

  // Exactly one debit per run in the ledger, each for its own job, and nothing given back.
  faults.setActive(false);
  await waitForToastsToClose(page);
  const headers = faults.lastAuthHeaders();
  expect(headers, 'a call with the user token was seen').not.toBeNull();
  const entries = await ledger(request, headers ?? {});
  const debits = entries.filter((entry) => entry.kind === 'debit');
  expect(debits).toHaveLength(10);
  for (const debit of debits) expect(debit.amount).toBe(-COST);
  expect(new Set(debits.map((debit) => debit.job_id)).size).toBe(10);
  expect(entries.filter((entry) => entry.kind === 'refund')).toEqual([]);
  const total = entries.reduce((sum, entry) => sum + entry.amount, 0);
  expect(total).toBe(START_CREDITS - 10 * COST);

  // The UI agrees: the balance dropped by ten costs, and the jobs panel lists ten successes.
  await expect(balance(page)).toHaveText(`${START_CREDITS - 10 * COST} credits`, { timeout: JOB_END_MS });
  await jobsButton(page).click();
  const drawer = jobsDrawer(page);
  await expect(drawer).toBeVisible();
  const jobs = drawer.getByRole('listitem').filter({ hasText: 'Text to Image' });
  await expect(jobs).toHaveCount(10);
  await expect(jobs.filter({ hasText: 'Succeeded' })).toHaveCount(10);
  await page.keyboard.press('Escape');
  for (const prompt of prompts) await expect(page.getByRole('img', { name: prompt }).first()).toBeAttached();
  await faults.dispose();
  expect(errors).toEqual([]);
});

test('60 s offline in the middle of a job: still signed in, polling resumes, the job ends succeeded with one debit', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(4 * 60_000);
  const errors = watchPageErrors(page);
  // The page's clock is Playwright's (page.clock): it runs as usual, and the offline minute below
  // passes on it at once, every timer of the app (job polling, the token refresh's back-off)
  // firing as it would over that minute, without a minute of real waiting.
  await page.clock.install();
  const { email } = await createAccount(request, { prefix: 'fault-offline', handle: freshHandle('fault-of') });
  await signInAs(page, email);
  await openTextToImage(page);

  // Only watched, never faulted: the user's token, to read the ledger afterwards.
  const watcher = await injectApiFaults(page, { seed: 0, rate: 0 });
  const prompt = 'an offline minute: a lighthouse in the fog';
  await page.getByRole('textbox', { name: 'Prompt' }).fill(prompt);
  await page.getByRole('button', { name: 'Generate' }).click();
  await jobsButton(page).click();
  const job = jobsDrawer(page).getByRole('listitem').filter({ hasText: 'Text to Image' }).first();
  await expect(job).toContainText(/Queued|Processing/);
  await page.keyboard.press('Escape');
  const callsBefore = watcher.calls.length;

  // Sign-in server calls (the session's token refresh) that failed for want of a network.
  const failedTokenCalls: string[] = [];
  page.on('requestfailed', (failed) => {
    if (new URL(failed.url()).pathname.startsWith('/cognito')) failedTokenCalls.push(failed.headers()['x-amz-target'] ?? failed.url());
  });
  await context.setOffline(true);
  const pageNow = () => page.evaluate(() => Date.now());
  const offlineSince = Date.now();
  const pageOfflineSince = await pageNow();
  const urls = new Set<string>();
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) urls.add(new URL(frame.url()).pathname);
  });
  // A minute without any network on the page's clock; every 10 s the person is still shown as
  // signed in, on the tool.
  for (let passed = 0; passed < 60_000; passed += 10_000) {
    await page.clock.runFor(10_000);
    await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
    await expect(page).toHaveURL(/\/ai-image\/text-to-image$/);
  }
  const pageOffline = (await pageNow()) - pageOfflineSince;
  expect(pageOffline).toBeGreaterThanOrEqual(60_000);
  // Nothing got through while offline, and the job could not have been seen to end.
  await expect(page.getByRole('img', { name: prompt })).toHaveCount(0);
  const offlineCalls = watcher.calls.length - callsBefore;
  await context.setOffline(false);
  console.log(
    `[faults] offline for ${Math.round(pageOffline / 1000)} s on the page's clock (${Math.round((Date.now() - offlineSince) / 1000)} s of real time); ` +
      `${offlineCalls} API calls and ${failedTokenCalls.length} token refreshes (${[...new Set(failedTokenCalls)].join(', ')}) tried meanwhile`,
  );
  // The job kept polling (and failing) and the session tried to refresh its tokens (and failed):
  // neither gave up nor signed the person out.
  expect(offlineCalls).toBeGreaterThan(0);
  expect(failedTokenCalls.length).toBeGreaterThan(0);

  // Back online: polling resumes at once (the online event), the job ends succeeded.
  const backOnline = Date.now();
  await expectResultImage(page, prompt, JOB_END_MS);
  console.log(`[faults] result shown ${Math.round((Date.now() - backOnline) / 1000)} s after going online`);
  await waitForToastsToClose(page);
  await jobsButton(page).click();
  await expect(jobsDrawer(page).getByRole('listitem').filter({ hasText: 'Text to Image' }).first()).toContainText('Succeeded');
  await page.keyboard.press('Escape');

  // Still signed in: the header shows them, no sign-in page was ever shown, the token still works.
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  await expect(balance(page)).toHaveText(`${START_CREDITS - COST} credits`, { timeout: JOB_END_MS });
  expect([...urls].filter((path) => path.startsWith('/authentication'))).toEqual([]);
  await page.goto('/credits');
  await expect(page).toHaveURL(/\/credits$/);
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();

  const headers = watcher.lastAuthHeaders();
  expect(headers).not.toBeNull();
  const entries = await ledger(request, headers ?? {});
  expect(entries.filter((entry) => entry.kind === 'debit').map((entry) => entry.amount)).toEqual([-COST]);
  expect(entries.filter((entry) => entry.kind === 'refund')).toEqual([]);
  await watcher.dispose();
  expect(errors).toEqual([]);
});
