import { unzipSync } from 'fflate';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { server } from '../../msw/server';
import { addStory, madeParts, resetFakeStory, storyHandlers } from '../../msw/story';
import { renderApp, screen, userEvent, waitFor, within } from '../../test-utils';
import { PAGE_LOAD, setUpJobTests } from '../generation-helpers';
import { alice, signedInAs } from '../session-helpers';

/**
 * "Export for editing" on the scriptboard (issue 21): its buttons wait, with the reason, until the
 * film's parts exist; the zip downloads the media with its progress, says which download failed and
 * keeps what came, and is offered once made.
 */

const user = userEvent.setup();
const SLOW = { timeout: 10_000 } as const;

setUpJobTests();

/** What the page offered to save: each link's file name and its bytes. */
let offered: { name: string; blob: Blob }[];
/** Each file's requests, and the answers the test scripts (a status to fail with, once). */
let fileRequests: string[];
let failOnce: Map<string, number>;

beforeEach(() => {
  resetFakeStory();
  offered = [];
  fileRequests = [];
  failOnce = new Map();
  const blobs = new Map<string, Blob>();
  URL.createObjectURL = vi.fn((blob: Blob) => {
    const url = `blob:export-${blobs.size}`;
    blobs.set(url, blob);
    return url;
  });
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    offered.push({ name: this.download, blob: blobs.get(this.href) as Blob });
  });
  server.use(
    ...storyHandlers(),
    http.get('http://localhost/api/files/:name', ({ params }) => {
      const name = String(params.name);
      fileRequests.push(name);
      const status = failOnce.get(name);
      if (status) {
        failOnce.delete(name);
        return new HttpResponse(null, { status });
      }
      return HttpResponse.arrayBuffer(new TextEncoder().encode(`bytes of ${name}`).buffer as ArrayBuffer);
    }),
  );
});
afterEach(() => {
  resetFakeStory();
  vi.restoreAllMocks();
});

const exportSection = () => screen.getByRole('region', { name: 'Export for editing' });
const exportButton = (name: string) => within(exportSection()).getByRole('button', { name });

describe('export for editing', () => {
  it('waits, with the reason, until every video of the film is made', async () => {
    const story = addStory({ step: 'scriptboard' });
    madeParts(story, 'scenes');
    await signedInAs(alice);
    renderApp(`/ai-production/ai-story/${story.id}`);
    await screen.findByRole('region', { name: 'Export for editing' }, PAGE_LOAD);
    for (const name of ['Download OTIO timeline (.otio)', 'Download EDL (.edl)', 'Download subtitles (.srt)', 'Download zip with media']) {
      expect(exportButton(name)).toBeDisabled();
      expect(exportButton(name)).toHaveAccessibleDescription('Make the videos of scenes 1, 2 and 3 first.');
    }
  }, 20_000);

  it('downloads the timeline files, then the zip with the media — a failed download kept and tried again', async () => {
    const story = addStory({ step: 'scriptboard' });
    madeParts(story, 'videos');
    const clip2 = `${story.storyboard.scenes[1]!.video!.media_id}-result.mp4`;
    failOnce.set(clip2, 500);
    await signedInAs(alice);
    renderApp(`/ai-production/ai-story/${story.id}`);
    await screen.findByRole('region', { name: 'Export for editing' }, PAGE_LOAD);
    await waitFor(() => expect(exportButton('Download OTIO timeline (.otio)')).toBeEnabled(), SLOW);

    await user.click(exportButton('Download OTIO timeline (.otio)'));
    await user.click(exportButton('Download subtitles (.srt)'));
    expect(offered.map((file) => file.name)).toEqual(['Mara-keeps-the-lighthouse.otio', 'Mara-keeps-the-lighthouse.srt']);
    const otio = JSON.parse(await offered[0]!.blob.text()) as { tracks: { children: { kind: string; children: unknown[] }[] } };
    // The fake narration lasts 5 s under a 15 s film: played three times, as the joined film loops it.
    expect(otio.tracks.children.map((track) => [track.kind, track.children.length])).toEqual([
      ['Video', 3],
      ['Audio', 3],
    ]);
    expect(await offered[1]!.blob.text()).toMatch(/^1\r\n00:00:00,000 --> /);

    await user.click(exportButton('Download zip with media'));
    const alert = await within(exportSection()).findByRole('alert', {}, SLOW);
    expect(alert).toHaveTextContent('Downloading scene-02.mp4 failed: the server answered 500. What was downloaded is kept: try again.');
    expect(exportButton('Download zip with media')).toBeDisabled();
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await within(exportSection()).findByText('Mara-keeps-the-lighthouse.zip was made and handed to your browser to save.', {}, SLOW)).toBeInTheDocument();

    // Scene 1's clip came once: the retry kept it.
    const clip1 = `${story.storyboard.scenes[0]!.video!.media_id}-result.mp4`;
    expect(fileRequests.filter((name) => name === clip1)).toHaveLength(1);
    expect(fileRequests.filter((name) => name === clip2)).toHaveLength(2);
    const zip = offered.at(-1)!;
    expect(zip.name).toBe('Mara-keeps-the-lighthouse.zip');
    const files = unzipSync(new Uint8Array(await zip.blob.arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual([
      'Mara-keeps-the-lighthouse.edl',
      'Mara-keeps-the-lighthouse.otio',
      'Mara-keeps-the-lighthouse.srt',
      'media/narration.wav',
      'media/scene-01.mp4',
      'media/scene-02.mp4',
      'media/scene-03.mp4',
    ]);
    expect(new TextDecoder().decode(files['media/scene-01.mp4'])).toBe(`bytes of ${clip1}`);
  }, 30_000);
});
