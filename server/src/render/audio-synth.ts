import { decodePcm16Wav, resample, runEspeak } from './espeak.ts';
import { promptWords } from './palette.ts';
import { between, integerBetween, pick, seededRandom, type Random } from './seeded-random.ts';
import { speechVoice, type SpeechVoice } from './speech-voices.ts';
import { WAV_SAMPLE_RATE } from './wav-writer.ts';

/**
 * The audio stand-ins: real speech from eSpeak NG (espeak.ts), shaped-noise sound effects and a
 * small seeded band for music. Effects and music write into one Float32Array of exactly the asked
 * length, one note at a time, so 60 s of audio needs a few megabytes.
 */

const RATE = WAV_SAMPLE_RATE;
const TABLE_SIZE = 8192;
const SINE = new Float32Array(TABLE_SIZE);
for (let index = 0; index < TABLE_SIZE; index += 1) SINE[index] = Math.sin((2 * Math.PI * index) / TABLE_SIZE);

/** sin(2π·phase) for a phase in cycles, from the table (fast enough for 60 s of additive synthesis). */
function sine(phase: number): number {
  const wrapped = phase - Math.floor(phase);
  return SINE[Math.floor(wrapped * TABLE_SIZE) & (TABLE_SIZE - 1)] ?? 0;
}

const SPEECH_MIN_SECONDS = 1;
export const SPEECH_MAX_SECONDS = 60;
/** The longest sound effect or music the engine writes (memory stays near 13 MB of floats). */
export const AUDIO_MAX_SECONDS = 300;

function sampleCount(seconds: number): number {
  return Math.round(seconds * RATE);
}

function fadeEdges(samples: Float32Array, fadeInSeconds: number, fadeOutSeconds: number): void {
  const fadeIn = Math.min(sampleCount(fadeInSeconds), Math.floor(samples.length / 2));
  const fadeOut = Math.min(sampleCount(fadeOutSeconds), Math.floor(samples.length / 2));
  for (let index = 0; index < fadeIn; index += 1) samples[index] = (samples[index] ?? 0) * (index / fadeIn);
  for (let index = 0; index < fadeOut; index += 1) {
    const at = samples.length - 1 - index;
    samples[at] = (samples[at] ?? 0) * (index / fadeOut);
  }
}

function normalise(samples: Float32Array, peak = 0.85): void {
  let max = 0;
  for (const value of samples) max = Math.max(max, Math.abs(value));
  if (max === 0) return;
  const gain = peak / max;
  for (let index = 0; index < samples.length; index += 1) samples[index] = (samples[index] ?? 0) * gain;
}

// ---------------------------------------------------------------------------------------------
// Speech

/**
 * How much text eSpeak is first given, in units of a Latin letter (see textCost): English is spoken
 * at about 15 letters a second even by the fastest preset, so this is about two minutes of speech,
 * past the 60 s the engine keeps. It bounds eSpeak's work (a run blocks its thread) for the long
 * texts a story narration or a pasted article can be. When the cut text still says less than 60 s
 * (a text of digits or punctuation says little per character) it is tried again twice as long.
 */
const SPEECH_TEXT_BUDGET = 2000;
/**
 * The most UTF-8 bytes eSpeak is ever given: its `main` receives its arguments on a 64 KB stack,
 * which a 40 000-byte text overflows.
 */
const SPEECH_MAX_TEXT_BYTES = 12_000;
/** eSpeak says a character of another script (Cyrillic, Han, kana…) up to 5× slower than a Latin letter. */
const OTHER_SCRIPT_COST = 4;
const LATIN_OR_COMMON = /[\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]/u;

function textCost(character: string): number {
  return LATIN_OR_COMMON.test(character) ? 1 : OTHER_SCRIPT_COST;
}

/**
 * The start of the text that fits the budget (and SPEECH_MAX_TEXT_BYTES), ending at a word when
 * it is cut; control characters other than line breaks and tabs (a NUL would end the C string)
 * become spaces. `more` says whether a larger budget would give eSpeak more of the text.
 */
function speakableText(text: string, budget: number): { text: string; more: boolean } {
  const clean = text.replace(/(?![\t\n\r])\p{Cc}/gu, ' ');
  let cost = 0;
  let bytes = 0;
  let end = 0;
  for (const character of clean) {
    cost += textCost(character);
    bytes += Buffer.byteLength(character);
    if (cost > budget || bytes > SPEECH_MAX_TEXT_BYTES) {
      const cut = clean.slice(0, end);
      const lastSpace = cut.search(/\s\S*$/u);
      return { text: lastSpace > 0 ? cut.slice(0, lastSpace) : cut, more: bytes <= SPEECH_MAX_TEXT_BYTES };
    }
    end += character.length;
  }
  return { text: clean, more: false };
}

/** One eSpeak run: the text in the eSpeak voice, at the engine's sample rate. */
async function speak(text: string, voice: SpeechVoice): Promise<Float32Array> {
  // `--` ends eSpeak's options: a text such as "-w x" or "--help" is spoken, never obeyed.
  const wav = await runEspeak(['-b', '1', '-v', `${voice.language}+${voice.variant}`, '-p', String(voice.pitch), '-s', String(voice.speed), '--', text]);
  const decoded = decodePcm16Wav(wav);
  return resample(decoded.samples, decoded.sampleRate, RATE);
}

/**
 * The text spoken by eSpeak NG (espeak.ts) in the preset's eSpeak voice (speech-voices.ts), as the
 * engine's samples: WAV_SAMPLE_RATE, at least 1 s (silence after a short word) and at most 60 s.
 * The same text and voice give the same samples.
 */
export async function synthesiseSpeech(text: string, voice: string | undefined): Promise<Float32Array> {
  const eSpeakVoice = speechVoice(voice);
  const longest = sampleCount(SPEECH_MAX_SECONDS);
  let budget = SPEECH_TEXT_BUDGET;
  let part = speakableText(text, budget);
  let spoken = await speak(part.text, eSpeakVoice);
  while (part.more && spoken.length < longest) {
    budget *= 2;
    part = speakableText(text, budget);
    spoken = await speak(part.text, eSpeakVoice);
  }
  const samples = new Float32Array(Math.min(longest, Math.max(sampleCount(SPEECH_MIN_SECONDS), spoken.length)));
  samples.set(spoken.subarray(0, samples.length));
  normalise(samples, 0.8);
  fadeEdges(samples, 0.005, 0.05);
  return samples;
}

// ---------------------------------------------------------------------------------------------
// Sound effects

type EffectRecipe = 'water' | 'wind' | 'impact' | 'bell' | 'beep' | 'clicks' | 'birds' | 'laser' | 'engine';

const EFFECT_WORDS: readonly { recipe: EffectRecipe; words: readonly string[] }[] = [
  { recipe: 'water', words: ['rain', 'water', 'stream', 'shower', 'ocean', 'sea', 'waves', 'wave', 'river', 'splash', 'waterfall'] },
  { recipe: 'wind', words: ['wind', 'storm', 'breeze', 'whoosh', 'air', 'howling'] },
  { recipe: 'impact', words: ['explosion', 'boom', 'thunder', 'blast', 'crash', 'impact', 'bang', 'hit', 'punch'] },
  { recipe: 'bell', words: ['bell', 'chime', 'ding', 'gong', 'church'] },
  { recipe: 'beep', words: ['beep', 'alarm', 'notification', 'phone', 'ring', 'siren', 'alert'] },
  { recipe: 'clicks', words: ['footsteps', 'steps', 'knock', 'click', 'clock', 'tick', 'door', 'typing', 'keyboard', 'heartbeat'] },
  { recipe: 'birds', words: ['bird', 'birds', 'chirp', 'whistle', 'tweet', 'forest'] },
  { recipe: 'laser', words: ['laser', 'zap', 'sci', 'robot', 'spaceship', 'magic', 'spell'] },
  { recipe: 'engine', words: ['engine', 'motor', 'car', 'truck', 'machine', 'hum', 'drone', 'traffic'] },
];

function effectRecipe(prompt: string, random: Random): EffectRecipe {
  const words = new Set(promptWords(prompt));
  const found = EFFECT_WORDS.find((entry) => entry.words.some((word) => words.has(word)));
  return found ? found.recipe : pick(random, EFFECT_WORDS).recipe;
}

function addNoise(samples: Float32Array, from: number, length: number, gain: number, highPass: boolean, random: Random): void {
  let low = 0;
  for (let offset = 0; offset < length; offset += 1) {
    const at = from + offset;
    if (at >= samples.length) break;
    const white = random() * 2 - 1;
    low += 0.2 * (white - low);
    const envelope = Math.sin((Math.PI * offset) / length);
    samples[at] = (samples[at] ?? 0) + gain * envelope * (highPass ? white - low : low);
  }
}

function addTone(samples: Float32Array, startSeconds: number, seconds: number, frequency: number, gain: number, decay: number, sweepTo = frequency): void {
  const start = sampleCount(startSeconds);
  const length = sampleCount(seconds);
  let phase = 0;
  for (let offset = 0; offset < length; offset += 1) {
    const at = start + offset;
    if (at >= samples.length) break;
    const progress = offset / length;
    phase += (frequency + (sweepTo - frequency) * progress) / RATE;
    const envelope = Math.min(1, offset / 40) * Math.exp(-decay * (offset / RATE));
    samples[at] = (samples[at] ?? 0) + gain * envelope * sine(phase);
  }
}

export function synthesiseEffect(prompt: string, seconds: number, seed: string): Float32Array {
  const random = seededRandom('effect', prompt, seed);
  const samples = new Float32Array(sampleCount(seconds));
  const recipe = effectRecipe(prompt, random);
  const total = samples.length;
  if (recipe === 'water' || recipe === 'wind' || recipe === 'engine') {
    const rate = between(random, 0.08, 0.4);
    const cutoff = recipe === 'water' ? 0.35 : recipe === 'wind' ? 0.05 : 0.02;
    let low = 0;
    let lower = 0;
    let phase = 0;
    const hum = between(random, 45, 90);
    for (let index = 0; index < total; index += 1) {
      const lfo = 0.6 + 0.4 * sine((rate * index) / RATE);
      const white = random() * 2 - 1;
      low += cutoff * lfo * (white - low);
      lower += 0.3 * (low - lower);
      let value = recipe === 'water' ? low - lower * 0.5 : low * lfo;
      if (recipe === 'engine') {
        phase += (hum * (1 + 0.05 * lfo)) / RATE;
        value = 0.6 * sine(phase) + 0.3 * sine(phase * 2) + 0.15 * sine(phase * 3) + 2 * low;
      }
      samples[index] = value;
    }
    if (recipe === 'water') {
      const drops = Math.floor(seconds * between(random, 6, 14));
      for (let drop = 0; drop < drops; drop += 1) {
        addTone(samples, between(random, 0, seconds), 0.03, between(random, 1200, 3000), 0.15, 80);
      }
    }
  } else if (recipe === 'impact') {
    const hits = Math.max(1, Math.round(seconds / between(random, 2, 4)));
    for (let hit = 0; hit < hits; hit += 1) {
      const at = (hit * seconds) / hits + between(random, 0, 0.3);
      const length = Math.min(seconds - at, between(random, 1.2, 2.5));
      if (length <= 0) continue;
      const start = sampleCount(at);
      let low = 0;
      for (let offset = 0; offset < sampleCount(length); offset += 1) {
        const index = start + offset;
        if (index >= total) break;
        low += 0.08 * (random() * 2 - 1 - low);
        samples[index] = (samples[index] ?? 0) + 3 * low * Math.exp((-3 * offset) / RATE);
      }
      addTone(samples, at, length, 90, 0.8, 3, 30);
    }
  } else if (recipe === 'bell' || recipe === 'beep') {
    const interval = recipe === 'bell' ? between(random, 0.8, 1.6) : between(random, 0.3, 0.7);
    const pitch = recipe === 'bell' ? between(random, 300, 700) : pick(random, [660, 880, 1000, 1320]);
    for (let at = 0; at < seconds; at += interval) {
      if (recipe === 'bell') {
        for (const [ratio, gain] of [[1, 0.6], [2.76, 0.3], [5.4, 0.15], [8.93, 0.08]] as const) {
          addTone(samples, at, Math.min(2.5, seconds - at), pitch * ratio, gain, 2 + ratio * 0.5);
        }
      } else {
        addTone(samples, at, Math.min(interval * 0.5, seconds - at), pitch, 0.6, 0);
        addTone(samples, at, Math.min(interval * 0.5, seconds - at), pitch * 3, 0.15, 0);
      }
    }
  } else if (recipe === 'clicks') {
    const interval = between(random, 0.25, 0.7);
    for (let at = between(random, 0, 0.2); at < seconds; at += interval * between(random, 0.85, 1.15)) {
      addNoise(samples, sampleCount(at), sampleCount(0.03), 0.9, false, random);
      addTone(samples, at, Math.min(0.12, seconds - at), between(random, 90, 160), 0.5, 30);
    }
  } else if (recipe === 'birds') {
    for (let at = between(random, 0, 0.3); at < seconds; at += between(random, 0.15, 0.9)) {
      const from = between(random, 2000, 4200);
      addTone(samples, at, Math.min(between(random, 0.06, 0.2), seconds - at), from, 0.4, 5, from * between(random, 0.7, 1.4));
    }
  } else {
    for (let at = 0; at < seconds; at += between(random, 0.25, 0.8)) {
      addTone(samples, at, Math.min(0.25, seconds - at), between(random, 1500, 3000), 0.5, 6, between(random, 150, 400));
    }
  }
  normalise(samples, 0.8);
  fadeEdges(samples, 0.01, Math.min(0.3, seconds / 10));
  return samples;
}

// ---------------------------------------------------------------------------------------------
// Music

const MAJOR = [0, 2, 4, 5, 7, 9, 11] as const;
const MINOR = [0, 2, 3, 5, 7, 8, 10] as const;
const PROGRESSIONS = [[0, 4, 5, 3], [0, 5, 3, 4], [0, 3, 4, 3], [5, 3, 0, 4], [0, 3, 5, 4], [0, 2, 3, 4]] as const;

type Instrument = 'pad' | 'piano' | 'strings';

const midiToHz = (midi: number) => 440 * 2 ** ((midi - 69) / 12);

function scaleNote(scale: readonly number[], root: number, degree: number): number {
  const octave = Math.floor(degree / scale.length);
  const index = ((degree % scale.length) + scale.length) % scale.length;
  return root + octave * 12 + (scale[index] ?? 0);
}

function addNote(samples: Float32Array, startSeconds: number, seconds: number, midi: number, gain: number, instrument: Instrument): void {
  const start = sampleCount(startSeconds);
  const length = sampleCount(seconds);
  const release = instrument === 'piano' ? sampleCount(0.3) : sampleCount(0.25);
  const attack = instrument === 'piano' ? sampleCount(0.005) : sampleCount(instrument === 'strings' ? 0.3 : 0.15);
  const frequency = midiToHz(midi);
  let phase = 0;
  for (let offset = 0; offset < length + release; offset += 1) {
    const at = start + offset;
    if (at >= samples.length) break;
    phase += frequency / RATE;
    const sustain = instrument === 'piano' ? Math.exp((-2.5 * offset) / RATE) : 1;
    const tail = offset < length ? 1 : 1 - (offset - length) / release;
    const envelope = Math.min(1, offset / Math.max(1, attack)) * sustain * tail;
    const value =
      instrument === 'strings'
        ? sine(phase) + 0.5 * sine(phase * 2) + 0.33 * sine(phase * 3) + 0.25 * sine(phase * 4)
        : instrument === 'piano'
          ? sine(phase) + 0.4 * sine(phase * 2) * sustain + 0.2 * sine(phase * 3) * sustain
          : sine(phase) + 0.11 * sine(phase * 3);
    samples[at] = (samples[at] ?? 0) + gain * envelope * value;
  }
}

function addDrum(samples: Float32Array, startSeconds: number, kind: 'kick' | 'snare' | 'hat', random: Random): void {
  if (kind === 'kick') addTone(samples, startSeconds, 0.25, 120, 0.9, 14, 40);
  else addNoise(samples, sampleCount(startSeconds), sampleCount(kind === 'snare' ? 0.12 : 0.03), kind === 'snare' ? 0.5 : 0.2, kind === 'hat', random);
}

export interface MusicPlan {
  bpm: number;
  minor: boolean;
  root: number;
  progression: readonly number[];
  instrument: Instrument;
  drums: boolean;
}

export function musicPlan(prompt: string, seed: string): MusicPlan {
  const random = seededRandom('music-plan', prompt, seed);
  const words = new Set(promptWords(prompt));
  const has = (...list: string[]) => list.some((word) => words.has(word));
  const bpm = has('fast', 'upbeat', 'dance', 'energetic', 'techno', 'house', 'party', 'rock')
    ? integerBetween(random, 118, 138)
    : has('calm', 'slow', 'ambient', 'relaxing', 'sleep', 'meditation', 'lofi', 'chill')
      ? integerBetween(random, 62, 84)
      : integerBetween(random, 80, 120);
  const minor = has('sad', 'dark', 'melancholy', 'melancholic', 'minor', 'epic', 'mysterious', 'horror', 'tense')
    ? true
    : has('happy', 'joyful', 'bright', 'sunny', 'major', 'cheerful')
      ? false
      : random() < 0.35;
  const instrument: Instrument = has('piano', 'keys', 'jazz', 'lofi')
    ? 'piano'
    : has('orchestra', 'orchestral', 'cinematic', 'epic', 'strings', 'film')
      ? 'strings'
      : pick(random, ['pad', 'piano', 'strings'] as const);
  const drums = has('beat', 'beats', 'drum', 'drums', 'dance', 'rock', 'hip', 'hop', 'electronic', 'pop', 'techno', 'house', 'lofi')
    ? true
    : has('ambient', 'calm', 'meditation', 'sleep', 'classical')
      ? false
      : bpm >= 100;
  return { bpm, minor, root: 48 + integerBetween(random, 0, 11), progression: pick(random, PROGRESSIONS), instrument, drums };
}

export function synthesiseMusic(prompt: string, seconds: number, seed: string): Float32Array {
  const plan = musicPlan(prompt, seed);
  const random = seededRandom('music', prompt, seed);
  const samples = new Float32Array(sampleCount(seconds));
  const scale = plan.minor ? MINOR : MAJOR;
  const beat = 60 / plan.bpm;
  const bar = beat * 4;
  const bars = Math.ceil(seconds / bar);
  let melodyDegree = integerBetween(random, 7, 11);
  for (let barIndex = 0; barIndex < bars; barIndex += 1) {
    const barStart = barIndex * bar;
    const chordDegree = plan.progression[barIndex % plan.progression.length] ?? 0;
    for (const step of [0, 2, 4]) {
      addNote(samples, barStart, bar, scaleNote(scale, plan.root, chordDegree + step), 0.12, plan.instrument);
    }
    for (const beatIndex of [0, 2]) {
      addNote(samples, barStart + beatIndex * beat, beat * 1.5, scaleNote(scale, plan.root - 12, chordDegree), 0.22, 'piano');
    }
    // The melody wanders over the scale in steps, leaning toward the chord's tones.
    let time = barStart;
    while (time < barStart + bar - 1e-9) {
      const length = pick(random, [beat / 2, beat / 2, beat, beat * 1.5]);
      melodyDegree = Math.max(5, Math.min(16, melodyDegree + pick(random, [-2, -1, -1, 0, 1, 1, 2])));
      if (random() < 0.85) addNote(samples, time, Math.min(length, barStart + bar - time) * 0.9, scaleNote(scale, plan.root + 12, melodyDegree), 0.16, plan.instrument === 'strings' ? 'strings' : 'piano');
      time += length;
    }
    if (plan.drums) {
      for (let eighth = 0; eighth < 8; eighth += 1) {
        const at = barStart + (eighth * beat) / 2;
        if (eighth % 4 === 0) addDrum(samples, at, 'kick', random);
        if (eighth % 4 === 2) addDrum(samples, at, 'snare', random);
        addDrum(samples, at, 'hat', random);
      }
    }
  }
  normalise(samples, 0.85);
  fadeEdges(samples, 0.02, Math.min(1.5, seconds / 8));
  return samples;
}
