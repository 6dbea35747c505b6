/**
 * `npm test`: every check, with what is independent run side by side (README "Tests").
 *
 * A clean clone's run on 2 cores has three parts that share nothing but the CPU: the static
 * checks (typecheck, then lint), the vitest projects (web, tooling, server), and the Playwright
 * browser tests (their own stack on their own port and data folder). The browser tests mostly
 * wait on pages and jobs, so they start first and overlap the CPU-bound parts instead of
 * following them. Each part's output is kept whole and printed when the part ends, under its name,
 * so three logs never interleave; a line every minute says what is still running (CI logs that go
 * quiet for long are cut off). The exit code is non-zero if any part fails.
 *
 * Side by side is the default (issue 18 item 8). The browser tests wait on jobs and pages for
 * much of their run, so the CPU-bound parts fill the gaps. What their CPU went to, measured with a
 * per-process sampler on this 2-core machine: the screencast of every test's trace (it doubled
 * Chromium's CPU; gone), the DOM snapshots of every trace (a quarter of the browser's and runner's
 * CPU; traces are opt-in, E2E_TRACE=1), and the app's looping spinners and bars, redrawn every frame
 * while a test waits on a job (half of the renderer's CPU there; the browser asks for reduced
 * motion). A clean clone's `time bash .ci/run` at 7cb10db (Chromium installed): 14 min 8 s with
 * npm ci, all passed — the browser tests 13 min 9 s and the last to end, the unit tests 9 min
 * 33 s, the static checks 1 min 41 s. `--serial` runs the parts one after another, the checks
 * that fail fastest first.
 *
 *   npm test                  all parts at once
 *   npm test -- --serial      one part after another: static, unit, e2e
 *   npm test -- unit e2e      only the named parts (static, unit, e2e)
 */
import { spawn } from 'node:child_process';
import { failureDigest } from './failure-digest.ts';

interface Part {
  name: string;
  /**
   * Steps run one after another, the part stopping at the first that fails; a step is one npm
   * script, or several run side by side (single-threaded tools such as tsc and ESLint, which
   * would leave the second core idle one after another).
   */
  scripts: readonly (string | readonly string[])[];
}

const stepName = (step: string | readonly string[]): string => (typeof step === 'string' ? step : step.join(' + '));

/** In start order: the longest-waiting part first. */
const PARTS: readonly Part[] = [
  { name: 'e2e', scripts: ['test:e2e'] },
  { name: 'static', scripts: [['typecheck', 'lint']] },
  { name: 'unit', scripts: ['test:unit'] },
];

/** One after another (`--serial`): the checks that fail fastest first. */
const SERIAL_ORDER: readonly string[] = ['static', 'unit', 'e2e'];

const HEARTBEAT_MS = 60_000;

interface Outcome {
  name: string;
  ok: boolean;
  seconds: number;
  /** What failed, in a few lines (failureDigest), repeated at the very end of the run. */
  digest: string[];
}

/** The parts running now: when each started and the process groups of its scripts. */
const running = new Map<string, { pids: Set<number>; started: number }>();

const seconds = (since: number): number => Math.round((Date.now() - since) / 1000);
const minutes = (total: number): string => `${Math.floor(total / 60)}m${String(total % 60).padStart(2, '0')}s`;

/** Runs one npm script, collecting its output; resolves with its exit code. */
const runScript = (part: string, script: string, output: string[]): Promise<number> =>
  new Promise((resolve) => {
    // Its own process group, so an interrupted run stops the script's whole tree (vite, chromium…).
    const child = spawn('npm', ['run', '--silent', script], { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0' } });
    if (child.pid !== undefined) running.get(part)?.pids.add(child.pid);
    output.push(`$ npm run ${script}\n`);
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.on('error', (error) => {
      output.push(`${error.message}\n`);
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

const runPart = async (part: Part): Promise<Outcome> => {
  const started = Date.now();
  running.set(part.name, { pids: new Set(), started });
  const output: string[] = [];
  let ok = true;
  for (const step of part.scripts) {
    const scripts = typeof step === 'string' ? [step] : step;
    // Each script's output is kept apart and added in order once all have ended.
    const outputs = scripts.map((): string[] => []);
    const codes = await Promise.all(scripts.map((script, index) => runScript(part.name, script, outputs[index] ?? [])));
    output.push(...outputs.flat());
    if (codes.some((code) => code !== 0)) {
      ok = false;
      break;
    }
  }
  running.delete(part.name);
  const outcome = { name: part.name, ok, seconds: seconds(started), digest: ok ? [] : failureDigest(output.join('')) };
  const rule = '='.repeat(20);
  process.stdout.write(`\n${rule} ${part.name} (${part.scripts.map(stepName).join(' → ')}): ${ok ? 'passed' : 'FAILED'} in ${minutes(outcome.seconds)} ${rule}\n`);
  process.stdout.write(output.join(''));
  return outcome;
};

const stopAll = (signal: NodeJS.Signals): void => {
  for (const { pids } of running.values()) {
    for (const pid of pids) {
      try {
        process.kill(-pid, signal);
      } catch {
        // Already gone.
      }
    }
  }
};

const main = async (): Promise<void> => {
  const args = process.argv.slice(2);
  const serial = args.includes('--serial');
  const names = args.filter((arg) => !arg.startsWith('--'));
  const unknown = names.filter((name) => !PARTS.some((part) => part.name === name));
  if (unknown.length > 0) throw new Error(`Unknown part ${unknown.join(', ')}: the parts are ${PARTS.map((part) => part.name).join(', ')}`);
  const parts = PARTS.filter((part) => names.length === 0 || names.includes(part.name));

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      stopAll(signal);
      process.exit(1);
    });
  }
  const started = Date.now();
  const heartbeat = setInterval(() => {
    const now = [...running.entries()].map(([name, { started: since }]) => `${name} ${minutes(seconds(since))}`);
    process.stdout.write(`… ${minutes(seconds(started))}: running ${now.join(', ')}\n`);
  }, HEARTBEAT_MS);

  process.stdout.write(`Running ${parts.map((part) => `${part.name} (${part.scripts.map(stepName).join(' → ')})`).join(', ')} ${serial ? 'one after another' : 'side by side'}.\n`);
  const outcomes: Outcome[] = [];
  if (serial) {
    const ordered = [...parts].sort((a, b) => SERIAL_ORDER.indexOf(a.name) - SERIAL_ORDER.indexOf(b.name));
    for (const part of ordered) outcomes.push(await runPart(part));
  } else {
    outcomes.push(...(await Promise.all(parts.map(runPart))));
  }
  clearInterval(heartbeat);

  for (const outcome of outcomes.filter((failed) => !failed.ok)) {
    process.stdout.write(`\n${'='.repeat(20)} ${outcome.name} failed: ${'='.repeat(20)}\n${outcome.digest.join('\n')}\n`);
  }
  process.stdout.write(`\n${'='.repeat(20)} summary ${'='.repeat(20)}\n`);
  for (const outcome of outcomes) process.stdout.write(`${outcome.ok ? 'passed' : 'FAILED'}  ${outcome.name.padEnd(8)} ${minutes(outcome.seconds)}\n`);
  process.stdout.write(`total    ${minutes(seconds(started))}\n`);
  process.exitCode = outcomes.every((outcome) => outcome.ok) ? 0 : 1;
};

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
