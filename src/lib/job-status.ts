import { GENERATION_STATUSES } from '@/config/enums';

/** How the app reads a media job's status (SPEC §4 plus Kinora's ended statuses). */
export type JobStatusClass = 'processing' | 'success' | 'failed' | 'nsfw' | 'cancelled';

const SUCCESS: ReadonlySet<string> = new Set(GENERATION_STATUSES.success);

/**
 * success_image, success_source, success_3d and success → 'success'; failed, nsfw and cancelled →
 * themselves; every other value, known (queue_source, processing, …) or not, → 'processing': a
 * status the app does not know is treated as still running rather than as an end.
 */
export function classifyStatus(status: string | null | undefined): JobStatusClass {
  if (status === null || status === undefined) return 'processing';
  if (SUCCESS.has(status)) return 'success';
  if (status === 'failed' || status === 'nsfw' || status === 'cancelled') return status;
  return 'processing';
}
