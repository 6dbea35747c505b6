import { unzipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor, type EventObject } from 'xstate';
import { buildZip } from '@/lib/story-export/zip';
import { storyExportMachine, zipEntries, type FetchedFile } from '@/machines/story/story-export.machine';
import { selectZipView } from '@/machines/story/story-export.selectors';
import { storyExportOf, type ExportSource, type StoryExport } from '@/machines/story/story-export';
import { storyWizardMachine } from '@/machines/story/story-wizard.machine';
import type { Story } from '@/machines/story/story-wizard.machine';
import { selectExportOffer } from '@/machines/story/story-wizard.selectors';
import { FILM_MADE, SCENES_MADE, VIDEOS_MADE, withSound } from './story.fixtures';

/**
 * The AI Story export (issue 21): the zip's child machine — its progress file by file, a failed
 * download that keeps what came, a retry, a cancel — and the wizard that offers the export only
 * once the film's parts exist.
 */

const STORY = withSound(FILM_MADE);
const EXPORTED = storyExportOf(STORY, STORY.storyboard) as StoryExport;

/** The stand-in downloads: each file's answer is up to the test (`answer`), every request kept. */
type Answer = { data: Uint8Array } | { fail: string } | 'hang';
let answers: Map<string, Answer[]>;
let requested: string[];
let zips: Uint8Array[];

const bytesOf = (name: string) => new TextEncoder().encode(`bytes of ${name}`);

const machine = () =>
  storyExportMachine.provide({
    actors: {
      fetchFile: fromCallback<EventObject, { source: ExportSource | undefined }>(({ input, sendBack }) => {
        const { source } = input;
        if (!source) return;
        requested.push(source.name);
        const answer = answers.get(source.name)?.shift() ?? { data: bytesOf(source.name) };
        if (answer === 'hang') return;
        const settle = setTimeout(() => {
          if ('fail' in answer) sendBack({ type: 'zip.failed', message: answer.fail });
          else {
            sendBack({ type: 'zip.progress', loaded: answer.data.byteLength / 2, total: answer.data.byteLength });
            sendBack({ type: 'zip.fetched', name: source.name, mediaId: source.mediaId, data: answer.data });
          }
        }, 0);
        return () => clearTimeout(settle);
      }),
      saveZip: fromPromise<string, { exported: StoryExport; files: Record<string, FetchedFile> }>(async ({ input }) => {
        zips.push(buildZip(zipEntries(input.exported, input.files)));
        return `${input.exported.base}.zip`;
      }),
    },
  });

beforeEach(() => {
  answers = new Map();
  requested = [];
  zips = [];
});
afterEach(() => vi.restoreAllMocks());

describe('the export of a story', () => {
  it('names each scene’s clip and the narration inside the zip, in scene order, with their lengths', () => {
    expect(EXPORTED.base).toBe('The-keeper');
    expect(EXPORTED.sources.map((source) => [source.name, source.mediaId])).toEqual([
      ['media/scene-01.mp4', 'vid-scene-1'],
      ['media/scene-02.mp4', 'vid-scene-2'],
      ['media/narration.wav', 'snd-1'],
    ]);
    // The fixtures' jobs carry no measured length: the scenes' own (5 s and 4 s at 24 fps).
    expect(EXPORTED.cut.clips.map((clip) => clip.frames)).toEqual([120, 96]);
    expect(EXPORTED.cut.sound).toMatchObject({ kind: 'speech', text: 'Mara keeps the light.', file: 'media/narration.wav' });
  });

  it('takes a clip’s measured length over the scene’s', () => {
    const measured: Story = {
      ...STORY,
      media: { ...STORY.media, 'vid-scene-1': { ...STORY.media['vid-scene-1']!, items: [{ ...STORY.media['vid-scene-1']!.items[0]!, duration_seconds: 5.5 }] } },
    };
    expect(storyExportOf(measured, measured.storyboard)?.cut.clips.map((clip) => clip.frames)).toEqual([132, 96]);
  });
});

describe('the zip child', () => {
  it('downloads every file in turn with its progress, then zips them with the timelines', async () => {
    const actor = createActor(machine()).start();
    expect(selectZipView(actor.getSnapshot())).toMatchObject({ state: 'idle', percent: 0 });
    actor.send({ type: 'zip.start', exported: EXPORTED });
    expect(selectZipView(actor.getSnapshot())).toMatchObject({ state: 'downloading', done: 0, count: 3, percent: 0 });
    await waitFor(actor, (snapshot) => snapshot.matches('saved'));
    expect(requested).toEqual(['media/scene-01.mp4', 'media/scene-02.mp4', 'media/narration.wav']);
    expect(selectZipView(actor.getSnapshot())).toMatchObject({ state: 'saved', percent: 100, savedAs: 'The-keeper.zip', error: null });
    const files = unzipSync(zips[0]!);
    expect(Object.keys(files).sort()).toEqual(['The-keeper.edl', 'The-keeper.otio', 'The-keeper.srt', 'media/narration.wav', 'media/scene-01.mp4', 'media/scene-02.mp4']);
    expect(new TextDecoder().decode(files['media/scene-02.mp4'])).toBe('bytes of media/scene-02.mp4');
    const otio = JSON.parse(new TextDecoder().decode(files['The-keeper.otio'])) as { tracks: { children: { children: { media_reference: { target_url: string } }[] }[] } };
    const referenced = otio.tracks.children.flatMap((track) => track.children.map((clip) => clip.media_reference.target_url));
    expect(referenced.length).toBeGreaterThanOrEqual(3);
    expect(referenced.every((url) => url in files)).toBe(true);
  });

  it('shows the share of the files come so far, the one coming counted by its bytes', async () => {
    answers.set('media/scene-02.mp4', ['hang']);
    const actor = createActor(machine()).start();
    actor.send({ type: 'zip.start', exported: EXPORTED });
    await waitFor(actor, () => requested.includes('media/scene-02.mp4'));
    expect(selectZipView(actor.getSnapshot())).toMatchObject({ state: 'downloading', done: 1, count: 3, percent: 33 });
    actor.send({ type: 'zip.progress', loaded: 50, total: 100 });
    expect(selectZipView(actor.getSnapshot()).percent).toBe(50);
  });

  it('stops at a failed download with the reason, then a retry downloads only what is missing', async () => {
    answers.set('media/scene-02.mp4', [{ fail: 'Downloading scene-02.mp4 failed: its link has expired. What was downloaded is kept: try again.' }]);
    const actor = createActor(machine()).start();
    actor.send({ type: 'zip.start', exported: EXPORTED });
    await waitFor(actor, (snapshot) => snapshot.matches('failed'));
    expect(selectZipView(actor.getSnapshot())).toMatchObject({
      state: 'failed',
      done: 1,
      error: 'Downloading scene-02.mp4 failed: its link has expired. What was downloaded is kept: try again.',
    });
    expect(zips).toEqual([]);

    // The story's links as they are now (signed afresh); the same jobs, so scene 1 is kept.
    const fresh = { ...EXPORTED, sources: EXPORTED.sources.map((source) => ({ ...source, url: `${source.url}&fresh=1` })) };
    actor.send({ type: 'zip.retry', exported: fresh });
    await waitFor(actor, (snapshot) => snapshot.matches('saved'));
    expect(requested).toEqual(['media/scene-01.mp4', 'media/scene-02.mp4', 'media/scene-02.mp4', 'media/narration.wav']);
    expect(Object.keys(unzipSync(zips[0]!))).toHaveLength(6);
  });

  it('downloads a file again on retry when its scene was made again meanwhile', async () => {
    answers.set('media/narration.wav', [{ fail: 'network' }]);
    const actor = createActor(machine()).start();
    actor.send({ type: 'zip.start', exported: EXPORTED });
    await waitFor(actor, (snapshot) => snapshot.matches('failed'));
    const remade = { ...EXPORTED, sources: EXPORTED.sources.map((source) => (source.name === 'media/scene-01.mp4' ? { ...source, mediaId: 'vid-new' } : source)) };
    actor.send({ type: 'zip.retry', exported: remade });
    await waitFor(actor, (snapshot) => snapshot.matches('saved'));
    expect(requested).toEqual(['media/scene-01.mp4', 'media/scene-02.mp4', 'media/narration.wav', 'media/scene-01.mp4', 'media/narration.wav']);
  });

  it('drops what came when cancelled, and starts afresh next time', async () => {
    answers.set('media/scene-02.mp4', ['hang']);
    const actor = createActor(machine()).start();
    actor.send({ type: 'zip.start', exported: EXPORTED });
    await waitFor(actor, () => requested.includes('media/scene-02.mp4'));
    actor.send({ type: 'zip.cancel' });
    expect(selectZipView(actor.getSnapshot())).toMatchObject({ state: 'idle', done: 0, count: 0 });
    actor.send({ type: 'zip.start', exported: EXPORTED });
    await waitFor(actor, (snapshot) => snapshot.matches('saved'));
    expect(requested.filter((name) => name === 'media/scene-01.mp4')).toHaveLength(2);
  });
});

describe('the wizard’s export', () => {
  const wizardWith = (story: Story) =>
    createActor(
      storyWizardMachine.provide({
        actors: { loadStory: fromPromise<Story, { id: string }>(async () => story), storyExport: machine() },
      }),
      { input: { storyId: story.id, user: null, credit: 100 } },
    ).start();

  it('offers the export once the film’s parts exist, and says why not before', async () => {
    const early = wizardWith({ ...SCENES_MADE, step: 'scriptboard' });
    await waitFor(early, (snapshot) => snapshot.matches('scriptboard'));
    expect(selectExportOffer(early.getSnapshot()).problem).toBe('Make the videos of scenes 1 and 2 first.');
    expect(early.getSnapshot().can({ type: 'export.zip' })).toBe(false);
    expect(early.getSnapshot().can({ type: 'export.file', format: 'otio' })).toBe(false);

    const silent = wizardWith(VIDEOS_MADE);
    await waitFor(silent, (snapshot) => snapshot.matches('scriptboard'));
    expect(selectExportOffer(silent.getSnapshot())).toEqual({ problem: null, hasNarration: false });
    expect(silent.getSnapshot().can({ type: 'export.file', format: 'edl' })).toBe(true);
    expect(silent.getSnapshot().can({ type: 'export.file', format: 'srt' })).toBe(false);
  });

  it('saves a timeline file at once and hands the zip to its child', async () => {
    // The page's download: the link's file name and the Blob behind its URL.
    const blobs = new Map<string, Blob>();
    const saved: { name: string; blob: Blob | undefined }[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      blobs.set(`blob:${blobs.size}`, blob);
      return `blob:${blobs.size - 1}`;
    });
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, blob: blobs.get(this.href) });
    });
    const wizard = wizardWith(STORY);
    await waitFor(wizard, (snapshot) => snapshot.matches('done'));
    wizard.send({ type: 'export.file', format: 'srt' });
    expect(saved.map((file) => file.name)).toEqual(['The-keeper.srt']);
    expect(await saved[0]!.blob!.text()).toBe('1\r\n00:00:00,000 --> 00:00:09,000\r\nMara keeps the light.\r\n');

    wizard.send({ type: 'export.zip' });
    const child = wizard.getSnapshot().children.storyExport!;
    expect(selectZipView(child.getSnapshot())).toMatchObject({ state: 'downloading', count: 3 });
    await waitFor(child, (snapshot) => snapshot.matches('saved'));
    expect(zips).toHaveLength(1);
  });
});
