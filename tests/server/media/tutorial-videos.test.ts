import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELP_TOPICS } from '../../../src/config/help-topics.ts';
import { TUTORIAL_CACHE_FOLDER } from '../../../server/src/render/tutorial-video.ts';
import { createMediaStore } from '../../../server/src/jobs/media-store.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/** GET /tutorial/{file}: the help topics' tutorial MP4s, rendered once by the local engine, then cached. */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const RENDER_TIMEOUT_MS = 180_000;

/** Width and height of the first video track, read from the MP4's `tkhd` box (16.16 fixed point). */
function trackSize(mp4: Buffer): { width: number; height: number } {
  let at = mp4.indexOf('tkhd', 0, 'latin1');
  while (at !== -1) {
    const version = mp4.readUInt8(at + 4);
    const sizeOffset = at + 4 + (version === 1 ? 88 : 76);
    const width = mp4.readUInt32BE(sizeOffset) / 65536;
    const height = mp4.readUInt32BE(sizeOffset + 4) / 65536;
    if (width > 0 && height > 0) return { width, height };
    at = mp4.indexOf('tkhd', at + 4, 'latin1');
  }
  throw new Error('no video track size in the MP4');
}

describe('the tutorial videos', () => {
  const share = HELP_TOPICS[4];

  it(
    'answers a real landscape MP4 for desktop and a portrait one for mobile, from the cache the second time, with byte ranges',
    async () => {
      expect(share?.video_desktop).toBe('share-desktop.mp4');
      const desktopUrl = `${server.url}/tutorial/${share?.video_desktop}`;
      const [first, mobile] = await Promise.all([fetch(desktopUrl), fetch(`${server.url}/tutorial/${share?.video_mobile}`)]);
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toBe('video/mp4');
      expect(first.headers.get('accept-ranges')).toBe('bytes');
      // The only thing the app may frame is the video host's privacy-enhanced player.
      expect(first.headers.get('content-security-policy')).toContain('frame-src https://www.youtube-nocookie.com');
      const bytes = Buffer.from(await first.arrayBuffer());
      expect(bytes.length).toBeGreaterThan(1000);
      expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
      const desktopSize = trackSize(bytes);
      expect(desktopSize.width).toBeGreaterThan(desktopSize.height);

      expect(mobile.status).toBe(200);
      const mobileBytes = Buffer.from(await mobile.arrayBuffer());
      expect(mobileBytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
      const mobileSize = trackSize(mobileBytes);
      expect(mobileSize.height).toBeGreaterThan(mobileSize.width);

      const cached = path.join(server.mediaDir, TUTORIAL_CACHE_FOLDER, 'share-desktop.mp4');
      expect(existsSync(cached)).toBe(true);
      const again = await fetch(desktopUrl);
      expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);

      const range = await fetch(desktopUrl, { headers: { Range: 'bytes=4-11' } });
      expect(range.status).toBe(206);
      expect(range.headers.get('content-range')).toBe(`bytes 4-11/${bytes.length}`);
      expect(Buffer.from(await range.arrayBuffer()).equals(bytes.subarray(4, 12))).toBe(true);

      const outside = await fetch(desktopUrl, { headers: { Range: `bytes=${bytes.length + 10}-` } });
      expect(outside.status).toBe(416);

      // The media store's sweep of orphan folders leaves the cache alone.
      await createMediaStore(server.mediaDir).sweepOrphans(server.db, 0);
      expect(existsSync(cached)).toBe(true);
    },
    RENDER_TIMEOUT_MS,
  );

  it.each([
    ['a file no topic names', '/tutorial/nope-desktop.mp4'],
    ['a path that climbs out', '/tutorial/..%2F..%2Fpackage.json'],
    ['another extension', '/tutorial/share-desktop.webm'],
  ])('answers 404 for %s', async (_name, pathname) => {
    const answer = await fetch(`${server.url}${pathname}`);
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toContain('application/json');
  });
});
