import { classifyStatus } from '@/lib/job-status';
import { EXPORT_FRAME_RATE, EXPORT_MEDIA_FOLDER, exportBaseName, framesOf, type ExportFormat, type FilmCut } from '@/lib/story-export/cut';
import { buildEdl } from '@/lib/story-export/edl';
import { buildOtio } from '@/lib/story-export/otio';
import { buildSrt } from '@/lib/story-export/srt';
import type { Media } from '@/services/schemas/media';
import type { Story, Storyboard } from '@/services/schemas/story';
import { concatProblem, resultUrlOf } from '@/machines/story/story-board';
import type { StoryPartStates } from '@/lib/story';

/**
 * AI Story's export for editing programs (issue 21, Kinora's): the story's board as the cut the
 * timeline files describe (src/lib/story-export), and the media files the zip takes beside them.
 * Offered once every part of the film exists — the same rule as joining the film, whether or not
 * it was joined.
 */

/** One file the zip downloads: where it goes inside the zip and its signed link. */
export interface ExportSource {
  name: string;
  url: string;
  /** The job the file is the result of: a retry keeps a file already downloaded only while it is the same job's. */
  mediaId: string;
}

export interface StoryExport {
  /** The base of every file's name (the story's title, made safe). */
  base: string;
  cut: FilmCut;
  sources: ExportSource[];
}

/** Why the film cannot be exported now (its parts are missing, being made or out of date), or null. */
export function exportProblem(story: Story | null, board: Storyboard | null, states: StoryPartStates | null): string | null {
  // A join on its way does not change the parts: the export reads them, not the joined film.
  const unjoined = story && story.concat && classifyStatus(story.concat.status) === 'processing' ? { ...story, concat: null } : story;
  return concatProblem(unjoined, board, states);
}

/** The extension of a job's result file (its stored name), else the kind's usual one. */
function extensionOf(media: Media | undefined, fallback: string): string {
  const name = media?.files.find((file) => file.role === 'result')?.name ?? '';
  const match = /\.([A-Za-z0-9]{1,5})$/.exec(name);
  return (match?.[1] ?? fallback).toLowerCase();
}

/** The length of a job's result in seconds, when the server measured it. */
const secondsOf = (media: Media | undefined): number | null => {
  const seconds = media?.items[0]?.duration_seconds;
  return typeof seconds === 'number' && seconds > 0 ? seconds : null;
};

/** The story as an export: null when a part's file is missing (exportProblem says why). */
export function storyExportOf(story: Story, board: Storyboard): StoryExport | null {
  const sources: ExportSource[] = [];
  const clips = [];
  for (const [index, scene] of board.scenes.entries()) {
    const media = scene.video ? story.media[scene.video.media_id] : undefined;
    const url = resultUrlOf(media);
    if (!url) return null;
    const number = String(index + 1).padStart(2, '0');
    const file = `${EXPORT_MEDIA_FOLDER}/scene-${number}.${extensionOf(media, 'mp4')}`;
    sources.push({ name: file, url, mediaId: media?.id ?? '' });
    clips.push({ name: `Scene ${index + 1}`, text: scene.text.trim(), file, frames: framesOf(secondsOf(media) ?? scene.duration) });
  }
  let sound: FilmCut['sound'] = null;
  const { audio } = board;
  if (audio.kind !== 'none') {
    const media = audio.track ? story.media[audio.track.media_id] : undefined;
    const url = resultUrlOf(media);
    if (!url) return null;
    const file = `${EXPORT_MEDIA_FOLDER}/${audio.kind === 'speech' ? 'narration' : 'music'}.${extensionOf(media, 'wav')}`;
    sources.push({ name: file, url, mediaId: media?.id ?? '' });
    const filmSeconds = clips.reduce((sum, clip) => sum + clip.frames, 0) / EXPORT_FRAME_RATE;
    sound = { kind: audio.kind, text: audio.text.trim(), file, frames: framesOf(secondsOf(media) ?? filmSeconds) };
  }
  const title = board.title.trim() || 'Story';
  return { base: exportBaseName(title), cut: { title, rate: EXPORT_FRAME_RATE, clips, sound }, sources };
}

/** One timeline file of the export: its name, its text and its type. */
export function exportFile(exported: StoryExport, format: ExportFormat): { name: string; text: string; type: string } {
  switch (format) {
    case 'otio':
      return { name: `${exported.base}.otio`, text: buildOtio(exported.cut), type: 'application/json' };
    case 'edl':
      return { name: `${exported.base}.edl`, text: buildEdl(exported.cut), type: 'text/plain' };
    case 'srt':
      return { name: `${exported.base}.srt`, text: buildSrt(exported.cut), type: 'application/x-subrip' };
  }
}

/** The timeline files the zip holds: OTIO and EDL always, the subtitles with a narration. */
export function timelineFormats(exported: StoryExport): ExportFormat[] {
  return exported.cut.sound?.kind === 'speech' ? ['otio', 'edl', 'srt'] : ['otio', 'edl'];
}
