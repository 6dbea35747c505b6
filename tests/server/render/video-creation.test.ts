import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PosePreset } from '../../../src/lib/pose-preset.ts';
import { createLocalRenderEngine } from '../../../server/src/render/local-engine.ts';
import type { RenderedVideo, RenderInputImage, VideoRenderRequest } from '../../../server/src/render/provider.ts';
import { RenderInputError } from '../../../server/src/render/render-errors.ts';
import { createFixtureFolder, solidPng, writeInput } from './render-fixtures.ts';
import { centroid, frameDifference, frameRegionMean, generatedVideo, gifSize, readMp4, trackSeconds, videoFramesAt, type Frame } from './video-test-helpers.ts';

// Video renders are seconds of WASM each; a busy machine makes them slower still.
const SLOW = 240_000;

const engine = createLocalRenderEngine();
let folder: { folder: string; remove: () => Promise<void> };
let scene: RenderInputImage;

/** A far backdrop (blue dots high up on beige) and a near subject (a red square low in the middle). */
async function scenePng(): Promise<Buffer> {
  let svg = '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="450"><rect width="800" height="450" fill="#e6e1d2"/>';
  for (let index = 0; index < 40; index += 1) svg += `<circle cx="${(index * 97) % 800}" cy="${((index * 53) % 160) + 14}" r="8" fill="#2838c8"/>`;
  svg += '<rect x="320" y="250" width="160" height="160" fill="#dc1e1e"/></svg>';
  return sharp(Buffer.from(svg)).png().toBuffer();
}

const preset = (overrides: Partial<PosePreset>): PosePreset => ({
  motion_type: 'Parallax',
  prompt: '',
  quantity: 1,
  motion_amount: 5,
  // The shortest clip a preset may ask for (MOTION_LENGTH.min): a camera path spans the clip
  // whatever its length, and every second more is 24 more frames drawn and encoded.
  motion_length: 2,
  loop: 0,
  model: 'Parallax',
  camera_path: 'StepL',
  ...overrides,
});

const request = (overrides: Partial<VideoRenderRequest>): VideoRenderRequest => ({
  creationType: 'parallax-motion',
  motionMode: null,
  preset: preset({}),
  index: 1,
  inputs: [scene],
  prompt: '',
  promptStrength: 50,
  model: 'Parallax',
  seed: 'seed-1',
  logo: false,
  ...overrides,
});

async function render(overrides: Partial<VideoRenderRequest>): Promise<RenderedVideo> {
  const videos = await engine.renderVideo(request(overrides));
  expect(videos).toHaveLength(1);
  return videos[0] as RenderedVideo;
}

const isRed = (r: number, g: number, b: number) => r > 150 && g < 90 && b < 90;
const isBlue = (r: number, g: number, b: number) => b > 140 && r < 110 && g < 120;
const redCentre = (frame: Frame) => centroid(frame, isRed);
const blueCentre = (frame: Frame) => centroid(frame, isBlue, { top: 0, bottom: Math.round(frame.height * 0.35) });

/** Expects a valid H.264 MP4 of `size` lasting `seconds` (±0.1 s). */
function expectVideo(video: RenderedVideo, size: { width: number; height: number }, seconds: number): void {
  const movie = readMp4(video.video.data);
  const track = movie.videoTracks[0];
  expect(track?.codec).toMatch(/^avc1\./);
  expect([track?.track_width, track?.track_height]).toEqual([size.width, size.height]);
  expect(Math.abs(movie.duration / movie.timescale - seconds)).toBeLessThanOrEqual(0.1);
  expect(Math.abs(trackSeconds(track ?? { duration: 0, timescale: 1 }) - seconds)).toBeLessThanOrEqual(0.1);
  expect([video.width, video.height]).toEqual([size.width, size.height]);
  expect(Math.abs(video.durationSeconds - seconds)).toBeLessThanOrEqual(0.1);
}

beforeAll(async () => {
  folder = await createFixtureFolder();
  scene = await writeInput(folder.folder, 'scene.png', await scenePng(), 'image_urls');
});

afterAll(async () => {
  await folder.remove();
});

describe('renderVideo: parallax camera paths', () => {
  let stepLeft: RenderedVideo;
  let stepUp: RenderedVideo;

  beforeAll(async () => {
    [stepLeft, stepUp] = await Promise.all([render({}), render({ preset: preset({ camera_path: 'StepU' }), logo: true })]);
  }, SLOW);

  it('makes an H.264 MP4 of the picture ratio, long side 640, motion_length seconds, with GIF and thumbnail', async () => {
    expectVideo(stepLeft, { width: 640, height: 360 }, 2);
    expect(stepLeft.video).toMatchObject({ name: 'video.mp4', contentType: 'video/mp4' });
    expect(Buffer.from(stepLeft.gif.data.subarray(0, 6)).toString('ascii')).toBe('GIF89a');
    expect(gifSize(stepLeft.gif.data).width).toBeLessThanOrEqual(320);
    expect(stepLeft.gif).toMatchObject({ name: 'video.gif', contentType: 'image/gif' });
    const thumbnail = await sharp(stepLeft.thumbnail.data).metadata();
    expect(thumbnail.format).toBe('jpeg');
    expect([thumbnail.width, thumbnail.height]).toEqual([640, 360]);
  });

  it('moves the way each path says, the near subject more than the far backdrop (parallax)', async () => {
    const [leftFirst, leftLast] = await videoFramesAt(stepLeft.video.data, [0, 47]);
    const [upFirst, upLast] = await videoFramesAt(stepUp.video.data, [0, 47]);
    const move = (from: Frame | undefined, to: Frame | undefined, find: (frame: Frame) => { x: number; y: number } | null) => {
      const start = find(from as Frame);
      const end = find(to as Frame);
      if (!start || !end) throw new Error('the subject is out of view');
      return { x: end.x - start.x, y: end.y - start.y };
    };
    // The camera steps left: the picture slides right, the red square (near) more than the dots (far).
    const leftRed = move(leftFirst, leftLast, redCentre);
    const leftBlue = move(leftFirst, leftLast, blueCentre);
    expect(leftRed.x).toBeGreaterThan(10);
    expect(Math.abs(leftRed.y)).toBeLessThan(3);
    expect(leftRed.x).toBeGreaterThan(leftBlue.x + 5);
    // The camera steps up: the picture slides down.
    const upRed = move(upFirst, upLast, redCentre);
    expect(upRed.y).toBeGreaterThan(10);
    expect(Math.abs(upRed.x)).toBeLessThan(3);
    expect(Buffer.compare(stepLeft.video.data, stepUp.video.data)).not.toBe(0);
  }, SLOW);

  it("burns the guest's logo into every frame and names the files video_logo", async () => {
    expect(stepUp.video.name).toBe('video_logo.mp4');
    expect(stepUp.gif.name).toBe('video_logo.gif');
    // Both paths start from the same view, so their first frames differ only by the logo (bottom right).
    const [plain] = await videoFramesAt(stepLeft.video.data, [0]);
    const [branded, brandedLast] = await videoFramesAt(stepUp.video.data, [0, 47]);
    const corner = { left: 555, top: 325, width: 70, height: 20 };
    const plainCorner = frameRegionMean(plain as Frame, corner);
    const brandedCorner = frameRegionMean(branded as Frame, corner);
    expect(plainCorner[0] - brandedCorner[0]).toBeGreaterThan(40);
    expect(plainCorner[0] - frameRegionMean(brandedLast as Frame, corner)[0]).toBeGreaterThan(40);
    expect(frameDifference(plain as Frame, branded as Frame)).toBeLessThan(3);
  }, SLOW);

  it('is deterministic: the same request gives the same bytes', async () => {
    const again = await render({});
    expect(Buffer.compare(again.video.data, stepLeft.video.data)).toBe(0);
    expect(Buffer.compare(again.gif.data, stepLeft.gif.data)).toBe(0);
    expect(Buffer.compare(again.thumbnail.data, stepLeft.thumbnail.data)).toBe(0);
  }, SLOW);

  it('returns to the start when the preset loops', async () => {
    const looped = await render({ preset: preset({ camera_path: 'HorizontalArc', loop: 1, motion_length: 2 }) });
    expectVideo(looped, { width: 640, height: 360 }, 2);
    const [first, middle, last] = await videoFramesAt(looped.video.data, [0, 24, 47]);
    expect(frameDifference(first as Frame, last as Frame)).toBeLessThan(2);
    expect(frameDifference(first as Frame, middle as Frame)).toBeGreaterThan(4);
  }, SLOW);
});

describe('renderVideo: failures', () => {
  it('rejects an input it cannot read with a RenderInputError from the worker', async () => {
    const missing = { path: path.join(folder.folder, 'missing.png'), contentType: 'image/png', field: 'image_urls' };
    await expect(render({ inputs: [missing] })).rejects.toBeInstanceOf(RenderInputError);
    await expect(render({ inputs: [missing] })).rejects.toMatchObject({ outcome: 'failed', message: 'The file given as image_urls could not be found.' });
  });
});

describe('renderVideo: AI motion and the other creation types', () => {
  const motion = (overrides: Partial<PosePreset>) => preset({ motion_type: 'ZoomIn', camera_path: null, model: 'KlingV2', motion_length: 2, ...overrides });

  it('makes a text video at the asked ratio from the generated scene of the prompt', async () => {
    const video = await render({ creationType: 'ai-motion', motionMode: 'text', inputs: [], prompt: 'A lighthouse at night', aspectRatio: '9:16', preset: motion({}), model: 'KlingV2' });
    expectVideo(video, { width: 360, height: 640 }, 2);
  }, SLOW);

  it('zooms in on the picture over the clip (camera motion ZoomIn)', async () => {
    const video = await render({ creationType: 'ai-motion', motionMode: 'image', preset: motion({}), model: 'KlingV2' });
    expectVideo(video, { width: 640, height: 360 }, 2);
    const [first, last] = await videoFramesAt(video.video.data, [0, 47]);
    // Zooming in makes the red square take more of the frame.
    expect(redCentre(last as Frame)?.count ?? 0).toBeGreaterThan((redCentre(first as Frame)?.count ?? 0) * 1.2);
  }, SLOW);

  it('dissolves into the end frame (transition) and moves through the pictures (composer)', async () => {
    const blue = await writeInput(folder.folder, 'blue.png', await solidPng(800, 450, '#1030d0'), 'image_urls');
    const [transition, composer] = await Promise.all([
      render({ creationType: 'ai-motion', motionMode: 'transition', inputs: [scene, blue], preset: motion({ motion_type: 'Static' }) }),
      render({ creationType: 'ai-motion', motionMode: 'composer', inputs: [blue, scene, blue], preset: motion({ motion_type: 'Static' }) }),
    ]);
    expectVideo(transition, { width: 640, height: 360 }, 2);
    const [start, end] = await videoFramesAt(transition.video.data, [0, 47]);
    const whole = { left: 0, top: 0, width: 640, height: 360 };
    expect(frameRegionMean(start as Frame, whole)[0]).toBeGreaterThan(150);
    expect(frameRegionMean(end as Frame, whole)[0]).toBeLessThan(60);
    expect(frameRegionMean(end as Frame, whole)[2]).toBeGreaterThan(180);
    expectVideo(composer, { width: 640, height: 360 }, 2);
    const [, middle] = await videoFramesAt(composer.video.data, [0, 24]);
    expect(redCentre(middle as Frame)).not.toBeNull();
  }, SLOW);

  it('dresses the person in the clothes over time (try-on) and animates a character from a driving video', async () => {
    const clothes = await writeInput(folder.folder, 'clothes.png', await solidPng(300, 300, '#10c040'), 'image_urls');
    const driving = path.join(folder.folder, 'driving.mp4');
    await writeFile(driving, await generatedVideo({ seconds: 2, width: 320, height: 180, withAudio: false }));
    const [tryOn, character] = await Promise.all([
      render({ creationType: 'try-on', inputs: [scene, clothes], preset: motion({ motion_type: 'Static', model: 'TryOnVideo' }), model: 'TryOnVideo' }),
      render({
        creationType: 'character-animate',
        inputs: [scene, { path: driving, contentType: 'video/mp4', field: 'video_url' }],
        preset: motion({ motion_type: 'Auto' }),
      }),
    ]);
    expectVideo(tryOn, { width: 640, height: 360 }, 2);
    const isGreen = (r: number, g: number, b: number) => g > 150 && r < 90 && b < 120;
    const [before, after] = await videoFramesAt(tryOn.video.data, [0, 47]);
    expect(centroid(before as Frame, isGreen)).toBeNull();
    expect(centroid(after as Frame, isGreen)?.count ?? 0).toBeGreaterThan(5000);
    expectVideo(character, { width: 640, height: 360 }, 2);
    // The character (the red square) moves with the driving video; the backdrop's dots stay.
    const frames = await videoFramesAt(character.video.data, [0, 6, 12, 18, 24, 30]);
    const centres = frames.map((frame) => redCentre(frame) ?? { x: 0, y: 0 });
    const spread = (read: (centre: { x: number; y: number }) => number) => Math.max(...centres.map(read)) - Math.min(...centres.map(read));
    expect(Math.max(spread((centre) => centre.x), spread((centre) => centre.y))).toBeGreaterThan(3);
    const dots = frames.map((frame) => blueCentre(frame) ?? { x: 0, y: 0 });
    expect(Math.abs((dots[0]?.x ?? 0) - (dots[3]?.x ?? 0))).toBeLessThan(1);
  }, SLOW);

  it('extends a video after its last frame, or before its first frame played backwards', async () => {
    const original = path.join(folder.folder, 'original.mp4');
    const originalBytes = await generatedVideo({ seconds: 1, width: 320, height: 240, withAudio: false });
    await writeFile(original, originalBytes);
    const input = { path: original, contentType: 'video/mp4', field: 'video_url' };
    const [after, before] = await Promise.all([
      render({ creationType: 'extend-video', inputs: [input], frameSelection: 'Last', preset: motion({ motion_type: 'PanLeft' }) }),
      render({ creationType: 'extend-video', inputs: [input], frameSelection: 'First', preset: motion({ motion_type: 'PanLeft' }) }),
    ]);
    // 4:3 at long side 640; the original's 1 s plus the new 2 s.
    expectVideo(after, { width: 640, height: 480 }, 3);
    expectVideo(before, { width: 640, height: 480 }, 3);
    const [originalFirst] = await videoFramesAt(originalBytes, [0]);
    const scaledOriginal = await sharp(Buffer.from((originalFirst as Frame).data), { raw: { width: 320, height: 240, channels: 4 } }).resize(640, 480).raw().toBuffer();
    const reference = { data: scaledOriginal, width: 640, height: 480 };
    const [afterStart] = await videoFramesAt(after.video.data, [0]);
    const [beforeJoin, beforeStart] = await videoFramesAt(before.video.data, [48, 0]);
    // Last: the video starts as the original did. First: the original starts after the new clip, which ends on its first frame.
    expect(frameDifference(afterStart as Frame, reference)).toBeLessThan(12);
    expect(frameDifference(beforeJoin as Frame, reference)).toBeLessThan(12);
    expect(frameDifference(beforeStart as Frame, reference)).toBeGreaterThan(frameDifference(beforeJoin as Frame, reference));
  }, SLOW);
});
