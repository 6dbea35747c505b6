import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATION_TOOLS, toolEndpoints } from '../../../src/config/generation-tools.ts';
import { MODEL_COSTS } from '../../../src/config/model-costs.ts';
import type { Media } from '../../../src/services/schemas/media.ts';
import { asMedia, balanceOf, type FormFields, ledgerRows, postForm, smallMp4, smallPng, wavOfSize } from '../helpers/media.ts';
import { callApi, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * SPEC §7 video/*: the AI Video editing calls. Each is a credit-spending job of kind video whose
 * fields are checked against the tool's spec (inputs by media kind, per-operation calls, effects,
 * choices, lip sync's audio-or-prompt) before anything is charged.
 */

type User = Awaited<ReturnType<typeof signUpUser>>;

let server: TestServer;
let owner: User;
let videoUrl: string;
let pictureUrl: string;
let audioUrl: string;

async function upload(user: User, endpoint: 'image' | 'video' | 'audio', field: string, file: { data: Buffer; name: string; type: string }): Promise<string> {
  const answer = await postForm(server, endpoint, { [field]: file }, { token: user.accessToken });
  expect(answer.status, `upload ${file.name}`).toBe(200);
  return asMedia(answer).items[0]?.url ?? '';
}

/** Gives the user credits beyond the starting 100 (Restyle Video costs 240). */
async function grant(user: User, amount: number): Promise<void> {
  // The first call creates the user's row with the starting grant.
  expect((await callApi(server, 'credits/get', { token: user.accessToken })).status).toBe(200);
  await server.db.query("INSERT INTO credit_ledger (user_sub, amount, kind, reason) VALUES ($1, $2, 'grant', 'test')", [user.sub, amount]);
}

const call = (user: User, endpoint: string, fields: FormFields, headers: Record<string, string> = {}) =>
  postForm(server, endpoint, fields, { token: user.accessToken, headers });

async function debitsOf(user: User, jobId: string): Promise<number[]> {
  return (await ledgerRows(server, user.sub)).filter((row) => row.job_id === jobId && row.kind === 'debit').map((row) => row.amount);
}

async function storedJob(id: string) {
  const { rows } = await server.db.query<{ kind: string; tool: string; endpoint: string; option: string; inputs: { field: string; file_id: string }[] }>(
    'SELECT kind, tool, endpoint, option, inputs FROM media WHERE id = $1',
    [id],
  );
  return rows[0];
}

/**
 * Starts a server for the enclosing describe, with the owner's video, picture and audio uploaded.
 * The validation suites keep their jobs waiting (nothing renders behind their backs); the render
 * suite runs them at once, on a server of its own so no backlog from the others delays it.
 */
function useServer(jobs: { durationMs: number; concurrency: number }): void {
  beforeAll(async () => {
    server = await startTestServer({ jobs: { ...jobs, pollIntervalMs: 100 } });
    owner = await signUpUser(server, 'editor');
    await grant(owner, 100_000);
    videoUrl = await upload(owner, 'video', 'video_file', { data: await smallMp4(), name: 'clip.mp4', type: 'video/mp4' });
    pictureUrl = await upload(owner, 'image', 'image_file', { data: await smallPng(64, 48), name: 'face.png', type: 'image/png' });
    // One second of 8 kHz mono PCM.
    audioUrl = await upload(owner, 'audio', 'audio_file', { data: wavOfSize(8044), name: 'speech.wav', type: 'audio/wav' });
  });
  afterAll(async () => {
    await server?.close();
  });
}

/** Long enough that a queued job is still waiting when its suite ends. */
const JOBS_WAIT = { durationMs: 10 * 60 * 1000, concurrency: 2 };

/** One accepted call per operation and tool, with what its job must keep. */
const acceptedCalls = (): { endpoint: string; fields: FormFields; tool: string; option: string; args: Record<string, unknown>; inputs: string[] }[] => [
  {
    endpoint: 'video/crop-to-aspect-ratio',
    fields: { video_url: videoUrl, aspect_ratio: '9:16', prompt: 'not used by crop' },
    tool: 'edit-video',
    option: 'CropToAspectRatio',
    args: { option: 'CropToAspectRatio', aspect_ratio: '9:16' },
    inputs: ['video_url'],
  },
  {
    endpoint: 'video/enhance',
    fields: { video_url: videoUrl, aspect_ratio: '1:1' },
    tool: 'edit-video',
    option: 'EnhanceVideo',
    args: { option: 'EnhanceVideo', enhance_mode: 'DeepClean' },
    inputs: ['video_url'],
  },
  {
    endpoint: 'video/sound-effect',
    fields: { video_url: videoUrl, prompt: 'waves on a pebble beach', option: 'SoundEffect' },
    tool: 'edit-video',
    option: 'SoundEffect',
    args: { option: 'SoundEffect', prompt: 'waves on a pebble beach' },
    inputs: ['video_url'],
  },
  {
    endpoint: 'video/reframe',
    fields: { video_url: videoUrl, prompt: 'a wide meadow', aspect_ratio: '16:9' },
    tool: 'edit-video',
    option: 'LumaReframeVideo',
    args: { option: 'LumaReframeVideo', prompt: 'a wide meadow', aspect_ratio: '16:9' },
    inputs: ['video_url'],
  },
  {
    endpoint: 'video/audio',
    fields: { video_url: videoUrl, audio_url: audioUrl, mode: 'PadAudio' },
    tool: 'edit-video',
    option: 'AttachAudio',
    args: { option: 'AttachAudio', mode: 'PadAudio' },
    inputs: ['video_url', 'audio_url'],
  },
  {
    endpoint: 'video/video-effects',
    fields: { image_url: pictureUrl, option: 'PikaEffects', effect: 'melt' },
    tool: 'video-effects',
    option: 'PikaEffects',
    args: { option: 'PikaEffects', effect: 'melt' },
    inputs: ['image_url'],
  },
  {
    endpoint: 'video/lip-sync',
    fields: { image_url: pictureUrl, prompt: 'Hello there.', voice: 'Roger' },
    tool: 'lip-sync',
    option: 'LipSync',
    args: { option: 'LipSync', prompt: 'Hello there.', voice: 'Roger' },
    inputs: ['image_url'],
  },
  {
    endpoint: 'video/lip-sync',
    // With an audio file the prompt and voice are not used, so the job does not keep them.
    fields: { video_url: videoUrl, audio_url: audioUrl, prompt: 'ignored', voice: 'Roger', option: 'AvatarLipSync' },
    tool: 'lip-sync',
    option: 'AvatarLipSync',
    args: { option: 'AvatarLipSync' },
    inputs: ['video_url', 'audio_url'],
  },
  {
    endpoint: 'video/replace-background',
    fields: { video_url: videoUrl, bg_image_url: pictureUrl, prompt: 'a beach' },
    tool: 'replace-background-video',
    option: 'ReplaceBackgroundVideo',
    args: { option: 'ReplaceBackgroundVideo', prompt: 'a beach' },
    inputs: ['video_url', 'bg_image_url'],
  },
  {
    endpoint: 'video/replace-background',
    fields: { video_url: videoUrl, bg_video_url: videoUrl },
    tool: 'replace-background-video',
    option: 'ReplaceBackgroundVideo',
    args: { option: 'ReplaceBackgroundVideo' },
    inputs: ['video_url', 'bg_video_url'],
  },
  {
    endpoint: 'video/modify',
    fields: { video_url: videoUrl, image_url: pictureUrl, prompt: 'ink wash' },
    tool: 'modify-video',
    option: 'LumaModify',
    args: { option: 'LumaModify', prompt: 'ink wash' },
    inputs: ['video_url', 'image_url'],
  },
];

describe('video tool calls', () => {
  useServer(JOBS_WAIT);

  describe('every generation call is served', () => {
    it('registers every endpoint of every tool (Edit Video: one per operation)', async () => {
      const endpoints = GENERATION_TOOLS.flatMap(toolEndpoints);
      expect(endpoints).toEqual(expect.arrayContaining(['video/enhance', 'video/audio', 'video/reframe', 'video/lip-sync', 'video/modify']));
      for (const endpoint of endpoints) {
        // Without a token a served call answers 401; an unknown path would be 404.
        expect((await postForm(server, endpoint, { prompt: 'x' })).status, endpoint).toBe(401);
      }
    });
  });

  describe('video tool calls queue a video job and debit the model cost', () => {
    // The table's links exist only once beforeAll has uploaded the files: each case builds it again.
    it.each(acceptedCalls().map((item, index) => [`${item.endpoint} ${item.option} #${index}`, index] as const))('%s', async (_name, index) => {
      const item = acceptedCalls()[index];
      if (!item) throw new Error('no such call');
      const answer = await call(owner, item.endpoint, item.fields);
      expect(answer.status, answer.body?.detail).toBe(200);
      const media = asMedia(answer);
      const cost = MODEL_COSTS[item.option as keyof typeof MODEL_COSTS];
      expect(media).toMatchObject({ kind: 'video', tool: item.tool, option: item.option, cost });
      expect(media.args).toEqual(item.args);
      const stored = await storedJob(media.id);
      expect(stored).toMatchObject({ kind: 'video', tool: item.tool, endpoint: item.endpoint, option: item.option });
      expect(stored?.inputs.map((input) => input.field)).toEqual(item.inputs);
      expect(await debitsOf(owner, media.id)).toEqual(cost > 0 ? [-cost] : []);
    });

    it('AttachAudio is free: accepted with no credits left, and no debit', async () => {
      const user = await signUpUser(server, 'broke');
      const video = await upload(user, 'video', 'video_file', { data: await smallMp4(6), name: 'v.mp4', type: 'video/mp4' });
      const audio = await upload(user, 'audio', 'audio_file', { data: wavOfSize(4044), name: 'a.wav', type: 'audio/wav' });
      await server.db.query("INSERT INTO credit_ledger (user_sub, amount, kind, reason) VALUES ($1, -100, 'debit', 'spent')", [user.sub]);
      const answer = await call(user, 'video/audio', { video_url: video, audio_url: audio });
      expect(answer.status, answer.body?.detail).toBe(200);
      const media = asMedia(answer);
      expect(media).toMatchObject({ cost: 0, option: 'AttachAudio' });
      expect(media.args).toEqual({ option: 'AttachAudio', mode: 'MatchVideo' });
      expect(await debitsOf(user, media.id)).toEqual([]);
      expect(await balanceOf(server, user.sub)).toBe(0);
    });

    it('says in the args when an input is longer than 30 s and only its first 30 s are used (issue 17)', async () => {
      // 31 seconds of 8 kHz mono 8-bit PCM.
      const long = await upload(owner, 'audio', 'audio_file', { data: wavOfSize(44 + 31 * 8000), name: 'long.wav', type: 'audio/wav' });
      const answer = await call(owner, 'video/audio', { video_url: videoUrl, audio_url: long });
      expect(answer.status, answer.body?.detail).toBe(200);
      expect(asMedia(answer).args).toEqual({
        option: 'AttachAudio',
        mode: 'MatchVideo',
        cut_inputs: [{ field: 'audio_url', seconds: 31, used_seconds: 30 }],
      });
    });

    it('answers 402 when the credits do not cover the model, and creates nothing', async () => {
      const user = await signUpUser(server, 'short');
      const video = await upload(user, 'video', 'video_file', { data: await smallMp4(6), name: 'v.mp4', type: 'video/mp4' });
      const answer = await call(user, 'video/modify', { video_url: video, prompt: 'oil paint' });
      expect(answer.status).toBe(402);
      expect(answer.body).toEqual({ detail: 'Not enough credits: this costs 240 credits and you have 100.' });
      const { rows } = await server.db.query('SELECT id FROM media WHERE user_sub = $1 AND kind = $2', [user.sub, 'video']);
      // Only the upload is a video media item.
      expect(rows).toHaveLength(1);
      expect(await balanceOf(server, user.sub)).toBe(100);
    });

    it('replays a call with the same Idempotency-Key: one job, one debit', async () => {
      const user = await signUpUser(server, 'twice');
      const video = await upload(user, 'video', 'video_file', { data: await smallMp4(6), name: 'v.mp4', type: 'video/mp4' });
      const headers = { 'Idempotency-Key': 'enhance-once' };
      const fields = { video_url: video, enhance_mode: '2X&DeepClean' };
      const first = await call(user, 'video/enhance', fields, headers);
      const second = await call(user, 'video/enhance', fields, headers);
      expect(first.status, first.body?.detail).toBe(200);
      expect(second.status).toBe(200);
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expect(asMedia(second).id).toBe(asMedia(first).id);
      expect(asMedia(first).args).toEqual({ option: 'EnhanceVideo', enhance_mode: '2X&DeepClean' });
      const debits = (await ledgerRows(server, user.sub)).filter((row) => row.kind === 'debit');
      expect(debits).toEqual([{ kind: 'debit', amount: -40, job_id: asMedia(first).id }]);
      // The same key on another operation's call is another request.
      expect((await call(user, 'video/crop-to-aspect-ratio', fields, headers)).status).toBe(422);
    });
  });

  describe('video tool calls validate their fields before charging', () => {
    const refusals = (): [string, string, FormFields, string][] => [
      ['a model sent to another operation', 'video/enhance', { video_url: videoUrl, option: 'CropToAspectRatio' }, '"CropToAspectRatio" is not a model of video/enhance: send it to video/crop-to-aspect-ratio.'],
      ['a model of another tool', 'video/crop-to-aspect-ratio', { video_url: videoUrl, option: 'LumaModify' }, '"LumaModify" is not an available model for Edit Video.'],
      ['no video', 'video/crop-to-aspect-ratio', { aspect_ratio: '1:1' }, 'Video is required (video_url).'],
      ['a ratio not offered', 'video/crop-to-aspect-ratio', { video_url: videoUrl, aspect_ratio: 'Origin' }, 'aspect_ratio must be one of 16:9, 9:16, 1:1, 4:3, 3:4.'],
      ['an unknown upscale', 'video/enhance', { video_url: videoUrl, enhance_mode: '8X' }, 'enhance_mode must be one of DeepClean, 2X&DeepClean, 4X&DeepClean.'],
      ['an unknown sync mode', 'video/audio', { video_url: videoUrl, audio_url: audioUrl, mode: 'Stretch' }, 'mode must be one of MatchVideo, PadAudio, MatchAudio, Strict.'],
      ['attach audio without audio', 'video/audio', { video_url: videoUrl }, 'Audio is required (audio_url).'],
      ['sound effect without a prompt', 'video/sound-effect', { video_url: videoUrl }, 'Prompt is required (prompt).'],
      ['reframe without a prompt', 'video/reframe', { video_url: videoUrl, aspect_ratio: '9:16' }, 'Prompt is required (prompt).'],
      ['an effect without a name', 'video/video-effects', { image_url: pictureUrl, option: 'KlingEffects' }, 'Effect is required (effect).'],
      ['an effect of another family', 'video/video-effects', { image_url: pictureUrl, option: 'KlingEffects', effect: 'melt' }, '"melt" is not an effect of Kling Effects.'],
      ['an effect needing an end frame without one', 'video/video-effects', { image_url: pictureUrl, option: 'KlingEffects', effect: 'hug' }, 'End frame is required for the Hug effect (ref_image_url).'],
      ['an effect without a first frame', 'video/video-effects', { option: 'PikaEffects', effect: 'melt' }, 'First frame is required (image_url).'],
      ['lip sync without audio or prompt', 'video/lip-sync', { image_url: pictureUrl, voice: 'Roger' }, 'Text to speak is required (prompt) when no audio_url is given.'],
      ['lip sync with an unknown voice', 'video/lip-sync', { image_url: pictureUrl, prompt: 'hi', voice: 'Nobody' }, '"Nobody" is not a voice of Lip Sync.'],
      ['lip sync without a face', 'video/lip-sync', { audio_url: audioUrl }, 'Face picture or Face video is required (image_url or video_url).'],
      ['a background replaced by nothing', 'video/replace-background', { video_url: videoUrl, prompt: 'a beach' }, 'Background picture or Background video is required (bg_image_url or bg_video_url).'],
      ['restyle without a style', 'video/modify', { video_url: videoUrl }, 'Style is required (prompt).'],
      ['a video sent twice', 'video/modify', { video_url: [videoUrl, videoUrl], prompt: 'ink' }, 'video_url must be sent once.'],
      ['a link that is not a Kinora file', 'video/modify', { video_url: 'https://example.test/clip.mp4', prompt: 'ink' }, 'video_url is not a file uploaded to Kinora.'],
    ];

    it.each(refusals().map(([name, endpoint], index) => [name, endpoint, index] as const))('%s (%s) → 400', async (_name, _endpoint, index) => {
      const [, endpoint, fields, detail] = refusals()[index] ?? [];
      if (!endpoint || !fields) throw new Error('no such case');
      const user = await signUpUser(server, 'invalid');
      const answer = await call(user, endpoint, fields);
      expect(answer.status).toBe(400);
      expect(answer.body?.detail).toBe(detail);
      expect(await balanceOf(server, user.sub)).toBe(100);
    });

    it('takes an end frame for the effects that need one', async () => {
      const answer = await call(owner, 'video/video-effects', { image_url: pictureUrl, ref_image_url: pictureUrl, option: 'KlingEffects', effect: 'hug' });
      expect(answer.status, answer.body?.detail).toBe(200);
      const media = asMedia(answer);
      expect(media.args).toEqual({ option: 'KlingEffects', effect: 'hug' });
      expect((await storedJob(media.id))?.inputs.map((input) => input.field)).toEqual(['image_url', 'ref_image_url']);
      expect(await debitsOf(owner, media.id)).toEqual([-40]);
    });

    it.each([
      ['a picture where a video is required', 'video/crop-to-aspect-ratio', () => ({ video_url: pictureUrl }), 'video_url is not a video.'],
      ['a picture as the background video', 'video/replace-background', () => ({ video_url: videoUrl, bg_video_url: pictureUrl }), 'bg_video_url is not a video.'],
      ['a video where a picture is required', 'video/video-effects', () => ({ image_url: videoUrl, option: 'PikaEffects', effect: 'melt' }), 'image_url is not a picture.'],
      ['a video where audio is required', 'video/audio', () => ({ video_url: videoUrl, audio_url: videoUrl }), 'audio_url is not an audio file.'],
      ['audio as the face video', 'video/lip-sync', () => ({ video_url: audioUrl, prompt: 'hi' }), 'video_url is not a video.'],
    ] as const)('refuses %s (%s) with 400 naming the field', async (_name, endpoint, fields, detail) => {
      const user = await signUpUser(server, 'kinds');
      // The owner's links signed for sharing: usable by anyone, so only the kind can be wrong.
      const answer = await call(user, endpoint, fields());
      expect(answer.status).toBe(400);
      expect(answer.body?.detail).toBe(detail);
      expect(await balanceOf(server, user.sub)).toBe(100);
    });
  });
});

describe('video tool jobs end with a video', () => {
  useServer({ durationMs: 50, concurrency: 4 });

  const isEnded = (status: string): boolean => ['success', 'failed', 'nsfw', 'cancelled'].includes(status);

  async function finished(id: string, timeoutMs = 100_000): Promise<Media> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const answer = await callApi(server, `media/${id}`, { token: owner.accessToken });
      const media = asMedia(answer);
      if (isEnded(media.status) || Date.now() > deadline) return media;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it.each(acceptedCalls().map((item, index) => [`${item.endpoint} ${item.option} #${index}`, index] as const))(
    '%s succeeds with an MP4, a GIF and a thumbnail',
    async (_name, index) => {
      const item = acceptedCalls()[index];
      if (!item) throw new Error('no such call');
      const media = await finished(asMedia(await call(owner, item.endpoint, item.fields)).id);
      expect(media.status, media.error ?? '').toBe('success');
      const result = media.items[0];
      expect(result?.url).toBeTruthy();
      const video = await fetch(result?.url ?? '');
      expect(video.status).toBe(200);
      const bytes = Buffer.from(await video.arrayBuffer());
      expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
      expect(result?.thumbnail_url).toBeTruthy();
      expect(result?.gif_url).toBeTruthy();
      expect((await fetch(result?.gif_url ?? '')).status).toBe(200);
    },
    120_000,
  );
});
