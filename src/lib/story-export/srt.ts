import { filmFrames, type FilmCut } from './cut';

/**
 * The narration as SubRip subtitles (`.srt`). The narration is one recording read from the start
 * of the film; the words carry no timings of their own, so each cue (a sentence, or a part of a
 * long one) is timed by its share of the words' characters over the recording's length — speech
 * runs at an even pace — and cut where the film ends (the film plays the first reading).
 */

/** A cue holds at most two lines of about 42 characters. */
const SRT_CUE_MAX_CHARS = 84;

interface SrtCue {
  index: number;
  startMs: number;
  endMs: number;
  text: string;
}

/** The narration cut into cues: sentences, each long one cut at words. */
export function narrationChunks(text: string, max = SRT_CUE_MAX_CHARS): string[] {
  const sentences = text
    .replace(/\s+/g, ' ')
    .trim()
    .split(/(?<=[.!?…])\s+/)
    .filter((sentence) => sentence !== '');
  const chunks: string[] = [];
  for (const sentence of sentences) {
    let line = '';
    for (const word of sentence.split(' ')) {
      if (line !== '' && line.length + 1 + word.length > max) {
        chunks.push(line);
        line = word;
      } else line = line === '' ? word : `${line} ${word}`;
    }
    if (line !== '') chunks.push(line);
  }
  return chunks;
}

export function narrationCues(cut: FilmCut): SrtCue[] {
  if (!cut.sound || cut.sound.kind !== 'speech') return [];
  const chunks = narrationChunks(cut.sound.text);
  const characters = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  if (characters === 0) return [];
  const spokenMs = (cut.sound.frames / cut.rate) * 1000;
  const filmMs = (filmFrames(cut) / cut.rate) * 1000;
  const cues: SrtCue[] = [];
  let before = 0;
  for (const chunk of chunks) {
    const startMs = Math.round((before / characters) * spokenMs);
    before += chunk.length;
    const endMs = Math.min(Math.round((before / characters) * spokenMs), Math.round(filmMs));
    if (startMs >= endMs) break;
    cues.push({ index: cues.length + 1, startMs, endMs, text: chunk });
  }
  return cues;
}

/** `HH:MM:SS,mmm`. */
export function srtTimecode(ms: number): string {
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  const seconds = Math.floor(ms / 1000);
  return `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)},${pad(ms % 1000, 3)}`;
}

export function buildSrt(cut: FilmCut): string {
  return narrationCues(cut)
    .map((cue) => `${cue.index}\r\n${srtTimecode(cue.startMs)} --> ${srtTimecode(cue.endMs)}\r\n${cue.text}\r\n`)
    .join('\r\n');
}
