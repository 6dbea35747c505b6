import type { RenderedVideo, VideoConcatRequest } from '../provider.ts';
import { RenderInputError } from '../render-errors.ts';
import { AAC_OUTPUT, BITEXACT, ffmpegOutput, H264_OUTPUT } from './ffmpeg.ts';
import { finishVideo, RESULT_NAMES } from './finish.ts';
import { VIDEO_FPS } from './h264.ts';
import { placedLogo } from './logo.ts';
import { probeBytes } from './probe.ts';
import { sizeWithLongSide } from './raster.ts';
import { readInputFile } from './sources.ts';

/**
 * A batch's joined video: the clips in order, each scaled (and letterboxed when its ratio
 * differs) to the first clip's size, with the album's audio looped or cut to the total length.
 */

/** The joined video is no larger than this on its long side (clips are 640 px; uploads may be larger). */
const CONCAT_MAX_LONG_SIDE = 1280;

/**
 * What one join may hold: every input is loaded into one WASM ffmpeg's memory, so the count and the
 * total length are bounded (an album's clips are at most 10 s each; extra videos may be long uploads).
 */
export const CONCAT_MAX_CLIPS = 24;
export const CONCAT_MAX_SECONDS = 180;

export async function concatVideos(request: VideoConcatRequest): Promise<RenderedVideo> {
  if (request.clips.length === 0) throw new RenderInputError('There are no videos to join.');
  if (request.clips.length > CONCAT_MAX_CLIPS) {
    throw new RenderInputError(`At most ${CONCAT_MAX_CLIPS} videos can be joined (got ${request.clips.length}).`);
  }
  const clips = await Promise.all(request.clips.map((path, index) => readInputFile({ path, field: `clip ${index + 1}` })));
  const probes = [];
  for (const clip of clips) probes.push(await probeBytes(clip, 'clip'));
  const first = probes[0];
  if (!first?.width || !first.height) throw new RenderInputError('The first video could not be read.');
  const size = Math.max(first.width, first.height) > CONCAT_MAX_LONG_SIDE ? sizeWithLongSide(first.width / first.height, CONCAT_MAX_LONG_SIDE) : sizeWithLongSide(first.width / first.height, Math.max(first.width, first.height));
  const total = probes.reduce((sum, probe) => sum + probe.durationSeconds, 0);
  if (total > CONCAT_MAX_SECONDS) {
    throw new RenderInputError(`The videos last ${Math.round(total)} s together; at most ${CONCAT_MAX_SECONDS} s can be joined.`);
  }
  const audio = request.audio ? await readInputFile({ path: request.audio, field: 'audio' }) : null;
  const logo = request.logo ? await placedLogo(size) : null;

  const inputs: Record<string, Uint8Array> = {};
  const args: string[] = [];
  clips.forEach((clip, index) => {
    inputs[`clip${index}`] = clip;
    args.push('-i', `clip${index}`);
  });
  const fit = `scale=${size.width}:${size.height}:force_original_aspect_ratio=decrease,pad=${size.width}:${size.height}:(ow-iw)/2:(oh-ih)/2,setsar=1,fps=${VIDEO_FPS},format=yuv420p`;
  const graph = clips.map((_, index) => `[${index}:v]${fit}[v${index}]`);
  graph.push(`${clips.map((_, index) => `[v${index}]`).join('')}concat=n=${clips.length}:v=1:a=0[${logo ? 'joined' : 'v'}]`);
  let next = clips.length;
  if (audio) {
    inputs.audio = audio;
    args.push('-stream_loop', '-1', '-i', 'audio');
    next += 1;
  }
  if (logo) {
    inputs['logo.png'] = logo.png;
    args.push('-i', 'logo.png');
    graph.push(`[joined][${next}:v]overlay=${logo.left}:${logo.top}[v]`);
  }
  args.push('-filter_complex', graph.join(';'), '-map', '[v]');
  if (audio) args.push('-map', `${clips.length}:a:0`, ...AAC_OUTPUT);
  args.push(...H264_OUTPUT, '-t', total.toFixed(3), ...BITEXACT, 'out.mp4');
  return finishVideo(await ffmpegOutput({ inputs, args }, 'out.mp4'), RESULT_NAMES);
}
