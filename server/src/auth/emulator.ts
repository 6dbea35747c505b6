import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A cognito-local process this server started. */
export interface EmulatorProcess {
  /** Base URL of the emulator, e.g. http://127.0.0.1:9329 (also the token issuer's domain). */
  url: string;
  port: number;
  /** The folder cognito-local runs in; its pools live in `.cognito/db/<poolId>.json`. */
  dataDir: string;
  pid: number;
  stop(): Promise<void>;
}

export interface StartEmulatorOptions {
  /** Folder for the emulator's config and pools; created when missing. */
  dataDir: string;
  /** Port to listen on; a free one when undefined. */
  port?: number;
  /** Where the emulator's log goes: a file path (appended to), or 'ignore'. */
  log?: string | 'ignore';
  /** How long to wait for it to answer. */
  timeoutMs?: number;
}

const HOST = '127.0.0.1';
const PID_FILE = 'cognito-local.pid';
const require = createRequire(import.meta.url);

export function poolFilePath(dataDir: string, userPoolId: string): string {
  return path.join(dataDir, '.cognito', 'db', `${userPoolId}.json`);
}

/**
 * Starts cognito-local with its data in `dataDir` and resolves once it answers. A cognito-local
 * left running on the same folder by an earlier run that died is stopped first.
 */
export async function startEmulator(options: StartEmulatorOptions): Promise<EmulatorProcess> {
  const dataDir = path.resolve(options.dataDir);
  await mkdir(path.join(dataDir, '.cognito'), { recursive: true });
  await stopStaleProcess(path.join(dataDir, PID_FILE), 'cognito-local');

  const port = options.port ?? (await findFreePort());
  const url = `http://${HOST}:${port}`;
  // cognito-local reads `.cognito/config.json` under its working directory. UsernameAttributes []
  // keeps usernames as given ("guest"); its default would rename users to their sub. The issuer
  // domain is written out so tokens name the URL the server verifies them against.
  await writeFile(
    path.join(dataDir, '.cognito', 'config.json'),
    JSON.stringify(
      {
        UserPoolDefaults: { UsernameAttributes: [] },
        TokenConfig: { IssuerDomain: url },
        ServerConfig: { hostname: HOST, port },
      },
      null,
      2,
    ),
  );

  const logFd = options.log && options.log !== 'ignore' ? openSync(options.log, 'a') : null;
  const child = spawn(process.execPath, [require.resolve('cognito-local/lib/bin/start.js')], {
    cwd: dataDir,
    env: { ...process.env, PORT: String(port), HOST },
    stdio: ['ignore', logFd ?? 'ignore', logFd ?? 'ignore'],
    // Its own process group: Ctrl-C in a terminal reaches only the parent, which stops it in order.
    detached: true,
  });
  if (logFd !== null) closeSync(logFd);
  const pid = child.pid;
  if (pid === undefined) throw new Error('cognito-local could not be started');
  await writeFile(path.join(dataDir, PID_FILE), String(pid));

  // The child is detached (its own process group), so it would outlive a parent that exits without
  // stopping it: a crashed `npm start`, or a test worker torn down mid-run.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const stop = async (): Promise<void> => {
    process.off('exit', killOnExit);
    await stopChild(child);
    await rm(path.join(dataDir, PID_FILE), { force: true });
  };
  try {
    await waitUntilHealthy(url, child, options.timeoutMs ?? 20_000, options.log);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, port, dataDir, pid, stop };
}

async function waitUntilHealthy(url: string, child: ChildProcess, timeoutMs: number, log: string | undefined): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const where = log && log !== 'ignore' ? ` (see ${log})` : '';
      throw new Error(`cognito-local exited with ${child.exitCode ?? child.signalCode} before answering${where}`);
    }
    try {
      const response = await fetch(`${url}/health`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  throw new Error(`cognito-local did not answer at ${url} within ${timeoutMs} ms`);
}

/** SIGTERM, then SIGKILL if it has not exited after `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/**
 * Stops the process named in `pidFile` if it is still alive and its command line contains
 * `marker`, so a pid reused by an unrelated process is left alone.
 */
export async function stopStaleProcess(pidFile: string, marker: string): Promise<void> {
  let pid: number;
  try {
    pid = Number((await readFile(pidFile, 'utf8')).trim());
  } catch {
    return;
  }
  const command = Number.isInteger(pid) && pid > 0 && isAlive(pid) ? await commandLine(pid) : undefined;
  // Without /proc (macOS) the command line is unknown: trust the pid file, which only this code writes.
  if (command !== undefined && (command === null || command.includes(marker))) {
    process.kill(pid, 'SIGTERM');
    for (let waited = 0; isAlive(pid) && waited < 5_000; waited += 100) await sleep(100);
    if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  }
  await rm(pidFile, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function commandLine(pid: number): Promise<string | null> {
  try {
    return (await readFile(`/proc/${pid}/cmdline`, 'utf8')).replaceAll('\0', ' ');
  } catch {
    return null;
  }
}

export async function isPortFree(port: number, host = '0.0.0.0'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

export async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}
