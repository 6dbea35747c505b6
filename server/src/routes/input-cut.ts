import type { MediaFileRow } from '../db/files.ts';
import { MAX_INPUT_SECONDS } from '../render/video/video-input.ts';
import type { MediaRouteDeps } from './media-deps.ts';

/** An input of which only the first `used_seconds` are rendered (args.cut_inputs). */
export interface CutInput {
  field: string;
  seconds: number;
  used_seconds: number;
}

/**
 * A video or sound input longer than MAX_INPUT_SECONDS is cut to its first MAX_INPUT_SECONDS when
 * rendered (contract §1); the job's args record it so the person sees why the result is shorter.
 * The stored length is used when known, else the file is probed (a probe that fails says nothing).
 * Shared by the video tool calls and the video creations (Extend, Character Animate).
 */
export async function inputCut(deps: Pick<MediaRouteDeps, 'provider' | 'engine'>, file: MediaFileRow, field: string): Promise<CutInput | null> {
  const seconds =
    file.duration_seconds ??
    (await deps.engine.store.localPath(file).then((filePath) => deps.provider.probeMedia(filePath)).then(
      (probe) => probe.durationSeconds,
      () => null,
    ));
  if (seconds === null || seconds <= MAX_INPUT_SECONDS) return null;
  return { field, seconds: Math.round(seconds * 100) / 100, used_seconds: MAX_INPUT_SECONDS };
}
