import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROMO_CACHE_FOLDER } from '../../../server/src/render/promo-video.ts';
import { createMediaStore } from '../../../server/src/jobs/media-store.ts';
import { callApi, startTestServer, type TestServer } from '../helpers/server.ts';

/** GET promo-videos/{id}/video.mp4: a real MP4 rendered once by the local engine, then served from the cache. */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const RENDER_TIMEOUT_MS = 120_000;

describe('the promo reel videos', () => {
  it(
    'answers a real MP4 without auth, the same bytes from the cache, and byte ranges',
    async () => {
      const listed = await callApi<{ id: string; video_url: string }[]>(server, 'promo-videos');
      const promo = listed.body?.data?.[0];
      expect(promo?.video_url).toBe(`/api/promo-videos/${promo?.id}/video.mp4`);

      const first = await fetch(`${server.url}${promo?.video_url}`);
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toBe('video/mp4');
      const bytes = Buffer.from(await first.arrayBuffer());
      expect(bytes.length).toBeGreaterThan(1000);
      expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
      const cached = path.join(server.mediaDir, PROMO_CACHE_FOLDER, `${promo?.id}.mp4`);
      expect(existsSync(cached)).toBe(true);

      const again = await fetch(`${server.url}${promo?.video_url}`);
      expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);

      const range = await fetch(`${server.url}${promo?.video_url}`, { headers: { Range: 'bytes=0-7' } });
      expect(range.status).toBe(206);
      expect(range.headers.get('content-range')).toBe(`bytes 0-7/${bytes.length}`);
      expect(Buffer.from(await range.arrayBuffer()).equals(bytes.subarray(0, 8))).toBe(true);

      // The media store's sweep of orphan folders leaves the cache alone.
      await createMediaStore(server.mediaDir).sweepOrphans(server.db, 0);
      expect(existsSync(cached)).toBe(true);
    },
    RENDER_TIMEOUT_MS,
  );

  it('answers 404 for an unknown promo', async () => {
    const answer = await fetch(`${server.url}/api/promo-videos/nope/video.mp4`);
    expect(answer.status).toBe(404);
  });
});
