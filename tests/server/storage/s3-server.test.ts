import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMediaStore } from '../../../server/src/jobs/media-store.ts';
import { PROMO_CACHE_FOLDER } from '../../../server/src/render/promo-video.ts';
import { cleanGuestContent } from '../../../server/src/scheduler/guest-cleanup.ts';
import { asMedia, fetchFile, postForm, smallPng } from '../helpers/media.ts';
import { startTestS3Server, type TestS3Server } from '../helpers/s3.ts';
import { callApi, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * A server storing its files in an S3 bucket (KINORA_S3_BUCKET; issue 20 item 2), on s3rver: the
 * files go to the bucket and not the local folder, Kinora's own signed links serve them with byte
 * ranges, and deleting media, the guest clean-up and the orphan sweep delete their objects. What
 * is stored is read from the bucket itself (ListObjectsV2), not only through the server.
 */

let s3: TestS3Server;
let server: TestServer;
let owner: Awaited<ReturnType<typeof signUpUser>>;
beforeAll(async () => {
  s3 = await startTestS3Server();
  server = await startTestServer({ s3: s3.settings, jobs: { durationMs: 50, pollIntervalMs: 100 } });
  owner = await signUpUser(server, 's3owner');
});
afterAll(async () => {
  await server?.close();
  await s3?.stop();
});

const RENDER_TIMEOUT_MS = 120_000;

async function fileRows(mediaId: string): Promise<{ path: string; bytes: number }[]> {
  const { rows } = await server.db.query<{ path: string; bytes: number }>('SELECT path, bytes FROM media_files WHERE media_id = $1 ORDER BY path', [mediaId]);
  return rows;
}

async function objectBytes(key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of (await server.objects.read(key)) as Readable) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

async function upload(token: string, png: Buffer) {
  const answer = await postForm(server, 'image', { image_file: { data: png, name: 'holiday.png', type: 'image/png' } }, { token });
  expect(answer.status).toBe(200);
  return asMedia(answer);
}

describe('a server on an S3 bucket', () => {
  it('stores an upload in the bucket, under the keys its rows hold, and nothing in the local folder', async () => {
    const png = await smallPng(120, 80);
    const media = await upload(owner.accessToken, png);
    const rows = await fileRows(media.id);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(await s3.keys(`${media.id}/`)).toEqual(rows.map((row) => row.path));
    expect(existsSync(path.join(server.mediaDir, media.id))).toBe(false);
    const original = rows.find((row) => row.path.endsWith('-holiday.png'));
    expect(original?.bytes).toBe(png.length);
    expect((await objectBytes(original?.path ?? '')).equals(png)).toBe(true);
  });

  it('serves a stored file through the signed link the API gives, whole and by byte ranges (206, 416)', async () => {
    const png = await smallPng(160, 90, '#cc3366');
    const media = await upload(owner.accessToken, png);
    const url = media.items[0]?.url ?? '';
    const size = png.length;

    const whole = await fetchFile(url);
    expect(whole.status).toBe(200);
    expect(whole.bytes.equals(png)).toBe(true);
    expect(whole.headers.get('content-type')).toBe('image/png');
    expect(whole.headers.get('content-length')).toBe(String(size));
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('content-disposition')).toBe('inline; filename="holiday.png"');

    for (const [header, start, end] of [
      ['bytes=4-11', 4, 11],
      ['bytes=0-0', 0, 0],
      [`bytes=${size - 5}-`, size - 5, size - 1],
      ['bytes=-7', size - 7, size - 1],
      [`bytes=10-${size + 100}`, 10, size - 1],
    ] as const) {
      const part = await fetchFile(url, { Range: header });
      expect(part.status, header).toBe(206);
      expect(part.headers.get('content-range'), header).toBe(`bytes ${start}-${end}/${size}`);
      expect(part.headers.get('content-length'), header).toBe(String(end - start + 1));
      expect(part.bytes.equals(png.subarray(start, end + 1)), header).toBe(true);
    }
    const outside = await fetchFile(url, { Range: `bytes=${size}-` });
    expect(outside.status).toBe(416);
    expect(outside.headers.get('content-range')).toBe(`bytes */${size}`);

    // A link is still only as good as its signature.
    expect((await fetchFile(url.replace(/signature=[^&]+/, 'signature=forged'))).status).toBe(403);
  });

  it('stores a generation job\'s results in the bucket and serves them; a job reads its input from the bucket', async () => {
    const picture = await upload(owner.accessToken, await smallPng(200, 100));
    const answer = await postForm(
      server,
      'image/image-2-image',
      { prompt: 'a painted version', image_url: picture.items[0]?.url ?? '', async_mode: 'false' },
      { token: owner.accessToken },
    );
    expect(answer.status).toBe(200);
    const job = asMedia(answer);
    expect(job.status).toBe('success_image');
    const rows = await fileRows(job.id);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(await s3.keys(`${job.id}/`)).toEqual(rows.map((row) => row.path));
    const result = await fetchFile(job.items[0]?.url ?? '');
    expect(result.status).toBe(200);
    const stored = rows.find((row) => row.bytes === result.bytes.length);
    expect(stored, 'the served result is one of the stored objects').toBeDefined();
    expect(result.bytes.equals(await objectBytes(stored?.path ?? ''))).toBe(true);
    const thumbnail = await fetchFile(job.items[0]?.thumbnail_url ?? '');
    expect(thumbnail.headers.get('content-type')).toBe('image/jpeg');
  });

  it('deletes the objects of a deleted media item', async () => {
    const media = await upload(owner.accessToken, await smallPng(64, 64));
    expect((await s3.keys(`${media.id}/`)).length).toBeGreaterThan(0);
    const url = media.items[0]?.url ?? '';
    expect((await callApi(server, `media/${media.id}`, { method: 'DELETE', token: owner.accessToken })).status).toBe(200);
    expect(await s3.keys(`${media.id}/`)).toEqual([]);
    expect((await fetchFile(url)).status).toBe(404);
  });

  it("the guest clean-up deletes the guest's rows, and the orphan sweep then deletes their objects", async () => {
    const guest = await server.emulator.createUser({ username: 'guest', email: 'guest@kinora.local', password: 'guest-password-1' });
    const generated = asMedia(await postForm(server, 'image/text-2-image', { prompt: 'shared', async_mode: 'false' }, { token: guest.accessToken }));
    const uploaded = await upload(guest.accessToken, await smallPng(50, 50));
    const mine = await upload(owner.accessToken, await smallPng(40, 40));
    for (const media of [generated, uploaded, mine]) expect((await s3.keys(`${media.id}/`)).length, media.id).toBeGreaterThan(0);

    const result = await server.db.transaction((tx) => cleanGuestContent(tx));
    expect(result.removed).toEqual({ media: 2 });
    const store = createMediaStore(server.objects);
    // Objects changed in the last ten minutes are left to a later sweep (an upload stores its files before its row).
    expect(await store.sweepOrphans(server.db)).toBe(0);
    expect((await s3.keys(`${generated.id}/`)).length).toBeGreaterThan(0);
    expect(await store.sweepOrphans(server.db, 0)).toBe(2);
    expect(await s3.keys(`${generated.id}/`)).toEqual([]);
    expect(await s3.keys(`${uploaded.id}/`)).toEqual([]);
    expect((await s3.keys(`${mine.id}/`)).length).toBeGreaterThan(0);
  });

  it(
    'renders a promo clip once into the bucket and serves it with byte ranges',
    async () => {
      const listed = await callApi<{ id: string; video_url: string }[]>(server, 'promo-videos');
      const promo = listed.body?.data?.[0];
      const first = await fetch(`${server.url}${promo?.video_url}`);
      expect(first.status).toBe(200);
      const bytes = Buffer.from(await first.arrayBuffer());
      expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
      expect(await s3.keys(`${PROMO_CACHE_FOLDER}/`)).toEqual([`${PROMO_CACHE_FOLDER}/${promo?.id}.mp4`]);
      expect((await objectBytes(`${PROMO_CACHE_FOLDER}/${promo?.id}.mp4`)).equals(bytes)).toBe(true);

      const range = await fetch(`${server.url}${promo?.video_url}`, { headers: { Range: 'bytes=0-7' } });
      expect(range.status).toBe(206);
      expect(range.headers.get('content-range')).toBe(`bytes 0-7/${bytes.length}`);
      expect(Buffer.from(await range.arrayBuffer()).equals(bytes.subarray(0, 8))).toBe(true);
      // The orphan sweep leaves the cache folder alone.
      await createMediaStore(server.objects).sweepOrphans(server.db, 0);
      expect(await s3.keys(`${PROMO_CACHE_FOLDER}/`)).toHaveLength(1);
    },
    RENDER_TIMEOUT_MS,
  );
});
