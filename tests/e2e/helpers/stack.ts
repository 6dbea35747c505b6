/** Where playwright.config.ts's webServer keeps the stack's data (the emulator's files included). */
export const E2E_DATA_DIR = '.local/e2e';
export const E2E_DIST_DIR = '.local/e2e-dist';
