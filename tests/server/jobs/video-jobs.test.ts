import { setTimeout as sleep } from 'node:timers/promises';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processingStatusSchema, type Media } from '../../../src/services/schemas/media.ts';
import { asMedia, balanceOf, fetchFile, ledgerRows, postForm } from '../helpers/media.ts';
import { callApi, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * Video creation jobs on the real server with the local render engine (contract §1): a parallax
 * job's statuses through its 3D and bullet stages, its videos at their SPEC §3 folders below
 * base_url, the guest's `_logo` files, refunds. Real videos take seconds each: the jobs are few
 * and short (2 s), and the member's and the guest's render side by side.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ jobs: { durationMs: 400, pollIntervalMs: 50, concurrency: 2 } });
});
afterAll(async () => {
  await server?.close();
});

type Caller = { accessToken: string; sub: string };

const RENDER_TIMEOUT_MS = 240_000;
const MP4_BRAND = Buffer.from('ftyp');
const GIF_MAGIC = Buffer.from('GIF8');
const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);

/** A picture with structure (a flat colour looks the same from every camera path). */
async function patternPng(width = 160, height = 120): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const at = (y * width + x) * 3;
      pixels[at] = (x * 255) / width;
      pixels[at + 1] = (y * 255) / height;
      pixels[at + 2] = (Math.floor(x / 16) + Math.floor(y / 16)) % 2 === 0 ? 230 : 30;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

async function uploadPicture(caller: Caller): Promise<string> {
  const upload = asMedia(
    await postForm(server, 'image', { image_file: { data: await patternPng(), name: 'p.png', type: 'image/png' } }, { token: caller.accessToken }),
  );
  return upload.items[0]?.url ?? '';
}

const preset = (cameraPath: string, prompt = '') => ({ motion_type: 'Parallax', camera_path: cameraPath, quantity: 1, motion_length: 2, loop: 1, prompt, model: 'Parallax' });

async function startParallax(caller: Caller, paths: string[], prompt = ''): Promise<Media> {
  const answer = await postForm(
    server,
    'media',
    { creation_type: 'parallax-motion', option: 'Parallax', image_urls: [await uploadPicture(caller)], pose_preset: JSON.stringify(paths.map((path) => preset(path, prompt))) },
    { token: caller.accessToken },
  );
  expect(answer.status).toBe(200);
  return asMedia(answer);
}

/** Polls processing-status (no auth, as the web app does) until the job ends; the statuses seen, in order. */
async function statusesUntilEnd(id: string): Promise<string[]> {
  const deadline = Date.now() + RENDER_TIMEOUT_MS;
  const seen: string[] = [];
  while (Date.now() < deadline) {
    const status = processingStatusSchema.parse((await callApi(server, `media/${id}/processing-status`)).body?.data).status;
    if (seen.at(-1) !== status) seen.push(status);
    if (!status.startsWith('queue_') && !status.startsWith('processing_')) return seen;
    await sleep(25);
  }
  throw new Error(`media ${id} did not end; statuses seen: ${seen.join(' → ')}`);
}

const STAGES = ['queue_source', 'processing_source', 'queue_3d', 'processing_3d', 'queue_bullet', 'processing_bullet', 'success'];

describe('a parallax job with two camera paths', () => {
  let member: Caller;
  let guest: Caller;
  let memberJob: Media;
  let guestJob: Media;
  let memberSeen: string[];
  let guestSeen: string[];
  beforeAll(async () => {
    member = await signUpUser(server, 'parallax');
    const guestUser = await server.emulator.createUser({ username: 'guest', email: 'guest@kinora.local', password: 'guest-password-1' });
    guest = guestUser;
    memberJob = await startParallax(member, ['HorizontalArc', 'Circular']);
    guestJob = await startParallax(guest, ['StepIn']);
    [memberSeen, guestSeen] = await Promise.all([statusesUntilEnd(memberJob.id), statusesUntilEnd(guestJob.id)]);
  }, RENDER_TIMEOUT_MS + 30_000);

  it('passes the source, 3D and bullet stages in order and ends in success, charged 2 × 20 credits once', async () => {
    for (const seen of [memberSeen, guestSeen]) {
      expect(seen.at(-1)).toBe('success');
      expect(seen).toEqual(expect.arrayContaining(['processing_3d', 'processing_bullet']));
      const order = seen.map((status) => STAGES.indexOf(status));
      expect(order.every((position) => position >= 0)).toBe(true);
      expect(order).toEqual([...order].sort((a, b) => a - b));
    }
    expect(memberJob.cost).toBe(40);
    expect((await ledgerRows(server, member.sub)).filter((row) => row.job_id === memberJob.id)).toEqual([{ kind: 'debit', amount: -40, job_id: memberJob.id }]);
  });

  it('answers one video per camera path in its SPEC folder, with GIF, thumbnail, label and size', async () => {
    const media = asMedia(await callApi(server, `media/${memberJob.id}`, { token: member.accessToken }));
    expect(media).toMatchObject({ status: 'success', version: '3', progress: 100 });
    expect(media.items.map((item) => [item.type, item.status, item.folder_path, item.label])).toEqual([
      ['video', 'success', 'batch/1/HorizontalArc', '1.1.Horizontal'],
      ['video', 'success', 'batch/1/Circular', '1.2.Circular'],
    ]);
    for (const item of media.items) {
      expect(item.duration_seconds).toBeCloseTo(2, 0);
      expect(Math.max(item.width ?? 0, item.height ?? 0)).toBe(640);
      const video = await fetchFile(item.url ?? '');
      expect(video.headers.get('content-type')).toBe('video/mp4');
      expect(video.bytes.subarray(4, 8)).toEqual(MP4_BRAND);
      expect((await fetchFile(item.gif_url ?? '')).bytes.subarray(0, 4)).toEqual(GIF_MAGIC);
      expect((await fetchFile(item.thumbnail_url ?? '')).bytes.subarray(0, 3)).toEqual(JPEG_MAGIC);
      // The same files at their SPEC §3 paths below base_url.
      const byPath = await fetchFile(`${media.base_url}/${item.folder_path}/video.mp4`);
      expect(byPath.status).toBe(200);
      expect(byPath.bytes.equals(video.bytes)).toBe(true);
      expect((await fetchFile(`${media.base_url}/${item.folder_path}/video.gif`)).headers.get('content-type')).toBe('image/gif');
      expect((await fetchFile(`${media.base_url}/${item.folder_path}/thumbnail/thumbnail.jpg`)).headers.get('content-type')).toBe('image/jpeg');
    }
    // Two camera paths, two different videos.
    const [first, second] = await Promise.all(media.items.map((item) => fetchFile(item.url ?? '')));
    expect(first?.bytes.equals(second?.bytes ?? Buffer.alloc(0))).toBe(false);
  });

  it('names the guest’s files with _logo (the logo is burnt in)', async () => {
    const media = asMedia(await callApi(server, `media/${guestJob.id}`, { token: guest.accessToken }));
    expect(media).toMatchObject({ status: 'success', logo_variant: true });
    expect(media.items[0]?.folder_path).toBe('batch/1/StepIn');
    expect((await fetchFile(`${media.base_url}/batch/1/StepIn/video_logo.mp4`)).status).toBe(200);
    expect((await fetchFile(`${media.base_url}/batch/1/StepIn/video_logo.gif`)).status).toBe(200);
    expect((await fetchFile(`${media.base_url}/batch/1/StepIn/video.mp4`)).status).toBe(404);
  });
});

describe('refunds', () => {
  it('a job that fails ([fail] in the prompt) is refunded, without rendering anything', async () => {
    const user = await signUpUser(server, 'unlucky');
    await callApi(server, 'credits/get', { token: user.accessToken });
    const before = await balanceOf(server, user.sub);
    const media = await startParallax(user, ['Cross'], 'a wall [fail]');
    expect(await statusesUntilEnd(media.id)).not.toContain('processing_3d');
    const ended = asMedia(await callApi(server, `media/${media.id}`, { token: user.accessToken }));
    expect(ended).toMatchObject({ status: 'failed', refunded: true, error: 'The model could not make this result. Your credits were refunded.' });
    expect(await balanceOf(server, user.sub)).toBe(before);
  });

  it('a cancelled job is refunded once, and cancelling again answers 409', async () => {
    const user = await signUpUser(server, 'changed-mind');
    await callApi(server, 'credits/get', { token: user.accessToken });
    const before = await balanceOf(server, user.sub);
    const media = await startParallax(user, ['StepL']);
    const cancelled = await callApi(server, `media/${media.id}/cancel`, { method: 'PUT', token: user.accessToken, json: {} });
    expect(asMedia(cancelled)).toMatchObject({ status: 'cancelled', refunded: true });
    expect((await callApi(server, `media/${media.id}/cancel`, { method: 'PUT', token: user.accessToken, json: {} })).status).toBe(409);
    expect(await balanceOf(server, user.sub)).toBe(before);
    expect((await ledgerRows(server, user.sub)).filter((row) => row.job_id === media.id && row.kind === 'refund')).toHaveLength(1);
  });
});
