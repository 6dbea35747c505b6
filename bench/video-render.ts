/**
 * How long the local engine takes to make video, in render seconds per second of video: a 5 s
 * parallax clip at 640 px (frames drawn in JS over the depth estimate, H.264 in WASM, then the
 * GIF and thumbnail) and one edit of that clip (a 9:16 crop through WASM ffmpeg). Both run on the
 * engine's worker threads, as on the server; the server's event loop is watched meanwhile to show
 * it stays free (its longest delay). A short warm-up clip first loads the worker's modules and
 * WASM, as a server that has rendered once has them.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import sharp from 'sharp';
import { createLocalRenderEngine } from '../server/src/render/local-engine.ts';

export interface VideoRenderFigures {
  clipSeconds: number;
  /** Wall-clock seconds to render the parallax clip, per second of video. */
  parallaxSecondsPerVideoSecond: number;
  /** Wall-clock seconds of the crop edit, per second of video. */
  editSecondsPerVideoSecond: number;
  /** The main thread's longest event-loop delay while both ran, in ms. */
  eventLoopMaxDelayMs: number;
}

const CLIP_SECONDS = 5;

/** A picture with depth cues: a far, dotted backdrop and a near subject low in the frame. */
async function benchPicture(): Promise<Buffer> {
  let svg = '<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="720"><defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#7dd3fc"/><stop offset="1" stop-color="#f0f9ff"/></linearGradient></defs><rect width="1280" height="720" fill="url(#s)"/>';
  for (let index = 0; index < 60; index += 1) svg += `<circle cx="${(index * 211) % 1280}" cy="${((index * 89) % 260) + 20}" r="${6 + (index % 5) * 3}" fill="#ffffff" fill-opacity="0.8"/>`;
  svg += '<path d="M0 520 Q 320 420 640 500 T 1280 480 V 720 H 0 Z" fill="#166534"/><circle cx="640" cy="470" r="150" fill="#dc2626"/></svg>';
  return sharp(Buffer.from(svg)).png().toBuffer();
}

export async function measureVideoRender(): Promise<VideoRenderFigures> {
  const folder = await mkdtemp(path.join(tmpdir(), 'kinora-bench-video-'));
  const engine = createLocalRenderEngine({ videoWorkers: 1 });
  try {
    const picturePath = path.join(folder, 'picture.png');
    await writeFile(picturePath, await benchPicture());
    const parallax = (seconds: number) =>
      engine.renderVideo({
        creationType: 'parallax-motion',
        motionMode: null,
        preset: { motion_type: 'Parallax', prompt: '', quantity: 1, motion_amount: 5, motion_length: seconds, loop: 0, model: 'Parallax', camera_path: 'HorizontalArc' },
        index: 1,
        inputs: [{ path: picturePath, contentType: 'image/png', field: 'image_urls' }],
        prompt: '',
        promptStrength: 50,
        model: 'Parallax',
        seed: 'bench',
        logo: false,
      });
    await parallax(1);

    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const renderStart = performance.now();
    const [clip] = await parallax(CLIP_SECONDS);
    const renderSeconds = (performance.now() - renderStart) / 1000;
    if (!clip) throw new Error('The parallax render returned no video.');
    const clipPath = path.join(folder, 'clip.mp4');
    await writeFile(clipPath, clip.video.data);

    const editStart = performance.now();
    await engine.editVideo({
      tool: 'edit-video',
      model: 'CropToAspectRatio',
      endpoint: 'video/crop-to-aspect-ratio',
      args: { aspect_ratio: '9:16' },
      inputs: [{ path: clipPath, contentType: 'video/mp4', field: 'video_url' }],
      seed: 'bench',
      logo: false,
    });
    const editSeconds = (performance.now() - editStart) / 1000;
    loop.disable();
    return {
      clipSeconds: clip.durationSeconds,
      parallaxSecondsPerVideoSecond: renderSeconds / clip.durationSeconds,
      editSecondsPerVideoSecond: editSeconds / clip.durationSeconds,
      eventLoopMaxDelayMs: loop.max / 1e6,
    };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

// `node --import tsx bench/video-render.ts` prints the figures on their own.
if (import.meta.url === `file://${process.argv[1]}`) console.log(await measureVideoRender());
