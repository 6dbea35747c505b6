import { spawn, type ChildProcess } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { startFalStandIn, type FalStandIn } from '../fal/queue-stand-in';
import { startTestS3Server, type TestS3Server } from '../server/helpers/s3';
import { startStripeStandIn, type StripeStandIn } from '../stripe/stand-in';
import { createAccount, freshHandle } from './helpers/accounts';
import { expectPlayable } from './helpers/media';
import { balance, pickFiles, signIn, watchPageErrors } from './helpers/ui';

/**
 * The real providers in the browser (issues 16 and 20): `npm start`'s stack with every stand-in of
 * the embedded defaults swapped for a real provider's adapter, each pointed at a local stand-in of
 * that provider's HTTP API, as a person would run it:
 * - generation on fal.ai: KINORA_RENDER_PROVIDER=fal KINORA_FAL_QUEUE_URL=<tests/fal stand-in> FAL_KEY=x
 * - files in an S3 bucket: KINORA_S3_BUCKET and KINORA_S3_* pointing at s3rver
 * - card payments on Stripe: KINORA_PAYMENT_PROVIDER=stripe KINORA_STRIPE_API_URL=<tests/stripe stand-in>
 * The stack has its own port, data and build folders, beside the one the other browser tests use.
 */

const PORT = Number(process.env.E2E_PROVIDERS_PORT ?? 8799);
const DATA_DIR = process.env.E2E_PROVIDERS_DATA_DIR ?? '.local/e2e-providers';
const STRIPE_WEBHOOK_SECRET = 'whsec_e2e_providers';
const ORIGIN = `http://localhost:${PORT}`;

test.describe.configure({ mode: 'serial', timeout: 240_000 });
test.use({ baseURL: ORIGIN });

let standIn: FalStandIn;
let stripe: StripeStandIn;
let bucket: TestS3Server;
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
  [standIn, stripe, bucket] = await Promise.all([
    startFalStandIn({ stepsToComplete: 3 }),
    startStripeStandIn({ webhookSecret: STRIPE_WEBHOOK_SECRET, webhookUrl: `${ORIGIN}/api/stripe/webhook` }),
    startTestS3Server(),
  ]);
  stack = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      KINORA_DATA_DIR: DATA_DIR,
      KINORA_DIST_DIR: process.env.E2E_PROVIDERS_DIST_DIR ?? '.local/e2e-providers-dist',
      KINORA_FRESH: '1',
      COGNITO_LOCAL_PORT: String(PORT + 540),
      KINORA_RENDER_PROVIDER: 'fal',
      KINORA_FAL_QUEUE_URL: standIn.url,
      FAL_KEY: 'x',
      KINORA_S3_BUCKET: bucket.settings.bucket,
      KINORA_S3_ENDPOINT: bucket.settings.endpoint ?? '',
      KINORA_S3_ACCESS_KEY_ID: bucket.settings.credentials?.accessKeyId ?? '',
      KINORA_S3_SECRET_ACCESS_KEY: bucket.settings.credentials?.secretAccessKey ?? '',
      KINORA_PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_e2e_providers',
      STRIPE_WEBHOOK_SECRET,
      KINORA_STRIPE_API_URL: stripe.url,
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
  await Promise.all([standIn?.stop(), stripe?.stop(), bucket?.stop()]);
});

async function signInAs(page: Page, email: string): Promise<void> {
  await page.goto('/authentication');
  // The first load of a stack started a moment ago compiles its server's code paths: give it time.
  await expect(page.getByRole('heading', { name: 'Sign in', exact: true })).toBeVisible({ timeout: 30_000 });
  await signIn(page, email);
  await expect(balance(page)).toHaveText('100 credits');
}

/** The file id of a signed link (`/api/files/{fileId}?expires=…&signature=…`). */
function fileIdOf(link: string | null): string {
  const id = /\/api\/files\/([^/?]+)/.exec(link ?? '')?.[1];
  if (!id) throw new Error(`not a signed file link: ${link}`);
  return id;
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
  // Kept in the S3 bucket (`{mediaId}/{fileId}-{name}`), served through Kinora's signed link.
  expect(await bucket.keys()).toContainEqual(expect.stringContaining(`/${fileIdOf(source)}-`));
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
  // The video was streamed from the bucket, in ranges (expectPlayable seeks it).
  const videoSource = (await video.getAttribute('src')) ?? (await video.locator('source').first().getAttribute('src'));
  expect(await bucket.keys()).toContainEqual(expect.stringMatching(new RegExp(`/${fileIdOf(videoSource)}-.*\\.mp4$`)));
  const sent = standIn.submissions.slice(before);
  expect(sent.length).toBeGreaterThan(0);
  // fal fetched the picture through Kinora's signed link.
  const fetched = standIn.inputFetches.filter((fetch) => sent.some((submission) => submission.requestId === fetch.requestId));
  expect(fetched.some((fetch) => fetch.kind === 'http' && fetch.status === 200)).toBe(true);
  expect(errors).toEqual([]);
});

test('credits bought with Stripe: its checkout page, a declined card, then paying adds the credits once, with its receipt and portal', async ({ page, request }) => {
  const errors = watchPageErrors(page);
  const { email } = await createAccount(request, { prefix: 'stripe-buy', handle: freshHandle('stripe'), dataDir: DATA_DIR });
  await signInAs(page, email);
  await page.goto('/credits');
  await expect(page.getByRole('heading', { name: 'Credits and billing', level: 1 })).toBeVisible();

  // Buying a pack opens Stripe's checkout (the stand-in's hosted page) for the pack's price.
  await page.getByRole('button', { name: 'Buy Starter: 100 credits for $10.00' }).click();
  await expect(page).toHaveURL(new RegExp(`^${stripe.url}/`));
  await expect(page.getByRole('heading', { name: 'Pay $10.00', level: 1 })).toBeVisible();
  await page.getByLabel('Card number').fill('4000 0000 0000 0002');
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('Your card was declined.');
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Pay', exact: true }).click();

  // Back on Kinora: the signed checkout.session.completed webhook credited the pack, once.
  await expect(page).toHaveURL(/\/credits/);
  await expect(page.getByText('Payment received: 100 credits were added.')).toBeVisible();
  await expect(balance(page)).toHaveText('200 credits');
  await page.reload();
  await expect(balance(page)).toHaveText('200 credits');
  const history = page.getByRole('region', { name: 'Credit history' });
  await expect(history.getByRole('row').filter({ hasText: 'Purchase' })).toHaveCount(1);
  const completed = stripe.deliveries.filter((delivery) => delivery.type === 'checkout.session.completed');
  expect(completed.map((delivery) => delivery.status)).toContain(200);
  await expect(page.getByText('Saved card: Visa ending in 4242')).toBeVisible();

  // The receipt is the charge's receipt_url; the billing portal is Stripe's.
  await history.getByRole('button', { name: /^Receipt: / }).click();
  await expect(page).toHaveURL(new RegExp(`^${stripe.url}/`));
  await expect(page.getByText('$10.00').first()).toBeVisible();
  await page.goBack();
  await page.getByRole('button', { name: 'Billing portal' }).click();
  await expect(page).toHaveURL(new RegExp(`^${stripe.url}/`));
  await expect(page.getByText(/4242/).first()).toBeVisible();
  expect(errors).toEqual([]);
});
