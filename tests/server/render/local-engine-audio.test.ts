import { describe, expect, it } from 'vitest';
import { musicPlan, synthesiseSpeech } from '../../../server/src/render/audio-synth.ts';
import { createLocalRenderEngine, MUSIC_DURATION_DEFAULT } from '../../../server/src/render/local-engine.ts';
import type { AudioRenderRequest } from '../../../server/src/render/provider.ts';
import { RenderRejectedError } from '../../../server/src/render/render-errors.ts';
import { readWavInfo, WAV_SAMPLE_RATE } from '../../../server/src/render/wav-writer.ts';

const engine = createLocalRenderEngine();

const request = (overrides: Partial<AudioRenderRequest>): AudioRenderRequest => ({
  tool: 'text-to-speech',
  model: 'Text2Speech',
  prompt: 'Hello there. How are you today?',
  voice: 'Aria',
  seed: 'seed-1',
  ...overrides,
});

/** Checks the RIFF header field by field and returns the sample count. */
function expectValidWav(data: Buffer): number {
  expect(data.toString('ascii', 0, 4)).toBe('RIFF');
  expect(data.readUInt32LE(4)).toBe(data.length - 8);
  expect(data.toString('ascii', 8, 16)).toBe('WAVEfmt ');
  expect(data.readUInt32LE(16)).toBe(16);
  expect(data.readUInt16LE(20)).toBe(1);
  expect(data.readUInt16LE(22)).toBe(1);
  expect(data.readUInt32LE(24)).toBe(WAV_SAMPLE_RATE);
  expect(data.readUInt32LE(28)).toBe(WAV_SAMPLE_RATE * 2);
  expect(data.readUInt16LE(32)).toBe(2);
  expect(data.readUInt16LE(34)).toBe(16);
  expect(data.toString('ascii', 36, 40)).toBe('data');
  expect(data.readUInt32LE(40)).toBe(data.length - 44);
  return (data.length - 44) / 2;
}

function peak(data: Buffer): number {
  let max = 0;
  for (let offset = 44; offset < data.length; offset += 2) max = Math.max(max, Math.abs(data.readInt16LE(offset)));
  return max / 32767;
}

describe('renderAudio: text to speech', () => {
  it('writes a valid, audible 16-bit mono WAV whose length matches its header', async () => {
    const result = await engine.renderAudio(request({}));
    const samples = expectValidWav(result.audio.data);
    expect(result.durationSeconds).toBe(samples / WAV_SAMPLE_RATE);
    expect(result.audio).toMatchObject({ name: 'speech.wav', contentType: 'audio/wav' });
    expect(peak(result.audio.data)).toBeGreaterThan(0.5);
    expect(readWavInfo(result.audio.data)?.durationSeconds).toBe(result.durationSeconds);
  });

  it('grows with the text, at least 1 s and at most 60 s', async () => {
    const short = await engine.renderAudio(request({ prompt: 'Hi' }));
    const medium = await engine.renderAudio(request({ prompt: 'Hello there, this sentence has quite a few more words in it.' }));
    const long = await engine.renderAudio(request({ prompt: 'word '.repeat(400) }));
    expect(short.durationSeconds).toBe(1);
    expect(medium.durationSeconds).toBeGreaterThan(3);
    expect(long.durationSeconds).toBe(60);
    expect(expectValidWav(long.audio.data)).toBe(60 * WAV_SAMPLE_RATE);
  });

  it('pauses at a comma and longer between sentences (eSpeak reads the punctuation)', async () => {
    const seconds = async (text: string) => (await synthesiseSpeech(text, 'Aria')).length / WAV_SAMPLE_RATE;
    const run = await seconds('One two three four.');
    const comma = await seconds('One two, three four.');
    const stopped = await seconds('One two. Three four.');
    expect(comma).toBeGreaterThan(run + 0.1);
    expect(stopped).toBeGreaterThan(comma + 0.1);
  });

  it('speaks Chinese, Japanese and Korean text too: more characters take longer', async () => {
    const short = await synthesiseSpeech('你好', 'Aria');
    const long = await synthesiseSpeech('你好世界，今天天气很好。', 'Aria');
    expect(long.length / WAV_SAMPLE_RATE).toBeGreaterThan(short.length / WAV_SAMPLE_RATE + 0.8);
  });

  it('is deterministic and sounds different per voice', async () => {
    const first = await engine.renderAudio(request({}));
    const again = await engine.renderAudio(request({}));
    const other = await engine.renderAudio(request({ voice: 'Brian' }));
    // The seed plays no part: eSpeak says the same text in the same voice the same way.
    const reseeded = await engine.renderAudio(request({ seed: 'seed-2' }));
    expect(again.audio.data.equals(first.audio.data)).toBe(true);
    expect(reseeded.audio.data.equals(first.audio.data)).toBe(true);
    expect(other.audio.data.equals(first.audio.data)).toBe(false);
  });
});

describe('renderAudio: sound effects and music', () => {
  it('a sound effect lasts 5 s by default, to the sample', async () => {
    const result = await engine.renderAudio(request({ tool: 'text-to-audio', model: 'Text2Audio', prompt: 'rain on a window', voice: undefined }));
    expect(expectValidWav(result.audio.data)).toBe(5 * WAV_SAMPLE_RATE);
    expect(result.durationSeconds).toBe(5);
    expect(peak(result.audio.data)).toBeGreaterThan(0.5);
  });

  it('a sound effect lasts exactly the duration asked', async () => {
    const result = await engine.renderAudio(request({ tool: 'text-to-audio', prompt: 'explosion', durationSeconds: 2.5 }));
    expect(expectValidWav(result.audio.data)).toBe(55_125);
    expect(result.durationSeconds).toBe(2.5);
  });

  it('music lasts 15 s by default and exactly as asked otherwise', async () => {
    const byDefault = await engine.renderAudio(request({ tool: 'text-to-music', model: 'Lyria2', prompt: 'calm piano' }));
    expect(MUSIC_DURATION_DEFAULT).toBe(15);
    expect(expectValidWav(byDefault.audio.data)).toBe(15 * WAV_SAMPLE_RATE);
    const asked = await engine.renderAudio(request({ tool: 'text-to-music', model: 'Lyria2', prompt: 'upbeat dance track', durationSeconds: 7 }));
    expect(expectValidWav(asked.audio.data)).toBe(7 * WAV_SAMPLE_RATE);
    expect(peak(asked.audio.data)).toBeGreaterThan(0.5);
  });

  it('music and effects are deterministic and follow the prompt', async () => {
    const music = (prompt: string) => engine.renderAudio(request({ tool: 'text-to-music', prompt, durationSeconds: 5 }));
    const first = await music('sad slow piano');
    expect((await music('sad slow piano')).audio.data.equals(first.audio.data)).toBe(true);
    expect((await music('happy techno')).audio.data.equals(first.audio.data)).toBe(false);
    expect(musicPlan('sad slow piano', 's')).toMatchObject({ minor: true, instrument: 'piano' });
    expect(musicPlan('happy upbeat dance', 's')).toMatchObject({ minor: false, drums: true });
    expect(musicPlan('happy upbeat dance', 's').bpm).toBeGreaterThanOrEqual(118);
  });

  it('refuses a duration that is not positive or too long', async () => {
    for (const durationSeconds of [0, -1, Number.NaN, 10_000]) {
      await expect(engine.renderAudio(request({ tool: 'text-to-audio', prompt: 'beep', durationSeconds }))).rejects.toBeInstanceOf(RenderRejectedError);
    }
  });
});
