/**
 * Lighthouse (npm `lighthouse` 12, Node 20) on the pages a visitor meets first, against a stack
 * started like `npm start` (build + API server + sign-in emulator) on a free port with a fresh data
 * folder, in Debian's Chromium (never a downloaded browser). Lighthouse's default mobile profile:
 * Moto G Power sized screen, simulated slow 4G and 4× CPU slowdown. Each page is measured
 * `runs` times and the median of every figure is kept (a single Lighthouse run swings by several
 * points, more so on a busy machine).
 *
 * Environment: BENCH_LIGHTHOUSE_PORT (a free port when unset), CHROMIUM_PATH (/usr/bin/chromium),
 * BENCH_LIGHTHOUSE_RUNS (3).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { launch, type LaunchedChrome } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { findFreePort } from '../server/src/auth/emulator.ts';

/** The pages of issue 8: the home page, sign-in, and one tool page. */
export const LIGHTHOUSE_PAGES = ['/', '/authentication', '/ai-image/text-to-image'] as const;

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
  const summary = lhr.audits['resource-summary']?.details as
    | { items?: { resourceType?: string; transferSize?: number }[] }
    | undefined;
  const script = summary?.items?.find((item) => item.resourceType === 'script');
  return {
    scores: Object.fromEntries(LIGHTHOUSE_CATEGORIES.map((c) => [c, score(c)])) as Record<Category, number>,
    fcpMs: metric('first-contentful-paint'),
    lcpMs: metric('largest-contentful-paint'),
    tbtMs: metric('total-blocking-time'),
    cls: metric('cumulative-layout-shift'),
    jsTransferBytes: script?.transferSize ?? 0,
  };
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

/** `npm start` on its own port, data folder and dist folder; resolves once the API answers. */
async function startStack(root: string, port: number): Promise<{ stop: () => Promise<void>; output: () => string }> {
  const dataDir = path.join(root, '.local/bench-lighthouse');
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      KINORA_DATA_DIR: dataDir,
      KINORA_DIST_DIR: path.join(root, '.local/bench-lighthouse-dist'),
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
  return { stop, output: () => output };
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

/** Runs Lighthouse `runs` times on each page and returns the medians, page by page. */
export async function measureLighthouse(
  options: { runs?: number; pages?: readonly string[] } = {},
): Promise<LighthousePageResult[]> {
  const root = process.cwd();
  const runs = options.runs ?? Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
  const pages = options.pages ?? LIGHTHOUSE_PAGES;
  const port = Number(process.env.BENCH_LIGHTHOUSE_PORT ?? (await findFreePort()));
  const stack = await startStack(root, port);
  let chrome: LaunchedChrome | undefined;
  try {
    chrome = await launch({
      chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      chromeFlags: CHROME_FLAGS,
      logLevel: 'silent',
    });
    const results: LighthousePageResult[] = [];
    for (const page of pages) {
      const figures: LighthouseFigures[] = [];
      for (let run = 0; run < runs; run += 1) {
        figures.push(await runOnce(`http://localhost:${port}${page}`, chrome.port));
      }
      results.push({ path: page, runs, ...medianFigures(figures) });
    }
    return results;
  } finally {
    chrome?.kill();
    await stack.stop();
  }
}

const pct = (score: number) => (score * 100).toFixed(0);
const ms = (value: number) => `${Math.round(value)} ms`;

/** The Markdown table `npm run bench` prints and writes. */
export function lighthouseTable(results: readonly LighthousePageResult[]): string {
  const runs = results[0]?.runs ?? 0;
  return [
    `| Lighthouse, mobile profile, median of ${runs} runs | performance | accessibility | best practices | SEO | FCP | LCP | TBT | CLS | JS transferred |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| \`${r.path}\` | ${pct(r.scores.performance)} | ${pct(r.scores.accessibility)} | ${pct(r.scores['best-practices'])} | ${pct(r.scores.seo)} | ${ms(r.fcpMs)} | ${ms(r.lcpMs)} | ${ms(r.tbtMs)} | ${r.cls.toFixed(3)} | ${(r.jsTransferBytes / 1024).toFixed(1)} KB |`,
    ),
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
}

/** Which figures are over budget, as "<page> <figure>" strings; empty when all are within. */
export function lighthouseOverBudget(results: readonly LighthousePageResult[], budget: LighthouseBudget): string[] {
  return results.flatMap((r) =>
    [
      r.scores.performance < budget.performanceScoreAtLeast && 'performance score',
      r.scores.accessibility < budget.accessibilityScoreAtLeast && 'accessibility score',
      r.scores['best-practices'] < budget.bestPracticesScoreAtLeast && 'best-practices score',
      r.scores.seo < budget.seoScoreAtLeast && 'SEO score',
      r.lcpMs > budget.lcpMsAtMost && 'LCP',
      r.tbtMs > budget.tbtMsAtMost && 'TBT',
      r.cls > budget.clsAtMost && 'CLS',
    ]
      .filter((what): what is string => typeof what === 'string')
      .map((what) => `Lighthouse ${r.path} ${what}`),
  );
}

// `node --import tsx bench/lighthouse.ts`: only the Lighthouse part, printed.
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(lighthouseTable(await measureLighthouse()));
}
