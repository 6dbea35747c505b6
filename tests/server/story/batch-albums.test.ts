import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAMERA_MOTIONS } from '../../../src/config/camera-motions.ts';
import { batchDeletedSchema, batchListSchema, batchSchema, type Batch, type ScriptBoard } from '../../../src/services/schemas/batch.ts';
import { asMedia, balanceOf, fetchFile, ledgerRows, postForm, smallPng, wavOfSize, type FormFields } from '../helpers/media.ts';
import { callApi, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * Batch albums against the real server: albums, script boards, paid clip generation and deletion.
 * Jobs here take a minute to process, so every clip stays live while the test looks at it (the
 * rendering of clips and the join are batch-concat.test.ts's).
 */

let server: TestServer;
type User = Awaited<ReturnType<typeof signUpUser>>;
let owner: User;
let other: User;
let pictures: string[];

const NOT_FOUND = 'Failed to find a Batch with this id';

async function uploadPicture(user: User, colour: string): Promise<string> {
  const upload = await postForm(server, 'image', { image_file: { data: await smallPng(96, 64, colour), name: 'p.png', type: 'image/png' } }, { token: user.accessToken });
  expect(upload.status).toBe(200);
  return asMedia(upload).items[0]?.url ?? '';
}

async function uploadAudio(user: User): Promise<string> {
  const upload = await postForm(server, 'audio', { audio_file: { data: wavOfSize(16_044), name: 'beat.wav', type: 'audio/wav' } }, { token: user.accessToken });
  expect(upload.status).toBe(200);
  return asMedia(upload).items[0]?.url ?? '';
}

const asBatch = (answer: { body: { data?: unknown } | null }): Batch => batchSchema.parse(answer.body?.data);

async function createAlbum(user: User, fields: FormFields, path = 'batch'): Promise<Batch> {
  const answer = await postForm(server, path, fields, { token: user.accessToken });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return asBatch(answer);
}

async function writeBoard(user: User, album: Batch, fields: FormFields = {}): Promise<Batch> {
  const answer = await postForm(server, `batch/${album.id}/script-board`, fields, { token: user.accessToken });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return asBatch(answer);
}

async function mediaOfBatch(batchId: string) {
  const { rows } = await server.db.query<{ id: string; tool: string; status: string; cost: number; args: Record<string, unknown> }>(
    'SELECT id, tool, status, cost, args FROM media WHERE batch_id = $1 ORDER BY created_at, id',
    [batchId],
  );
  return rows;
}

beforeAll(async () => {
  server = await startTestServer({ jobs: { durationMs: 60_000, pollIntervalMs: 100 } });
  [owner, other] = await Promise.all([signUpUser(server, 'albums'), signUpUser(server, 'stranger')]);
  pictures = [await uploadPicture(owner, '#cc3333'), await uploadPicture(owner, '#3366cc')];
});

afterAll(async () => {
  await server?.close();
});

describe('creating albums', () => {
  it('creates an AI album and a parallax album from the caller pictures, without a board', async () => {
    const ai = await createAlbum(owner, { batch_type: 'ai', title: 'Summer', image_urls: pictures, theme: 'beach' });
    expect(ai).toMatchObject({ batch_type: 'ai', title: 'Summer', script_board: null, videos: [], concat: null, args: { theme: 'beach' } });
    expect(ai.image_urls).toHaveLength(2);
    // The pictures are signed links of the owner's files, fetchable as they are.
    expect((await fetchFile(ai.image_urls[0] ?? '')).status).toBe(200);
    const parallax = await createAlbum(owner, { batch_type: 'parallax', image_urls: pictures.slice(0, 1) });
    expect(parallax).toMatchObject({ batch_type: 'parallax', title: '', script_board: null });
  });

  it('creates an advanced album with the person own board, stored as given', async () => {
    const board: ScriptBoard = {
      clips: [
        { id: 'a', image_url: pictures[1] ?? '', prompt: 'waves', motion_type: 'PanLeft', camera_path: null, model: 'PicoMotion', motion_length: 3, motion_amount: 4 },
      ],
    };
    const album = await createAlbum(owner, { batch_type: 'ai', image_urls: pictures, script_board: JSON.stringify(board) }, 'batch/advanced');
    expect(album.script_board?.clips).toHaveLength(1);
    expect(album.script_board?.clips[0]).toMatchObject({ id: 'a', prompt: 'waves', motion_type: 'PanLeft', model: 'PicoMotion', motion_length: 3 });
  });

  it.each([
    ['no batch_type', { image_urls: ['x'] }, /^batch_type must be one of ai, parallax\.$/],
    ['no pictures', { batch_type: 'ai' }, /^An album takes 1 to 12 pictures/],
    ['13 pictures', { batch_type: 'ai', image_urls: Array.from({ length: 13 }, () => 'p') }, /you sent 13\.$/],
    ['a link that is not a Kinora file', { batch_type: 'ai', image_urls: ['https://example.test/cat.png'] }, /^image_urls is not a file uploaded to Kinora\.$/],
  ])('refuses an album with %s (400)', async (_name, fields, detail) => {
    const answer = await postForm(server, 'batch', fields as FormFields, { token: owner.accessToken });
    expect(answer.status).toBe(400);
    expect(answer.body?.detail).toMatch(detail);
  });

  it('refuses another user picture named by its bare id, and an advanced album without a board or with a bad one', async () => {
    const theirs = await uploadPicture(other, '#00aa00');
    const bare = theirs.split('?')[0] ?? '';
    const stolen = await postForm(server, 'batch', { batch_type: 'ai', image_urls: [bare] }, { token: owner.accessToken });
    expect(stolen.status).toBe(400);
    const noBoard = await postForm(server, 'batch/advanced', { batch_type: 'ai', image_urls: pictures }, { token: owner.accessToken });
    expect(noBoard.status).toBe(400);
    const parallaxMotion = JSON.stringify({ clips: [{ id: 'a', image_url: pictures[0], motion_type: 'PanLeft' }] });
    const wrong = await postForm(server, 'batch/advanced', { batch_type: 'parallax', image_urls: pictures, script_board: parallaxMotion }, { token: owner.accessToken });
    expect(wrong.status).toBe(400);
    expect(wrong.body?.detail).toBe("script_board clip 1: a parallax clip's motion_type is Parallax.");
  });
});

describe('script boards', () => {
  it('writes an AI board: one clip per picture, described, with a different moving camera motion each', async () => {
    const album = await createAlbum(owner, { batch_type: 'ai', image_urls: pictures });
    const written = await writeBoard(owner, album, { model: 'PicoMotion', motion_length: '2' });
    const clips = written.script_board?.clips ?? [];
    expect(clips).toHaveLength(2);
    const motions = new Set(CAMERA_MOTIONS.map((motion) => motion.value));
    for (const clip of clips) {
      expect(clip.prompt.length).toBeGreaterThan(10);
      expect(motions.has(clip.motion_type)).toBe(true);
      expect(['Auto', 'Static']).not.toContain(clip.motion_type);
      expect(clip).toMatchObject({ model: 'PicoMotion', motion_length: 2, camera_path: null });
      expect((await fetchFile(clip.image_url)).status).toBe(200);
    }
    expect(clips[0]?.motion_type).not.toBe(clips[1]?.motion_type);
    expect(clips.map((clip) => clip.id)).toEqual(['clip-1', 'clip-2']);
  });

  it('writes a parallax board cycling through the camera paths, and replaces the pictures when sent', async () => {
    const album = await createAlbum(owner, { batch_type: 'parallax', image_urls: pictures.slice(0, 1) });
    const third = await uploadPicture(owner, '#777700');
    const written = await writeBoard(owner, album, { image_urls: [...pictures, third] });
    expect(written.image_urls).toHaveLength(3);
    expect(written.script_board?.clips.map((clip) => [clip.motion_type, clip.camera_path, clip.model, clip.prompt])).toEqual([
      ['Parallax', 'HorizontalArc', '', ''],
      ['Parallax', 'VerticalArc', '', ''],
      ['Parallax', 'Circular', '', ''],
    ]);
  });

  it('defaults the AI model to Auto and refuses a model that is not a motion model', async () => {
    const album = await createAlbum(owner, { batch_type: 'ai', image_urls: pictures.slice(0, 1) });
    expect((await writeBoard(owner, album)).script_board?.clips[0]?.model).toBe('Auto');
    const refused = await postForm(server, `batch/${album.id}/script-board`, { model: 'TryOnVideo' }, { token: owner.accessToken });
    expect(refused.status).toBe(400);
  });
});

describe('reading albums', () => {
  it('lists the caller albums newest first and answers one album with only the fields asked for', async () => {
    const user = await signUpUser(server, 'reader');
    const picture = await uploadPicture(user, '#111111');
    const first = await createAlbum(user, { batch_type: 'ai', title: 'first', image_urls: [picture] });
    const second = await createAlbum(user, { batch_type: 'parallax', title: 'second', image_urls: [picture] });
    const list = batchListSchema.parse((await callApi(server, 'batch', { token: user.accessToken })).body?.data);
    expect(list.items.map((item) => item.id)).toEqual([second.id, first.id]);
    const picked = await callApi<Record<string, unknown>>(server, `batch/${first.id}?fields=title`, { token: user.accessToken });
    expect(picked.status).toBe(200);
    expect(Object.keys(picked.body?.data ?? {}).sort()).toEqual(['batch_type', 'created_at', 'id', 'title', 'updated_at']);
    expect(batchSchema.parse(picked.body?.data).title).toBe('first');
  });

  it('treats another user album as unknown on every call (404 "Failed to find a Batch with this id")', async () => {
    const album = await createAlbum(owner, { batch_type: 'parallax', image_urls: pictures });
    const token = other.accessToken;
    const answers = [
      await callApi(server, `batch/${album.id}`, { token }),
      await postForm(server, `batch/${album.id}/script-board`, {}, { token }),
      await postForm(server, `batch/${album.id}/videos`, { script_board: '{"clips":[]}' }, { token }),
      await postForm(server, `batch/${album.id}/edit`, { title: 'mine now' }, { token, method: 'PUT' }),
      await callApi(server, `batch/${album.id}`, { token, method: 'DELETE' }),
      await callApi(server, 'batch/no-such-album', { token: owner.accessToken }),
    ];
    for (const answer of answers) expect([answer.status, answer.body?.detail]).toEqual([404, NOT_FOUND]);
    const list = batchListSchema.parse((await callApi(server, 'batch', { token })).body?.data);
    expect(list.items.map((item) => item.id)).not.toContain(album.id);
    expect((await callApi(server, `batch/${album.id}`, { token: owner.accessToken })).status).toBe(200);
  });
});

describe('generating the clips', () => {
  it('makes one paid video job per clip in one go, with the clip as a one-preset pose_preset', async () => {
    const user = await signUpUser(server, 'maker');
    const picture = await uploadPicture(user, '#884422');
    const album = await createAlbum(user, { batch_type: 'ai', image_urls: [picture, picture] });
    const board = (await writeBoard(user, album, { model: 'PicoMotion', motion_length: '2' })).script_board;
    const before = await balanceOf(server, user.sub);
    const answer = await postForm(server, `batch/${album.id}/videos`, { script_board: JSON.stringify(board) }, { token: user.accessToken });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const generated = asBatch(answer);
    expect(generated.videos).toHaveLength(2);
    const jobs = await mediaOfBatch(album.id);
    expect(jobs.map((job) => job.id)).toEqual(generated.videos.map((video) => video.id));
    // PicoMotion costs 20 per video: both debits, one per clip job.
    expect(await balanceOf(server, user.sub)).toBe(before - 40);
    const debits = (await ledgerRows(server, user.sub)).filter((row) => row.kind === 'debit');
    expect(debits.map((row) => [row.job_id, row.amount])).toEqual(jobs.map((job) => [job.id, -20]));
    for (const [index, job] of jobs.entries()) {
      const clip = board?.clips[index];
      const motion = CAMERA_MOTIONS.find((item) => item.value === clip?.motion_type);
      expect(job).toMatchObject({ tool: 'batch-clip', cost: 20 });
      expect(job.args).toMatchObject({ creation_type: 'ai-motion', motion_mode: 'image', option: 'PicoMotion', batch_clip_id: clip?.id });
      const presets = job.args.pose_preset as Record<string, unknown>[];
      expect(presets).toHaveLength(1);
      expect(presets[0]).toMatchObject({ motion_type: clip?.motion_type, quantity: 1, motion_length: 2, model: 'PicoMotion' });
      // The camera motion's text is appended to the clip's prompt, as on the video creation page.
      const prompt = String(presets[0]?.prompt);
      expect(prompt.startsWith(clip?.prompt.trim() ?? '-')).toBe(true);
      expect(prompt.endsWith(` ${motion?.prompt}`)).toBe(true);
    }
    // A parallax album's clips cost the parallax price, 20 each.
    const parallax = await createAlbum(user, { batch_type: 'parallax', image_urls: [picture] });
    const parallaxBoard = (await writeBoard(user, parallax, { motion_length: '2' })).script_board;
    const made = await postForm(server, `batch/${parallax.id}/videos`, { script_board: JSON.stringify(parallaxBoard) }, { token: user.accessToken });
    expect(made.status).toBe(200);
    const [clipJob] = await mediaOfBatch(parallax.id);
    expect(clipJob?.args).toMatchObject({ creation_type: 'parallax-motion', option: 'Parallax' });
    expect((clipJob?.args.pose_preset as Record<string, unknown>[])[0]).toMatchObject({ motion_type: 'Parallax', camera_path: 'HorizontalArc' });
    expect(await balanceOf(server, user.sub)).toBe(before - 60);
  });

  it('refuses the whole album with 402 when the credits do not cover every clip, creating nothing', async () => {
    const user = await signUpUser(server, 'short');
    const picture = await uploadPicture(user, '#224488');
    const album = await createAlbum(user, { batch_type: 'ai', image_urls: [picture, picture, picture] });
    // Auto: 40 per clip, 120 for three; a new account has 100.
    const board = (await writeBoard(user, album)).script_board;
    const answer = await postForm(server, `batch/${album.id}/videos`, { script_board: JSON.stringify(board) }, { token: user.accessToken });
    expect(answer.status).toBe(402);
    expect(answer.body?.detail).toBe('Not enough credits: this costs 120 credits and you have 100.');
    expect(await mediaOfBatch(album.id)).toEqual([]);
    expect(await balanceOf(server, user.sub)).toBe(100);
    const after = asBatch(await callApi(server, `batch/${album.id}`, { token: user.accessToken }));
    expect(after.videos).toEqual([]);
  });

  it('runs once per Idempotency-Key: a retry replays the album, a different body with the key is 422', async () => {
    const user = await signUpUser(server, 'retry');
    const picture = await uploadPicture(user, '#448822');
    const album = await createAlbum(user, { batch_type: 'parallax', image_urls: [picture] });
    const board = JSON.stringify((await writeBoard(user, album, { motion_length: '2' })).script_board);
    const headers = { 'Idempotency-Key': 'album-once' };
    const first = await postForm(server, `batch/${album.id}/videos`, { script_board: board }, { token: user.accessToken, headers });
    const again = await postForm(server, `batch/${album.id}/videos`, { script_board: board }, { token: user.accessToken, headers });
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(asBatch(again).videos.map((video) => video.id)).toEqual(asBatch(first).videos.map((video) => video.id));
    expect(await mediaOfBatch(album.id)).toHaveLength(1);
    expect(await balanceOf(server, user.sub)).toBe(80);
    const other = await postForm(server, `batch/${album.id}/videos`, { script_board: board, loop: '0' }, { token: user.accessToken, headers });
    expect(other.status).toBe(422);
  });

  it('refuses a board that does not fit the album type or names a picture the caller may not use', async () => {
    const album = await createAlbum(owner, { batch_type: 'parallax', image_urls: pictures });
    const clip = { id: 'c', image_url: pictures[0], motion_type: 'Parallax', camera_path: 'Sideways' };
    const badPath = await postForm(server, `batch/${album.id}/videos`, { script_board: JSON.stringify({ clips: [clip] }) }, { token: owner.accessToken });
    expect(badPath.status).toBe(400);
    expect(badPath.body?.detail).toMatch(/^script_board clip 1: camera_path must be one of HorizontalArc/);
    const empty = await postForm(server, `batch/${album.id}/videos`, { script_board: '{"clips":[]}' }, { token: owner.accessToken });
    expect([empty.status, empty.body?.detail]).toEqual([400, 'The script board has no clips.']);
    const theirs = (await uploadPicture(other, '#010101')).split('?')[0];
    const stolen = { ...clip, camera_path: 'Cross', image_url: theirs };
    const refused = await postForm(server, `batch/${album.id}/videos`, { script_board: JSON.stringify({ clips: [stolen] }) }, { token: owner.accessToken });
    expect([refused.status, refused.body?.detail]).toEqual([400, 'script_board clip 1 image_url is not a file uploaded to Kinora.']);
    expect(await mediaOfBatch(album.id)).toEqual([]);
  });
});

describe('editing', () => {
  it('keeps sounds, videos to join and extra videos, and refuses files of the wrong kind', async () => {
    const album = await createAlbum(owner, { batch_type: 'ai', image_urls: pictures });
    const audio = await uploadAudio(owner);
    const edited = await postForm(server, `batch/${album.id}/edit`, { audio_urls: [audio], title: 'Renamed', mood: 'calm' }, { token: owner.accessToken, method: 'PUT' });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const batch = asBatch(edited);
    expect(batch).toMatchObject({ title: 'Renamed', args: { mood: 'calm' } });
    expect(batch.audio_urls).toHaveLength(1);
    expect((await fetchFile(batch.audio_urls[0] ?? '')).status).toBe(200);
    const cleared = asBatch(await postForm(server, `batch/${album.id}/edit`, { audio_urls: '' }, { token: owner.accessToken, method: 'PUT' }));
    expect(cleared.audio_urls).toEqual([]);
    const pictureAsVideo = await postForm(server, `batch/${album.id}/edit`, { concat_video_urls: [pictures[0] ?? ''] }, { token: owner.accessToken, method: 'PUT' });
    expect([pictureAsVideo.status, pictureAsVideo.body?.detail]).toEqual([400, 'concat_video_urls is not a video.']);
    const pictureAsAudio = await postForm(server, `batch/${album.id}/edit`, { audio_urls: [pictures[0] ?? ''] }, { token: owner.accessToken, method: 'PUT' });
    expect(pictureAsAudio.status).toBe(400);
    const badJson = await postForm(server, `batch/${album.id}/edit`, { additional_videos: '[{' }, { token: owner.accessToken, method: 'PUT' });
    expect(badJson.status).toBe(400);
    const nothing = await postForm(server, `batch/${album.id}/edit`, { concat: 'true' }, { token: owner.accessToken, method: 'PUT' });
    expect([nothing.status, nothing.body?.detail]).toEqual([400, 'There is nothing to join yet: add videos (concat_video_urls or additional_videos).']);
  });
});

describe('deleting', () => {
  it('cancels and refunds the live clips, removes the album and its media, then answers 404', async () => {
    const user = await signUpUser(server, 'deleter');
    const picture = await uploadPicture(user, '#abcdef');
    const album = await createAlbum(user, { batch_type: 'parallax', image_urls: [picture, picture] });
    const board = JSON.stringify((await writeBoard(user, album, { motion_length: '2' })).script_board);
    expect((await postForm(server, `batch/${album.id}/videos`, { script_board: board }, { token: user.accessToken })).status).toBe(200);
    const clips = await mediaOfBatch(album.id);
    expect(clips).toHaveLength(2);
    expect(await balanceOf(server, user.sub)).toBe(60);
    const deleted = await callApi(server, `batch/${album.id}`, { token: user.accessToken, method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(batchDeletedSchema.parse(deleted.body?.data)).toEqual({ id: album.id, deleted: true });
    expect(await balanceOf(server, user.sub)).toBe(100);
    const refunds = (await ledgerRows(server, user.sub)).filter((row) => row.kind === 'refund');
    expect(refunds.map((row) => row.job_id).sort()).toEqual(clips.map((clip) => clip.id).sort());
    expect(await mediaOfBatch(album.id)).toEqual([]);
    for (const clip of clips) expect((await callApi(server, `media/${clip.id}`, { token: user.accessToken })).status).toBe(404);
    // The picture it was made from is the person's upload, not the album's: it stays.
    expect((await fetchFile(picture)).status).toBe(200);
    for (const answer of [
      await callApi(server, `batch/${album.id}`, { token: user.accessToken }),
      await callApi(server, `batch/${album.id}`, { token: user.accessToken, method: 'DELETE' }),
    ]) {
      expect([answer.status, answer.body?.detail]).toEqual([404, NOT_FOUND]);
    }
  });
});
