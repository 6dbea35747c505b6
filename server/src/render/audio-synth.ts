import { DEFAULT_VOICE } from '../../../src/config/voices.ts';
import { promptWords } from './palette.ts';
import { between, integerBetween, pick, seededRandom, type Random } from './seeded-random.ts';
import { WAV_SAMPLE_RATE } from './wav-writer.ts';

/**
 * The audio stand-ins: speech-like formant syllables, shaped-noise sound effects and a small
 * seeded band for music. All three write into one Float32Array of exactly the asked length, one
 * note or syllable at a time, so 60 s of audio needs a few megabytes.
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

/** Each voice's base pitch in Hz: the voices SPEC §9 names, lower and higher speakers. */
const VOICE_PITCH: Readonly<Record<string, number>> = {
  Aria: 210, Roger: 110, Sarah: 220, Laura: 235, Charlie: 125, George: 100, Callum: 118,
  River: 165, Liam: 130, Charlotte: 225, Alice: 215, Matilda: 205, Will: 135, Jessica: 240,
  Eric: 115, Chris: 122, Brian: 95, Daniel: 105, Lily: 250, Bill: 90, Rachel: 200,
};

function voicePitch(voice: string | undefined): number {
  return VOICE_PITCH[voice ?? DEFAULT_VOICE] ?? VOICE_PITCH[DEFAULT_VOICE] ?? 200;
}

/** Formant frequencies (Hz) of the vowels a syllable may carry. */
const VOWEL_FORMANTS: Readonly<Record<string, readonly [number, number, number]>> = {
  a: [800, 1200, 2500],
  e: [500, 1900, 2500],
  i: [300, 2300, 3000],
  o: [500, 900, 2400],
  u: [350, 800, 2300],
};
const FORMANT_GAINS = [1, 0.55, 0.25] as const;
const FORMANT_WIDTHS = [90, 110, 170] as const;

type Onset = 'hiss' | 'breath' | 'burst' | 'hum' | 'none';

function onsetFor(consonants: string): Onset {
  const last = consonants.at(-1) ?? '';
  if ('szcx'.includes(last) || consonants.endsWith('sh') || consonants.endsWith('ch')) return 'hiss';
  if ('fhv'.includes(last) || consonants.endsWith('th')) return 'breath';
  if ('ptkbdgq'.includes(last)) return 'burst';
  if ('mnlrwj'.includes(last)) return 'hum';
  return 'none';
}

interface Syllable {
  start: number;
  seconds: number;
  vowel: string;
  onset: Onset;
  pitchFrom: number;
  pitchTo: number;
}

const WORD_PATTERN = /([\p{L}\p{N}'’]+)([^\p{L}\p{N}\s]*)/gu;
const LEAD_SECONDS = 0.15;
const TAIL_SECONDS = 0.25;
const GAP_SECONDS = 0.07;
const COMMA_PAUSE = 0.25;
const SENTENCE_PAUSE = 0.5;

const CJK = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/u;
const VOWELS = 'aeiou';

/**
 * The syllables of a word: each Latin vowel group with the consonants before it. Chinese,
 * Japanese and Korean characters are a syllable each; other scripts about one per 2.5 letters.
 */
function splitSyllables(word: string): { vowel: string; onset: Onset }[] {
  const lower = word.toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  const parts = [...lower.matchAll(/([^aeiouy]*)([aeiouy]+)/g)].map((match) => ({
    vowel: (match[2] ?? 'a').replace('y', 'i')[0] ?? 'a',
    onset: onsetFor(match[1] ?? ''),
  }));
  if (parts.length > 0) return parts.slice(0, 8);
  const letters = [...lower];
  const count = CJK.test(lower) ? letters.length : Math.max(1, Math.ceil(letters.length / 2.5));
  return Array.from({ length: count }, (_, index) => ({
    vowel: VOWELS[(letters[index]?.codePointAt(0) ?? 0) % VOWELS.length] ?? 'a',
    onset: index % 2 === 1 ? 'hum' : 'none',
  }));
}

/** The speech timeline: syllables with their times and pitch glide, and the total length. */
export function speechTimeline(text: string, voice: string | undefined, seed: string): { syllables: Syllable[]; seconds: number } {
  const random = seededRandom('speech', text, voice ?? '', seed);
  const base = voicePitch(voice);
  const syllables: Syllable[] = [];
  let time = LEAD_SECONDS;
  const sentences = text.split(/(?<=[.!?])\s+/);
  for (const sentence of sentences) {
    const words = [...sentence.matchAll(WORD_PATTERN)];
    const question = sentence.trim().endsWith('?');
    words.forEach((match, wordIndex) => {
      const parts = splitSyllables(match[1] ?? '');
      const progress = words.length > 1 ? wordIndex / (words.length - 1) : 0;
      // Declination: a sentence starts higher and falls; a question rises on its last word.
      const wordPitch = base * (1.1 - 0.2 * progress);
      const rising = question && wordIndex === words.length - 1;
      const syllableSeconds = 0.1 + 0.18 / parts.length;
      parts.forEach((part, partIndex) => {
        const jitter = between(random, 0.96, 1.04);
        const from = wordPitch * jitter * (rising ? 1 + 0.1 * partIndex : 1);
        const to = rising ? from * 1.25 : from * between(random, 0.92, 1);
        syllables.push({ start: time, seconds: syllableSeconds, vowel: part.vowel, onset: part.onset, pitchFrom: from, pitchTo: to });
        time += syllableSeconds;
      });
      time += GAP_SECONDS;
      const punctuation = match[2] ?? '';
      if (/[.!?]/.test(punctuation)) time += SENTENCE_PAUSE;
      else if (/[,;:\-–—]/.test(punctuation)) time += COMMA_PAUSE;
    });
  }
  const spoken = time + TAIL_SECONDS;
  return { syllables, seconds: Math.min(SPEECH_MAX_SECONDS, Math.max(SPEECH_MIN_SECONDS, spoken)) };
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

function addSyllable(samples: Float32Array, syllable: Syllable, formantScale: number, random: Random): void {
  const start = sampleCount(syllable.start);
  const length = sampleCount(syllable.seconds);
  const onsetLength = sampleCount(syllable.onset === 'burst' ? 0.015 : 0.05);
  if (syllable.onset === 'hiss') addNoise(samples, start, onsetLength, 0.25, true, random);
  if (syllable.onset === 'breath') addNoise(samples, start, onsetLength, 0.12, false, random);
  if (syllable.onset === 'burst') addNoise(samples, start, onsetLength, 0.35, false, random);
  const voicedStart = start + (syllable.onset === 'none' || syllable.onset === 'hum' ? 0 : onsetLength);
  const voicedLength = Math.max(1, start + length - voicedStart);
  const formants = (VOWEL_FORMANTS[syllable.vowel] ?? VOWEL_FORMANTS.a) as readonly [number, number, number];
  const meanPitch = (syllable.pitchFrom + syllable.pitchTo) / 2;
  const harmonics = Math.max(1, Math.min(40, Math.floor(3800 / meanPitch)));
  const amplitudes = new Float32Array(harmonics);
  for (let harmonic = 1; harmonic <= harmonics; harmonic += 1) {
    let amplitude = 0;
    formants.forEach((formant, index) => {
      const distance = (harmonic * meanPitch - formant * formantScale) / (FORMANT_WIDTHS[index] ?? 100);
      amplitude += (FORMANT_GAINS[index] ?? 0) / (1 + distance * distance);
    });
    amplitudes[harmonic - 1] = amplitude / harmonic ** 0.3;
  }
  const attack = sampleCount(0.015);
  const release = sampleCount(0.04);
  let phase = 0;
  for (let offset = 0; offset < voicedLength; offset += 1) {
    const at = voicedStart + offset;
    if (at >= samples.length) break;
    const progress = offset / voicedLength;
    const pitch = syllable.pitchFrom + (syllable.pitchTo - syllable.pitchFrom) * progress;
    phase += pitch / RATE;
    const envelope = Math.min(1, offset / attack, (voicedLength - offset) / release);
    let value = 0;
    for (let harmonic = 0; harmonic < harmonics; harmonic += 1) value += (amplitudes[harmonic] ?? 0) * sine(phase * (harmonic + 1));
    // A hum onset (m, n, l…) starts quieter, like a closed mouth.
    const hum = syllable.onset === 'hum' && offset < onsetLength ? 0.3 : 1;
    samples[at] = (samples[at] ?? 0) + 0.3 * envelope * hum * value;
  }
}

export function synthesiseSpeech(text: string, voice: string | undefined, seed: string): Float32Array {
  const { syllables, seconds } = speechTimeline(text, voice, seed);
  const samples = new Float32Array(sampleCount(seconds));
  const random = seededRandom('speech-noise', text, voice ?? '', seed);
  const formantScale = voicePitch(voice) > 160 ? 1.15 : 1;
  for (const syllable of syllables) {
    if (syllable.start >= seconds) break;
    addSyllable(samples, syllable, formantScale, random);
  }
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
