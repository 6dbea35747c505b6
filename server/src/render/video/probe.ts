import type { MediaProbe } from '../provider.ts';
import { runFfmpeg } from './ffmpeg.ts';

/**
 * What a stored audio or video file holds, read from ffmpeg's description of its input
 * (`ffmpeg -i file`): length, picture size (as displayed, rotation applied) and whether it has sound.
 */

const seconds = (hours: string, minutes: string, rest: string): number => Number(hours) * 3600 + Number(minutes) * 60 + Number(rest);

/** Reads ffmpeg's "Input #0 …" block; duration is null when the container does not say (live WebM). */
export interface ProbeLog {
  durationSeconds: number | null;
  width?: number;
  height?: number;
  hasAudio: boolean;
  hasVideo: boolean;
  /** ffmpeg's codec name of the first video stream (`h264`, `vp9`…), '' without one. */
  videoCodec: string;
}

export function parseProbeLog(log: string): ProbeLog {
  const duration = /Duration: (\d+):(\d+):(\d+(?:\.\d+)?)/.exec(log);
  const video = /Stream #\d+:\d+.*?: Video: (\w+).*?(\d{2,5})x(\d{2,5})/.exec(log);
  const rotation = /rotation of (-?\d+(?:\.\d+)?) degrees/.exec(log);
  const result = {
    durationSeconds: duration ? seconds(duration[1] ?? '0', duration[2] ?? '0', duration[3] ?? '0') : null,
    hasAudio: /Stream #\d+:\d+.*?: Audio: /.test(log),
    hasVideo: video !== null,
    videoCodec: video?.[1] ?? '',
  };
  if (!video) return result;
  let width = Number(video[2]);
  let height = Number(video[3]);
  // Phones store portrait video as landscape plus a rotation; ffmpeg turns it upright on decoding.
  if (rotation && Math.abs(Math.abs(Number(rotation[1])) - 90) < 1) [width, height] = [height, width];
  return { ...result, width, height };
}

/** The last progress time ffmpeg printed while decoding ("time=00:00:04.96"). */
function lastProgressTime(log: string): number | null {
  const matches = [...log.matchAll(/time=(\d+):(\d+):(\d+(?:\.\d+)?)/g)];
  const last = matches.at(-1);
  return last ? seconds(last[1] ?? '0', last[2] ?? '0', last[3] ?? '0') : null;
}

export type DetailedProbe = MediaProbe & { hasVideo: boolean; videoCodec: string };

/** Probes a file's bytes; `name` keeps its extension, which helps ffmpeg guess raw formats. */
export async function probeBytes(data: Uint8Array, name = 'input'): Promise<DetailedProbe> {
  const described = await runFfmpeg({ inputs: { [name]: data }, args: ['-i', name], outputs: [] });
  const parsed = parseProbeLog(described.log);
  if (!parsed.hasVideo && !parsed.hasAudio) throw new Error(`Not an audio or video file: ${described.log.slice(-300)}`);
  let durationSeconds = parsed.durationSeconds;
  if (durationSeconds === null) {
    // No duration in the header (e.g. a browser recording): decode it all and read where it ended.
    const decoded = await runFfmpeg({ inputs: { [name]: data }, args: ['-stats', '-i', name, '-f', 'null', '-'], outputs: [] });
    durationSeconds = lastProgressTime(decoded.log) ?? 0;
  }
  const { width, height, hasAudio, hasVideo, videoCodec } = parsed;
  return { durationSeconds, hasAudio, hasVideo, videoCodec, ...(width !== undefined && height !== undefined ? { width, height } : {}) };
}
