import path from 'node:path';

/** Defaults shared by `npm start` (scripts/start.ts) and the API server (server/src/main.ts). */
export const LOCAL_DEFAULTS = {
  port: 8787,
  /** The client API key the local stack uses; production sets its own. */
  apiKey: 'kinora-local-api-key',
  dataDir: '.local',
} as const;

/**
 * Where `npm start` builds the web app and serves it from: KINORA_DIST_DIR when set, else `dist`
 * inside the data folder (`.local/dist`). Never the `dist/` a plain `npm run build` writes, so
 * building in the same checkout (without the stack's VITE_* values) cannot replace the running app
 * (issue 17).
 */
export function startDistDir(root: string, env: Readonly<Record<string, string | undefined>>): string {
  if (env.KINORA_DIST_DIR) return path.resolve(root, env.KINORA_DIST_DIR);
  return path.join(path.resolve(root, env.KINORA_DATA_DIR ?? LOCAL_DEFAULTS.dataDir), 'dist');
}
