import { clipStarts, frameTimecode, soundPlacements, type FilmCut } from './cut';

/**
 * The cut as a CMX3600 Edit Decision List (`.edl`): one cut event per scene on V, recorded end to
 * end from 01:00:00:00, each named by `* FROM CLIP NAME:` (its file in the zip's media folder);
 * the sound's events on A; a `* LOC:` marker per scene. Premiere, Resolve, Avid and Final Cut
 * (through converters) read it. EDLs carry no rate: the list is at the cut's rate, non-drop frame.
 */

/** The record side starts at one hour, as edit suites expect. */
const RECORD_START_HOURS = 1;
/** CMX3600 reel names are at most 8 characters; the clip name line says which file it is. */
const REEL = 'AX';

/** An EDL comment line holds one line of ASCII. */
const oneLine = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

function event(number: number, channel: 'V' | 'A', sourceIn: number, sourceOut: number, recordIn: number, rate: number): string {
  const tc = (frames: number, hours = 0) => frameTimecode(frames, rate, hours);
  return [
    String(number).padStart(3, '0'),
    REEL.padEnd(8),
    channel.padEnd(5),
    'C'.padEnd(8),
    tc(sourceIn),
    tc(sourceOut),
    tc(recordIn, RECORD_START_HOURS),
    tc(recordIn + (sourceOut - sourceIn), RECORD_START_HOURS),
  ].join(' ');
}

export function buildEdl(cut: FilmCut): string {
  const { rate } = cut;
  const lines = [`TITLE: ${oneLine(cut.title) || 'Story'}`, 'FCM: NON-DROP FRAME', ''];
  const starts = clipStarts(cut);
  let number = 0;
  cut.clips.forEach((clip, index) => {
    number += 1;
    const start = starts[index] ?? 0;
    lines.push(event(number, 'V', 0, clip.frames, start, rate));
    lines.push(`* FROM CLIP NAME: ${clip.file}`);
    lines.push(`* LOC: ${frameTimecode(start, rate, RECORD_START_HOURS)} RED     ${oneLine(clip.name)}`);
    lines.push('');
  });
  if (cut.sound) {
    for (const placement of soundPlacements(cut)) {
      number += 1;
      lines.push(event(number, 'A', 0, placement.frames, placement.start, rate));
      lines.push(`* FROM CLIP NAME: ${cut.sound.file}`);
      lines.push('');
    }
  }
  return lines.join('\r\n');
}
