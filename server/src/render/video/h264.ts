import { createRequire } from 'node:module';
import type * as H264Mp4Encoder from 'h264-mp4-encoder';
import type { Rgba, Size } from './raster.ts';

/**
 * Frames → H.264 MP4 with h264-mp4-encoder (an H.264 encoder and MP4 muxer compiled to WASM). It takes RGBA frames one at a time, so a clip never has to sit in
 * memory whole. WASM that blocks: loaded only inside the video worker.
 */

type EncoderModule = typeof H264Mp4Encoder;

// A CommonJS webpack bundle whose named export Node's ESM loader cannot see: required instead.
const encoderModule = createRequire(import.meta.url)('h264-mp4-encoder') as EncoderModule;

/** Frames per second of every video the engine draws. */
export const VIDEO_FPS = 24;
/** 10…51, lower is better; 24 keeps gradients clean at 640 px for ~1 MB per 5 s. */
const QUANTIZATION = 24;
/** 0 best … 10 fastest. At a fixed QP speed mostly trades file size: 10 is ~25% quicker than 8 for ~50% more bytes (still ~50 KB/s). */
const SPEED = 10;

/**
 * Encodes `frameCount` frames of `size`, asking `draw` for each one in order (it fills the frame
 * it is given, which is reused between calls; it may be async to fetch source frames).
 */
export async function encodeFrames(size: Size, frameCount: number, draw: (index: number, frame: Rgba) => void | Promise<void>): Promise<Uint8Array> {
  const encoder = await encoderModule.createH264MP4Encoder();
  try {
    encoder.width = size.width;
    encoder.height = size.height;
    encoder.frameRate = VIDEO_FPS;
    encoder.quantizationParameter = QUANTIZATION;
    encoder.speed = SPEED;
    encoder.groupOfPictures = VIDEO_FPS;
    encoder.initialize();
    const frame: Rgba = { data: new Uint8Array(size.width * size.height * 4), width: size.width, height: size.height };
    for (let index = 0; index < frameCount; index += 1) {
      await draw(index, frame);
      encoder.addFrameRgba(frame.data);
    }
    encoder.finalize();
    const mp4 = encoder.FS.readFile(encoder.outputFilename);
    encoder.FS.unlink(encoder.outputFilename);
    return mp4;
  } finally {
    encoder.delete();
  }
}
