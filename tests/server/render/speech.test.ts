import { describe, expect, it } from 'vitest';
import { VOICES } from '../../../src/config/voices.ts';
import { synthesiseSpeech } from '../../../server/src/render/audio-synth.ts';
import { decodePcm16Wav, resample, runEspeak } from '../../../server/src/render/espeak.ts';
import { createLocalRenderEngine } from '../../../server/src/render/local-engine.ts';
import { SPEECH_VOICES, speechVoice } from '../../../server/src/render/speech-voices.ts';
import { encodeWav, WAV_SAMPLE_RATE } from '../../../server/src/render/wav-writer.ts';

/**
 * Text to speech is eSpeak NG: the file must be speech, not the tones the engine used to make.
 * The analysis below tells speech from a tone (and from noise) and is shown failing on both.
 */

/** Eleven eSpeak runs, three of them two minutes of speech: slow on a busy machine. */
const MANY_RUNS = 180_000;
const engine = createLocalRenderEngine();
const FRAME = 1024;
const HOP = 512;
/** 16 bands of 344 Hz up to 5.5 kHz: where a voice's harmonics, formants and hiss lie. */
const BANDS = 16;
const BAND_BINS = FRAME / 4 / BANDS;

async function speechFile(prompt: string, voice = 'Aria'): Promise<Float32Array> {
  const result = await engine.renderAudio({ tool: 'text-to-speech', model: 'Text2Speech', prompt, voice, seed: 'seed-1' });
  const { samples, sampleRate } = decodePcm16Wav(result.audio.data);
  expect(sampleRate).toBe(WAV_SAMPLE_RATE);
  return samples;
}

/** Magnitudes of the first FRAME/2 bins of a Hann-windowed frame (iterative radix-2 FFT). */
function spectrum(samples: Float32Array, start: number): Float64Array {
  const re = new Float64Array(FRAME);
  const im = new Float64Array(FRAME);
  for (let index = 0; index < FRAME; index += 1) re[index] = (samples[start + index] ?? 0) * (0.5 - 0.5 * Math.cos((2 * Math.PI * index) / (FRAME - 1)));
  for (let index = 1, swap = 0; index < FRAME; index += 1) {
    let bit = FRAME >> 1;
    for (; swap & bit; bit >>= 1) swap ^= bit;
    swap ^= bit;
    if (index < swap) {
      [re[index], re[swap]] = [re[swap] ?? 0, re[index] ?? 0];
      [im[index], im[swap]] = [im[swap] ?? 0, im[index] ?? 0];
    }
  }
  for (let size = 2; size <= FRAME; size <<= 1) {
    const angle = (-2 * Math.PI) / size;
    for (let block = 0; block < FRAME; block += size) {
      for (let offset = 0; offset < size / 2; offset += 1) {
        const [cos, sin] = [Math.cos(angle * offset), Math.sin(angle * offset)];
        const a = block + offset;
        const b = a + size / 2;
        const tre = (re[b] ?? 0) * cos - (im[b] ?? 0) * sin;
        const tim = (re[b] ?? 0) * sin + (im[b] ?? 0) * cos;
        re[b] = (re[a] ?? 0) - tre;
        im[b] = (im[a] ?? 0) - tim;
        re[a] = (re[a] ?? 0) + tre;
        im[a] = (im[a] ?? 0) + tim;
      }
    }
  }
  const magnitudes = new Float64Array(FRAME / 2);
  for (let bin = 0; bin < FRAME / 2; bin += 1) magnitudes[bin] = Math.hypot(re[bin] ?? 0, im[bin] ?? 0);
  return magnitudes;
}

function rms(samples: Float32Array, start = 0, length = samples.length): number {
  let sum = 0;
  for (let index = start; index < start + length; index += 1) sum += (samples[index] ?? 0) ** 2;
  return Math.sqrt(sum / Math.max(1, length));
}

/** The strongest normalised autocorrelation at a voice's pitch (60–400 Hz) and that pitch. */
function periodicity(samples: Float32Array, start: number): { strength: number; pitch: number } {
  let best = { strength: 0, pitch: 0 };
  for (let lag = Math.floor(WAV_SAMPLE_RATE / 400); lag <= Math.ceil(WAV_SAMPLE_RATE / 60); lag += 1) {
    let product = 0;
    let energyA = 0;
    let energyB = 0;
    for (let index = start; index < start + FRAME - lag; index += 1) {
      const a = samples[index] ?? 0;
      const b = samples[index + lag] ?? 0;
      product += a * b;
      energyA += a * a;
      energyB += b * b;
    }
    const strength = product / Math.sqrt(Math.max(1e-12, energyA * energyB));
    if (strength > best.strength) best = { strength, pitch: WAV_SAMPLE_RATE / lag };
  }
  return best;
}

interface SpeechTraits {
  /** Seconds of frames within 30 dB of the loudest. */
  activeSeconds: number;
  /** Bands holding at least 1 % of the active frames' energy. */
  bandsUsed: number;
  /** Distinct strongest frequencies (to the 43 Hz of two bins) among the active frames. */
  peakFrequencies: number;
  /** The highest minus the lowest strongest frequency, Hz. */
  peakRange: number;
  /** Share of active frames that are voiced: periodic at a voice's pitch. */
  voicedShare: number;
  /** Median pitch of the voiced frames, Hz. */
  medianPitch: number;
}

function speechTraits(samples: Float32Array): SpeechTraits {
  const starts: number[] = [];
  for (let start = 0; start + FRAME <= samples.length; start += HOP) starts.push(start);
  const loudness = starts.map((start) => rms(samples, start, FRAME));
  const loudest = Math.max(...loudness);
  const active = starts.filter((_, index) => (loudness[index] ?? 0) > loudest * 10 ** (-30 / 20));
  const bandEnergy = new Float64Array(BANDS);
  const peaks: number[] = [];
  const pitches: number[] = [];
  for (const start of active) {
    const magnitudes = spectrum(samples, start);
    let peakBin = 1;
    for (let bin = 1; bin < BANDS * BAND_BINS; bin += 1) {
      const energy = (magnitudes[bin] ?? 0) ** 2;
      const band = Math.floor(bin / BAND_BINS);
      bandEnergy[band] = (bandEnergy[band] ?? 0) + energy;
      if ((magnitudes[bin] ?? 0) > (magnitudes[peakBin] ?? 0)) peakBin = bin;
    }
    peaks.push(Math.round(peakBin / 2));
    const { strength, pitch } = periodicity(samples, start);
    if (strength > 0.6) pitches.push(pitch);
  }
  const total = bandEnergy.reduce((sum, energy) => sum + energy, 0);
  const binHz = WAV_SAMPLE_RATE / FRAME;
  pitches.sort((a, b) => a - b);
  return {
    activeSeconds: (active.length * HOP) / WAV_SAMPLE_RATE,
    bandsUsed: [...bandEnergy].filter((energy) => energy >= total * 0.01).length,
    peakFrequencies: new Set(peaks).size,
    peakRange: peaks.length > 0 ? (Math.max(...peaks) - Math.min(...peaks)) * 2 * binHz : 0,
    voicedShare: active.length > 0 ? pitches.length / active.length : 0,
    medianPitch: pitches[Math.floor(pitches.length / 2)] ?? 0,
  };
}

/** What speech has and a tone generator or a hiss lacks. */
function expectSpeech(traits: SpeechTraits): void {
  expect(traits.activeSeconds).toBeGreaterThan(0.4);
  // A voice's energy spreads over its harmonics, formants and hiss; a tone's sits in one band.
  expect(traits.bandsUsed).toBeGreaterThanOrEqual(6);
  // Its strongest frequency moves from sound to sound; a tone's stays put.
  expect(traits.peakFrequencies).toBeGreaterThanOrEqual(5);
  expect(traits.peakRange).toBeGreaterThan(150);
  // Most of it is voiced (periodic at a speaking pitch); noise never is.
  expect(traits.voicedShare).toBeGreaterThan(0.3);
  expect(traits.medianPitch).toBeGreaterThan(60);
}

function tone(seconds: number, frequency: number): Float32Array {
  const samples = new Float32Array(Math.round(seconds * WAV_SAMPLE_RATE));
  for (let index = 0; index < samples.length; index += 1) samples[index] = 0.8 * Math.sin((2 * Math.PI * frequency * index) / WAV_SAMPLE_RATE);
  return samples;
}

/** Seeded white noise (a hiss: spread and moving, but never voiced). */
function noise(seconds: number): Float32Array {
  const samples = new Float32Array(Math.round(seconds * WAV_SAMPLE_RATE));
  let state = 12_345;
  for (let index = 0; index < samples.length; index += 1) {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    samples[index] = (state / 2 ** 32) * 1.6 - 0.8;
  }
  return samples;
}

describe('text to speech is spoken by eSpeak NG', () => {
  it('"hello world" is recognisably speech: audible, spread over many bands, its peak moving, voiced', async () => {
    const samples = await speechFile('hello world');
    expect(rms(samples)).toBeGreaterThan(0.05);
    const traits = speechTraits(samples);
    expectSpeech(traits);
    // A woman's voice (Aria): pitch well above a man's.
    expect(traits.medianPitch).toBeGreaterThan(150);
    expect(traits.medianPitch).toBeLessThan(350);
  });

  it('the same check fails a sine tone and white noise of the same length', async () => {
    const seconds = (await speechFile('hello world')).length / WAV_SAMPLE_RATE;
    for (const generated of [tone(seconds, 440), tone(seconds, 180)]) {
      // Through the engine's own WAV writer, as the speech file is.
      const traits = speechTraits(decodePcm16Wav(encodeWav(generated)).samples);
      expect(traits.bandsUsed).toBeLessThan(3);
      expect(traits.peakFrequencies).toBe(1);
      expect(() => expectSpeech(traits)).toThrow();
    }
    const hiss = speechTraits(noise(seconds));
    expect(hiss.bandsUsed).toBe(BANDS);
    expect(hiss.voicedShare).toBeLessThan(0.1);
    expect(() => expectSpeech(hiss)).toThrow();
  });

  it('grows with the text: a long sentence lasts clearly longer than "hello world"', async () => {
    const short = await speechFile('hello world');
    const long = await speechFile('The quick brown fox jumps over the lazy dog, then it runs into the forest and hides until the evening.');
    expect(short.length / WAV_SAMPLE_RATE).toBeGreaterThan(1);
    expect(long.length).toBeGreaterThan(short.length * 3);
    expectSpeech(speechTraits(long));
  });

  it('is deterministic: the same text and voice give the same bytes', async () => {
    const first = await synthesiseSpeech('Mara finds a lantern on the beach.', 'Lily');
    const again = await synthesiseSpeech('Mara finds a lantern on the beach.', 'Lily');
    expect(Buffer.from(again.buffer).equals(Buffer.from(first.buffer))).toBe(true);
  });

  it('speaks a text that looks like options instead of obeying it; a refused run throws and leaves the exit code alone', async () => {
    const exitCode = process.exitCode;
    for (const text of ['-w /tmp/kinora-speech.wav --help', '--version']) {
      const samples = await synthesiseSpeech(text, 'Aria');
      expectSpeech(speechTraits(samples));
    }
    // A run eSpeak refuses (exit status 1) is an error of its own, not the process's exit code.
    await expect(runEspeak(['-v', 'nosuch', '--', 'hello'])).rejects.toThrow(/eSpeak NG failed \(exit 1\): .*voice does not exist/);
    expect(process.exitCode).toBe(exitCode);
  });

  it('keeps the limits: at least 1 s, at most 60 s, a NUL or an empty text is no error', async () => {
    expect((await synthesiseSpeech('Hi', 'Aria')).length).toBe(WAV_SAMPLE_RATE);
    expect((await synthesiseSpeech('', 'Aria')).length).toBe(WAV_SAMPLE_RATE);
    expect(rms(await synthesiseSpeech('', 'Aria'))).toBe(0);
    expect((await synthesiseSpeech('one\u0000two three', 'Aria')).length).toBeGreaterThan(WAV_SAMPLE_RATE);
    // Long texts of any script reach the 60 s cut (eSpeak's stack is never overrun).
    for (const text of ['word '.repeat(1000), '今天天气很好'.repeat(700), '1234567890'.repeat(400)]) {
      expect((await synthesiseSpeech(text, 'Aria')).length).toBe(60 * WAV_SAMPLE_RATE);
    }
  }, MANY_RUNS);
});

describe('one eSpeak voice per preset', () => {
  it('maps each of the 21 presets to its own eSpeak voice, accent, pitch and speed', () => {
    const presets = VOICES.map((voice) => voice.value);
    expect(Object.keys(SPEECH_VOICES).sort()).toEqual([...presets].sort());
    const settings = presets.map((preset) => JSON.stringify(SPEECH_VOICES[preset]));
    expect(new Set(settings).size).toBe(presets.length);
    for (const preset of presets) {
      const { variant, pitch, speed } = SPEECH_VOICES[preset];
      expect(variant).toMatch(/^[mf][1-8]$/);
      expect(pitch).toBeGreaterThanOrEqual(0);
      expect(pitch).toBeLessThanOrEqual(99);
      expect(speed).toBeGreaterThanOrEqual(80);
      expect(speed).toBeLessThanOrEqual(450);
    }
  });

  it('different presets give different audio; a woman preset speaks higher than a deep man', async () => {
    const [aria, brian, george, nobody] = await Promise.all([
      synthesiseSpeech('hello world', 'Aria'),
      synthesiseSpeech('hello world', 'Brian'),
      synthesiseSpeech('hello world', 'George'),
      synthesiseSpeech('hello world', 'Nobody'),
    ]);
    const bytes = (samples: Float32Array | undefined) => Buffer.from((samples ?? new Float32Array()).buffer);
    expect(bytes(brian).equals(bytes(aria))).toBe(false);
    expect(bytes(george).equals(bytes(aria))).toBe(false);
    expect(bytes(george).equals(bytes(brian))).toBe(false);
    // An unknown preset speaks as the default (Aria).
    expect(speechVoice('Nobody')).toEqual(SPEECH_VOICES.Aria);
    expect(bytes(nobody).equals(bytes(aria))).toBe(true);
    const ariaPitch = speechTraits(aria ?? new Float32Array()).medianPitch;
    const brianPitch = speechTraits(brian ?? new Float32Array()).medianPitch;
    expect(brianPitch).toBeGreaterThan(60);
    expect(ariaPitch).toBeGreaterThan(brianPitch * 2);
  });

  it('converts eSpeak’s rate to the engine’s when they differ', () => {
    const samples = tone(1, 200);
    expect(resample(samples, WAV_SAMPLE_RATE, WAV_SAMPLE_RATE)).toBe(samples);
    const doubled = resample(samples, WAV_SAMPLE_RATE, WAV_SAMPLE_RATE * 2);
    expect(doubled.length).toBe(samples.length * 2);
    expect(doubled[200]).toBeCloseTo(samples[100] ?? 0, 5);
    expect(doubled[201]).toBeCloseTo(((samples[100] ?? 0) + (samples[101] ?? 0)) / 2, 5);
  });
});
