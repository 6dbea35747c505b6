/**
 * Where playwright.config.ts's webServer keeps the stack's data (the emulator's files included).
 * E2E_DATA_DIR / E2E_DIST_DIR (with E2E_PORT) let two browser runs on one machine keep apart.
 */
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? '.local/e2e';
export const E2E_DIST_DIR = process.env.E2E_DIST_DIR ?? '.local/e2e-dist';
