import { createHash } from 'node:crypto';

/**
 * How the local stand-in decides that a generation fails or is flagged unsafe (README "The local
 * stand-ins"): a prompt containing `[fail]` fails and one containing `[nsfw]` is flagged; otherwise
 * the configured rates decide, drawn from the job id so a job's fate is the same after a restart.
 */

export type SimulatedOutcome = 'success' | 'failed' | 'nsfw';

export const FAIL_MARKER = '[fail]';
export const NSFW_MARKER = '[nsfw]';
/**
 * A prompt containing `[slow]` takes SLOW_FACTOR times as long (the local stand-in only): a job that
 * keeps running while a queue is watched, held and reordered behind it (README "A queue you control").
 */
export const SLOW_MARKER = '[slow]';
export const SLOW_FACTOR = 10;

/** The model's time of a job with this prompt, from the stand-in's usual time. */
export const simulatedDuration = (prompt: string, ms: number): number =>
  prompt.toLowerCase().includes(SLOW_MARKER) ? ms * SLOW_FACTOR : ms;

export const SIMULATED_ERRORS = {
  failed: 'The model could not make this result. Your credits were refunded.',
  nsfw: 'The result was flagged as unsafe content. Your credits were refunded.',
} as const;

/** A number in [0, 1) fixed by the text. */
export function unitDraw(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0) / 2 ** 32;
}

export function simulatedOutcome(
  jobId: string,
  prompt: string,
  rates: { failureRate: number; nsfwRate: number },
): SimulatedOutcome {
  const text = prompt.toLowerCase();
  if (text.includes(FAIL_MARKER)) return 'failed';
  if (text.includes(NSFW_MARKER)) return 'nsfw';
  if (unitDraw(`${jobId}:failure`) < rates.failureRate) return 'failed';
  if (unitDraw(`${jobId}:nsfw`) < rates.nsfwRate) return 'nsfw';
  return 'success';
}
