/**
 * `npm start`: the whole local stack in one command.
 *   1. cognito-local (sign-in emulator), data in `${KINORA_DATA_DIR}/cognito`
 *   2. provisioning: pool, app client, group Developer, the guest and developer accounts (idempotent)
 *   3. `vite build` with the VITE_* variables pointing the app at this stack (`--dev`: `vite` dev server)
 *   4. the API server (server/src/main.ts) on PORT, serving that build (`${KINORA_DATA_DIR}/dist`)
 * Ctrl-C (or SIGTERM) stops every child. Processes left by a run that was killed are stopped first.
 *
 * Environment: PORT (8787), KINORA_DATA_DIR (.local), KINORA_FRESH=1 (wipe the data folder first),
 * KINORA_API_KEY (kinora-local-api-key), COGNITO_LOCAL_PORT (9329), DATABASE_URL, KINORA_DIST_DIR
 * (`${KINORA_DATA_DIR}/dist`: where the web build goes and is served from; not `dist/`, so a plain
 * `npm run build` never replaces the running app; the browser tests use their own),
 * KINORA_GUEST_PASSWORD, KINORA_DEVELOPER_PASSWORD. Everything else the API server reads (e.g.
 * KINORA_GUEST_CLEANUP_INTERVAL_MS and the job engine's KINORA_JOB_* settings, LOG_LEVEL) reaches it
 * unchanged through this environment; server/src/main.ts lists them with their defaults. Media files
 * go to `${KINORA_DATA_DIR}/media`.
 *
 * The web build gets VITE_GUEST_PASSWORD (the seeded guest's password, for "Continue as guest") and
 * VITE_REDIRECT_ALLOWLIST = this stack's /local/redirect-target, the stand-in partner app.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { createCognitoClient } from '../server/src/auth/cognito-client.ts';
import { findFreePort, isPortFree, startEmulator, stopChild, stopStaleProcess } from '../server/src/auth/emulator.ts';
import type { EmulatorProcess } from '../server/src/auth/emulator.ts';
import { provision } from '../server/src/auth/provision.ts';
import { REDIRECT_TARGET_PATH } from '../server/src/auth/redirect-target.ts';
import { seedAccounts } from '../server/src/auth/seed-accounts.ts';
import { checkRoleDatabase, parseServerRole } from '../server/src/config.ts';
import { LOCAL_DEFAULTS, startDistDir } from '../server/src/local-defaults.ts';
import { GUEST_USERNAME } from '../src/config/limits.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dev = process.argv.includes('--dev');
const port = Number(process.env.PORT ?? LOCAL_DEFAULTS.port);
const dataDir = path.resolve(root, process.env.KINORA_DATA_DIR ?? LOCAL_DEFAULTS.dataDir);
const emulatorDir = path.join(dataDir, 'cognito');
const apiKey = process.env.KINORA_API_KEY ?? LOCAL_DEFAULTS.apiKey;
const distDir = startDistDir(root, process.env);
const preferredEmulatorPort = Number(process.env.COGNITO_LOCAL_PORT ?? 9329);
const VITE_DEV_PORT = 5173;

const pidFiles = {
  emulator: path.join(emulatorDir, 'cognito-local.pid'),
  server: path.join(dataDir, 'server.pid'),
  vite: path.join(dataDir, 'vite.pid'),
};

interface RunningChild {
  name: string;
  process: ChildProcess;
  pidFile: string;
}

const children: RunningChild[] = [];
let emulator: EmulatorProcess | undefined;
let stopping = false;

function log(message: string): void {
  console.log(`[kinora] ${message}`);
}

async function stopAll(exitCode: number): Promise<never> {
  stopping = true;
  // Reverse start order: the server stops taking requests before the emulator behind it goes.
  for (const child of [...children].reverse()) {
    await stopChild(child.process);
    await rm(child.pidFile, { force: true });
  }
  // Ctrl-C while the emulator was still starting: it is not `emulator` yet, but its pid file exists.
  if (emulator) await emulator.stop();
  else await stopStaleProcess(pidFiles.emulator, 'cognito-local');
  process.exit(exitCode);
}

/** Runs a child in its own process group (so Ctrl-C reaches only this script, which stops it in order). */
function startChild(name: string, args: string[], env: NodeJS.ProcessEnv, pidFile: string): RunningChild {
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: 'inherit', detached: true });
  const running = { name, process: child, pidFile };
  children.push(running);
  child.once('exit', (code, signal) => {
    if (stopping) return;
    log(`${name} stopped unexpectedly (${signal ?? `exit code ${code}`}); stopping everything.`);
    void stopAll(1);
  });
  if (child.pid !== undefined) void writeFile(pidFile, String(child.pid));
  return running;
}

/** Runs a command to completion, in the foreground. */
function run(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${args.join(' ')} failed (${signal ?? `exit code ${code}`})`)),
    );
  });
}

/** Polls `url` until it answers 2xx, failing early if `child` exits. */
async function waitForAnswer(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${url}: its process exited during start-up`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await sleep(200);
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

/** Refuses to wipe a folder that holds the repository (a KINORA_DATA_DIR of "." or ".."). */
function assertWipeable(folder: string): void {
  const relative = path.relative(folder, root);
  if (relative === '' || !relative.startsWith('..')) {
    throw new Error(`KINORA_FRESH=1 would delete ${folder}, which contains the project; choose another KINORA_DATA_DIR.`);
  }
}

async function main(): Promise<void> {
  // npm start is the web app's stack: its server must answer the API (roles all and api). A render
  // worker beside it is server/src/main.ts on its own (README "Deploying several processes").
  const role = parseServerRole(process.env);
  if (role === 'worker') {
    throw new Error(
      'KINORA_ROLE=worker: npm start runs the API and the web app. Start a worker with `KINORA_ROLE=worker node --import tsx server/src/main.ts` (same DATABASE_URL).',
    );
  }
  checkRoleDatabase(role, process.env.DATABASE_URL);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log(`${signal}: stopping.`);
      void stopAll(0);
    });
  }

  // Whatever an earlier run left behind (killed without Ctrl-C) holds the ports and the database.
  await stopStaleProcess(pidFiles.vite, 'vite');
  await stopStaleProcess(pidFiles.server, 'server/src/main.ts');
  await stopStaleProcess(pidFiles.emulator, 'cognito-local');
  if (process.env.KINORA_FRESH === '1') {
    assertWipeable(dataDir);
    log(`KINORA_FRESH=1: wiping ${dataDir}`);
    await rm(dataDir, { recursive: true, force: true });
  }
  await mkdir(emulatorDir, { recursive: true });
  if (!(await isPortFree(port))) {
    throw new Error(`port ${port} is taken by another program; stop it or choose another PORT.`);
  }

  const emulatorPort = (await isPortFree(preferredEmulatorPort, '127.0.0.1')) ? preferredEmulatorPort : await findFreePort();
  log(`starting cognito-local on port ${emulatorPort} (log: ${path.relative(root, path.join(emulatorDir, 'cognito-local.log'))})`);
  emulator = await startEmulator({ dataDir: emulatorDir, port: emulatorPort, log: path.join(emulatorDir, 'cognito-local.log') });
  const accounts = seedAccounts();
  const pool = await provision(createCognitoClient(emulator.url), { accounts });
  log(`user pool ${pool.userPoolId}, app client ${pool.clientId}`);

  // The URL the browser opens: Vite's dev server proxies /local to the API server.
  const appUrl = `http://localhost:${dev ? VITE_DEV_PORT : port}`;
  const redirectTarget = `${appUrl}${REDIRECT_TARGET_PATH}`;
  const guestAccount = accounts.find((account) => account.username === GUEST_USERNAME);

  const viteEnv: NodeJS.ProcessEnv = {
    ...process.env,
    VITE_API_URL: '/api',
    VITE_API_KEY: apiKey,
    VITE_COGNITO_USER_POOL_ID: pool.userPoolId,
    VITE_COGNITO_CLIENT_ID: pool.clientId,
    VITE_COGNITO_ENDPOINT: '/cognito',
    VITE_AUTH_FLOW_TYPE: 'USER_PASSWORD_AUTH',
    VITE_LOCAL_MODE: 'true',
    // The local API server is the card provider too: {payment-provider}/… calls go to /api/local/….
    VITE_PAYMENT_PROVIDER: 'local',
    VITE_REDIRECT_ALLOWLIST: redirectTarget,
    ...(guestAccount ? { VITE_GUEST_PASSWORD: guestAccount.password } : {}),
    PORT: String(port),
  };
  const viteBin = realpathSync(path.join(root, 'node_modules', '.bin', 'vite'));
  if (!dev) {
    log('building the web app (vite build)');
    await run([viteBin, 'build', '--outDir', distDir, '--emptyOutDir'], viteEnv);
  }

  const server = startChild(
    'API server',
    ['--import', 'tsx', path.join('server', 'src', 'main.ts')],
    {
      ...process.env,
      PORT: String(port),
      KINORA_DATA_DIR: dataDir,
      KINORA_API_KEY: apiKey,
      COGNITO_LOCAL_URL: emulator.url,
      COGNITO_USER_POOL_ID: pool.userPoolId,
      COGNITO_CLIENT_ID: pool.clientId,
      KINORA_STATIC_DIR: dev ? '' : distDir,
      KINORA_LOCAL_MODE: 'true',
    },
    pidFiles.server,
  );
  await waitForAnswer(`http://127.0.0.1:${port}/api/health`, server.process, 60_000);

  if (dev) {
    // vite.config.ts proxies /api, /cognito and /local to PORT.
    const vite = startChild('vite dev server', [viteBin, '--port', String(VITE_DEV_PORT), '--strictPort'], viteEnv, pidFiles.vite);
    await waitForAnswer(`${appUrl}/`, vite.process, 60_000);
  }

  const width = Math.max(...accounts.map((account) => account.username.length)) + 2;
  const passwordWidth = Math.max(...accounts.map((account) => account.password.length)) + 2;
  console.log(
    [
      '',
      `Kinora is running at ${appUrl}`,
      '',
      'Seeded accounts (username / password):',
      ...accounts.map(
        (account) =>
          `  ${account.username.padEnd(width)}${account.password.padEnd(passwordWidth)}${account.email}  (${account.description})`,
      ),
      `"Continue as guest" on ${appUrl}/authentication signs in as ${GUEST_USERNAME}.`,
      '',
      `Local mailbox (sign-up and verification codes): ${appUrl}/local/mailbox`,
      `Sign-in redirect to a partner app (SPEC §4): ${appUrl}/?redirect_uri=${encodeURIComponent(redirectTarget)}&state=demo`,
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
}

main().catch(async (error: unknown) => {
  console.error(`[kinora] ${error instanceof Error ? error.message : String(error)}`);
  await stopAll(1);
});
