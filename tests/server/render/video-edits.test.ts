import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { synthesiseSpeech } from '../../../server/src/render/audio-synth.ts';
import { createLocalRenderEngine } from '../../../server/src/render/local-engine.ts';
import type { RenderedVideo, RenderInputImage, VideoEditRequest } from '../../../server/src/render/provider.ts';
import { RenderRejectedError } from '../../../server/src/render/render-errors.ts';
import { STRICT_SYNC_MESSAGE } from '../../../server/src/render/video/edits.ts';
import { encodeWav, WAV_SAMPLE_RATE } from '../../../server/src/render/wav-writer.ts';
import { createFixtureFolder, subjectPng, writeInput } from './render-fixtures.ts';
import { frameDifference, frameRegionMean, generatedVideo, readMp4, stillVideo, trackSeconds, videoFramesAt, type Frame } from './video-test-helpers.ts';

const SLOW = 240_000;
const engine = createLocalRenderEngine();
let folder: { folder: string; remove: () => Promise<void> };
// The inputs are as short and small as the checks allow: every edit's cost grows with the
// input's seconds × pixels (the effect and lip-sync outputs are the product's own 5 s 640×480).
/** 1.5 s, 320×180, a moving test pattern with a tone. */
let video: RenderInputImage;
/** 1.5 s, 240×180 (4:3), no sound. */
let silentVideo: RenderInputImage;
/** Shorter than the videos (1 s), so each sync mode has something to loop, pad or cut. */
let shortAudio: RenderInputImage;
let matchingAudio: RenderInputImage;
let picture: RenderInputImage;

function tone(seconds: number): Buffer {
  const samples = new Float32Array(Math.round(seconds * WAV_SAMPLE_RATE));
  for (let index = 0; index < samples.length; index += 1) samples[index] = 0.3 * Math.sin((2 * Math.PI * 330 * index) / WAV_SAMPLE_RATE);
  return encodeWav(samples);
}

async function fileInput(name: string, data: Uint8Array, field: string, contentType: string): Promise<RenderInputImage> {
  const filePath = path.join(folder.folder, name);
  await writeFile(filePath, data);
  return { path: filePath, contentType, field };
}

const edit = (overrides: Partial<VideoEditRequest>): Promise<RenderedVideo> =>
  engine.editVideo({ tool: 'edit-video', model: 'CropToAspectRatio', endpoint: 'video/crop-to-aspect-ratio', args: {}, inputs: [video], seed: 'seed-1', logo: false, ...overrides });

function tracks(result: RenderedVideo) {
  const movie = readMp4(result.video.data);
  const videoTrack = movie.videoTracks[0];
  expect(videoTrack?.codec).toMatch(/^avc1\./);
  return { movie, videoTrack, audioTrack: movie.audioTracks[0], seconds: movie.duration / movie.timescale };
}

const near = (actual: number, expected: number, tolerance = 0.1) => expect(Math.abs(actual - expected)).toBeLessThanOrEqual(tolerance);

beforeAll(async () => {
  folder = await createFixtureFolder();
  video = await fileInput('video.mp4', await generatedVideo({ seconds: 1.5, width: 320, height: 180, withAudio: true }), 'video_url', 'video/mp4');
  silentVideo = await fileInput('silent.mp4', await generatedVideo({ seconds: 1.5, width: 240, height: 180, withAudio: false }), 'video_url', 'video/mp4');
  shortAudio = await fileInput('short.wav', tone(1), 'audio_url', 'audio/wav');
  matchingAudio = await fileInput('matching.wav', tone(1.5), 'audio_url', 'audio/wav');
  picture = await writeInput(folder.folder, 'subject.png', await subjectPng(400, 300, '#e01010', '#f0f0f0'), 'image_url');
}, SLOW);

afterAll(async () => {
  await folder.remove();
});

describe('editVideo: Edit Video operations', () => {
  it('crops to the asked ratio, keeps the length and the sound, deterministically', async () => {
    const [cropped, again] = await Promise.all([edit({ args: { aspect_ratio: '9:16' } }), edit({ args: { aspect_ratio: '9:16' } })]);
    const { videoTrack, audioTrack, seconds } = tracks(cropped);
    // The centre at 9:16 of 320×180: 180 × 9/16 = 101.25 wide, rounded to an even 102.
    expect([videoTrack?.track_width, videoTrack?.track_height]).toEqual([102, 180]);
    near(seconds, 1.5);
    expect(audioTrack?.codec).toMatch(/^mp4a/);
    expect(cropped.video.name).toBe('result.mp4');
    expect(Buffer.compare(cropped.video.data, again.video.data)).toBe(0);
    expect(Buffer.from(cropped.gif.data.subarray(0, 6)).toString('ascii')).toBe('GIF89a');
  }, SLOW);

  it('reframes into a wider canvas whose new space is a blurred copy, not black', async () => {
    const result = await edit({ model: 'LumaReframeVideo', endpoint: 'video/reframe', args: { aspect_ratio: '1:1', prompt: 'a sunset' }, inputs: [silentVideo] });
    const { videoTrack, seconds } = tracks(result);
    expect([videoTrack?.track_width, videoTrack?.track_height]).toEqual([240, 240]);
    near(seconds, 1.5);
    const [frame] = await videoFramesAt(result.video.data, [12]);
    // The 240×180 video sits in the middle: the top 30 rows are new space.
    const band = frameRegionMean(frame as Frame, { left: 0, top: 0, width: 240, height: 25 });
    expect(band[0] + band[1] + band[2]).toBeGreaterThan(60);
  }, SLOW);

  it('enhances: ×2 upscale with denoise and sharpen', async () => {
    const result = await edit({ model: 'EnhanceVideo', endpoint: 'video/enhance', args: { enhance_mode: '2X&DeepClean' }, inputs: [silentVideo] });
    const { videoTrack, seconds } = tracks(result);
    expect([videoTrack?.track_width, videoTrack?.track_height]).toEqual([480, 360]);
    near(seconds, 1.5);
  }, SLOW);

  it('adds a synthesised sound effect to a silent video', async () => {
    const result = await edit({ model: 'SoundEffect', endpoint: 'video/sound-effect', args: { prompt: 'rain on a tin roof' }, inputs: [silentVideo] });
    const { audioTrack, seconds } = tracks(result);
    near(seconds, 1.5);
    expect(audioTrack).toBeDefined();
    near(trackSeconds(audioTrack as { duration: number; timescale: number }), 1.5);
  }, SLOW);
});

describe('editVideo: attach audio in the four sync modes', () => {
  const attach = (mode: string, audio: RenderInputImage) =>
    edit({ model: 'AttachAudio', endpoint: 'video/audio', args: { mode }, inputs: [silentVideo, audio] });

  it('MatchVideo loops the audio, PadAudio pads it, MatchAudio loops the video, to the lengths they say', async () => {
    const [matchVideo, padAudio, matchAudio] = await Promise.all([attach('MatchVideo', shortAudio), attach('PadAudio', shortAudio), attach('MatchAudio', shortAudio)]);
    for (const [result, expected] of [[matchVideo, 1.5], [padAudio, 1.5], [matchAudio, 1]] as const) {
      const { audioTrack, videoTrack, seconds } = tracks(result);
      near(seconds, expected);
      expect(audioTrack?.codec).toMatch(/^mp4a/);
      near(trackSeconds(audioTrack as { duration: number; timescale: number }), expected);
      near(trackSeconds(videoTrack as { duration: number; timescale: number }), expected);
    }
  }, SLOW);

  it('Strict fails the job when the lengths differ by more than 0.1 s, and muxes as is when they match', async () => {
    const mismatch = attach('Strict', shortAudio);
    await expect(mismatch).rejects.toBeInstanceOf(RenderRejectedError);
    await expect(mismatch).rejects.toMatchObject({ outcome: 'failed', message: STRICT_SYNC_MESSAGE });
    const matched = await edit({ model: 'AttachAudio', endpoint: 'video/audio', args: { mode: 'Strict' }, inputs: [{ ...video }, matchingAudio] });
    const { audioTrack, seconds } = tracks(matched);
    near(seconds, 1.5);
    near(trackSeconds(audioTrack as { duration: number; timescale: number }), 1.5);
  }, SLOW);
});

describe('editVideo: effects, lip sync, backgrounds, restyle', () => {
  it('makes a 5 s effect clip from the first frame, each effect its own motion', async () => {
    const [squish, spin] = await Promise.all([
      edit({ tool: 'video-effects', model: 'PikaEffects', endpoint: 'video/video-effects', args: { effect: 'squish' }, inputs: [picture] }),
      edit({ tool: 'video-effects', model: 'ViduEffects', endpoint: 'video/video-effects', args: { effect: 'spin360' }, inputs: [picture] }),
    ]);
    const squishTracks = tracks(squish);
    expect([squishTracks.videoTrack?.track_width, squishTracks.videoTrack?.track_height]).toEqual([640, 480]);
    near(squishTracks.seconds, 5);
    const [squishFirst, squishLater] = await videoFramesAt(squish.video.data, [0, 72]);
    const [, spinLater] = await videoFramesAt(spin.video.data, [0, 72]);
    expect(frameDifference(squishFirst as Frame, squishLater as Frame)).toBeGreaterThan(3);
    expect(frameDifference(squishLater as Frame, spinLater as Frame)).toBeGreaterThan(3);
  }, SLOW);

  it('lip-syncs a face picture to the spoken prompt: the video lasts as long as the speech and carries it', async () => {
    const prompt = 'Hello there, this is a test of the speaking face.';
    // Spoken by eSpeak on the video worker's thread; the same text and voice give the same speech here.
    const result = await edit({ tool: 'lip-sync', model: 'LipSync', endpoint: 'video/lip-sync', args: { prompt, voice: 'Roger' }, inputs: [picture] });
    const speechSeconds = (await synthesiseSpeech(prompt, 'Roger')).length / WAV_SAMPLE_RATE;
    const { audioTrack, seconds } = tracks(result);
    expect(audioTrack?.codec).toMatch(/^mp4a/);
    expect(speechSeconds).toBeGreaterThan(2);
    near(seconds, speechSeconds, 0.1);
    near(trackSeconds(audioTrack as { duration: number; timescale: number }), seconds, 0.15);
    // The mouth moves: frames differ around it while the rest stays still.
    const frames = await videoFramesAt(result.video.data, [0, 6, 12, 18, 24]);
    const mouth = { left: 260, top: 280, width: 120, height: 60 };
    const means = frames.map((frame) => frameRegionMean(frame, mouth)[0]);
    expect(Math.max(...means) - Math.min(...means)).toBeGreaterThan(2);
  }, SLOW);

  it('replaces the backdrop colour with the background picture and restyles with the prompt', async () => {
    // A red subject on a light grey backdrop, 1 s at 320×240 (an effect clip of the picture would be 5 s at 640×480).
    const keyed = await fileInput('keyed.mp4', await stillVideo(await subjectPng(320, 240, '#e01010', '#f0f0f0'), 1), 'video_url', 'video/mp4');
    const green = await writeInput(folder.folder, 'green.png', await subjectPng(200, 200, '#10b010', '#10b010'), 'bg_image_url');
    const [replaced, restyled] = await Promise.all([
      edit({ tool: 'replace-background-video', model: 'ReplaceBackgroundVideo', endpoint: 'video/replace-background', args: {}, inputs: [keyed, green] }),
      edit({ tool: 'modify-video', model: 'LumaModify', endpoint: 'video/modify', args: { prompt: 'pencil sketch' }, inputs: [keyed] }),
    ]);
    near(tracks(replaced).seconds, 1);
    const [original] = await videoFramesAt(await readFile(keyed.path), [0]);
    const [backdrop] = await videoFramesAt(replaced.video.data, [0]);
    const corner = { left: 0, top: 0, width: 40, height: 30 };
    // The light grey backdrop became the green picture; the red subject stayed.
    expect(frameRegionMean(original as Frame, corner)[1]).toBeGreaterThan(200);
    const [r, g, b] = frameRegionMean(backdrop as Frame, corner);
    expect(g).toBeGreaterThan(r + 60);
    expect(g).toBeGreaterThan(b + 60);
    expect(frameRegionMean(backdrop as Frame, { left: 140, top: 100, width: 40, height: 40 })[0]).toBeGreaterThan(150);
    const [sketch] = await videoFramesAt(restyled.video.data, [0]);
    expect(frameDifference(original as Frame, sketch as Frame)).toBeGreaterThan(10);
  }, SLOW);
});

describe('concatVideos and probeMedia', () => {
  it('joins clips in order at the first clip size, with the audio under the whole length', async () => {
    const joined = await engine.concatVideos({ clips: [video.path, silentVideo.path, video.path], audio: shortAudio.path, seed: 'seed-1', logo: false });
    const { videoTrack, audioTrack, seconds } = tracks(joined);
    expect([videoTrack?.track_width, videoTrack?.track_height]).toEqual([320, 180]);
    near(seconds, 4.5, 0.15);
    near(trackSeconds(audioTrack as { duration: number; timescale: number }), 4.5, 0.15);
  }, SLOW);

  it('probes length, size and sound', async () => {
    await expect(engine.probeMedia(video.path)).resolves.toEqual({ durationSeconds: 1.5, width: 320, height: 180, hasAudio: true });
    await expect(engine.probeMedia(silentVideo.path)).resolves.toMatchObject({ durationSeconds: 1.5, hasAudio: false });
    const audio = await engine.probeMedia(shortAudio.path);
    expect(audio).toMatchObject({ hasAudio: true });
    near(audio.durationSeconds, 1, 0.01);
  }, SLOW);
});
