import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { optionsForTool, type ModelOption } from '../../../src/config/asset-tools.ts';
import type { AppConfiguration } from '../../../src/config/app-config.ts';
import { MOTION_MODELS } from '../../../src/config/motion-models.ts';
import type { ToolSlug } from '../../../src/config/tools.ts';
import type { Media } from '../../../src/services/schemas/media.ts';
import { FAL_MODELS, FAL_TEXT_CALL, FAL_VISION_CALL, falCallFor, falCoverage } from '../../../server/src/render/fal/models.ts';
import { LOCAL_OPERATIONS } from '../../../server/src/render/fal/provider.ts';
import { startFalStandIn, type FalStandIn } from '../../fal/queue-stand-in.ts';
import { asMedia, balanceOf, fetchFile, type FormFields, ledgerRows, pollStatus, postForm, smallMp4, smallPng, wavOfSize } from '../helpers/media.ts';
import { callApi, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * Issue 16: generation on fal.ai. A real Kinora server with KINORA_RENDER_PROVIDER=fal runs every
 * tool of every page through a local stand-in of fal's queue HTTP API (tests/fal, written from
 * fal's docs): the model map's endpoint is called with working signed links (never paths), results
 * are downloaded into Kinora's storage, statuses follow SPEC §4, a cancel reaches fal, a restart
 * resumes the stored request without submitting twice, 429 / 5xx are retried, and a flagged or
 * failed result is refunded once.
 */

type User = Awaited<ReturnType<typeof signUpUser>>;

let standIn: FalStandIn;
let server: TestServer;
let owner: User;
let picture: string;
let secondPicture: string;
let video: string;
let audio: string;
let catalogue: AppConfiguration;

async function upload(endpoint: 'image' | 'video' | 'audio', field: string, file: { data: Buffer; name: string; type: string }): Promise<string> {
  const answer = await postForm(server, endpoint, { [field]: file }, { token: owner.accessToken });
  expect(answer.status, `upload ${file.name}`).toBe(200);
  return asMedia(answer).items[0]?.url ?? '';
}

const call = (endpoint: string, fields: FormFields, headers: Record<string, string> = {}) =>
  postForm(server, endpoint, fields, { token: owner.accessToken, headers });

/** The requests Kinora stored for a job (call key → fal request). */
async function providerRequests(id: string): Promise<Record<string, { endpoint: string; requestId: string }>> {
  const { rows } = await server.db.query<{ provider_requests: Record<string, { endpoint: string; requestId: string }> }>(
    'SELECT provider_requests FROM media WHERE id = $1',
    [id],
  );
  return rows[0]?.provider_requests ?? {};
}

/** The first active model the fal catalogue offers on a tool. */
function activeModel(tool: ToolSlug): ModelOption {
  const [model] = optionsForTool(catalogue.asset_tools, tool);
  if (!model) throw new Error(`fal offers no model for ${tool}`);
  return model;
}

/**
 * The first active model of a tool, or null when fal runs none of the tool's models; then every
 * one of them must be inactive in the catalogue with the map's reason (the page offers nothing
 * that would fail).
 */
function modelOrReason(tool: ToolSlug): ModelOption | null {
  const [model] = optionsForTool(catalogue.asset_tools, tool);
  if (model) return model;
  const all = catalogue.asset_tools.filter((candidate) => candidate.available_tools.includes(tool));
  expect(all.length, tool).toBeGreaterThan(0);
  for (const candidate of all) {
    const entry = FAL_MODELS[candidate.value];
    expect([tool, candidate.value, candidate.active, entry?.fal]).toEqual([tool, candidate.value, 0, false]);
    expect(entry && !entry.fal ? entry.reason.length : 0).toBeGreaterThan(10);
  }
  return null;
}

const firstFalMotionModel = (key: string, except: readonly string[] = []): string => {
  const model = catalogue.media_tools.find(
    (candidate) => candidate.active === 1 && !except.includes(candidate.value) && 'endpoint' in falCallFor(candidate.value, key),
  );
  if (!model) throw new Error(`no motion model runs ${key} on fal`);
  return model.value;
};

/**
 * Sends a call, waits for its job to end, and checks what fal saw: one submission per call key on
 * the map's endpoint, every link in its input fetched by fal with a 200 (none a local path), and
 * result files served by Kinora, not by fal.
 */
async function runThroughFal(label: string, endpoint: string, fields: FormFields, expected: { model: string; key: string; status?: string }): Promise<Media> {
  const answer = await call(endpoint, fields);
  expect(answer.status, `${label}: ${answer.body?.detail ?? ''}`).toBe(200);
  const queued = asMedia(answer);
  const status = await pollStatus(server, queued.id, (current) => ['success_image', 'success', 'failed', 'nsfw', 'cancelled'].includes(current), 90_000);
  const media = asMedia(await callApi(server, `media/${queued.id}`, { token: owner.accessToken }));
  expect([label, status, media.error ?? null]).toEqual([label, expected.status ?? (media.kind === 'image' ? 'success_image' : 'success'), null]);
  const requests = Object.values(await providerRequests(queued.id));
  expect(requests.length, `${label}: requests stored with the job`).toBeGreaterThan(0);
  const mapped = falCallFor(expected.model, expected.key);
  if (!('endpoint' in mapped)) throw new Error(`${label}: ${expected.model} has no ${expected.key} call`);
  expect(requests.map((request) => request.endpoint), label).toContain(mapped.endpoint);
  for (const request of requests) {
    const submitted = standIn.submissions.filter((submission) => submission.requestId === request.requestId);
    expect(submitted, `${label}: submitted once`).toHaveLength(1);
    expect(submitted[0]?.endpointId).toBe(request.endpoint);
    expect(submitted[0]?.authorization).toBe('Key fal-test-key');
    const fetches = standIn.inputFetches.filter((fetched) => fetched.requestId === request.requestId);
    for (const fetched of fetches) {
      expect(fetched.kind, `${label}: ${fetched.field} is a link fal can fetch`).not.toBe('violation');
      if (fetched.kind === 'http') expect([label, fetched.field, fetched.status], fetched.url).toEqual([label, fetched.field, 200]);
    }
  }
  const urls = media.items.flatMap((item) => [item.url, item.thumbnail_url]).filter((url): url is string => typeof url === 'string' && url !== '');
  expect(urls.length, `${label}: result files`).toBeGreaterThan(0);
  for (const url of urls) {
    expect(url.startsWith(standIn.url), `${label}: ${url} is Kinora's, not fal's`).toBe(false);
    expect((await fetchFile(url)).status, `${label}: ${url}`).toBe(200);
  }
  return media;
}

beforeAll(async () => {
  standIn = await startFalStandIn({ stepsToComplete: 2 });
  server = await startTestServer({
    jobs: { concurrency: 2, pollIntervalMs: 50, leaseMs: 3000 },
    render: { provider: 'fal', key: 'fal-test-key', queueUrl: standIn.url, pollIntervalMs: 20, retry: { baseDelay: 10, maxDelay: 40 } },
  });
  owner = await signUpUser(server, 'falcreator');
  expect((await callApi(server, 'credits/get', { token: owner.accessToken })).status).toBe(200);
  await server.db.query("INSERT INTO credit_ledger (user_sub, amount, kind, reason) VALUES ($1, 100000, 'grant', 'test')", [owner.sub]);
  picture = await upload('image', 'image_file', { data: await smallPng(96, 64, '#3366cc'), name: 'person.png', type: 'image/png' });
  secondPicture = await upload('image', 'image_file', { data: await smallPng(96, 64, '#cc6633'), name: 'clothes.png', type: 'image/png' });
  video = await upload('video', 'video_file', { data: await smallMp4(), name: 'clip.mp4', type: 'video/mp4' });
  audio = await upload('audio', 'audio_file', { data: wavOfSize(16_044), name: 'voice.wav', type: 'audio/wav' });
  catalogue = (await callApi<AppConfiguration>(server, 'frontend-configurations')).body?.data as AppConfiguration;
}, 120_000);

afterAll(async () => {
  await server?.close();
  await standIn?.stop();
});

describe('the catalogue offers only what fal can run', () => {
  it('marks every model the map cannot run inactive, and every other model active', () => {
    const inactive = new Set(falCoverage().inactive.map((entry) => entry.model));
    for (const model of [...catalogue.asset_tools, ...catalogue.media_tools]) {
      if (!(model.value in FAL_MODELS)) continue;
      const runs = !inactive.has(model.value) || LOCAL_OPERATIONS.has(model.value);
      expect([model.value, model.active]).toEqual([model.value, runs ? 1 : 0]);
    }
    // Every motion model is in the map: mapped or inactive with its reason.
    for (const model of MOTION_MODELS) expect(FAL_MODELS[model.value], model.value).toBeDefined();
  });
});

// Each video is finished by WASM ffmpeg (GIF, thumbnail) on a 2-core machine: seconds each.
describe('every tool of every page runs through fal', { timeout: 300_000 }, () => {
  it('image tools', async () => {
    const cases: [ToolSlug, string, FormFields][] = [
      ['text-to-image', 'image/text-2-image', { prompt: 'a lighthouse at dusk', aspect_ratio: '16:9' }],
      ['image-to-image', 'image/image-2-image', { prompt: 'as a watercolour', image_url: picture }],
      ['reimagine', 'image/reimagine', { prompt: 'at night', image_url: picture }],
      ['try-on', 'image/try-on', { human_image_url: picture, clothes_image_url: secondPicture }],
      ['image-elements', 'image/elements', { prompt: 'together on a beach', image_urls: [picture, secondPicture] }],
      ['replace-bg', 'image/replace-background', { prompt: 'a beach', image_url: picture, image2_url: secondPicture }],
      ['edit-image', 'image/edit-image', { prompt: 'add a hat', image_url: picture }],
      ['face-swap', 'image/face-swap', { image_urls: [picture, secondPicture], order_indices: ['0'] }],
      ['restyle', 'image/restyle', { prompt: 'ink wash', image_url: picture }],
    ];
    for (const [tool, endpoint, fields] of cases) {
      const model = modelOrReason(tool);
      if (!model) continue;
      const media = await runThroughFal(tool, endpoint, { ...fields, option: model.value }, { model: model.value, key: tool });
      expect(media.items[0]?.url).toMatch(/\/api\/files\//);
    }
  });

  it('audio tools', async () => {
    const cases: [ToolSlug, string, FormFields][] = [
      ['text-to-speech', 'audio/text-2-speech', { prompt: 'Hello from Kinora.', voice: 'Roger' }],
      ['text-to-audio', 'audio/text-2-sound-effect', { prompt: 'rain on a tin roof', duration: '3' }],
      ['text-to-music', 'audio/text-2-music', { prompt: 'a calm piano piece' }],
    ];
    for (const [tool, endpoint, fields] of cases) {
      const model = activeModel(tool);
      const media = await runThroughFal(tool, endpoint, { ...fields, option: model.value }, { model: model.value, key: tool });
      expect((await fetchFile(media.items[0]?.url ?? '')).headers.get('content-type')).toMatch(/^audio\//);
    }
  });

  it('video tools (Crop and Attach Audio stay local: they are ffmpeg operations, not models)', async () => {
    const submissionsBefore = standIn.submissions.length;
    const crop = await call('video/crop-to-aspect-ratio', { video_url: video, aspect_ratio: '1:1' });
    expect(crop.status).toBe(200);
    expect(await pollStatus(server, asMedia(crop).id, (status) => status === 'success' || status === 'failed', 60_000)).toBe('success');
    expect(standIn.submissions.length).toBe(submissionsBefore);

    const cases: [ToolSlug, string, FormFields][] = [
      ['edit-video', 'video/enhance', { video_url: video, option: 'EnhanceVideo' }],
      ['edit-video', 'video/sound-effect', { video_url: video, prompt: 'waves', option: 'SoundEffect' }],
      ['edit-video', 'video/reframe', { video_url: video, prompt: 'a meadow', aspect_ratio: '16:9', option: 'LumaReframeVideo' }],
      ['video-effects', 'video/video-effects', { image_url: picture }],
      ['lip-sync', 'video/lip-sync', { image_url: picture, video_url: video, audio_url: audio }],
      // Words instead of a sound: spoken by fal's text to speech first, then handed over as audio_url.
      ['lip-sync', 'video/lip-sync', { image_url: picture, video_url: video, prompt: 'Hello there.', voice: 'Roger' }],
      ['replace-background-video', 'video/replace-background', { video_url: video, bg_image_url: picture, prompt: 'a beach' }],
      ['modify-video', 'video/modify', { video_url: video, image_url: picture, prompt: 'ink wash' }],
    ];
    for (const [tool, endpoint, fields] of cases) {
      const option = typeof fields.option === 'string' ? fields.option : modelOrReason(tool)?.value;
      if (!option) continue;
      const model = catalogue.asset_tools.find((candidate) => candidate.value === option);
      expect([option, model?.active]).toEqual([option, 1]);
      if (!model) continue;
      const extra: FormFields = {};
      if (tool === 'video-effects') extra.effect = model.available_effects?.find((effect) => effect.end_frame !== 1)?.value ?? '';
      await runThroughFal(`${tool} ${option}`, endpoint, { ...fields, ...extra, option }, { model: option, key: tool });
    }
  });

  it('video creation: AI Motion from a picture, a text, a transition and a composer; Try On Video; Character Animate; Extend', async () => {
    const preset = (model: string, extra: Record<string, unknown> = {}) =>
      JSON.stringify({ motion_type: 'ZoomIn', prompt: 'waves. Camera zoom in', quantity: 1, motion_amount: 5, motion_length: 5, loop: 0, model, ...extra });
    const image = firstFalMotionModel('image', ['TryOnVideo']);
    await runThroughFal('ai-motion image', 'media', { creation_type: 'ai-motion', motion_mode: 'image', option: image, image_urls: [picture], pose_preset: preset(image) }, { model: image, key: 'image' });
    const text = firstFalMotionModel('text', ['TryOnVideo']);
    await runThroughFal('ai-motion text', 'media', { creation_type: 'ai-motion', motion_mode: 'text', option: text, aspect_ratio: '16:9', pose_preset: preset(text) }, { model: text, key: 'text' });
    const transition = catalogue.media_tools.find((model) => model.active === 1 && model.end_frame === 1 && model.value !== 'TryOnVideo' && 'endpoint' in falCallFor(model.value, 'transition'));
    if (transition) {
      await runThroughFal('ai-motion transition', 'media', { creation_type: 'ai-motion', motion_mode: 'transition', option: transition.value, image_urls: [picture, secondPicture], pose_preset: preset(transition.value) }, { model: transition.value, key: 'transition' });
    }
    const composer = catalogue.media_tools.find((model) => model.active === 1 && model.value !== 'TryOnVideo' && 'endpoint' in falCallFor(model.value, 'composer'));
    if (composer) {
      await runThroughFal('ai-motion composer', 'media', { creation_type: 'ai-motion', motion_mode: 'composer', option: composer.value, image_urls: [picture, secondPicture], pose_preset: preset(composer.value) }, { model: composer.value, key: 'composer' });
    }
    if (catalogue.media_tools.find((model) => model.value === 'TryOnVideo')?.active === 1) {
      await runThroughFal('try-on video', 'media', { creation_type: 'try-on', image_urls: [picture, secondPicture], pose_preset: preset('TryOnVideo') }, { model: 'TryOnVideo', key: 'try-on' });
    }
    const animate = firstFalMotionModel('character-animate', ['TryOnVideo']);
    await runThroughFal('character animate', 'media', { creation_type: 'character-animate', option: animate, image_urls: [picture], video_url: video, pose_preset: preset(animate) }, { model: animate, key: 'character-animate' });
    const extend = firstFalMotionModel('extend-video', ['TryOnVideo']);
    await runThroughFal('extend video', 'media', { creation_type: 'extend-video', option: extend, video_url: video, pose_preset: preset(extend) }, { model: extend, key: 'extend-video' });
  });

  it('Parallax Motion stays on Kinora\'s own 3D pipeline: nothing is sent to fal', async () => {
    const before = standIn.submissions.length;
    const answer = await call('media', {
      creation_type: 'parallax-motion',
      image_urls: [picture],
      pose_preset: JSON.stringify({ motion_type: 'Parallax', camera_path: 'StepIn', quantity: 1, motion_length: 2, loop: 1, prompt: '', model: 'Parallax' }),
    });
    expect(answer.status).toBe(200);
    expect(await pollStatus(server, asMedia(answer).id, (status) => status === 'success' || status === 'failed', 90_000)).toBe('success');
    expect(standIn.submissions.length).toBe(before);
  });

  it('LoRA fine-tune: trained on fal, its weights kept with the model and used by the next picture', async () => {
    const trainer = (['FluxFinetune', 'FluxProFinetune', 'FluxKontextFinetune'] as const).find((model) => 'endpoint' in falCallFor(model, 'finetune'));
    expect(trainer, 'a trainer on fal').toBeDefined();
    if (!trainer) return;
    const media = await runThroughFal('finetune', 'finetune', { option: trainer, name: 'My look', trigger_word: 'mylook', image_urls: [picture, secondPicture, picture, secondPicture, picture, secondPicture] }, { model: trainer, key: 'finetune', status: 'success' });
    const trainSubmission = standIn.submissions.find((submission) => submission.endpointId === (falCallFor(trainer, 'finetune') as { endpoint: string }).endpoint);
    expect(JSON.stringify(trainSubmission?.input)).toMatch(/data:application\/zip;base64,/);
    const { rows } = await server.db.query<{ style: Record<string, unknown> }>('SELECT style FROM finetunes WHERE id = $1', [String(media.args.finetune_id)]);
    const loraUrl = rows[0]?.style.lora_url;
    expect(loraUrl).toMatch(/^http/);
    if (trainer === 'FluxKontextFinetune') return;
    const made = await runThroughFal('fine-tuned picture', 'image/text-2-image', { prompt: 'a lighthouse', option: 'FluxFinetuned', finetune_id: String(media.args.finetune_id) }, { model: 'FluxFinetuned', key: 'text-to-image' });
    const [request] = Object.values(await providerRequests(made.id));
    const submission = standIn.submissions.find((candidate) => candidate.requestId === request?.requestId);
    expect(JSON.stringify(submission?.input)).toContain(String(loraUrl));
  });

  it('several pictures and a negative prompt (issue 21 item 7): one call with num_images and negative_prompt, its pictures stored with their seeds', async () => {
    const made = await runThroughFal(
      'two pictures',
      'image/text-2-image',
      { prompt: 'a harbour at dawn', option: 'StableDiffusion3.5', num_images: '2', negative_prompt: 'boats', seed: '70' },
      { model: 'StableDiffusion3.5', key: 'text-to-image' },
    );
    const requests = Object.values(await providerRequests(made.id));
    expect(requests).toHaveLength(1);
    const submission = standIn.submissions.find((candidate) => candidate.requestId === requests[0]?.requestId);
    expect(submission?.input).toMatchObject({ prompt: 'a harbour at dawn', negative_prompt: 'boats', num_images: 2, seed: 70 });
    expect(made.cost).toBe(8);
    expect(made.items.map((item) => [item.status, item.seed])).toEqual([
      ['success', 70],
      ['success', 71],
    ]);
  });

  it('prompt helpers and the story board writer use fal\'s language and vision models', async () => {
    const before = standIn.submissions.length;
    const suggested = await call('text/prompt', { option: 'SuggestPrompt', prompt: 'a fox', mode: 'image' });
    expect(suggested.status).toBe(200);
    expect((suggested.body?.data as { prompt: string }).prompt.length).toBeGreaterThan(0);
    const described = await call('text/prompt', { option: 'Image2Prompt', image_url: picture });
    expect(described.status).toBe(200);
    const endpoints = standIn.submissions.slice(before).map((submission) => submission.endpointId);
    expect(endpoints).toContain(FAL_TEXT_CALL.endpoint);
    expect(endpoints).toContain(FAL_VISION_CALL.endpoint);
    const vision = standIn.submissions.slice(before).find((submission) => submission.endpointId === FAL_VISION_CALL.endpoint);
    const visionFetches = standIn.inputFetches.filter((fetched) => fetched.requestId === vision?.requestId);
    expect(visionFetches.length).toBeGreaterThan(0);
    for (const fetched of visionFetches) expect(fetched.kind).not.toBe('violation');

    const boardBefore = standIn.submissions.length;
    const story = await postForm(server, 'story', { idea: 'A fox finds a lantern in the forest and follows its light home.', duration: '15' }, { token: owner.accessToken });
    expect(story.status, String(story.body?.detail)).toBe(200);
    expect(standIn.submissions.slice(boardBefore).map((submission) => submission.endpointId)).toContain(FAL_TEXT_CALL.endpoint);
  });
});

describe('the job lifecycle at fal', { timeout: 120_000 }, () => {
  const model = (): string => activeModel('text-to-image').value;

  it('a cancel in Kinora cancels the request at fal and refunds the job once', async () => {
    standIn.hold('all', 'IN_PROGRESS');
    try {
      const before = await balanceOf(server, owner.sub);
      const answer = await call('image/text-2-image', { prompt: 'a slow picture', option: model() });
      const job = asMedia(answer);
      await standIn.until(() => Object.keys(job).length > 0 && standIn.submissions.some((submission) => JSON.stringify(submission.input).includes('a slow picture')));
      const submission = standIn.submissions.find((candidate) => JSON.stringify(candidate.input).includes('a slow picture'));
      expect((await callApi(server, `media/${job.id}/cancel`, { method: 'PUT', token: owner.accessToken })).status).toBe(200);
      await standIn.until(() => standIn.cancellations.some((cancellation) => cancellation.requestId === submission?.requestId));
      expect(await balanceOf(server, owner.sub)).toBe(before);
      const refunds = (await ledgerRows(server, owner.sub)).filter((row) => row.job_id === job.id && row.kind === 'refund');
      expect(refunds).toHaveLength(1);
    } finally {
      standIn.release('all');
    }
  });

  it('a restart mid-job resumes watching the stored request: one submission, one debit, a result', async () => {
    standIn.hold('all', 'IN_PROGRESS');
    let jobId = '';
    try {
      const answer = await call('image/text-2-image', { prompt: 'survives a restart', option: model() });
      jobId = asMedia(answer).id;
      await standIn.until(() => standIn.submissions.some((submission) => JSON.stringify(submission.input).includes('survives a restart')));
      await expect.poll(async () => Object.keys(await providerRequests(jobId)).length, { timeout: 10_000 }).toBe(1);
      await server.restart();
    } finally {
      standIn.release('all');
    }
    expect(await pollStatus(server, jobId, (status) => status === 'success_image' || status === 'failed', 60_000)).toBe('success_image');
    expect(standIn.submissions.filter((submission) => JSON.stringify(submission.input).includes('survives a restart'))).toHaveLength(1);
    const debits = (await ledgerRows(server, owner.sub)).filter((row) => row.job_id === jobId && row.kind === 'debit');
    expect(debits).toHaveLength(1);
  });

  it('429 and 503 answers are retried with back-off and the job still succeeds', async () => {
    const rejectedBefore = standIn.rejections.length;
    standIn.failNext(2, 429);
    const first = await runThroughFal('after 429', 'image/text-2-image', { prompt: 'rate limited', option: model() }, { model: model(), key: 'text-to-image' });
    expect(first.status).toBe('success_image');
    standIn.failNext(1, 503);
    await runThroughFal('after 503', 'image/text-2-image', { prompt: 'unavailable once', option: model() }, { model: model(), key: 'text-to-image' });
    expect(standIn.rejections.length - rejectedBefore).toBe(3);
  });

  it('a result fal flags (has_nsfw_concepts) ends nsfw and a refused request ends failed, each refunded once', async () => {
    for (const [marker, status] of [
      ['[fal-nsfw]', 'nsfw'],
      ['[fal-fail]', 'failed'],
    ] as const) {
      const before = await balanceOf(server, owner.sub);
      const answer = await call('image/text-2-image', { prompt: `a picture ${marker}`, option: model() });
      const job = asMedia(answer);
      expect(await pollStatus(server, job.id, (current) => ['success_image', 'failed', 'nsfw'].includes(current), 60_000)).toBe(status);
      const ended = asMedia(await callApi(server, `media/${job.id}`, { token: owner.accessToken }));
      expect(ended.error ?? '').toMatch(/refunded/);
      expect(await balanceOf(server, owner.sub)).toBe(before);
      expect((await ledgerRows(server, owner.sub)).filter((row) => row.job_id === job.id && row.kind === 'refund')).toHaveLength(1);
    }
  });
});
