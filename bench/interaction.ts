/**
 * Interaction to Next Paint (issue 19 item 4) on the pages where people type and choose the most:
 * the Text to Image form (typing a prompt, switching the model) and AI Story's storyboard with its
 * most scenes (12: typing in the last scene, changing a scene's shot, going on to the next step).
 *
 * Measured in Chromium on a stack started like `npm start`, signed in as a fresh account, with
 * the page's CPU slowed down 4× as Lighthouse's mobile profile does. Each interaction's latency is
 * what the browser's Event Timing API reports for it (from the input to the next paint, the longest
 * event of the interaction: https://web.dev/articles/inp, https://w3c.github.io/event-timing/), and
 * a scenario's INP is its slowest interaction (web.dev: with fewer than 50 interactions, INP is the
 * worst one). Interactions are typed and clicked as a person would, one after the other, each
 * after the page has painted the previous one.
 */
import { loadavg } from 'node:os';
import { chromium, request as playwrightRequest, type Page } from '@playwright/test';
import { findFreePort } from '../server/src/auth/emulator.ts';
import { createAccount, freshHandle } from '../tests/e2e/helpers/accounts.ts';
import { balance, signIn } from '../tests/e2e/helpers/ui.ts';
import { startStack } from './lighthouse.ts';

/** Lighthouse's mobile profile slows the CPU down this much. */
const CPU_SLOWDOWN = 4;
/** What a person types: a prompt of ordinary length, one key at a time. */
const PROMPT = 'A lighthouse on a cliff at dusk, waves below, oil painting';
const SCENE_WORDS = ' The keeper lights the lamp.';
const STORY_IDEA = 'A lighthouse keeper finds a message in a bottle and sails to find who sent it.';
/** The pause between two keys: a quick typist (the Event Timing API still sees every key). */
const KEY_DELAY_MS = 60;

export interface InteractionScenario {
  name: string;
  /** The slowest interaction's latency (the scenario's INP), in ms. */
  inpMs: number;
  /** Which interaction it was ("keydown", "pointerup"...), for whoever looks into it. */
  slowest: string;
  interactions: number;
}

export interface InteractionResults {
  scenarios: InteractionScenario[];
  cpuSlowdown: number;
  /** The machine's 1-minute load average when the runs ended. */
  load: number;
}

declare global {
  interface Window {
    __kinoraInteractions?: { id: number; name: string; duration: number }[];
  }
}

/** Starts recording every event entry that belongs to an interaction, before the page's own scripts run. */
async function recordInteractions(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.__kinoraInteractions = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as PerformanceEventTiming[]) {
        if (entry.interactionId) window.__kinoraInteractions?.push({ id: entry.interactionId, name: entry.name, duration: entry.duration });
      }
      // 16 ms is the smallest threshold the API takes: every interaction that takes a frame or more.
    }).observe({ type: 'event', durationThreshold: 16, buffered: true } as PerformanceObserverInit);
  });
}

/** Resolves after the page has painted twice: every interaction so far has its entry. */
const settle = (page: Page) =>
  page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0)))));

/** The interactions recorded since the last call, each at its longest event. */
async function takeInteractions(page: Page): Promise<{ inpMs: number; slowest: string; interactions: number }> {
  await settle(page);
  // Event Timing reports an entry only once the next paint has happened: a little more time.
  await page.waitForTimeout(300);
  const entries = await page.evaluate(() => window.__kinoraInteractions?.splice(0) ?? []);
  const byId = new Map<number, { name: string; duration: number }>();
  for (const entry of entries) {
    const known = byId.get(entry.id);
    if (!known || entry.duration > known.duration) byId.set(entry.id, { name: entry.name, duration: entry.duration });
  }
  let slowest = { name: 'none', duration: 0 };
  for (const interaction of byId.values()) if (interaction.duration > slowest.duration) slowest = interaction;
  return { inpMs: slowest.duration, slowest: slowest.name, interactions: byId.size };
}

/** Signs in through /authentication as the browser tests do, and waits for the header's balance. */
async function signInAs(page: Page, email: string): Promise<void> {
  await page.goto('/authentication');
  await signIn(page, email);
  await balance(page).waitFor();
}

/** Picks `option` in the Select labelled `label`, as a person does: open the list, click the option. */
async function choose(page: Page, label: string, option: string, nth = 0): Promise<void> {
  await page.getByRole('combobox', { name: label }).nth(nth).click();
  await settle(page);
  await page.getByRole('option', { name: option, exact: true }).click();
  await settle(page);
}

async function textToImage(page: Page): Promise<Omit<InteractionScenario, 'name'>[]> {
  await page.goto('/ai-image/text-to-image');
  const prompt = page.getByRole('textbox', { name: 'Prompt' });
  await prompt.waitFor();
  await page.waitForLoadState('networkidle');
  await takeInteractions(page);
  await prompt.click();
  await page.keyboard.type(PROMPT, { delay: KEY_DELAY_MS });
  const typing = await takeInteractions(page);
  const model = page.getByRole('combobox', { name: 'Model' });
  const current = await model.inputValue();
  await model.click();
  await settle(page);
  const other = page.getByRole('option').filter({ hasNotText: current }).first();
  await other.click();
  const switching = await takeInteractions(page);
  return [typing, switching];
}

async function storyboard(page: Page): Promise<Omit<InteractionScenario, 'name'>[]> {
  await page.goto('/ai-production/ai-story');
  await page.getByRole('textbox', { name: 'Your idea' }).fill(STORY_IDEA);
  await choose(page, 'Film length', '60 seconds');
  await page.getByRole('button', { name: 'Write storyboard' }).click();
  await page.getByText('12 scenes · 60 s in all').waitFor({ timeout: 60_000 });
  await page.waitForLoadState('networkidle');
  await takeInteractions(page);
  const lastScene = page.getByRole('region', { name: 'Scene 12' }).getByRole('textbox', { name: 'What happens' });
  await lastScene.click();
  await page.keyboard.press('End');
  await page.keyboard.type(SCENE_WORDS, { delay: KEY_DELAY_MS });
  const typing = await takeInteractions(page);
  await page.getByRole('region', { name: 'Scene 6' }).getByRole('combobox', { name: 'Shot' }).click();
  await settle(page);
  await page.getByRole('option', { name: 'Aerial', exact: true }).click();
  const shot = await takeInteractions(page);
  await page.getByRole('button', { name: 'Next: Elements' }).click();
  await page.getByRole('heading', { name: 'Elements', level: 2 }).waitFor();
  const next = await takeInteractions(page);
  return [typing, shot, next];
}

/** Starts a stack, signs a fresh account in and runs each scenario once; returns each one's INP. */
export async function measureInteraction(): Promise<InteractionResults> {
  const root = process.cwd();
  const port = Number(process.env.BENCH_INTERACTION_PORT ?? (await findFreePort()));
  const stack = await startStack(root, port, 'bench-interaction');
  const baseURL = `http://localhost:${port}`;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
  try {
    const api = await playwrightRequest.newContext({ baseURL });
    const { email } = await createAccount(api, { prefix: 'bench-inp', handle: freshHandle('bench'), dataDir: stack.dataDir });
    await api.dispose();
    const context = await browser.newContext({ baseURL, viewport: { width: 412, height: 823 }, hasTouch: false });
    const page = await context.newPage();
    await recordInteractions(page);
    await signInAs(page, email);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    const [typePrompt, switchModel] = await textToImage(page);
    const [typeScene, changeShot, nextStep] = await storyboard(page);
    const scenarios: InteractionScenario[] = [
      { name: 'Text to Image: typing a prompt', ...typePrompt! },
      { name: 'Text to Image: switching the model', ...switchModel! },
      { name: 'AI Story storyboard, 12 scenes: typing in scene 12', ...typeScene! },
      { name: 'AI Story storyboard, 12 scenes: changing a shot', ...changeShot! },
      { name: 'AI Story storyboard, 12 scenes: on to Elements', ...nextStep! },
    ];
    return { scenarios, cpuSlowdown: CPU_SLOWDOWN, load: loadavg()[0] ?? 0 };
  } finally {
    await browser.close();
    await stack.stop();
  }
}

/** The Markdown table `npm run bench` prints: each scenario's INP against the budget. */
export function interactionTable(results: InteractionResults, budgetMs: number): string {
  return [
    `| Interaction to Next Paint, CPU ${results.cpuSlowdown}× slower (load ${results.load.toFixed(1)}) | INP | slowest event | interactions | budget | within |`,
    '|---|---:|---|---:|---:|:---:|',
    ...results.scenarios.map(
      (s) => `| ${s.name} | ${Math.round(s.inpMs)} ms | ${s.slowest} | ${s.interactions} | ≤ ${budgetMs} ms | ${s.inpMs <= budgetMs ? 'yes' : 'no'} |`,
    ),
  ].join('\n');
}

/** The scenarios over the budget, by name. */
export const interactionOverBudget = (results: InteractionResults, budgetMs: number): string[] =>
  results.scenarios.filter((s) => s.inpMs > budgetMs).map((s) => `INP ${s.name}`);
