import { DEFAULT_VOICE, VOICES } from '../../../../src/config/voices.ts';
import { falCall, secondsOf, textArg } from './models-shared.ts';
import type { FalModelEntry, FalRequest } from './types.ts';

/**
 * The audio models (SPEC §9 `AUDIO_MODEL_OPTIONS`) on fal. Kinora's 21 voices are ElevenLabs'
 * premade voices by name (Aria, Roger, Sarah, … Rachel), which fal's ElevenLabs endpoints take as
 * `voice`; an unknown voice falls back to Kinora's default (Aria).
 */

/** Kinora's voice as fal's ElevenLabs `voice`. */
export function elevenLabsVoice(request: FalRequest): string {
  const asked = textArg(request, 'voice');
  return VOICES.find((voice) => voice.value === asked)?.value ?? DEFAULT_VOICE;
}

/** ElevenLabs Multilingual v2: the text in one of the voices. Also what a lip sync from a text speaks first. */
export const TEXT_TO_SPEECH = falCall('fal-ai/elevenlabs/tts/multilingual-v2', 'audio', (request) => ({
  text: request.prompt,
  voice: elevenLabsVoice(request),
}));

// ElevenLabs sound effects last 0.5–22 s: Kinora's 1–30 s are clamped to that.
const soundEffects = falCall('fal-ai/elevenlabs/sound-effects/v2', 'audio', (request) => ({
  text: request.prompt,
  duration_seconds: Math.min(22, Math.max(0.5, secondsOf(request))),
}));

// Lyria 2's schema has no length (prompt and seed only): Kinora's music length is not sent.
const lyria = falCall('fal-ai/lyria2', 'audio', (request) => ({ prompt: request.prompt, seed: request.seed }));

export const FAL_AUDIO_MODELS: Readonly<Record<string, FalModelEntry>> = {
  Text2Speech: { fal: true, calls: { 'text-to-speech': TEXT_TO_SPEECH } },
  Text2Audio: { fal: true, calls: { 'text-to-audio': soundEffects } },
  Lyria2: { fal: true, calls: { 'text-to-music': lyria } },
};
