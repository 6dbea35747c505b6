import { ffmpegOutput } from './ffmpeg.ts';
import type { Rgba, Size } from './raster.ts';

/**
 * Reading pixels out of an input video with ffmpeg: one frame (extend from the first or last
 * frame), short runs of frames (lip sync on a face video) and a tiny greyscale copy whose frame
 * differences say how much moves when (character animation's driving video).
 */

/** Inputs are processed up to this long (contract §1: longer ones are cut). */
export const MAX_INPUT_SECONDS = 30;

const rawArgs = (size: Size) => ['-vf', `scale=${size.width}:${size.height}:flags=bicubic,setsar=1`, '-pix_fmt', 'rgba', '-f', 'rawvideo'];

/** The first frame, or the last frame of the (≤ 30 s) video, at `size`. */
export async function videoFrame(video: Uint8Array, which: 'first' | 'last', durationSeconds: number, size: Size): Promise<Rgba> {
  const frameBytes = size.width * size.height * 4;
  const end = Math.min(durationSeconds, MAX_INPUT_SECONDS);
  // The last frame: decode the final second and keep its last frame (seeking lands on key frames).
  const seek = which === 'last' ? ['-ss', Math.max(0, end - 1).toFixed(3), '-t', '1'] : [];
  const frames = which === 'first' ? ['-frames:v', '1'] : [];
  const raw = await ffmpegOutput({ inputs: { 'in.video': video }, args: [...seek, '-i', 'in.video', ...frames, ...rawArgs(size), 'out.raw'] }, 'out.raw');
  const count = Math.floor(raw.length / frameBytes);
  if (count < 1) throw new Error('The video has no frames to read.');
  const start = (count - 1) * frameBytes;
  return { data: raw.slice(start, start + frameBytes), width: size.width, height: size.height };
}

/** `seconds` of frames from `start` at `fps`, at `size`; fewer near the end of the video. */
export async function videoFrames(video: Uint8Array, start: number, seconds: number, fps: number, size: Size): Promise<Rgba[]> {
  const frameBytes = size.width * size.height * 4;
  const raw = await ffmpegOutput(
    {
      inputs: { 'in.video': video },
      args: ['-ss', start.toFixed(3), '-t', seconds.toFixed(3), '-i', 'in.video', '-vf', `fps=${fps},scale=${size.width}:${size.height}:flags=bicubic,setsar=1`, '-pix_fmt', 'rgba', '-f', 'rawvideo', 'out.raw'],
    },
    'out.raw',
  ).catch(() => new Uint8Array(0));
  const frames: Rgba[] = [];
  for (let offset = 0; offset + frameBytes <= raw.length; offset += frameBytes) {
    frames.push({ data: raw.subarray(offset, offset + frameBytes), width: size.width, height: size.height });
  }
  return frames;
}

export interface MotionSample {
  /** 0…1: how much of the picture changed since the previous frame (1 = the busiest moment). */
  energy: number;
  /** −1…1: where the change is, left/right and top/bottom of centre. */
  x: number;
  y: number;
}

const MOTION_WIDTH = 64;

/** How much the video moves in each frame at `fps` (≤ 30 s). */
export async function motionSignal(video: Uint8Array, fps: number): Promise<MotionSample[]> {
  const height = 36;
  const raw = await ffmpegOutput(
    {
      inputs: { 'in.video': video },
      args: ['-t', String(MAX_INPUT_SECONDS), '-i', 'in.video', '-vf', `fps=${fps},scale=${MOTION_WIDTH}:${height},format=gray`, '-f', 'rawvideo', 'out.raw'],
    },
    'out.raw',
  );
  const pixels = MOTION_WIDTH * height;
  const count = Math.floor(raw.length / pixels);
  const samples: MotionSample[] = [{ energy: 0, x: 0, y: 0 }];
  for (let frame = 1; frame < count; frame += 1) {
    let total = 0;
    let sumX = 0;
    let sumY = 0;
    for (let index = 0; index < pixels; index += 1) {
      const change = Math.abs((raw[frame * pixels + index] ?? 0) - (raw[(frame - 1) * pixels + index] ?? 0));
      total += change;
      sumX += change * ((index % MOTION_WIDTH) / (MOTION_WIDTH - 1) - 0.5) * 2;
      sumY += change * (Math.floor(index / MOTION_WIDTH) / (height - 1) - 0.5) * 2;
    }
    samples.push({ energy: total / pixels, x: total > 0 ? sumX / total : 0, y: total > 0 ? sumY / total : 0 });
  }
  const peak = Math.max(1e-6, ...samples.map((sample) => sample.energy));
  return samples.map((sample) => ({ ...sample, energy: sample.energy / peak }));
}
