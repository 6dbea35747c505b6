import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_RULES } from '../../../src/config/limits.ts';
import { parseFileLink } from '../../../server/src/jobs/file-signing.ts';
import { storedFileName } from '../../../server/src/lib/stored-file-name.ts';
import {
  asMedia,
  fetchFile,
  type FormFields,
  hasEnded,
  ledgerRows,
  multipartStart,
  pollStatus,
  postForm,
  sendUnfinished,
  smallPng,
} from '../helpers/media.ts';
import { callApi, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

/** Refusals and limits of the media, upload, file and account calls (review of issue 4). */

let server: TestServer;
let owner: Awaited<ReturnType<typeof signUpUser>>;
let other: Awaited<ReturnType<typeof signUpUser>>;
let picture: ReturnType<typeof asMedia>;
beforeAll(async () => {
  // Jobs long enough to still be running when a test acts on them.
  server = await startTestServer({ jobs: { durationMs: 1500, pollIntervalMs: 50, concurrency: 4 } });
  owner = await signUpUser(server, 'owner');
  other = await signUpUser(server, 'other');
  picture = asMedia(await postForm(server, 'image', { image_file: { data: await smallPng(60, 40), name: 'cat.png', type: 'image/png' } }, { token: owner.accessToken }));
});
afterAll(async () => {
  await server?.close();
});

const png = (name = 'p.png') => smallPng().then((data) => ({ data, name, type: 'image/png' }));
const MP4 = Buffer.concat([
  Buffer.from([0, 0, 0, 20]),
  Buffer.from('ftypmp42'),
  Buffer.from([0, 0, 0, 0]),
  Buffer.from('isom'),
  Buffer.from([0, 0, 0, 8]),
  Buffer.from('mdat'),
]);

describe('multipart file parts', () => {
  it('takes one file, in the call’s own field only: several files or another field are 400', async () => {
    const twice = await postForm(server, 'image', { image_file: [await png('a.png'), await png('b.png')] }, { token: owner.accessToken });
    expect(twice).toMatchObject({ status: 400, body: { detail: 'Send one file per call.' } });
    const extra = await postForm(server, 'image', { image_file: await png(), other: await png('c.png') }, { token: owner.accessToken });
    expect(extra).toMatchObject({ status: 400, body: { detail: 'This call takes a file only as image_file, not as other.' } });
    const onGeneration = await postForm(server, 'image/text-2-image', { prompt: 'x', image_file: await png() }, { token: owner.accessToken });
    expect(onGeneration).toMatchObject({ status: 400, body: { detail: 'This call takes picture URLs, not files.' } });
  });

  it('refuses a file part it does not take before reading it (the body is still being sent)', async () => {
    const boundary = 'kinora-test-boundary';
    const answer = await sendUnfinished(server, 'image', {
      token: owner.accessToken,
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      start: Buffer.concat([multipartStart(boundary, {}, { field: 'other_file', name: 'x.png', type: 'image/png' }), Buffer.alloc(1000)]),
      declaredLength: 50_000_000,
    });
    expect(answer.status).toBe(400);
    expect(answer.headers.connection).toBe('close');
  });

  it('answers 413 as soon as a file passes the limit, before the rest of the body arrives; text/prompt pictures have the image limit', async () => {
    const boundary = 'kinora-test-boundary';
    const head = multipartStart(boundary, { option: 'Image2Prompt' }, { field: 'image_file', name: 'big.png', type: 'image/png' });
    const answer = await sendUnfinished(server, 'text/prompt', {
      token: owner.accessToken,
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      start: Buffer.concat([head, Buffer.alloc(UPLOAD_RULES.image.maxBytes + 1024)]),
      declaredLength: UPLOAD_RULES.video.maxBytes,
      timeoutMs: 20_000,
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ detail: 'The file is too large: images can be at most 30 MB.' });
  });
});

describe('POST users/me/file', () => {
  it('refuses an anonymous sender before reading its (large) body', async () => {
    const answer = await sendUnfinished(server, 'users/me/file', {
      headers: { 'Content-Type': 'application/json' },
      start: Buffer.from('{"filename":"x.png","type":"image","content_type":"image/png","blob":"'),
      declaredLength: 200_000_000,
    });
    expect(answer.status).toBe(401);
  });
});

describe('generation fields', () => {
  it('keeps only the fields the tool takes, and caps every value', async () => {
    const media = asMedia(await postForm(server, 'image/text-2-image', { prompt: 'a kept prompt', note: 'dropped', __proto__x: 'y' }, { token: owner.accessToken }));
    expect(media.args).toEqual({ option: 'Seedream', prompt: 'a kept prompt', aspect_ratio: '1:1' });
    const long = await postForm(server, 'image/text-2-image', { prompt: 'x', note: 'n'.repeat(10_001) }, { token: owner.accessToken });
    expect(long).toMatchObject({ status: 400, body: { detail: 'note can be at most 10000 characters.' } });
    const longPrompt = await postForm(server, 'image/text-2-image', { prompt: 'p'.repeat(4001) }, { token: owner.accessToken });
    expect(longPrompt).toMatchObject({ status: 400, body: { detail: 'Prompt can be at most 4000 characters.' } });
    const many = Object.fromEntries(Array.from({ length: 61 }, (_, index) => [`f${index}`, 'x']));
    const crowded = await postForm(server, 'image/text-2-image', { prompt: 'x', ...many }, { token: owner.accessToken });
    expect(crowded).toMatchObject({ status: 400, body: { detail: 'Send at most 60 fields.' } });
    const repeated = await postForm(server, 'image/text-2-image', { prompt: ['one', 'two'] }, { token: owner.accessToken });
    expect(repeated).toMatchObject({ status: 400, body: { detail: 'prompt must be sent once.' } });
  });

  it('refuses a picture link with broken percent-encoding with the usual 400', async () => {
    expect(parseFileLink('/api/files/%E0%A4%A')).toBeNull();
    const answer = await postForm(server, 'image/image-2-image', { prompt: 'x', image_url: '/api/files/%E0%A4%A' }, { token: owner.accessToken });
    expect(answer).toMatchObject({ status: 400, body: { detail: 'image_url is not a file uploaded to Kinora.' } });
  });
});

describe("another user's picture", () => {
  it('is kept as the shared link itself, never as a file the answers would sign again', async () => {
    const shared = picture.items[0]?.url ?? '';
    const job = asMedia(await postForm(server, 'image/image-2-image', { prompt: 'borrowed', image_url: shared }, { token: other.accessToken }));
    expect(job.image_urls).toEqual([shared]);
    const record = asMedia(await postForm(server, 'media', { image_urls: [shared] }, { token: other.accessToken }));
    expect(record.image_urls).toEqual([shared]);
    const { rows } = await server.db.query<{ image_urls: unknown }>('SELECT image_urls FROM media WHERE id = ANY($1::text[]) ORDER BY id', [[job.id, record.id]]);
    expect(rows).toEqual([{ image_urls: [{ url: shared }] }, { image_urls: [{ url: shared }] }]);
    // The owner's own picture stays a file reference, signed afresh in each answer.
    const own = asMedia(await postForm(server, 'media', { image_urls: [shared] }, { token: owner.accessToken }));
    const ownRow = await server.db.query<{ image_urls: unknown }>('SELECT image_urls FROM media WHERE id = $1', [own.id]);
    expect(ownRow.rows[0]?.image_urls).toEqual([{ file_id: picture.items[0]?.file_id }]);
    await pollStatus(server, job.id, hasEnded);
  });

  it('is never signed by a public view, even when a row refers to it by file id', async () => {
    const record = asMedia(await postForm(server, 'media', { title: 'public' }, { token: other.accessToken }));
    await server.db.query(`UPDATE media SET visibility = 'public', image_urls = $2::jsonb WHERE id = $1`, [
      record.id,
      JSON.stringify([{ file_id: picture.items[0]?.file_id }]),
    ]);
    const view = await callApi(server, `media/${record.id}/view`);
    expect(view.status).toBe(200);
    expect(asMedia(view).image_urls).toEqual([]);
  });
});

describe('media records and edits', () => {
  it('PUT media/{id}/edit refuses a job that is still running', async () => {
    const job = asMedia(await postForm(server, 'image/text-2-image', { prompt: 'busy' }, { token: owner.accessToken }));
    const edit = await postForm(server, `media/${job.id}/edit`, { prompt: 'changed' }, { token: owner.accessToken, method: 'PUT' });
    expect(edit).toMatchObject({ status: 409, body: { detail: 'This job is still running; it cannot be edited.' } });
    expect(await pollStatus(server, job.id, hasEnded)).toBe('success_image');
    const done = asMedia(await callApi(server, `media/${job.id}`, { token: owner.accessToken }));
    expect(done.args.prompt).toBe('busy');
    const later = await postForm(server, `media/${job.id}/edit`, { note: 'afterwards' }, { token: owner.accessToken, method: 'PUT' });
    expect(asMedia(later).args).toMatchObject({ prompt: 'busy', note: 'afterwards' });
  });

  it('takes only known tools, http(s) or Kinora links, and plain field names', async () => {
    const cases: [Record<string, string | string[]>, string][] = [
      [{ tool: 'rm -rf' }, '"rm -rf" is not a Kinora tool.'],
      [{ image_urls: ['javascript:alert(1)'] }, 'image_urls must be a Kinora file link or an http(s) URL of at most 2048 characters.'],
      [{ image_urls: [`https://example.test/${'a'.repeat(2048)}`] }, 'image_urls must be a Kinora file link or an http(s) URL of at most 2048 characters.'],
      [{ 'bad-name': 'x' }, '"bad-name" is not a field name this call takes (letters, digits and _ only).'],
      [{ note: 'n'.repeat(10_001) }, 'note can be at most 10000 characters.'],
    ];
    for (const [fields, detail] of cases) {
      const answer = await postForm(server, 'media', fields, { token: owner.accessToken });
      expect(answer, JSON.stringify(fields).slice(0, 60)).toMatchObject({ status: 400, body: { detail } });
    }
    for (const tool of ['text-to-image', 'upload-image', 'media', 'lip-sync']) {
      expect((await postForm(server, 'media', { tool, image_urls: ['https://example.test/a.png'] }, { token: owner.accessToken })).status, tool).toBe(200);
    }
  });
});

describe('uploads', () => {
  it('stores a 300-character file name cut to 100 characters, keeping its extension', async () => {
    const answer = await postForm(server, 'image', { image_file: await png(`${'a'.repeat(300)}.png`) }, { token: owner.accessToken });
    expect(answer.status).toBe(200);
    const original = asMedia(answer).files.find((file) => file.role === 'original');
    expect(original?.name).toBe(`${'a'.repeat(96)}.png`);
    expect(storedFileName(`${'b'.repeat(150)}`)).toBe('b'.repeat(100));
    expect(storedFileName('short name.png')).toBe('short_name.png');
  });

  it('serves an SVG original only as a download of plain bytes', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><script>alert(1)</script></svg>');
    const media = asMedia(await postForm(server, 'image', { image_file: { data: svg, name: 'x.svg', type: 'image/svg+xml' } }, { token: owner.accessToken }));
    const original = media.files.find((file) => file.role === 'original');
    expect(original?.content_type).toBe('image/svg+xml');
    const link = await callApi<{ url: string }>(server, `media/${media.id}/file/${original?.id}/get-url`, { token: owner.accessToken });
    const served = await fetchFile(link.body?.data?.url ?? '');
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('application/octet-stream');
    expect(served.headers.get('content-disposition')).toBe('attachment; filename="x.svg"');
    // The displayable copy is still shown inline.
    const shown = await fetchFile(media.items[0]?.url ?? '');
    expect(shown.headers.get('content-type')).toBe('image/png');
    expect(shown.headers.get('content-disposition')).toMatch(/^inline;/);
  });

  it('keeps ?asset_id= and answers version 1 with no base_url (its results are absolute links)', async () => {
    const asset = await callApi<{ id: string }>(server, 'asset', { method: 'POST', token: owner.accessToken, json: { name: 'Uploads' } });
    const assetId = asset.body?.data?.id ?? '';
    const upload = asMedia(await postForm(server, `image?asset_id=${assetId}`, { image_file: await png() }, { token: owner.accessToken }));
    expect(upload).toMatchObject({ asset_id: assetId, version: '1', base_url: '' });
    // An asset that is not the caller's is refused before the file is read.
    const refused = await postForm(server, 'image?asset_id=asset-42', { image_file: await png() }, { token: owner.accessToken });
    expect(refused.status).toBe(400);
    const audio = asMedia(await postForm(server, 'audio/text-2-speech', { prompt: 'hi' }, { token: owner.accessToken }));
    expect(audio).toMatchObject({ version: '1', base_url: '' });
    await pollStatus(server, audio.id, hasEnded);
  });
});

describe('POST text/prompt with a video', () => {
  it('works for the text modes and says clearly that a video cannot be described', async () => {
    const video = asMedia(await postForm(server, 'video', { video_file: { data: MP4, name: 'clip.mp4', type: 'video/mp4' } }, { token: owner.accessToken }));
    const videoUrl = video.items[0]?.url ?? '';
    const suggest = await postForm(server, 'text/prompt', { option: 'SuggestPrompt', prompt: 'a dancer', mode: 'video', video_url: videoUrl }, { token: owner.accessToken });
    expect(suggest.status).toBe(200);
    const inspire = await postForm(server, 'text/prompt', { option: 'InspireMe', mode: 'video', video_file: { data: MP4, name: 'clip.mp4', type: 'video/mp4' } }, { token: owner.accessToken });
    expect(inspire.status).toBe(200);
    const videos: FormFields[] = [{ video_url: videoUrl }, { video_file: { data: MP4, name: 'clip.mp4', type: 'video/mp4' } }];
    for (const given of videos) {
      const guess = await postForm(server, 'text/prompt', { option: 'Image2Prompt', ...given }, { token: owner.accessToken });
      expect(guess).toMatchObject({ status: 400, body: { detail: 'Guess from picture needs a picture; videos are not described yet.' } });
    }
    const notVideo = await postForm(server, 'text/prompt', { option: 'SuggestPrompt', prompt: 'x', video_url: picture.items[0]?.url ?? '' }, { token: owner.accessToken });
    expect(notVideo).toMatchObject({ status: 400, body: { detail: 'video_url is not a video.' } });
  });
});

describe('DELETE users', () => {
  it('cancels and refunds live jobs and removes the media rows and files', async () => {
    const leaving = await signUpUser(server, 'leaving');
    const upload = asMedia(await postForm(server, 'image', { image_file: await png() }, { token: leaving.accessToken }));
    const live = asMedia(await postForm(server, 'image/text-2-image', { prompt: 'unfinished' }, { token: leaving.accessToken }));
    expect(existsSync(path.join(server.mediaDir, upload.id))).toBe(true);
    const answer = await callApi(server, 'users', { method: 'DELETE', token: leaving.accessToken });
    expect(answer.status).toBe(200);
    const { rows } = await server.db.query<{ n: number }>('SELECT count(*)::integer AS n FROM media WHERE user_sub = $1', [leaving.sub]);
    expect(rows[0]?.n).toBe(0);
    expect(existsSync(path.join(server.mediaDir, upload.id))).toBe(false);
    expect((await ledgerRows(server, leaving.sub)).filter((row) => row.job_id === live.id).map((row) => row.kind)).toEqual(['debit', 'refund']);
    expect((await callApi(server, `media/${live.id}/processing-status`)).status).toBe(404);
  });
});
