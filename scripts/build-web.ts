/**
 * `node --import tsx scripts/build-web.ts [outDir]`: the web app built for a deployment whose API
 * processes share one sign-in service (docker-compose.yml's `setup` service; README "Deploying
 * several processes"). `npm start` does the same for one machine; this is its provisioning and
 * `vite build` without the local conveniences (no mailbox link, no local card page unless asked).
 *
 * Environment: COGNITO_LOCAL_URL (required: the sign-in service; the user pool, app client and
 * seeded accounts are provisioned there idempotently, so the API processes that provision again at
 * start find the same pool), KINORA_API_KEY (`kinora-local-api-key`), KINORA_PAYMENT_PROVIDER
 * (`local`: the `{payment-provider}` segment the app calls), KINORA_PUBLIC_URL (where people open
 * the app: the allowed sign-in redirect). outDir defaults to KINORA_STATIC_DIR, else `dist`.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCognitoClient } from '../server/src/auth/cognito-client.ts';
import { provision } from '../server/src/auth/provision.ts';
import { REDIRECT_TARGET_PATH } from '../server/src/auth/redirect-target.ts';
import { seedAccounts } from '../server/src/auth/seed-accounts.ts';
import { LOCAL_DEFAULTS } from '../server/src/local-defaults.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function main(): Promise<void> {
  const env = process.env;
  const identityUrl = env.COGNITO_LOCAL_URL;
  if (!identityUrl) throw new Error('COGNITO_LOCAL_URL is not set: the sign-in service the API processes use.');
  const outDir = path.resolve(process.argv[2] ?? env.KINORA_STATIC_DIR ?? 'dist');
  const publicUrl = (env.KINORA_PUBLIC_URL ?? `http://localhost:${LOCAL_DEFAULTS.port}`).replace(/\/+$/, '');

  const pool = await provision(createCognitoClient(identityUrl), { accounts: seedAccounts() });
  console.log(`[build-web] user pool ${pool.userPoolId}, app client ${pool.clientId}; building into ${outDir}`);
  const viteEnv: NodeJS.ProcessEnv = {
    ...env,
    VITE_API_URL: '/api',
    VITE_API_KEY: env.KINORA_API_KEY ?? LOCAL_DEFAULTS.apiKey,
    VITE_COGNITO_USER_POOL_ID: pool.userPoolId,
    VITE_COGNITO_CLIENT_ID: pool.clientId,
    // The API server fronts the sign-in service at /cognito (ARCHITECTURE.md §1).
    VITE_COGNITO_ENDPOINT: '/cognito',
    VITE_AUTH_FLOW_TYPE: 'USER_PASSWORD_AUTH',
    VITE_PAYMENT_PROVIDER: env.KINORA_PAYMENT_PROVIDER ?? 'local',
    VITE_REDIRECT_ALLOWLIST: `${publicUrl}${REDIRECT_TARGET_PATH}`,
  };
  const vite = spawn(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--outDir', outDir, '--emptyOutDir'], {
    cwd: root,
    env: viteEnv,
    stdio: 'inherit',
  });
  const code = await new Promise<number | null>((resolve) => vite.once('exit', resolve));
  if (code !== 0) throw new Error(`vite build exited with ${code}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
