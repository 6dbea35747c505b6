/**
 * Lighthouse (npm `lighthouse` 12, Node 20) on the pages a visitor meets first, against a stack
 * started like `npm start` (build + API server + sign-in emulator) on a free port with a fresh data
 * folder, in Debian's Chromium (never a downloaded browser). Lighthouse's default mobile profile:
 * Moto G Power sized screen, simulated slow 4G and 4× CPU slowdown. Each page is measured
 * `runs` times and the median of every figure is kept (a single Lighthouse run swings by several
 * points, more so on a busy machine).
 *
 * Issue 19 item 6: a reference page (bench/reference: React and Mantine with Kinora's shell, menu
 * and home text, built with the same Vite, React plugin and precompression, served by the same
 * static-file code) is built and measured in the same run, its runs interleaved with Kinora's, so
 * each page's figure is how many points it is under the reference — not an absolute that depends
 * on how busy this shared machine is. The JS counted is every script a page loads before
 * Lighthouse's trace ends (its resource summary), not only the static import graph.
 *
 * Environment: BENCH_LIGHTHOUSE_PORT (a free port when unset), CHROMIUM_PATH (/usr/bin/chromium),
 * BENCH_LIGHTHOUSE_RUNS (3).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import compress from '@fastify/compress';
import react from '@vitejs/plugin-react';
import { launch, type LaunchedChrome } from 'chrome-launcher';
import Fastify from 'fastify';
import lighthouse from 'lighthouse';
import { build } from 'vite';
import { findFreePort } from '../server/src/auth/emulator.ts';
import { ANSWER_COMPRESSION } from '../server/src/lib/compressible.ts';
import { registerSpa } from '../server/src/routes/spa.ts';
import { precompress } from '../scripts/precompress.ts';

/** The pages of issue 8 and issue 19: the home page, sign-in, one tool page and AI Story. */
export const LIGHTHOUSE_PAGES = ['/', '/authentication', '/ai-image/text-to-image', '/ai-production/ai-story'] as const;

/** How the reference page is named in the table. */
export const REFERENCE_LABEL = 'reference: React + Mantine shell';

export const LIGHTHOUSE_CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type Category = (typeof LIGHTHOUSE_CATEGORIES)[number];

/** The same switches as playwright.config.ts, so both drive Chromium the same way. */
const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** One page's figures: scores 0–1, times in ms, CLS unitless, JS in bytes as transferred (gzip). */
export interface LighthouseFigures {
  scores: Record<Category, number>;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  jsTransferBytes: number;
}

export interface LighthousePageResult extends LighthouseFigures {
  path: string;
  runs: number;
}

export const median = (values: readonly number[]): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** Figure by figure, each the median of the runs (not the figures of the median run). */
export function medianFigures(runs: readonly LighthouseFigures[]): LighthouseFigures {
  const of = (pick: (run: LighthouseFigures) => number) => median(runs.map(pick));
  const scores = Object.fromEntries(LIGHTHOUSE_CATEGORIES.map((c) => [c, of((run) => run.scores[c])])) as Record<
    Category,
    number
  >;
  return {
    scores,
    fcpMs: of((run) => run.fcpMs),
    lcpMs: of((run) => run.lcpMs),
    tbtMs: of((run) => run.tbtMs),
    cls: of((run) => run.cls),
    jsTransferBytes: of((run) => run.jsTransferBytes),
  };
}

interface LhrLike {
  runtimeError?: { code: string; message: string };
  categories: Record<string, { score: number | null } | undefined>;
  audits: Record<string, { numericValue?: number; details?: unknown } | undefined>;
}

/** Reads the figures out of a Lighthouse result; throws when Lighthouse could not load the page. */
export function figuresOf(lhr: LhrLike): LighthouseFigures {
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const score = (category: Category) => {
    const value = lhr.categories[category]?.score;
    if (typeof value !== 'number') throw new Error(`Lighthouse gave no ${category} score`);
    return value;
  };
  const metric = (id: string) => {
    const value = lhr.audits[id]?.numericValue;
    if (typeof value !== 'number') throw new Error(`Lighthouse gave no ${id}`);
    return value;
  };
  return {
    scores: Object.fromEntries(LIGHTHOUSE_CATEGORIES.map((c) => [c, score(c)])) as Record<Category, number>,
    fcpMs: metric('first-contentful-paint'),
    lcpMs: metric('largest-contentful-paint'),
    tbtMs: metric('total-blocking-time'),
    cls: metric('cumulative-layout-shift'),
    jsTransferBytes: scriptBytesOf(lhr),
  };
}

interface NetworkRequestItem {
  url?: string;
  resourceType?: string;
  mimeType?: string;
  transferSize?: number;
}

/**
 * Every JS byte the page downloaded, from Lighthouse's request list: scripts, and scripts fetched
 * ahead (main.tsx's `prefetch` links, which Lighthouse types "Other", so its resource summary
 * leaves them out). A file fetched twice (prefetched, then imported from the cache) counts once,
 * at its larger transfer.
 */
export function scriptBytesOf(lhr: LhrLike): number {
  const items = (lhr.audits['network-requests']?.details as { items?: NetworkRequestItem[] } | undefined)?.items;
  if (!items) throw new Error('Lighthouse gave no network-requests');
  const bytesByUrl = new Map<string, number>();
  for (const item of items) {
    const isScript = item.resourceType === 'Script' || (item.mimeType ?? '').includes('javascript');
    if (!isScript || !item.url || item.url.startsWith('data:')) continue;
    bytesByUrl.set(item.url, Math.max(bytesByUrl.get(item.url) ?? 0, item.transferSize ?? 0));
  }
  return [...bytesByUrl.values()].reduce((total, bytes) => total + bytes, 0);
}


async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the stack exited (code ${child.exitCode}) before answering`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await sleep(500);
  }
  throw new Error(`the stack did not answer ${url} within ${timeoutMs / 1000} s`);
}

/**
 * `npm start` on its own port, data folder and dist folder (`.local/<name>` and `.local/<name>-dist`);
 * resolves once the API answers.
 */
export async function startStack(
  root: string,
  port: number,
  name = 'bench-lighthouse',
): Promise<{ stop: () => Promise<void>; output: () => string; dataDir: string }> {
  const dataDir = path.join(root, '.local', name);
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      KINORA_DATA_DIR: dataDir,
      KINORA_DIST_DIR: path.join(root, '.local', `${name}-dist`),
      KINORA_FRESH: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    // start.ts stops the API server and the emulator on SIGTERM; a SIGKILL would orphan them.
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(20_000)]);
  };
  try {
    await waitForHealth(`http://127.0.0.1:${port}/api/health`, child, 240_000);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n${output}`, { cause: error });
  }
  return { stop, output: () => output, dataDir };
}

/** Lighthouse's own advice for a failed trace (e.g. NO_NAVSTART on a busy machine) is to run again. */
const ATTEMPTS_PER_RUN = 3;

/** One Lighthouse run: default config = mobile form factor, simulated throttling; storage reset first. */
async function runOnce(url: string, chromePort: number): Promise<LighthouseFigures> {
  let lastError: unknown;
  for (let attempt = 1; attempt <= ATTEMPTS_PER_RUN; attempt += 1) {
    try {
      const result = await lighthouse(url, {
        port: chromePort,
        output: 'json',
        logLevel: 'error',
        onlyCategories: [...LIGHTHOUSE_CATEGORIES],
      });
      if (!result) throw new Error('Lighthouse returned nothing');
      return figuresOf(result.lhr as unknown as LhrLike);
    } catch (error) {
      lastError = error;
      console.warn(`Lighthouse on ${url}, attempt ${attempt}: ${(error as Error).message}`);
    }
  }
  throw new Error(`Lighthouse failed ${ATTEMPTS_PER_RUN} times on ${url}`, { cause: lastError });
}

export interface LighthouseResults {
  reference: LighthousePageResult;
  pages: LighthousePageResult[];
  /** The machine's 1-minute load average when the runs ended. */
  load: number;
}

/** Builds bench/reference (the app's Vite, React plugin and precompression) into a folder of its own. */
async function buildReference(root: string): Promise<string> {
  const outDir = path.join(root, '.local/bench-reference-dist');
  await build({
    configFile: false,
    root: path.join(root, 'bench/reference'),
    plugins: [react(), precompress()],
    resolve: { alias: { '@': path.join(root, 'src') } },
    build: { outDir, emptyOutDir: true },
    logLevel: 'warn',
  });
  return outDir;
}

/** Serves the reference as the API server serves the app's build (registerSpa), compressed the same way. */
async function serveReference(dir: string) {
  const app = Fastify({ logger: false });
  await app.register(compress, ANSWER_COMPRESSION);
  await registerSpa(app, dir);
  await app.listen({ port: 0, host: 'localhost' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the reference server has no port');
  return { url: `http://localhost:${address.port}/`, close: () => app.close() };
}

/**
 * Runs Lighthouse `runs` times on the reference and on each page, interleaved (reference, then
 * every page, then again), and returns the medians, page by page.
 */
export async function measureLighthouse(options: { runs?: number; pages?: readonly string[] } = {}): Promise<LighthouseResults> {
  const root = process.cwd();
  const runs = options.runs ?? Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
  const pages = options.pages ?? LIGHTHOUSE_PAGES;
  const reference = await serveReference(await buildReference(root));
  const port = Number(process.env.BENCH_LIGHTHOUSE_PORT ?? (await findFreePort()));
  let stack: Awaited<ReturnType<typeof startStack>> | undefined;
  let chrome: LaunchedChrome | undefined;
  try {
    stack = await startStack(root, port);
    chrome = await launch({
      chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      chromeFlags: CHROME_FLAGS,
      logLevel: 'silent',
    });
    const referenceRuns: LighthouseFigures[] = [];
    const pageRuns = new Map<string, LighthouseFigures[]>(pages.map((page) => [page, []]));
    for (let run = 0; run < runs; run += 1) {
      referenceRuns.push(await runOnce(reference.url, chrome.port));
      for (const page of pages) pageRuns.get(page)!.push(await runOnce(`http://localhost:${port}${page}`, chrome.port));
    }
    return {
      reference: { path: REFERENCE_LABEL, runs, ...medianFigures(referenceRuns) },
      pages: pages.map((page) => ({ path: page, runs, ...medianFigures(pageRuns.get(page)!) })),
      load: loadavg()[0] ?? 0,
    };
  } finally {
    chrome?.kill();
    await stack?.stop();
    await reference.close();
  }
}

const pct = (score: number) => (score * 100).toFixed(0);
const ms = (value: number) => `${Math.round(value)} ms`;

/** Performance points a page is under the reference (negative: above it). */
export const pointsUnderReference = (page: LighthouseFigures, reference: LighthouseFigures): number =>
  Math.round((reference.scores.performance - page.scores.performance) * 100);

/** The Markdown table `npm run bench` prints and writes: the reference first, then each page against it. */
export function lighthouseTable(results: LighthouseResults): string {
  const { reference, pages } = results;
  const row = (r: LighthousePageResult, under: string) =>
    `| ${r.path.startsWith('/') ? `\`${r.path}\`` : r.path} | ${pct(r.scores.performance)} | ${under} | ${pct(r.scores.accessibility)} | ${pct(r.scores['best-practices'])} | ${pct(r.scores.seo)} | ${ms(r.fcpMs)} | ${ms(r.lcpMs)} | ${ms(r.tbtMs)} | ${r.cls.toFixed(3)} | ${(r.jsTransferBytes / 1024).toFixed(1)} KB |`;
  return [
    `| Lighthouse, mobile profile, median of ${reference.runs} runs, interleaved (load ${results.load.toFixed(1)}) | performance | points under the reference | accessibility | best practices | SEO | FCP | LCP | TBT | CLS | JS before idle |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    row(reference, '—'),
    ...pages.map((page) => row(page, String(pointsUnderReference(page, reference)))),
  ].join('\n');
}

/** Lighthouse budgets of bench/budget.json: score floors (0–1) per category, ceilings per metric. */
export interface LighthouseBudget {
  performanceScoreAtLeast: number;
  accessibilityScoreAtLeast: number;
  bestPracticesScoreAtLeast: number;
  seoScoreAtLeast: number;
  lcpMsAtMost: number;
  tbtMsAtMost: number;
  clsAtMost: number;
  /** Per page: at most this many performance points under the reference of the same run. */
  pointsUnderReferenceAtMost: Record<string, number>;
  /** Per page: at most this many KB of JS (as transferred) before the page is idle. */
  jsTransferKbAtMost: Record<string, number>;
}

/** Which figures are over budget, as "<page> <figure>" strings; empty when all are within. */
export function lighthouseOverBudget(results: LighthouseResults, budget: LighthouseBudget): string[] {
  return results.pages.flatMap((r) => {
    const pointsAllowed = budget.pointsUnderReferenceAtMost[r.path];
    const jsAllowedKb = budget.jsTransferKbAtMost[r.path];
    return [
      r.scores.performance < budget.performanceScoreAtLeast && 'performance score',
      r.scores.accessibility < budget.accessibilityScoreAtLeast && 'accessibility score',
      r.scores['best-practices'] < budget.bestPracticesScoreAtLeast && 'best-practices score',
      r.scores.seo < budget.seoScoreAtLeast && 'SEO score',
      r.lcpMs > budget.lcpMsAtMost && 'LCP',
      r.tbtMs > budget.tbtMsAtMost && 'TBT',
      r.cls > budget.clsAtMost && 'CLS',
      pointsAllowed !== undefined && pointsUnderReference(r, results.reference) > pointsAllowed && 'performance points under the reference',
      jsAllowedKb !== undefined && r.jsTransferBytes > jsAllowedKb * 1024 && 'JS before idle',
    ]
      .filter((what): what is string => typeof what === 'string')
      .map((what) => `Lighthouse ${r.path} ${what}`);
  });
}

// `node --import tsx bench/lighthouse.ts`: only the Lighthouse part, printed.
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(lighthouseTable(await measureLighthouse()));
}
