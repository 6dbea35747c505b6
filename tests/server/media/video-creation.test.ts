import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asMedia, balanceOf, ledgerRows, postForm, smallMp4, smallPng, type FormFields } from '../helpers/media.ts';
import { callApi, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * POST media with pose_preset (contract §1): validation, cost, 402, Idempotency-Key, the Developer
 * group. The jobs here never leave their source stage (a minute-long model time), so nothing is
 * rendered: video-jobs.test.ts follows jobs to their videos.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ jobs: { durationMs: 60_000, pollIntervalMs: 100, concurrency: 2 } });
});
afterAll(async () => {
  await server?.close();
});

type User = Awaited<ReturnType<typeof signUpUser>>;
type Caller = Pick<User, 'accessToken'>;

async function uploadPicture(user: Caller, colour = '#3366cc'): Promise<string> {
  const upload = asMedia(await postForm(server, 'image', { image_file: { data: await smallPng(96, 64, colour), name: 'p.png', type: 'image/png' } }, { token: user.accessToken }));
  const url = upload.items[0]?.url;
  if (!url) throw new Error('the upload answered no url');
  return url;
}

const parallax = (cameraPath: string, quantity = 1) => ({ motion_type: 'Parallax', camera_path: cameraPath, quantity, motion_length: 2, loop: 1, prompt: '', model: 'Parallax' });
const motion = (extra: Record<string, unknown> = {}) => ({ motion_type: 'ZoomIn', prompt: 'waves. Camera zoom in', quantity: 1, motion_amount: 5, motion_length: 2, loop: 0, model: 'KlingAI', ...extra });

async function create(user: Caller, fields: FormFields, headers: Record<string, string> = {}) {
  return postForm(server, 'media', fields, { token: user.accessToken, headers });
}

async function mediaCount(sub: string): Promise<number> {
  const { rows } = await server.db.query<{ n: number }>('SELECT count(*)::integer AS n FROM media WHERE user_sub = $1 AND kind = $2', [sub, 'video']);
  return rows[0]?.n ?? 0;
}

let user: User;
let picture: string;
let secondPicture: string;
beforeAll(async () => {
  user = await signUpUser(server, 'maker');
  picture = await uploadPicture(user);
  secondPicture = await uploadPicture(user, '#cc3366');
});

describe('a parallax job', () => {
  it('is a queued video job: one item per video in preset order, v3 presets kept, 20 credits a video debited', async () => {
    const before = await balanceOf(server, user.sub);
    const answer = await create(user, {
      creation_type: 'parallax-motion',
      option: 'Parallax',
      image_urls: [picture],
      pose_preset: JSON.stringify([parallax('HorizontalArc', 2), parallax('Circular')]),
    });
    expect(answer.status).toBe(200);
    const media = asMedia(answer);
    expect(media).toMatchObject({ kind: 'video', tool: 'parallax-motion', option: 'Parallax', version: '3', cost: 60, status: 'queue_source' });
    expect(media.items.map((item) => item.status)).toEqual(['new', 'new', 'new']);
    expect(media.base_url).toMatch(new RegExp(`/api/files/m/${media.id}/\\d+/[0-9a-f]{64}$`));
    expect(media.args).toMatchObject({ creation_type: 'parallax-motion', option: 'Parallax' });
    expect((media.args.pose_preset as { camera_path: string }[]).map((preset) => preset.camera_path)).toEqual(['HorizontalArc', 'Circular']);
    expect(media.image_urls).toHaveLength(1);
    expect(await balanceOf(server, user.sub)).toBe(before - 60);
    const debit = (await ledgerRows(server, user.sub)).filter((row) => row.job_id === media.id);
    expect(debit).toEqual([{ kind: 'debit', amount: -60, job_id: media.id }]);
    // Cancelled: refunded once, the answer says so.
    const cancelled = await callApi(server, `media/${media.id}/cancel`, { method: 'PUT', token: user.accessToken, json: {} });
    expect(asMedia(cancelled)).toMatchObject({ status: 'cancelled', refunded: true });
    expect(await balanceOf(server, user.sub)).toBe(before);
  });

  it('accepts the legacy pose_preset format (MotionType + Params) and stores it as v3', async () => {
    const answer = await create(user, {
      creation_type: 'parallax-motion',
      image_urls: [picture],
      pose_preset: JSON.stringify({ MotionType: 'Parallax', Params: 'CameraPath=StepIn|Quantity=2|MotionLength=3|Loop=0' }),
    });
    expect(answer.status).toBe(200);
    const media = asMedia(answer);
    expect(media.args.pose_preset).toEqual([
      { motion_type: 'Parallax', prompt: '', quantity: 2, motion_amount: 5, motion_length: 3, loop: 0, model: '', camera_path: 'StepIn' },
    ]);
    expect(media.items).toHaveLength(2);
    expect(media.cost).toBe(40);
    await callApi(server, `media/${media.id}`, { method: 'DELETE', token: user.accessToken });
  });
});

describe('validation (400 with a readable detail, nothing charged)', () => {
  const cases: [string, () => FormFields, RegExp][] = [
    ['an unknown creation type', () => ({ creation_type: 'dance', pose_preset: JSON.stringify(parallax('Cross')) }), /creation_type must be one of ai-motion, parallax-motion/],
    ['a pose_preset that is not JSON', () => ({ creation_type: 'parallax-motion', image_urls: [picture], pose_preset: '{nope' }), /pose_preset must be JSON/],
    ['a camera path SPEC does not have', () => ({ creation_type: 'parallax-motion', image_urls: [picture], pose_preset: JSON.stringify(parallax('Spiral')) }), /camera_path must be one of HorizontalArc, VerticalArc, Circular/],
    ['one camera path twice', () => ({ creation_type: 'parallax-motion', image_urls: [picture], pose_preset: JSON.stringify([parallax('Cross'), parallax('Cross')]) }), /each camera path can be chosen once/],
    ['a quantity above 4', () => ({ creation_type: 'parallax-motion', image_urls: [picture], pose_preset: JSON.stringify(parallax('Cross', 5)) }), /quantity must be a whole number from 1 to 4/],
    ['a motion length of 11 s', () => ({ creation_type: 'parallax-motion', image_urls: [picture], pose_preset: JSON.stringify({ ...parallax('Cross'), motion_length: 11 }) }), /motion_length must be a number from 2 to 10/],
    [
      'more than 8 videos',
      () => ({ creation_type: 'parallax-motion', image_urls: [picture], pose_preset: JSON.stringify([parallax('Cross', 3), parallax('StepL', 3), parallax('StepR', 3)]) }),
      /at most 8 videos; these presets ask for 9/,
    ],
    ['parallax without its picture', () => ({ creation_type: 'parallax-motion', pose_preset: JSON.stringify(parallax('Cross')) }), /send 1 picture as image_urls \(got 0\)/],
    [
      'a transition with a model that has no end frame',
      () => ({ creation_type: 'ai-motion', motion_mode: 'transition', option: 'Kling2', image_urls: [picture, secondPicture], pose_preset: JSON.stringify(motion({ model: 'Kling2' })) }),
      /Kling 2 cannot make a transition to an end frame/,
    ],
    [
      'a composer with one picture',
      () => ({ creation_type: 'ai-motion', motion_mode: 'composer', option: 'KlingAI', image_urls: [picture], pose_preset: JSON.stringify(motion()) }),
      /The video composer: send 2 to 6 pictures as image_urls \(got 1\)/,
    ],
    ['a text video without a prompt', () => ({ creation_type: 'ai-motion', motion_mode: 'text', option: 'KlingAI', pose_preset: JSON.stringify(motion({ prompt: '' })) }), /needs a prompt/],
    ['a camera motion SPEC does not have', () => ({ creation_type: 'ai-motion', option: 'KlingAI', image_urls: [picture], pose_preset: JSON.stringify(motion({ motion_type: 'Wobble' })) }), /motion_type must be one of Auto, Static/],
    ['two presets for AI Motion', () => ({ creation_type: 'ai-motion', option: 'KlingAI', image_urls: [picture], pose_preset: JSON.stringify([motion(), motion()]) }), /exactly one preset/],
    ['a model that is not a motion model', () => ({ creation_type: 'ai-motion', option: 'Seedream', image_urls: [picture], pose_preset: JSON.stringify(motion()) }), /option must be one of the motion models for ai-motion/],
    ['extend video without its video', () => ({ creation_type: 'extend-video', option: 'KlingAI', pose_preset: JSON.stringify(motion()) }), /Extend video needs the video to extend as video_url/],
    ['character animate without its driving video', () => ({ creation_type: 'character-animate', option: 'KlingAI', image_urls: [picture], pose_preset: JSON.stringify(motion()) }), /needs the driving video as video_url/],
    ['a picture given as the video', () => ({ creation_type: 'extend-video', option: 'KlingAI', video_url: picture, pose_preset: JSON.stringify(motion()) }), /^video_url is not a video\.$/],
    ['a frame selection that is neither First nor Last', () => ({ creation_type: 'extend-video', option: 'KlingAI', video_url: picture, frame_selection: 'Middle', pose_preset: JSON.stringify(motion()) }), /frame_selection must be First or Last/],
    ['try-on with one picture', () => ({ creation_type: 'try-on', image_urls: [picture], pose_preset: JSON.stringify(motion({ model: 'TryOnVideo' })) }), /Try on \(a person, then the clothes\): send 2 pictures/],
    ['a link that is not a Kinora file', () => ({ creation_type: 'parallax-motion', image_urls: ['https://example.com/p.png'], pose_preset: JSON.stringify(parallax('Cross')) }), /image_urls is not a file uploaded to Kinora/],
  ];
  it.each(cases)('refuses %s', async (_name, fields, detail) => {
    const before = await balanceOf(server, user.sub);
    const count = await mediaCount(user.sub);
    const answer = await create(user, fields());
    expect(answer.status).toBe(400);
    expect(answer.body?.detail).toMatch(detail);
    expect(await balanceOf(server, user.sub)).toBe(before);
    expect(await mediaCount(user.sub)).toBe(count);
  });
});

describe('credits', () => {
  it('answers 402 with the cost and the balance when the credits do not cover it, and creates nothing', async () => {
    const poor = await signUpUser(server, 'poor');
    const own = await uploadPicture(poor);
    const balance = await balanceOf(server, poor.sub);
    // Veo costs 160 a video; a new account has less.
    const answer = await create(poor, { creation_type: 'ai-motion', option: 'Veo', image_urls: [own], pose_preset: JSON.stringify(motion({ model: 'Veo' })) });
    expect(answer.status).toBe(402);
    expect(answer.body?.detail).toBe(`Not enough credits: this costs 160 credits and you have ${balance}.`);
    expect(await mediaCount(poor.sub)).toBe(0);
  });

  it('costs videos × the model’s credits for AI Motion (Kling AI, 2 videos = 80)', async () => {
    const answer = await create(user, {
      creation_type: 'ai-motion',
      motion_mode: 'image',
      option: 'KlingAI',
      image_urls: [picture],
      prompt_strength: '70',
      pose_preset: JSON.stringify(motion({ quantity: 2 })),
    });
    expect(answer.status).toBe(200);
    const media = asMedia(answer);
    expect(media).toMatchObject({ tool: 'ai-motion', option: 'KlingAI', cost: 80 });
    expect(media.args).toMatchObject({ motion_mode: 'image', prompt: 'waves. Camera zoom in', prompt_strength: 70 });
    expect(media.items).toHaveLength(2);
    await callApi(server, `media/${media.id}`, { method: 'DELETE', token: user.accessToken });
  });

  it('does not charge the Developer group', async () => {
    const username = `videodev${Date.now().toString(36)}`;
    const developer = await server.emulator.createUser({ username, email: `${username}@example.test`, password: 'secret-password-1', groups: ['Developer'] });
    const own = await uploadPicture(developer);
    const answer = await create(developer, {
      creation_type: 'parallax-motion',
      image_urls: [own],
      pose_preset: JSON.stringify(parallax('VerticalArc')),
    });
    expect(answer.status).toBe(200);
    const media = asMedia(answer);
    expect(media.cost).toBe(0);
    expect((await ledgerRows(server, developer.sub)).filter((row) => row.job_id === media.id)).toEqual([]);
    await callApi(server, `media/${media.id}`, { method: 'DELETE', token: developer.accessToken });
  });

  it('replays an Idempotency-Key: one job, one debit, the same media answered again', async () => {
    const fields = { creation_type: 'parallax-motion', image_urls: [picture], pose_preset: JSON.stringify(parallax('StepU')) };
    const headers = { 'Idempotency-Key': 'parallax-click' };
    const first = await create(user, fields, headers);
    const second = await create(user, fields, headers);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(asMedia(second).id).toBe(asMedia(first).id);
    expect((await ledgerRows(server, user.sub)).filter((row) => row.job_id === asMedia(first).id && row.kind === 'debit')).toHaveLength(1);
    const changed = await create(user, { ...fields, pose_preset: JSON.stringify(parallax('StepD')) }, headers);
    expect(changed.status).toBe(422);
    await callApi(server, `media/${asMedia(first).id}`, { method: 'DELETE', token: user.accessToken });
  });
});

describe('POST media without pose_preset', () => {
  it('stays a plain record without a job', async () => {
    const answer = await create(user, { title: 'kept for later', image_urls: [picture] });
    expect(asMedia(answer)).toMatchObject({ status: 'success_source', cost: 0, version: '1', base_url: '' });
  });
});

describe('a creation from a video longer than 30 s (issue 17)', () => {
  it('says in its args that only the first 30 s of the video are used (Extend video)', async () => {
    const upload = asMedia(await postForm(server, 'video', { video_file: { data: await smallMp4(32, 32, 32, 1), name: 'long.mp4', type: 'video/mp4' } }, { token: user.accessToken }));
    const video = upload.items[0]?.url ?? '';
    const answer = await create(user, { creation_type: 'extend-video', option: 'KlingAI', video_url: video, pose_preset: JSON.stringify(motion()) });
    expect(answer.status, answer.body?.detail).toBe(200);
    const cut = (asMedia(answer).args.cut_inputs ?? []) as { field: string; seconds: number; used_seconds: number }[];
    expect(cut).toHaveLength(1);
    expect(cut[0]).toMatchObject({ field: 'video_url', used_seconds: 30 });
    expect(cut[0]?.seconds).toBeGreaterThan(30);
  });
});
