import { spawn, type ChildProcess } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { startFalStandIn, type FalStandIn } from '../fal/queue-stand-in';
import { createAccount, freshHandle } from './helpers/accounts';
import { expectPlayable } from './helpers/media';
import { balance, pickFiles, signIn, watchPageErrors } from './helpers/ui';

/**
 * Issue 16 in the browser: `npm start`'s stack with KINORA_RENDER_PROVIDER=fal, pointed at the
 * local stand-in of fal's queue API (tests/fal), as a person would run it with
 * `KINORA_RENDER_PROVIDER=fal KINORA_FAL_QUEUE_URL=http://127.0.0.1:<port> FAL_KEY=x npm start`.
 * The stack has its own port, data and build folders, beside the one the other browser tests use.
 */

const PORT = Number(process.env.E2E_FAL_PORT ?? 8799);
const DATA_DIR = process.env.E2E_FAL_DATA_DIR ?? '.local/e2e-fal';
const ORIGIN = `http://localhost:${PORT}`;

test.describe.configure({ mode: 'serial', timeout: 240_000 });
test.use({ baseURL: ORIGIN });

let standIn: FalStandIn;
let stack: ChildProcess | undefined;

async function healthy(): Promise<boolean> {
  try {
    return (await fetch(`${ORIGIN}/api/health`)).ok;
  } catch {
    return false;
  }
}

test.beforeAll(async () => {
  test.setTimeout(300_000);
  standIn = await startFalStandIn({ stepsToComplete: 3 });
  stack = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      KINORA_DATA_DIR: DATA_DIR,
      KINORA_DIST_DIR: process.env.E2E_FAL_DIST_DIR ?? '.local/e2e-fal-dist',
      KINORA_FRESH: '1',
      COGNITO_LOCAL_PORT: String(PORT + 540),
      KINORA_RENDER_PROVIDER: 'fal',
      KINORA_FAL_QUEUE_URL: standIn.url,
      FAL_KEY: 'x',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<never>((_, reject) => stack?.once('exit', (code) => reject(new Error(`the fal stack exited (${code})`))));
  await Promise.race([expect.poll(healthy, { timeout: 280_000, intervals: [500] }).toBe(true), exited]);
});

test.afterAll(async () => {
  if (stack && stack.exitCode === null) {
    const stopped = new Promise((resolve) => stack?.once('exit', resolve));
    stack.kill('SIGTERM');
    await stopped;
  }
  await standIn?.stop();
});

async function signInAs(page: Page, email: string): Promise<void> {
  await page.goto('/authentication');
  // The first load of a stack started a moment ago compiles its server's code paths: give it time.
  await expect(page.getByRole('heading', { name: 'Sign in', exact: true })).toBeVisible({ timeout: 30_000 });
  await signIn(page, email);
  await expect(balance(page)).toHaveText('100 credits');
}

async function picture(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="320">
    <rect width="480" height="320" fill="#2a6f97"/><circle cx="180" cy="150" r="70" fill="#f4d35e"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

test('text to image runs on fal: the request reaches the queue and the picture is served by Kinora', async ({ page, request }) => {
  const errors = watchPageErrors(page);
  const { email } = await createAccount(request, { prefix: 'fal-image', handle: freshHandle('fal-im'), dataDir: DATA_DIR });
  await signInAs(page, email);
  const before = standIn.submissions.length;

  await page.goto('/ai-image/text-to-image');
  await page.getByRole('textbox', { name: 'Prompt' }).fill('a lighthouse painted by fal');
  await page.getByRole('button', { name: 'Generate' }).click();

  const result = page.getByRole('img', { name: /lighthouse painted by fal/ }).first();
  await expect(result).toBeVisible({ timeout: 60_000 });
  await expect.poll(() => result.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  const source = await result.getAttribute('src');
  expect(source).toContain('/api/files/');
  expect(source).not.toContain(standIn.url);
  const sent = standIn.submissions.slice(before);
  expect(sent.map((submission) => JSON.stringify(submission.input)).join(' ')).toContain('a lighthouse painted by fal');
  expect(errors).toEqual([]);
});

test('AI Motion from a picture runs on fal and the video plays', async ({ page, request }) => {
  const errors = watchPageErrors(page);
  const { email } = await createAccount(request, { prefix: 'fal-motion', handle: freshHandle('fal-mo'), dataDir: DATA_DIR });
  await signInAs(page, email);
  const before = standIn.submissions.length;

  await page.goto('/ai-video/ai-motion');
  await expect(page.getByRole('heading', { name: 'AI Motion', level: 1 })).toBeVisible();
  await pickFiles(page.locator('input[type="file"]').first(), { name: 'harbour.png', mimeType: 'image/png', buffer: await picture() });
  await expect(page.getByRole('img', { name: /harbour\.png/ }).first()).toBeVisible({ timeout: 20_000 });
  await page.getByRole('textbox', { name: 'Prompt' }).fill('the sun rises over the harbour');
  await page.getByRole('button', { name: 'Generate' }).click();

  const video = page.getByRole('region', { name: 'Results' }).locator('video').first();
  await expect(video).toBeVisible({ timeout: 120_000 });
  await expectPlayable(video, 1);
  const sent = standIn.submissions.slice(before);
  expect(sent.length).toBeGreaterThan(0);
  // fal fetched the picture through Kinora's signed link.
  const fetched = standIn.inputFetches.filter((fetch) => sent.some((submission) => submission.requestId === fetch.requestId));
  expect(fetched.some((fetch) => fetch.kind === 'http' && fetch.status === 200)).toBe(true);
  expect(errors).toEqual([]);
});
