import { clipStarts, filmFrames, soundPlacements, type FilmCut } from './cut';

/**
 * The cut as an OpenTimelineIO JSON file (`.otio`): Timeline.1 → Stack.1 → a Video track of
 * Clip.1s with ExternalReference.1 media (the file's path inside the zip), an Audio track of the
 * sound (looped as the film has it) when there is one, and a Marker.2 per scene on the stack.
 * DaVinci Resolve imports `.otio` as it is; Premiere and others through OTIO's adapters.
 */

const rationalTime = (value: number, rate: number) => ({ OTIO_SCHEMA: 'RationalTime.1', rate, value });
const timeRange = (start: number, duration: number, rate: number) => ({
  OTIO_SCHEMA: 'TimeRange.1',
  start_time: rationalTime(start, rate),
  duration: rationalTime(duration, rate),
});

function clip(name: string, file: string, sourceFrames: number, usedFrames: number, rate: number) {
  return {
    OTIO_SCHEMA: 'Clip.1',
    name,
    metadata: {},
    source_range: timeRange(0, usedFrames, rate),
    effects: [],
    markers: [],
    enabled: true,
    media_reference: {
      OTIO_SCHEMA: 'ExternalReference.1',
      name: file.split('/').at(-1) ?? file,
      metadata: {},
      target_url: file,
      available_range: timeRange(0, sourceFrames, rate),
    },
  };
}

function track(name: string, kind: 'Video' | 'Audio', children: unknown[]) {
  return { OTIO_SCHEMA: 'Track.1', name, kind, metadata: {}, source_range: null, effects: [], markers: [], enabled: true, children };
}

export function buildOtio(cut: FilmCut): string {
  const { rate } = cut;
  const starts = clipStarts(cut);
  const video = track(
    'Video',
    'Video',
    cut.clips.map((item) => clip(item.name, item.file, item.frames, item.frames, rate)),
  );
  const tracks = [video];
  if (cut.sound) {
    const sound = cut.sound;
    const label = sound.kind === 'speech' ? 'Narration' : 'Music';
    tracks.push(
      track(
        label,
        'Audio',
        soundPlacements(cut).map((placement, index) => clip(index === 0 ? label : `${label} (loop ${index + 1})`, sound.file, sound.frames, placement.frames, rate)),
      ),
    );
  }
  const markers = cut.clips.map((item, index) => ({
    OTIO_SCHEMA: 'Marker.2',
    name: item.name,
    comment: item.text,
    color: 'RED',
    metadata: {},
    marked_range: timeRange(starts[index] ?? 0, 0, rate),
  }));
  const timeline = {
    OTIO_SCHEMA: 'Timeline.1',
    name: cut.title,
    metadata: { kinora: { film_frames: filmFrames(cut), rate } },
    global_start_time: rationalTime(0, rate),
    tracks: { OTIO_SCHEMA: 'Stack.1', name: 'tracks', metadata: {}, source_range: null, effects: [], markers, enabled: true, children: tracks },
  };
  return `${JSON.stringify(timeline, null, 2)}\n`;
}
