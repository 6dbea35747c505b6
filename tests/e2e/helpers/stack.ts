import { JOB_POLL } from '../../../src/config/limits';

/**
 * Where playwright.config.ts's webServer keeps the stack's data (the emulator's files included).
 * E2E_DATA_DIR / E2E_DIST_DIR (with E2E_PORT) let two browser runs on one machine keep apart.
 */
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? '.local/e2e';
export const E2E_DIST_DIR = process.env.E2E_DIST_DIR ?? '.local/e2e-dist';

/** How long a job of the stack takes (playwright.config.ts sets KINORA_JOB_DURATION_MS to it). */
export const JOB_DURATION_MS = 6000;

/**
 * How long a page may take to show that a job ended: the job, then the longest wait between two
 * status polls (a running job's polls back off with full jitter up to JOB_POLL.capMs: README
 * "Generation jobs"), then room for a busy machine. A wait of 30 s alone failed when the poll after
 * the job's end came 30 s after the one before it (a clean run's a11y-job-states, issue 18).
 */
export const JOB_END_MS = JOB_DURATION_MS + JOB_POLL.capMs + 20_000;
