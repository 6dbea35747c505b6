import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_RULES } from '../../../src/config/limits.ts';
import { uploadedUserFileSchema } from '../../../src/services/schemas/users.ts';
import { asMedia, fetchFile, ledgerRows, PNG_MAGIC, pngOfSize, postForm, smallPng, wavOfSize } from '../helpers/media.ts';
import { callApi, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let token: string;
let sub: string;
beforeAll(async () => {
  server = await startTestServer();
  const user = await signUpUser(server, 'uploader');
  token = user.accessToken;
  sub = user.sub;
});
afterAll(async () => {
  await server?.close();
});

const file = (data: Buffer, name: string, type: string) => ({ data, name, type });

/**
 * The size-limit tests send three bodies of 30–50 MB each: under two seconds alone, but a CI run
 * with the browser tests beside them took a minute, past the server tests' 60 s timeout.
 */
const BIG_BODIES_MS = 180_000;

describe('POST image', () => {
  it('stores a PNG as an upload-image media with a signed link to it and a thumbnail, for free', async () => {
    const png = await smallPng(120, 80);
    const answer = await postForm(server, 'image', { image_file: file(png, 'My Photo (1).png', 'image/png') }, { token });
    expect(answer.status).toBe(200);
    const media = asMedia(answer);
    expect(media).toMatchObject({ kind: 'image', tool: 'upload-image', status: 'success_image', cost: 0, progress: 100 });
    expect(media.items).toHaveLength(1);
    expect(media.items[0]).toMatchObject({ type: 'image', status: 'success', width: 120, height: 80 });
    expect(media.files.find((stored) => stored.role === 'original')?.name).toBe('My_Photo__1_.png');
    const served = await fetchFile(media.items[0]?.url ?? '');
    expect(served.bytes.equals(png)).toBe(true);
    expect(served.headers.get('content-disposition')).toBe('inline; filename="My_Photo__1_.png"');
    const thumbnail = await fetchFile(media.items[0]?.thumbnail_url ?? '');
    expect(thumbnail.headers.get('content-type')).toBe('image/jpeg');
    expect((await ledgerRows(server, sub)).map((row) => row.kind)).toEqual(['grant']);
  });

  it('rasterises an SVG: the item links to a PNG copy, the original is kept', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30" fill="#f00"/></svg>');
    const media = asMedia(await postForm(server, 'image', { image_file: file(svg, 'logo.svg', 'image/svg+xml') }, { token }));
    const shown = await fetchFile(media.items[0]?.url ?? '');
    expect(shown.bytes.subarray(0, 8)).toEqual(PNG_MAGIC);
    expect(shown.headers.get('content-type')).toBe('image/png');
    expect(media.files.map((stored) => stored.role).sort()).toEqual(['display', 'original', 'thumbnail']);
    expect(media.files.find((stored) => stored.role === 'original')?.content_type).toBe('image/svg+xml');
  });

  it('takes a file of limit − 1 and limit bytes, and refuses limit + 1 with 413', async () => {
    const limit = UPLOAD_RULES.image.maxBytes;
    for (const size of [limit - 1, limit]) {
      const answer = await postForm(server, 'image', { image_file: file(await pngOfSize(size), 'big.png', 'image/png') }, { token });
      expect(answer.status, `${size} bytes`).toBe(200);
      expect(asMedia(answer).files.find((stored) => stored.role === 'original')?.bytes).toBe(size);
    }
    const over = await postForm(server, 'image', { image_file: file(await pngOfSize(limit + 1), 'big.png', 'image/png') }, { token });
    expect(over.status).toBe(413);
    expect(over.body).toEqual({ detail: 'The file is too large: images can be at most 30 MB.' });
    }, BIG_BODIES_MS);

  it('refuses a GIF and a text file renamed .png with 415', async () => {
    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
    const refusedGif = await postForm(server, 'image', { image_file: file(gif, 'clip.gif', 'image/gif') }, { token });
    expect(refusedGif.status).toBe(415);
    expect(refusedGif.body?.detail).toMatch(/^This file type is not accepted for image uploads: "clip\.gif" is a GIF picture\./);
    const renamed = await postForm(server, 'image', { image_file: file(Buffer.from('just some words\n'), 'notes.png', 'image/png') }, { token });
    expect(renamed.status).toBe(415);
    expect(renamed.body?.detail).toMatch(/^This file type is not accepted for image uploads: "notes\.png" is plain text/);
    // A real PNG with an extension the list does not have is refused too.
    const wrongName = await postForm(server, 'image', { image_file: file(await smallPng(), 'photo.exe', 'image/png') }, { token });
    expect(wrongName.status).toBe(415);
  });

  it('answers 400 "No upload file" without a file and 401 without a token', async () => {
    const empty = await postForm(server, 'image', { note: 'no file here' }, { token });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ detail: 'No upload file' });
    const wrongField = await postForm(server, 'image', { audio_file: file(await smallPng(), 'a.png', 'image/png') }, { token });
    expect(wrongField).toMatchObject({ status: 400, body: { detail: 'This call takes a file only as image_file, not as audio_file.' } });
    expect((await postForm(server, 'image', { image_file: file(await smallPng(), 'a.png', 'image/png') })).status).toBe(401);
  });
});

describe('POST audio', () => {
  it('stores a WAV as an upload-audio media with its duration', async () => {
    const wav = wavOfSize(44 + 16_000);
    const media = asMedia(await postForm(server, 'audio', { audio_file: file(wav, 'voice note.wav', 'audio/wav') }, { token }));
    expect(media).toMatchObject({ kind: 'audio', tool: 'upload-audio', status: 'success', cost: 0 });
    expect(media.items[0]?.duration_seconds).toBeCloseTo(2, 5);
    expect(media.items[0]?.thumbnail_url).toBeNull();
    const served = await fetchFile(media.items[0]?.url ?? '');
    expect(served.headers.get('content-type')).toBe('audio/wav');
    expect(served.bytes.equals(wav)).toBe(true);
  });

  it('takes limit − 1 and limit bytes, and refuses limit + 1 with 413', async () => {
    const limit = UPLOAD_RULES.audio.maxBytes;
    for (const size of [limit - 1, limit]) {
      const answer = await postForm(server, 'audio', { audio_file: file(wavOfSize(size), 'long.wav', 'audio/wav') }, { token });
      expect(answer.status, `${size} bytes`).toBe(200);
    }
    const over = await postForm(server, 'audio', { audio_file: file(wavOfSize(limit + 1), 'long.wav', 'audio/wav') }, { token });
    expect(over.status).toBe(413);
    expect(over.body).toEqual({ detail: 'The file is too large: audio files can be at most 50 MB.' });
    }, BIG_BODIES_MS);

  it('refuses a picture sent as audio with 415', async () => {
    const answer = await postForm(server, 'audio', { audio_file: file(await smallPng(), 'song.mp3', 'audio/mpeg') }, { token });
    expect(answer.status).toBe(415);
    expect(answer.body?.detail).toMatch(/^This file type is not accepted for audio uploads: /);
  });
});

describe('POST users/me/file', () => {
  it('stores a base64 file and a data: URL, and answers a signed url', async () => {
    const png = await smallPng(30, 20);
    const plain = await callApi(server, 'users/me/file', {
      method: 'POST',
      token,
      json: { filename: 'avatar.png', type: 'image', content_type: 'image/png', blob: png.toString('base64') },
    });
    expect(plain.status).toBe(200);
    const { url } = uploadedUserFileSchema.parse(plain.body?.data);
    expect((await fetchFile(url)).bytes.equals(png)).toBe(true);
    expect(plain.body?.data).toMatchObject({ media_id: expect.any(String), file_id: expect.any(String) });

    const dataUrl = await callApi(server, 'users/me/file', {
      method: 'POST',
      token,
      json: { filename: 'avatar.png', type: 'image', content_type: 'image/png', blob: `data:image/png;base64,${png.toString('base64')}` },
    });
    expect(dataUrl.status).toBe(200);
    const media = await callApi(server, `media/${(dataUrl.body?.data as { media_id: string }).media_id}`, { token });
    expect(asMedia(media).tool).toBe('upload-image');
  });

  it('applies the same size and type checks (413, 415) and needs a token', async () => {
    const tooBig = await callApi(server, 'users/me/file', {
      method: 'POST',
      token,
      json: { filename: 'big.png', type: 'image', content_type: 'image/png', blob: (await pngOfSize(UPLOAD_RULES.image.maxBytes + 1)).toString('base64') },
    });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toEqual({ detail: 'The file is too large: images can be at most 30 MB.' });
    const text = await callApi(server, 'users/me/file', {
      method: 'POST',
      token,
      json: { filename: 'x.png', type: 'image', content_type: 'image/png', blob: Buffer.from('hello').toString('base64') },
    });
    expect(text.status).toBe(415);
    const badType = await callApi(server, 'users/me/file', {
      method: 'POST',
      token,
      json: { filename: 'x.png', type: 'document', content_type: 'image/png', blob: 'aGVsbG8=' },
    });
    expect(badType.status).toBe(400);
    expect((await callApi(server, 'users/me/file', { method: 'POST', json: { filename: 'x', type: 'image', content_type: 'x', blob: '' } })).status).toBe(401);
  });
});

describe('POST video', () => {
  it('stores an MP4 as an upload-video media and refuses a WAV', async () => {
    // A minimal ISO base media file: an ftyp box naming mp42, then an empty mdat.
    const ftyp = Buffer.concat([Buffer.from([0, 0, 0, 20]), Buffer.from('ftypmp42'), Buffer.from([0, 0, 0, 0]), Buffer.from('isom')]);
    const mdat = Buffer.concat([Buffer.from([0, 0, 0, 8]), Buffer.from('mdat')]);
    const mp4 = Buffer.concat([ftyp, mdat]);
    const media = asMedia(await postForm(server, 'video', { video_file: file(mp4, 'clip.mp4', 'video/mp4') }, { token }));
    expect(media).toMatchObject({ kind: 'video', tool: 'upload-video', status: 'success', cost: 0 });
    expect((await fetchFile(media.items[0]?.url ?? '')).headers.get('content-type')).toBe('video/mp4');
    const wav = await postForm(server, 'video', { video_file: file(wavOfSize(200), 'clip.mp4', 'video/mp4') }, { token });
    expect(wav.status).toBe(415);
  });
});

describe('uploaded pictures as generation inputs', () => {
  it('an image-to-image job renders from the uploaded picture', async () => {
    const picture = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#10a040' } }).png().toBuffer();
    const upload = asMedia(await postForm(server, 'image', { image_file: file(picture, 'field.png', 'image/png') }, { token }));
    const job = await postForm(
      server,
      'image/image-2-image',
      { image_url: upload.items[0]?.url ?? '', prompt: 'make it autumn', aspect_ratio: 'Origin', async_mode: 'false' },
      { token },
    );
    expect(job.status).toBe(200);
    const media = asMedia(job);
    expect(media.status).toBe('success_image');
    // Origin keeps the input's 3:2 ratio.
    expect((media.items[0]?.width ?? 0) / (media.items[0]?.height ?? 1)).toBeCloseTo(1.5, 1);
    expect(media.image_urls).toHaveLength(1);
    expect((await fetchFile(media.image_urls[0] ?? '')).bytes.equals(picture)).toBe(true);
  });
});

/** A PNG whose IHDR says `width` × `height` (its checksum fixed), over pixel data for a tiny picture. */
async function pngClaiming(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(await smallPng(8, 8));
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

describe('decode-checking uploaded pictures (issue 17)', () => {
  const mediaCount = async () =>
    Number((await server.db.query<{ count: string }>('SELECT count(*) AS count FROM media WHERE user_sub = $1', [sub])).rows[0]?.count);

  it('refuses a PNG cut short with 415 and stores nothing', async () => {
    const before = await mediaCount();
    const cut = (await smallPng(64, 64)).subarray(0, 60);
    const answer = await postForm(server, 'image', { image_file: file(cut, 'cut.png', 'image/png') }, { token });
    expect(answer.status).toBe(415);
    expect(answer.body?.detail).toMatch(/damaged or cut short/);
    expect(await mediaCount()).toBe(before);
  });

  it('refuses a pixel flood (a PNG claiming 60,000 × 60,000) with 413 before storing it', async () => {
    const before = await mediaCount();
    const flood = await pngClaiming(60_000, 60_000);
    const answer = await postForm(server, 'image', { image_file: file(flood, 'flood.png', 'image/png') }, { token });
    expect(answer.status).toBe(413);
    expect(answer.body?.detail).toMatch(/at most 100 megapixels/);
    const asJson = await callApi(server, 'users/me/file', {
      method: 'POST',
      token,
      json: { filename: 'flood.png', type: 'image', content_type: 'image/png', blob: flood.toString('base64') },
    });
    expect(asJson.status).toBe(413);
    expect(await mediaCount()).toBe(before);
  });
});
