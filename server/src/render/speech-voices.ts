import { DEFAULT_VOICE, type Voice } from '../../../src/config/voices.ts';

/**
 * How the local engine speaks each of SPEC §9's 21 voice presets with eSpeak NG (espeak.ts,
 * audio-synth.ts `synthesiseSpeech`).
 *
 * The presets are named people, not eSpeak voices, so each gets the nearest thing eSpeak offers:
 * an English accent (`en-us`, `en-gb`, the Scottish, Received Pronunciation, Lancaster, West
 * Midlands and New York voices), a voice quality variant (`m1`…`m8` male, `f1`…`f5` female: they
 * change the formants, breathiness and pitch range, so a variant is a different throat, not just
 * a higher note), a pitch (0–99, eSpeak's default 50) and a speed in words per minute (eSpeak's
 * default 175). No two presets share all four, so every preset sounds like its own speaker.
 * Only variants built into the `espeak-ng` package's default synthesiser are used: the Klatt
 * variants (`klatt`, `edward`…) need the Klatt synthesiser, which that build leaves out.
 */

export interface SpeechVoice {
  /** eSpeak's English voice (an accent). */
  language: 'en-us' | 'en-us-nyc' | 'en-gb' | 'en-gb-scotland' | 'en-gb-x-rp' | 'en-gb-x-gbclan' | 'en-gb-x-gbcwmd';
  /** eSpeak's voice variant (`!v/<variant>`): the speaker's throat. */
  variant: string;
  /** Base pitch, 0–99. */
  pitch: number;
  /** Words per minute (eSpeak accepts 80–450). */
  speed: number;
}

export const SPEECH_VOICES: Readonly<Record<Voice, SpeechVoice>> = {
  Aria: { language: 'en-us', variant: 'f3', pitch: 60, speed: 165 },
  Roger: { language: 'en-us', variant: 'm3', pitch: 40, speed: 165 },
  Sarah: { language: 'en-us', variant: 'f2', pitch: 66, speed: 160 },
  Laura: { language: 'en-us', variant: 'f4', pitch: 70, speed: 178 },
  Charlie: { language: 'en-gb-x-gbclan', variant: 'm2', pitch: 45, speed: 172 },
  George: { language: 'en-gb-x-rp', variant: 'm1', pitch: 35, speed: 150 },
  Callum: { language: 'en-gb-scotland', variant: 'm4', pitch: 42, speed: 162 },
  River: { language: 'en-us', variant: 'f5', pitch: 48, speed: 160 },
  Liam: { language: 'en-us', variant: 'm2', pitch: 52, speed: 176 },
  Charlotte: { language: 'en-gb', variant: 'f2', pitch: 62, speed: 155 },
  Alice: { language: 'en-gb', variant: 'f3', pitch: 58, speed: 168 },
  Matilda: { language: 'en-us', variant: 'f1', pitch: 56, speed: 158 },
  Will: { language: 'en-us', variant: 'm6', pitch: 48, speed: 172 },
  Jessica: { language: 'en-us-nyc', variant: 'f4', pitch: 74, speed: 170 },
  Eric: { language: 'en-us', variant: 'm5', pitch: 40, speed: 155 },
  Chris: { language: 'en-us-nyc', variant: 'm3', pitch: 46, speed: 174 },
  Brian: { language: 'en-us', variant: 'm1', pitch: 25, speed: 150 },
  Daniel: { language: 'en-gb-x-rp', variant: 'm3', pitch: 30, speed: 156 },
  Lily: { language: 'en-gb-x-gbcwmd', variant: 'f5', pitch: 70, speed: 162 },
  Bill: { language: 'en-us', variant: 'm8', pitch: 20, speed: 140 },
  Rachel: { language: 'en-us', variant: 'f2', pitch: 54, speed: 150 },
};

/** The eSpeak voice of a preset; an unknown or missing preset speaks as the default one (SPEC §9). */
export function speechVoice(voice: string | undefined): SpeechVoice {
  const known = voice !== undefined && Object.hasOwn(SPEECH_VOICES, voice);
  return known ? SPEECH_VOICES[voice as Voice] : SPEECH_VOICES[DEFAULT_VOICE];
}
