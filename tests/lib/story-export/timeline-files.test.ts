import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { clipStarts, exportBaseName, filmFrames, frameTimecode, soundPlacements, type FilmCut } from '@/lib/story-export/cut';
import { buildEdl } from '@/lib/story-export/edl';
import { buildOtio } from '@/lib/story-export/otio';
import { buildSrt, narrationChunks, narrationCues, srtTimecode } from '@/lib/story-export/srt';
import { buildZip } from '@/lib/story-export/zip';

/**
 * The export's timeline files read back (issue 21): the OTIO JSON, the CMX3600 EDL and the SRT are
 * parsed as an editing program would read them, and the timeline they describe is checked — clip
 * order, track count, durations adding up to the film, markers, record continuity, cue timings.
 */

const NARRATION =
  'Mara finds a glowing map on the beach. She sails her small boat across the stormy sea, past rocks and towering waves that roll under a purple sky. At dawn she reaches the island!';

function buildCut(overrides: Partial<FilmCut> = {}): FilmCut {
  return {
    title: 'Mara’s map',
    rate: 24,
    clips: [
      { name: 'Scene 1', text: 'Mara finds a map.', file: 'media/scene-01.mp4', frames: 120 },
      { name: 'Scene 2', text: 'She sails.', file: 'media/scene-02.mp4', frames: 96 },
      { name: 'Scene 3', text: 'The island.', file: 'media/scene-03.mp4', frames: 144 },
    ],
    sound: { kind: 'speech', text: NARRATION, file: 'media/narration.wav', frames: 300 },
    ...overrides,
  };
}

// ── OTIO ───────────────────────────────────────────────────────────────────────────────────

interface OtioTime {
  OTIO_SCHEMA: string;
  rate: number;
  value: number;
}
interface OtioRange {
  OTIO_SCHEMA: string;
  start_time: OtioTime;
  duration: OtioTime;
}
interface OtioClip {
  OTIO_SCHEMA: string;
  name: string;
  source_range: OtioRange;
  media_reference: { OTIO_SCHEMA: string; target_url: string; available_range: OtioRange };
}
interface OtioTrack {
  OTIO_SCHEMA: string;
  kind: string;
  name: string;
  children: OtioClip[];
}
interface OtioTimeline {
  OTIO_SCHEMA: string;
  name: string;
  tracks: { OTIO_SCHEMA: string; children: OtioTrack[]; markers: { OTIO_SCHEMA: string; name: string; comment: string; marked_range: OtioRange }[] };
}

const trackFrames = (track: OtioTrack): number => track.children.reduce((sum, clip) => sum + clip.source_range.duration.value, 0);

describe('the OTIO timeline', () => {
  it('has a video track of the scenes in order and a narration track, both as long as the film, and a marker per scene', () => {
    const cut = buildCut();
    const timeline = JSON.parse(buildOtio(cut)) as OtioTimeline;
    expect(timeline.OTIO_SCHEMA).toBe('Timeline.1');
    expect(timeline.name).toBe('Mara’s map');
    expect(timeline.tracks.OTIO_SCHEMA).toBe('Stack.1');
    const tracks = timeline.tracks.children;
    expect(tracks.map((track) => [track.OTIO_SCHEMA, track.kind, track.name])).toEqual([
      ['Track.1', 'Video', 'Video'],
      ['Track.1', 'Audio', 'Narration'],
    ]);
    const [video, audio] = tracks as [OtioTrack, OtioTrack];
    expect(video.children.map((clip) => clip.name)).toEqual(['Scene 1', 'Scene 2', 'Scene 3']);
    expect(video.children.map((clip) => clip.media_reference.target_url)).toEqual(['media/scene-01.mp4', 'media/scene-02.mp4', 'media/scene-03.mp4']);
    expect(video.children.every((clip) => clip.media_reference.OTIO_SCHEMA === 'ExternalReference.1' && clip.source_range.duration.rate === 24)).toBe(true);
    expect(video.children.map((clip) => clip.source_range.duration.value)).toEqual([120, 96, 144]);
    expect(trackFrames(video)).toBe(360);
    expect(trackFrames(audio)).toBe(360);
    // The narration lasts 300 frames: the film plays it, then its start again until the film ends.
    expect(audio.children.map((clip) => [clip.media_reference.target_url, clip.source_range.start_time.value, clip.source_range.duration.value])).toEqual([
      ['media/narration.wav', 0, 300],
      ['media/narration.wav', 0, 60],
    ]);
    const markers = timeline.tracks.markers;
    expect(markers.map((marker) => [marker.OTIO_SCHEMA, marker.name, marker.marked_range.start_time.value])).toEqual([
      ['Marker.2', 'Scene 1', 0],
      ['Marker.2', 'Scene 2', 120],
      ['Marker.2', 'Scene 3', 216],
    ]);
    expect(markers[1]!.comment).toBe('She sails.');
  });

  it('has one track when the film has no sound, and calls a music track Music', () => {
    const silent = JSON.parse(buildOtio(buildCut({ sound: null }))) as OtioTimeline;
    expect(silent.tracks.children).toHaveLength(1);
    const music = JSON.parse(buildOtio(buildCut({ sound: { kind: 'music', text: 'soft piano', file: 'media/music.wav', frames: 600 } }))) as OtioTimeline;
    expect(music.tracks.children.map((track) => track.name)).toEqual(['Video', 'Music']);
    // Longer than the film: cut at its end.
    expect(music.tracks.children[1]!.children.map((clip) => clip.source_range.duration.value)).toEqual([360]);
  });
});

// ── EDL ────────────────────────────────────────────────────────────────────────────────────

const EVENT = /^(\d{3})\s+(\S+)\s+(V|A)\s+C\s+(\d\d:\d\d:\d\d:\d\d) (\d\d:\d\d:\d\d:\d\d) (\d\d:\d\d:\d\d:\d\d) (\d\d:\d\d:\d\d:\d\d)$/;
const framesOfTimecode = (timecode: string, rate: number): number => {
  const [hours, minutes, seconds, frames] = timecode.split(':').map(Number) as [number, number, number, number];
  return ((hours * 60 + minutes) * 60 + seconds) * rate + frames;
};

function parseEdl(text: string, rate: number) {
  const lines = text.split('\r\n');
  const events: { number: number; channel: string; sourceIn: number; sourceOut: number; recordIn: number; recordOut: number; clip: string | null }[] = [];
  const locators: string[] = [];
  for (const line of lines) {
    const match = EVENT.exec(line);
    if (match) {
      const [, number, , channel, sourceIn, sourceOut, recordIn, recordOut] = match as unknown as string[];
      events.push({
        number: Number(number),
        channel: channel!,
        sourceIn: framesOfTimecode(sourceIn!, rate),
        sourceOut: framesOfTimecode(sourceOut!, rate),
        recordIn: framesOfTimecode(recordIn!, rate),
        recordOut: framesOfTimecode(recordOut!, rate),
        clip: null,
      });
    } else if (line.startsWith('* FROM CLIP NAME: ')) {
      events.at(-1)!.clip = line.slice('* FROM CLIP NAME: '.length);
    } else if (line.startsWith('* LOC: ')) {
      locators.push(line);
    }
  }
  return { title: lines[0], fcm: lines[1], events, locators };
}

describe('the CMX3600 EDL', () => {
  it('cuts the scenes end to end from one hour, names their files, and puts the narration on A', () => {
    const cut = buildCut();
    const edl = parseEdl(buildEdl(cut), 24);
    expect(edl.title).toBe('TITLE: Maras map');
    expect(edl.fcm).toBe('FCM: NON-DROP FRAME');
    expect(edl.events.map((event) => event.number)).toEqual([1, 2, 3, 4, 5]);
    const video = edl.events.filter((event) => event.channel === 'V');
    expect(video.map((event) => event.clip)).toEqual(['media/scene-01.mp4', 'media/scene-02.mp4', 'media/scene-03.mp4']);
    const hour = 3600 * 24;
    expect(video[0]!.recordIn).toBe(hour);
    video.forEach((event, index) => {
      expect(event.recordOut - event.recordIn).toBe(event.sourceOut - event.sourceIn);
      expect(event.sourceOut - event.sourceIn).toBe(cut.clips[index]!.frames);
      if (index > 0) expect(event.recordIn).toBe(video[index - 1]!.recordOut);
    });
    expect(video.at(-1)!.recordOut - hour).toBe(filmFrames(cut));
    const audio = edl.events.filter((event) => event.channel === 'A');
    expect(audio.map((event) => [event.clip, event.recordIn - hour, event.recordOut - hour])).toEqual([
      ['media/narration.wav', 0, 300],
      ['media/narration.wav', 300, 360],
    ]);
    expect(edl.locators).toEqual(['* LOC: 01:00:00:00 RED     Scene 1', '* LOC: 01:00:05:00 RED     Scene 2', '* LOC: 01:00:09:00 RED     Scene 3']);
  });
});

// ── SRT ────────────────────────────────────────────────────────────────────────────────────

function parseSrt(text: string) {
  const toMs = (timecode: string) => {
    const [clock, ms] = timecode.split(',') as [string, string];
    const [hours, minutes, seconds] = clock.split(':').map(Number) as [number, number, number];
    return ((hours * 60 + minutes) * 60 + seconds) * 1000 + Number(ms);
  };
  return text
    .split(/\r\n\r\n/)
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const [index, timing, ...words] = block.trim().split('\r\n') as [string, string, ...string[]];
      const match = /^(\d\d:\d\d:\d\d,\d{3}) --> (\d\d:\d\d:\d\d,\d{3})$/.exec(timing);
      expect(match, `cue ${index}: ${timing}`).not.toBeNull();
      return { index: Number(index), start: toMs(match![1]!), end: toMs(match![2]!), text: words.join(' ') };
    });
}

describe('the narration’s subtitles', () => {
  it('number the cues from 1, keep them in order without overlap, read the whole narration, and end with the reading', () => {
    const cut = buildCut();
    const cues = parseSrt(buildSrt(cut));
    expect(cues.map((cue) => cue.index)).toEqual(cues.map((_, index) => index + 1));
    expect(cues.length).toBeGreaterThanOrEqual(3);
    cues.forEach((cue, index) => {
      expect(cue.end).toBeGreaterThan(cue.start);
      if (index > 0) expect(cue.start).toBeGreaterThanOrEqual(cues[index - 1]!.end);
      expect(cue.text.length).toBeLessThanOrEqual(84);
    });
    expect(cues[0]!.start).toBe(0);
    // The reading lasts 300 frames at 24 fps.
    expect(cues.at(-1)!.end).toBe(12_500);
    expect(cues.map((cue) => cue.text).join(' ')).toBe(NARRATION);
    expect(cues[0]!.text).toBe('Mara finds a glowing map on the beach.');
  });

  it('stop where the film ends when the reading is longer, and are empty for music', () => {
    const long = buildCut({ sound: { kind: 'speech', text: NARRATION, file: 'media/narration.wav', frames: 720 } });
    const cues = narrationCues(long);
    expect(cues.at(-1)!.endMs).toBe(15_000);
    expect(cues.every((cue) => cue.endMs <= 15_000 && cue.startMs < cue.endMs)).toBe(true);
    expect(buildSrt(buildCut({ sound: { kind: 'music', text: 'soft piano', file: 'media/music.wav', frames: 300 } }))).toBe('');
  });

  it('cut long sentences at words', () => {
    expect(narrationChunks('One two three four five six.', 10)).toEqual(['One two', 'three four', 'five six.']);
    expect(srtTimecode(3_723_004)).toBe('01:02:03,004');
  });
});

// ── Shared pieces and the zip ──────────────────────────────────────────────────────────────

describe('the cut', () => {
  it('places clips end to end, loops a short sound, and writes timecodes', () => {
    const cut = buildCut();
    expect(clipStarts(cut)).toEqual([0, 120, 216]);
    expect(soundPlacements(cut)).toEqual([
      { start: 0, frames: 300 },
      { start: 300, frames: 60 },
    ]);
    expect(soundPlacements(buildCut({ sound: null }))).toEqual([]);
    expect(frameTimecode(24 * 3661 + 5, 24, 1)).toBe('02:01:01:05');
    expect(exportBaseName('Mara’s map: à l’aube!')).toBe('Mara-s-map-a-l-aube');
    expect(exportBaseName('***')).toBe('story');
  });

  it('zips the timelines with the media they name', () => {
    const cut = buildCut();
    const media = new Uint8Array([0, 0, 0, 24, 102, 116, 121, 112]);
    const zip = buildZip([
      { name: 'maras-map.otio', data: new TextEncoder().encode(buildOtio(cut)) },
      { name: 'maras-map.edl', data: new TextEncoder().encode(buildEdl(cut)) },
      ...cut.clips.map((clip) => ({ name: clip.file, data: media })),
      { name: 'media/narration.wav', data: media },
    ]);
    const files = unzipSync(zip);
    expect(Object.keys(files).sort()).toEqual(['maras-map.edl', 'maras-map.otio', 'media/narration.wav', 'media/scene-01.mp4', 'media/scene-02.mp4', 'media/scene-03.mp4']);
    expect(files['media/scene-02.mp4']).toEqual(media);
    const timeline = JSON.parse(new TextDecoder().decode(files['maras-map.otio'])) as OtioTimeline;
    const referenced = timeline.tracks.children.flatMap((track) => track.children.map((clip) => clip.media_reference.target_url));
    expect(referenced.every((url) => url in files)).toBe(true);
    expect(() => buildZip([{ name: 'a.txt', data: media }, { name: 'a.txt', data: media }])).toThrow('a.txt twice');
  });
});
