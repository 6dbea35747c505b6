import { synthesiseSpeech } from '../audio-synth.ts';
import type { VideoEditRequest } from '../provider.ts';
import { RenderInputError } from '../render-errors.ts';
import { encodeWav, WAV_SAMPLE_RATE } from '../wav-writer.ts';
import { AAC_OUTPUT, BITEXACT, ffmpegOutput } from './ffmpeg.ts';
import { encodeFrames, VIDEO_FPS } from './h264.ts';
import { placedLogo } from './logo.ts';
import { probeBytes } from './probe.ts';
import { clamp, drawOver, sizeWithLongSide, type Rgba, type Size } from './raster.ts';
import { coverPicture, loadPicture, readInputFile, VIDEO_LONG_SIDE, videoSizeFor } from './sources.ts';
import { MAX_INPUT_SECONDS, videoFrames } from './video-input.ts';

/**
 * Lip sync: a face (picture or video) whose mouth opens and closes with the loudness of the
 * speech: the uploaded audio, or the prompt spoken in the chosen voice. The video lasts as long as
 * the speech (≤ 30 s); a face video loops under it.
 */

/** Where the mouth is on a framed face, as fractions of the frame (a centred portrait). */
const MOUTH = { x: 0.5, y: 0.64, width: 0.1, height: 0.045 } as const;
const ENVELOPE_RATE = 16_000;
/** Face video frames are decoded this many seconds at a time (memory stays small for 30 s). */
const CHUNK_SECONDS = 2;

/** Loudness per video frame, 0…1 (1 = the loud end of the speech), smoothed over three frames. */
function mouthOpenings(samples: Float32Array, rate: number, frameCount: number): Float32Array {
  const perFrame = rate / VIDEO_FPS;
  const raw = new Float32Array(frameCount);
  for (let frame = 0; frame < frameCount; frame += 1) {
    let sum = 0;
    const start = Math.floor(frame * perFrame);
    const end = Math.min(samples.length, Math.floor((frame + 1) * perFrame));
    for (let index = start; index < end; index += 1) sum += (samples[index] ?? 0) ** 2;
    raw[frame] = Math.sqrt(sum / Math.max(1, end - start));
  }
  const sorted = [...raw].sort((a, b) => a - b);
  const loud = Math.max(1e-4, sorted[Math.floor(sorted.length * 0.95)] ?? 0);
  const openings = new Float32Array(frameCount);
  for (let frame = 0; frame < frameCount; frame += 1) {
    const mean = ((raw[frame - 1] ?? raw[frame] ?? 0) + (raw[frame] ?? 0) + (raw[frame + 1] ?? raw[frame] ?? 0)) / 3;
    openings[frame] = clamp(mean / loud, 0, 1);
  }
  return openings;
}

/** Opens the mouth by `opening` (0…1): the lips' region stretches vertically and a dark opening appears. */
function openMouth(face: Rgba, frame: Rgba, opening: number): void {
  frame.data.set(face.data);
  if (opening < 0.02) return;
  const { width, height } = frame;
  const short = Math.min(width, height);
  const centreX = MOUTH.x * width;
  const centreY = MOUTH.y * height;
  const radiusX = MOUTH.width * short * 1.6;
  const radiusY = MOUTH.height * short * 3;
  for (let y = Math.max(0, Math.floor(centreY - radiusY)); y < Math.min(height, Math.ceil(centreY + radiusY)); y += 1) {
    for (let x = Math.max(0, Math.floor(centreX - radiusX)); x < Math.min(width, Math.ceil(centreX + radiusX)); x += 1) {
      const dx = (x - centreX) / radiusX;
      const dy = (y - centreY) / radiusY;
      const distance = dx * dx + dy * dy;
      if (distance >= 1) continue;
      const weight = (1 - distance) ** 2;
      const sourceY = clamp(Math.round(centreY + (y - centreY) / (1 + 0.9 * opening * weight)), 0, height - 1);
      const source = (sourceY * width + x) * 4;
      const target = (y * width + x) * 4;
      // The mouth's opening: a dark ellipse whose height follows the loudness.
      const innerX = (x - centreX) / (radiusX * 0.45);
      const innerY = (y - centreY) / Math.max(1, radiusY * 0.35 * opening);
      const inner = innerX * innerX + innerY * innerY;
      const dark = inner < 1 ? 0.85 * (1 - inner) ** 0.5 : 0;
      frame.data[target] = (face.data[source] ?? 0) * (1 - dark) + 60 * dark;
      frame.data[target + 1] = (face.data[source + 1] ?? 0) * (1 - dark) + 18 * dark;
      frame.data[target + 2] = (face.data[source + 2] ?? 0) * (1 - dark) + 24 * dark;
    }
  }
}

/** The speech: the uploaded audio (decoded for its loudness), or the prompt spoken in the voice. */
async function speech(request: VideoEditRequest): Promise<{ file: Uint8Array; samples: Float32Array; rate: number; seconds: number }> {
  const audio = request.inputs.find((input) => input.field === 'audio_url');
  if (audio) {
    const file = await readInputFile(audio);
    const pcm = await ffmpegOutput({ inputs: { 'in.audio': file }, args: ['-t', String(MAX_INPUT_SECONDS), '-i', 'in.audio', '-ac', '1', '-ar', String(ENVELOPE_RATE), '-f', 'f32le', 'out.raw'] }, 'out.raw');
    const samples = new Float32Array(pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + pcm.byteLength - (pcm.byteLength % 4)));
    return { file, samples, rate: ENVELOPE_RATE, seconds: samples.length / ENVELOPE_RATE };
  }
  const prompt = typeof request.args.prompt === 'string' ? request.args.prompt : '';
  if (prompt.trim() === '') throw new RenderInputError('Lip sync needs speech: an audio file or a text to speak.');
  const voice = typeof request.args.voice === 'string' ? request.args.voice : undefined;
  const samples = await synthesiseSpeech(prompt, voice);
  return { file: encodeWav(samples), samples, rate: WAV_SAMPLE_RATE, seconds: samples.length / WAV_SAMPLE_RATE };
}

/** Frames of the face: the picture, or the face video's frames looped, fetched a chunk at a time. */
async function faceSource(request: VideoEditRequest): Promise<{ size: Size; frameAt: (index: number) => Promise<Rgba> }> {
  const picture = request.inputs.find((input) => input.field === 'image_url');
  if (picture) {
    const loaded = await loadPicture(picture);
    const size = videoSizeFor(loaded);
    const face = await coverPicture(loaded, size);
    return { size, frameAt: async () => face };
  }
  const video = request.inputs.find((input) => input.field === 'video_url');
  if (!video) throw new RenderInputError('Lip sync needs a face picture or a face video.');
  const bytes = await readInputFile(video);
  const probe = await probeBytes(bytes, 'in.video');
  if (!probe.width || !probe.height) throw new RenderInputError('The face video could not be read.');
  const size = sizeWithLongSide(probe.width / probe.height, VIDEO_LONG_SIDE);
  const faceFrames = Math.max(1, Math.floor(Math.min(probe.durationSeconds, MAX_INPUT_SECONDS) * VIDEO_FPS));
  const chunkFrames = CHUNK_SECONDS * VIDEO_FPS;
  let chunk: { start: number; frames: Rgba[] } = { start: -1, frames: [] };
  return {
    size,
    frameAt: async (index) => {
      const faceIndex = index % faceFrames;
      const start = Math.floor(faceIndex / chunkFrames) * chunkFrames;
      if (chunk.start !== start) chunk = { start, frames: await videoFrames(bytes, start / VIDEO_FPS, CHUNK_SECONDS, VIDEO_FPS, size) };
      const frame = chunk.frames[Math.min(chunk.frames.length - 1, faceIndex - start)];
      if (!frame) throw new RenderInputError('The face video could not be read.');
      return frame;
    },
  };
}

export async function renderLipSync(request: VideoEditRequest): Promise<Uint8Array> {
  const voice = await speech(request);
  const seconds = clamp(voice.seconds, 1 / VIDEO_FPS, MAX_INPUT_SECONDS);
  const face = await faceSource(request);
  const frameCount = Math.max(2, Math.round(seconds * VIDEO_FPS));
  const openings = mouthOpenings(voice.samples, voice.rate, frameCount);
  const logo = request.logo ? await placedLogo(face.size) : null;
  const silent = await encodeFrames(face.size, frameCount, async (index, frame) => {
    openMouth(await face.frameAt(index), frame, openings[index] ?? 0);
    if (logo) drawOver(frame, logo.picture, logo.left, logo.top);
  });
  return ffmpegOutput(
    {
      inputs: { 'face.mp4': silent, 'speech.audio': voice.file },
      args: ['-i', 'face.mp4', '-i', 'speech.audio', '-map', '0:v', '-map', '1:a', '-c:v', 'copy', ...AAC_OUTPUT, '-t', seconds.toFixed(3), ...BITEXACT, 'out.mp4'],
    },
    'out.mp4',
  );
}
