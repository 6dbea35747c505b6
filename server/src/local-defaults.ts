/** Defaults shared by `npm start` (scripts/start.ts) and the API server (server/src/main.ts). */
export const LOCAL_DEFAULTS = {
  port: 8787,
  /** The client API key the local stack uses; production sets its own. */
  apiKey: 'kinora-local-api-key',
  dataDir: '.local',
} as const;
