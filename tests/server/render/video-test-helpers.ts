import { createFile, MP4BoxBuffer, type Movie } from 'mp4box';
import sharp from 'sharp';
import { runFfmpeg } from '../../../server/src/render/video/ffmpeg.ts';

/**
 * Reading the engine's videos back in tests: MP4 structure with mp4box (an independent parser),
 * frames with the same WASM ffmpeg the engine uses.
 */

export function readMp4(data: Uint8Array): Movie {
  const file = createFile();
  let movie: Movie | null = null;
  file.onReady = (info) => {
    movie = info;
  };
  const copy = new Uint8Array(data).buffer;
  file.appendBuffer(MP4BoxBuffer.fromArrayBuffer(copy, 0));
  file.flush();
  if (!movie) throw new Error('mp4box found no movie');
  return movie;
}

export const trackSeconds = (track: { duration: number; timescale: number }): number => track.duration / track.timescale;

export interface Frame {
  data: Uint8Array;
  width: number;
  height: number;
}

/** Frames by index (0-based, at the video's own rate) as RGBA. */
export async function videoFramesAt(video: Uint8Array, indices: readonly number[]): Promise<Frame[]> {
  const frames: Frame[] = [];
  for (const index of indices) {
    const result = await runFfmpeg({
      inputs: { 'in.mp4': video },
      args: ['-i', 'in.mp4', '-vf', `select='eq(n\\,${index})'`, '-frames:v', '1', 'frame.png'],
      outputs: ['frame.png'],
    });
    const png = result.files['frame.png'];
    if (!png) throw new Error(`No frame ${index}: ${result.log.slice(-300)}`);
    const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    frames.push({ data, width: info.width, height: info.height });
  }
  return frames;
}

/** Centre of the pixels matching `test`, in pixels; null when none match. */
export function centroid(frame: Frame, test: (r: number, g: number, b: number) => boolean, region?: { top: number; bottom: number }): { x: number; y: number; count: number } | null {
  let sumX = 0;
  let sumY = 0;
  let count = 0;
  for (let y = region?.top ?? 0; y < (region?.bottom ?? frame.height); y += 1) {
    for (let x = 0; x < frame.width; x += 1) {
      const offset = (y * frame.width + x) * 4;
      if (!test(frame.data[offset] ?? 0, frame.data[offset + 1] ?? 0, frame.data[offset + 2] ?? 0)) continue;
      sumX += x;
      sumY += y;
      count += 1;
    }
  }
  return count === 0 ? null : { x: sumX / count, y: sumY / count, count };
}

/** Mean RGB of a region of a frame. */
export function frameRegionMean(frame: Frame, region: { left: number; top: number; width: number; height: number }): [number, number, number] {
  const sums = [0, 0, 0];
  for (let y = region.top; y < region.top + region.height; y += 1) {
    for (let x = region.left; x < region.left + region.width; x += 1) {
      const offset = (y * frame.width + x) * 4;
      for (let channel = 0; channel < 3; channel += 1) sums[channel] = (sums[channel] ?? 0) + (frame.data[offset + channel] ?? 0);
    }
  }
  const pixels = region.width * region.height;
  return sums.map((sum) => sum / pixels) as [number, number, number];
}

/** Mean absolute difference of two same-sized frames, 0…255. */
export function frameDifference(a: Frame, b: Frame): number {
  let sum = 0;
  for (let offset = 0; offset < a.data.length; offset += 4) {
    for (let channel = 0; channel < 3; channel += 1) sum += Math.abs((a.data[offset + channel] ?? 0) - (b.data[offset + channel] ?? 0));
  }
  return sum / ((a.data.length / 4) * 3);
}

/** A test video made by ffmpeg's own generators: moving test pattern, optionally a 440 Hz tone. */
export async function generatedVideo(options: { seconds: number; width: number; height: number; withAudio: boolean }): Promise<Uint8Array> {
  const { seconds, width, height, withAudio } = options;
  const result = await runFfmpeg({
    inputs: {},
    args: [
      '-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=24:duration=${seconds}`,
      ...(withAudio ? ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`] : []),
      '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p',
      ...(withAudio ? ['-c:a', 'aac'] : []),
      '-t', String(seconds), 'out.mp4',
    ],
    outputs: ['out.mp4'],
  });
  const video = result.files['out.mp4'];
  if (!video) throw new Error(result.log.slice(-400));
  return video;
}

/** A still picture held for `seconds` at 24 fps, H.264 without sound: a video whose every frame is known. */
export async function stillVideo(png: Uint8Array, seconds: number): Promise<Uint8Array> {
  const result = await runFfmpeg({
    inputs: { 'in.png': png },
    args: ['-loop', '1', '-framerate', '24', '-i', 'in.png', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-t', String(seconds), 'out.mp4'],
    outputs: ['out.mp4'],
  });
  const video = result.files['out.mp4'];
  if (!video) throw new Error(result.log.slice(-400));
  return video;
}

/** A GIF's logical screen size (bytes 6–9 of its header). */
export function gifSize(gif: Uint8Array): { width: number; height: number } {
  const view = Buffer.from(gif);
  return { width: view.readUInt16LE(6), height: view.readUInt16LE(8) };
}
