/**
 * AI Story's export for editing programs (issue 21, Kinora's): the film's cut as plain data — the
 * scenes' clips in order with their lengths in frames, the sound under them — from which the
 * timeline files (OTIO, CMX3600 EDL, SRT) are written. Pure and framework-free: the browser builds
 * them, and tests read them back.
 */

/** The timeline files the export offers one by one: OpenTimelineIO, a CMX3600 EDL, the narration's subtitles. */
export type ExportFormat = 'otio' | 'edl' | 'srt';

/** The local render engine's frame rate (server/src/render/video/h264.ts): the timelines count in it. */
export const EXPORT_FRAME_RATE = 24;

/** Where the media sit inside the zip; the timelines name them by these relative paths. */
export const EXPORT_MEDIA_FOLDER = 'media';

interface CutClip {
  /** The scene's title on the timeline and its marker ("Scene 1"). */
  name: string;
  /** The scene's words (the marker's comment). */
  text: string;
  /** The clip's file inside the zip, e.g. `media/scene-01.mp4`. */
  file: string;
  /** Its length in frames at the cut's rate. */
  frames: number;
}

interface CutSound {
  kind: 'speech' | 'music';
  /** What is said (narration) or what the music should sound like. */
  text: string;
  file: string;
  /** The sound file's own length in frames. */
  frames: number;
}

export interface FilmCut {
  title: string;
  rate: number;
  clips: readonly CutClip[];
  sound: CutSound | null;
}

/** Seconds to whole frames (at least one). */
export const framesOf = (seconds: number, rate = EXPORT_FRAME_RATE): number => Math.max(1, Math.round(seconds * rate));

/** The film's length in frames: its clips end to end. */
export const filmFrames = (cut: Pick<FilmCut, 'clips'>): number => cut.clips.reduce((sum, clip) => sum + clip.frames, 0);

/** Where each clip starts on the film, in frames. */
export function clipStarts(cut: Pick<FilmCut, 'clips'>): number[] {
  let at = 0;
  return cut.clips.map((clip) => {
    const start = at;
    at += clip.frames;
    return start;
  });
}

/** One placing of the sound file on the film: `frames` of it from its start, at `start` on the film. */
interface SoundPlacement {
  start: number;
  frames: number;
}

/**
 * How the sound lies under the film as the joined film has it (server/src/render/video/concat.ts):
 * looped from its start while the film lasts, the last pass cut at the film's end.
 */
export function soundPlacements(cut: FilmCut): SoundPlacement[] {
  const total = filmFrames(cut);
  if (!cut.sound || cut.sound.frames <= 0) return [];
  const placements: SoundPlacement[] = [];
  for (let start = 0; start < total; start += cut.sound.frames) placements.push({ start, frames: Math.min(cut.sound.frames, total - start) });
  return placements;
}

/** A timecode `HH:MM:SS:FF` (non-drop frame) of a frame count; `hours` is added (EDLs record from 01:00:00:00). */
export function frameTimecode(frames: number, rate: number, hours = 0): string {
  const seconds = Math.floor(frames / rate);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${pad(Math.floor(seconds / 3600) + hours)}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}:${pad(frames % rate)}`;
}

/** A name safe inside the zip and on any file system: letters, digits, dashes; never empty. */
export function exportBaseName(title: string): string {
  const base = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return base || 'story';
}
