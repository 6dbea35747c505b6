import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverSecret } from '../../../server/src/db/files.ts';
import { insertMedia, newPublicId, type StoredItem } from '../../../server/src/db/media.ts';
import { createFileSigner } from '../../../server/src/jobs/file-signing.ts';
import { asMedia, fetchFile, postForm } from '../helpers/media.ts';
import { callApi, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * SPEC §3 version "3" media: a signed base_url under which `GET {base_url}/{relative path}` serves
 * the media's file stored at that path (contract §1 "Result files and paths"). The media here is
 * written straight into the server's database and folder, as the job engine leaves a finished
 * parallax job, so no video has to be rendered.
 */

let server: TestServer;
beforeAll(async () => {
  // Jobs queued here never leave their source stage: nothing is rendered.
  server = await startTestServer({ jobs: { durationMs: 60_000, pollIntervalMs: 1000 } });
});
afterAll(async () => {
  await server?.close();
});

type User = Awaited<ReturnType<typeof signUpUser>>;

const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(64, 7)]);
const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(16, 1)]);
const JPG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(16, 2)]);

/** A finished parallax job of `user` with one video at batch/1/HorizontalArc, stored as the engine stores it. */
async function finishedParallax(user: User): Promise<string> {
  const mediaId = newPublicId();
  const folder = path.join(server.mediaDir, mediaId);
  await mkdir(folder, { recursive: true });
  const files = [
    { role: 'result', name: 'video.mp4', type: 'video/mp4', data: MP4, rel: 'batch/1/HorizontalArc/video.mp4' },
    { role: 'gif', name: 'video.gif', type: 'image/gif', data: GIF, rel: 'batch/1/HorizontalArc/video.gif' },
    { role: 'thumbnail', name: 'thumbnail.jpg', type: 'image/jpeg', data: JPG, rel: 'batch/1/HorizontalArc/thumbnail/thumbnail.jpg' },
  ].map((entry) => ({ ...entry, id: newPublicId() }));
  const item: StoredItem = {
    status: 'success',
    file_id: files[0]?.id,
    gif_file_id: files[1]?.id,
    thumbnail_file_id: files[2]?.id,
    folder_path: 'batch/1/HorizontalArc',
    label: '1.1.Horizontal',
  };
  await server.db.transaction(async (tx) => {
    await insertMedia(tx, {
      id: mediaId,
      userSub: user.sub,
      kind: 'video',
      tool: 'parallax-motion',
      option: 'Parallax',
      status: 'success',
      progress: 100,
      items: [item],
      version: '3',
      finished: true,
    });
    for (const entry of files) {
      const relative = `${mediaId}/${entry.id}-${entry.name}`;
      await writeFile(path.join(server.mediaDir, relative), entry.data);
      await tx.query(
        `INSERT INTO media_files (id, media_id, user_sub, role, name, content_type, bytes, path, rel_path, width, height, duration_seconds)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [entry.id, mediaId, user.sub, entry.role, entry.name, entry.type, entry.data.length, relative, entry.rel, 640, 426, entry.role === 'result' ? 2 : null],
      );
    }
  });
  return mediaId;
}

let owner: User;
let mediaId: string;
let baseUrl: string;
beforeAll(async () => {
  owner = await signUpUser(server, 'paths');
  // The first call makes the user's row the media refers to.
  await callApi(server, 'credits/get', { token: owner.accessToken });
  mediaId = await finishedParallax(owner);
  const answer = asMedia(await callApi(server, `media/${mediaId}`, { token: owner.accessToken }));
  baseUrl = answer.base_url;
});

describe('a version 3 media answer', () => {
  it('has a signed base_url and result items with url, thumbnail, GIF, folder, label and size', async () => {
    const media = asMedia(await callApi(server, `media/${mediaId}`, { token: owner.accessToken }));
    expect(media.version).toBe('3');
    expect(media.base_url).toMatch(new RegExp(`^${server.url}/api/files/m/${mediaId}/\\d+/[0-9a-f]{64}$`));
    const [item] = media.items;
    expect(item).toMatchObject({ type: 'video', status: 'success', folder_path: 'batch/1/HorizontalArc', label: '1.1.Horizontal', width: 640, height: 426, duration_seconds: 2 });
    expect((await fetchFile(item?.url ?? '')).bytes.equals(MP4)).toBe(true);
    expect((await fetchFile(item?.gif_url ?? '')).bytes.equals(GIF)).toBe(true);
    expect((await fetchFile(item?.thumbnail_url ?? '')).bytes.equals(JPG)).toBe(true);
  });
});

describe('GET {base_url}/{path}', () => {
  it('serves the file at that path with the file links’ headers, and byte ranges', async () => {
    const video = await fetchFile(`${baseUrl}/batch/1/HorizontalArc/video.mp4`);
    expect(video.status).toBe(200);
    expect(video.bytes.equals(MP4)).toBe(true);
    expect(video.headers.get('content-type')).toBe('video/mp4');
    expect(video.headers.get('x-content-type-options')).toBe('nosniff');
    expect(video.headers.get('content-security-policy')).toBe('sandbox');
    expect(video.headers.get('content-disposition')).toBe('inline; filename="video.mp4"');
    expect(video.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    const gif = await fetchFile(`${baseUrl}/batch/1/HorizontalArc/video.gif`);
    expect(gif.headers.get('content-type')).toBe('image/gif');
    const thumbnail = await fetchFile(`${baseUrl}/batch/1/HorizontalArc/thumbnail/thumbnail.jpg`);
    expect(thumbnail.bytes.equals(JPG)).toBe(true);
    const part = await fetchFile(`${baseUrl}/batch/1/HorizontalArc/video.mp4`, { Range: 'bytes=4-11' });
    expect(part.status).toBe(206);
    expect(part.bytes.toString()).toBe('ftypisom');
  });

  it('answers 404 for a path the media has no file at', async () => {
    for (const missing of ['batch/1/Circular/video.mp4', 'batch/1/HorizontalArc/video_logo.mp4', 'batch/1/HorizontalArc/%2e%2e/%2e%2e/video.mp4', 'video.mp4']) {
      expect((await fetchFile(`${baseUrl}/${missing}`)).status, missing).toBe(404);
    }
  });

  it('answers 403 to a forged, tampered, borrowed or expired signature', async () => {
    const [, expires = '', signature = ''] = /\/(\d+)\/([0-9a-f]{64})$/.exec(baseUrl) ?? [];
    const root = `${server.url}/api/files/m`;
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`;
    const other = await finishedParallax(owner);
    const otherBase = asMedia(await callApi(server, `media/${other}`, { token: owner.accessToken })).base_url;
    const [, otherExpires = '', otherSignature = ''] = /\/(\d+)\/([0-9a-f]{64})$/.exec(otherBase) ?? [];
    const signer = createFileSigner(await serverSecret(server.db, 'file-signing'));
    const expired = signer.signMediaBase(server.url, mediaId, Date.now() - 2 * 60 * 60 * 1000).url;
    const attempts = [
      `${root}/${mediaId}/${expires}/${flipped}`,
      `${root}/${mediaId}/${Number(expires) + 60}/${signature}`,
      `${root}/${mediaId}/${otherExpires}/${otherSignature}`,
      `${root}/${mediaId}/${expires}/not-a-signature`,
      expired,
    ];
    for (const attempt of attempts) {
      expect((await fetchFile(`${attempt}/batch/1/HorizontalArc/video.mp4`)).status, attempt).toBe(403);
    }
    // A file id's own link signature does not open a media's folder either.
    const fileLink = new URL(asMedia(await callApi(server, `media/${mediaId}`, { token: owner.accessToken })).items[0]?.url ?? '');
    const fileSignature = fileLink.searchParams.get('signature') ?? '';
    const fileExpires = fileLink.searchParams.get('expires') ?? '';
    expect((await fetchFile(`${root}/${mediaId}/${fileExpires}/${fileSignature}/batch/1/HorizontalArc/video.mp4`)).status).toBe(403);
  });
});

describe('a path below base_url as a job input', () => {
  it('names the video for extend-video: the owner’s, or anyone’s with the signed base_url; a picture path is refused', async () => {
    const fields = (videoUrl: string) => ({
      creation_type: 'extend-video',
      option: 'KlingAI',
      video_url: videoUrl,
      pose_preset: JSON.stringify({ motion_type: 'ZoomOut', prompt: 'Camera zoom out', quantity: 1, motion_length: 2, loop: 0, model: 'KlingAI' }),
    });
    const own = await postForm(server, 'media', fields(`${baseUrl}/batch/1/HorizontalArc/video.mp4`), { token: owner.accessToken });
    expect(own.status).toBe(200);
    expect(asMedia(own)).toMatchObject({ tool: 'extend-video', cost: 40, args: { frame_selection: 'Last' } });
    const { rows } = await server.db.query<{ inputs: { field: string; file_id: string }[] }>('SELECT inputs FROM media WHERE id = $1', [asMedia(own).id]);
    const media = asMedia(await callApi(server, `media/${mediaId}`, { token: owner.accessToken }));
    expect(rows[0]?.inputs).toEqual([{ field: 'video_url', file_id: media.items[0]?.file_id }]);

    const stranger = await signUpUser(server, 'stranger');
    const shared = await postForm(server, 'media', fields(`${baseUrl}/batch/1/HorizontalArc/video.mp4`), { token: stranger.accessToken });
    expect(shared.status).toBe(200);
    const unsigned = await postForm(server, 'media', fields(`${server.url}/api/files/m/${mediaId}/1/${'0'.repeat(64)}/batch/1/HorizontalArc/video.mp4`), { token: stranger.accessToken });
    expect(unsigned.status).toBe(400);
    expect(unsigned.body?.detail).toBe('video_url is not a file uploaded to Kinora.');
    const picture = await postForm(server, 'media', fields(`${baseUrl}/batch/1/HorizontalArc/thumbnail/thumbnail.jpg`), { token: owner.accessToken });
    expect(picture.status).toBe(400);
    expect(picture.body?.detail).toBe('video_url is not a video.');
    for (const answer of [own, shared]) {
      const token = answer === own ? owner.accessToken : stranger.accessToken;
      await callApi(server, `media/${asMedia(answer).id}`, { method: 'DELETE', token });
    }
  });
});
