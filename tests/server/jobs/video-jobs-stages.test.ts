import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Database } from '../../../server/src/db/database.ts';
import { openTestDatabase } from '../helpers/database-template.ts';
import { filesOfMedia, findMediaFileByRelPath } from '../../../server/src/db/files.ts';
import { endJobWithRefund, insertMedia, newPublicId, QUEUED_STATUS, type StoredItem } from '../../../server/src/db/media.ts';
import { createJobEngine, MAX_JOB_ATTEMPTS, type EngineOptions, type JobEngine } from '../../../server/src/jobs/engine.ts';
import type {
  FinetuneTrainRequest,
  RenderedFile,
  RenderedVideo,
  RenderProvider,
  VideoConcatRequest,
  VideoEditRequest,
  VideoRenderRequest,
} from '../../../server/src/render/provider.ts';
import { createFileSigner } from '../../../server/src/jobs/file-signing.ts';
import { toMediaAnswer } from '../../../server/src/routes/media-answer.ts';
import { insertVideoJob } from '../../../server/src/routes/video-creation.ts';

/**
 * The job engine's stages for video jobs (SPEC §4, contract §1), driven directly with a stub
 * provider whose video renders wait until the test lets them go: queue_source → processing_source →
 * queue_3d → processing_3d → queue_bullet → processing_bullet → success, hand-overs that survive a
 * stopping engine and an expired lease, cancel in any stage, and the single-stage video jobs.
 */

let db: Database;
let mediaDir: string;
const USER = 'video-stage-user';
beforeAll(async () => {
  db = await openTestDatabase();
  mediaDir = await mkdtemp(path.join(tmpdir(), 'kinora-video-stages-'));
  await db.query(`INSERT INTO users (sub, username, email) VALUES ($1, $1, 'stages@example.test')`, [USER]);
  await db.query(`INSERT INTO credit_ledger (user_sub, amount, kind, reason) VALUES ($1, 1000, 'grant', 'test')`, [USER]);
});
let engines: JobEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.map((engine) => engine.stop()));
  engines = [];
});
afterAll(async () => {
  await db?.close();
  await rm(mediaDir, { recursive: true, force: true });
});

const file = (name: string, contentType: string, text: string): RenderedFile => ({ name, contentType, data: Buffer.from(text) });
const video = (tag: string): RenderedVideo => ({
  video: file('video.mp4', 'video/mp4', `mp4 ${tag}`),
  gif: file('video.gif', 'image/gif', `gif ${tag}`),
  thumbnail: file('thumbnail.jpg', 'image/jpeg', `jpg ${tag}`),
  width: 640,
  height: 360,
  durationSeconds: 2,
});

/** A provider whose renderVideo calls wait for `open()`; every call is recorded. */
function stubProvider() {
  const calls = { renderVideo: [] as VideoRenderRequest[], editVideo: [] as VideoEditRequest[], concat: [] as VideoConcatRequest[], train: [] as FinetuneTrainRequest[] };
  let gate: { promise: Promise<void>; open: () => void } | null = null;
  const hold = (): void => {
    let open!: () => void;
    gate = { promise: new Promise<void>((resolve) => (open = resolve)), open };
  };
  const provider: RenderProvider = {
    name: 'test',
    unavailableModels: () => new Map(),
    renderImage: () => Promise.reject(new Error('not used')),
    renderAudio: () => Promise.reject(new Error('not used')),
    describeImage: () => Promise.reject(new Error('not used')),
    async renderVideo(request) {
      calls.renderVideo.push(request);
      if (gate) await gate.promise;
      return [video(`${request.preset.camera_path ?? request.preset.motion_type}-${request.index}`)];
    },
    async editVideo(request) {
      calls.editVideo.push(request);
      return video('edit');
    },
    async concatVideos(request) {
      calls.concat.push(request);
      return video('concat');
    },
    async trainFinetune(request) {
      calls.train.push(request);
      const png = file('preview.png', 'image/png', 'png');
      return { style: { palette: ['#112233'], contrast: 1.2 }, preview: { image: png, thumbnail: file('thumbnail.jpg', 'image/jpeg', 'jpg'), width: 8, height: 8 } };
    },
    probeMedia: () => Promise.resolve({ durationSeconds: 2, hasAudio: false }),
  };
  return { provider, calls, hold, open: () => gate?.open() };
}

function startEngine(provider: RenderProvider, options: Partial<EngineOptions> = {}): JobEngine {
  const engine = createJobEngine({ db, provider, options: { durationMs: 40, pollIntervalMs: 20, leaseMs: 60_000, concurrency: 2, mediaDir, ...options } });
  engines.push(engine);
  void engine.start();
  return engine;
}

const parallaxPreset = (cameraPath: string, quantity = 1) => ({
  motion_type: 'Parallax',
  prompt: '',
  quantity,
  motion_amount: 5,
  motion_length: 2,
  loop: 1,
  model: 'Parallax',
  camera_path: cameraPath,
});

/** A queued parallax job (no input files: the stub does not read them), charged 20 a video. */
async function queueParallax(presets = [parallaxPreset('HorizontalArc', 2), parallaxPreset('Circular')], options: { logo?: boolean; prompt?: string } = {}) {
  const id = newPublicId();
  const videos = presets.reduce((sum, preset) => sum + preset.quantity, 0);
  await db.transaction((tx) =>
    insertVideoJob(tx, {
      id,
      userSub: USER,
      tool: 'parallax-motion',
      option: 'Parallax',
      args: { creation_type: 'parallax-motion', option: 'Parallax', pose_preset: presets, prompt: options.prompt ?? '' },
      imageUrls: [],
      inputs: [],
      videos,
      cost: 20 * videos,
      debitReason: 'Parallax · Parallax',
      logoVariant: options.logo ?? false,
    }),
  );
  return id;
}

interface JobState {
  status: string;
  attempts: number;
  progress: number;
  version: string;
  items: StoredItem[];
  error: string | null;
}

async function jobRow(id: string): Promise<JobState | undefined> {
  const { rows } = await db.query<JobState>('SELECT status, attempts, progress, version, items, error FROM media WHERE id = $1', [id]);
  return rows[0];
}

async function relPaths(id: string): Promise<string[]> {
  const { rows } = await db.query<{ rel_path: string }>('SELECT rel_path FROM media_files WHERE media_id = $1 ORDER BY rel_path', [id]);
  return rows.map((row) => row.rel_path);
}

async function refundsOf(id: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::integer AS n FROM credit_ledger WHERE job_id = $1 AND kind = 'refund'`, [id]);
  return rows[0]?.n ?? 0;
}

/** Polls the row every few ms, recording each new status, until `done`. */
async function follow(id: string, done: (row: JobState) => boolean, timeoutMs = 5000): Promise<{ row: JobState; seen: string[]; progress: number[] }> {
  const deadline = Date.now() + timeoutMs;
  const seen: string[] = [];
  const progress: number[] = [];
  for (;;) {
    const row = await jobRow(id);
    if (row) {
      if (seen.at(-1) !== row.status) seen.push(row.status);
      progress.push(row.progress);
      if (done(row)) return { row, seen, progress };
    }
    if (Date.now() > deadline) throw new Error(`timed out; statuses seen ${seen.join(' → ')}`);
    await sleep(3);
  }
}

const STAGE_ORDER = ['queue_source', 'processing_source', 'queue_3d', 'processing_3d', 'queue_bullet', 'processing_bullet', 'success'];

describe('a video creation job', () => {
  it('walks source → 3D → bullet → success with rising progress, its files at their SPEC folders', async () => {
    const { provider, calls, hold, open } = stubProvider();
    hold();
    startEngine(provider, { durationMs: 200 });
    const id = await queueParallax();
    const rendering = await follow(id, (row) => row.status === 'processing_3d');
    expect(calls.renderVideo).toHaveLength(1);
    open();
    const { row, seen, progress } = await follow(id, (value) => value.status === 'success');
    const statuses = [...new Set([...rendering.seen, ...seen])];
    // Every status seen is in stage order; the render and the bullet stage are long enough to be seen.
    expect(statuses.map((status) => STAGE_ORDER.indexOf(status))).toEqual([...statuses.map((status) => STAGE_ORDER.indexOf(status))].sort((a, b) => a - b));
    expect(statuses).toEqual(expect.arrayContaining(['processing_source', 'processing_3d', 'processing_bullet', 'success']));
    expect(statuses.some((status) => status.startsWith('success_'))).toBe(false);
    const all = [...rendering.progress, ...progress];
    expect(all).toEqual([...all].sort((a, b) => a - b));
    expect(row.progress).toBe(100);
    expect(row.version).toBe('3');
    expect(calls.renderVideo.map((request) => [request.preset.camera_path, request.index])).toEqual([
      ['HorizontalArc', 1],
      ['HorizontalArc', 2],
      ['Circular', 1],
    ]);
    expect(row.items.map((item) => [item.status, item.folder_path, item.label])).toEqual([
      ['success', 'batch/1/HorizontalArc1', '1.1.Horizontal'],
      ['success', 'batch/1/HorizontalArc2', '1.2.Horizontal'],
      ['success', 'batch/1/Circular', '1.3.Circular'],
    ]);
    expect(row.items.every((item) => item.file_id && item.gif_file_id && item.thumbnail_file_id)).toBe(true);
    expect(await relPaths(id)).toEqual([
      'batch/1/Circular/thumbnail/thumbnail.jpg',
      'batch/1/Circular/video.gif',
      'batch/1/Circular/video.mp4',
      'batch/1/HorizontalArc1/thumbnail/thumbnail.jpg',
      'batch/1/HorizontalArc1/video.gif',
      'batch/1/HorizontalArc1/video.mp4',
      'batch/1/HorizontalArc2/thumbnail/thumbnail.jpg',
      'batch/1/HorizontalArc2/video.gif',
      'batch/1/HorizontalArc2/video.mp4',
    ]);
  });

  it('names the guest’s files with _logo and renders them with the logo', async () => {
    const { provider, calls } = stubProvider();
    startEngine(provider);
    const id = await queueParallax([parallaxPreset('StepIn')], { logo: true });
    await follow(id, (row) => row.status === 'success');
    expect(calls.renderVideo[0]?.logo).toBe(true);
    expect(await relPaths(id)).toEqual(['batch/1/StepIn/thumbnail/thumbnail.jpg', 'batch/1/StepIn/video_logo.gif', 'batch/1/StepIn/video_logo.mp4']);
  });

  it('fails with [fail] in its source stage, before anything is rendered, and is refunded once', async () => {
    const { provider, calls } = stubProvider();
    startEngine(provider, { simulateFailures: true });
    const id = await queueParallax([parallaxPreset('Cross')], { prompt: 'a street [fail]' });
    const { row } = await follow(id, (value) => value.status === 'failed');
    expect(row.error).toBe('The model could not make this result. Your credits were refunded.');
    expect(calls.renderVideo).toHaveLength(0);
    expect(await refundsOf(id)).toBe(1);
  });

  it('cancelled while its videos render: cancelled, refunded once, no files kept', async () => {
    const { provider, hold, open } = stubProvider();
    hold();
    startEngine(provider);
    const id = await queueParallax([parallaxPreset('StepL')]);
    await follow(id, (row) => row.status === 'processing_3d');
    await db.transaction((tx) => endJobWithRefund(tx, id, 'cancelled', null));
    open();
    await sleep(200);
    expect((await jobRow(id))?.status).toBe('cancelled');
    expect(await relPaths(id)).toEqual([]);
    expect(await refundsOf(id)).toBe(1);
  });

  it('cancelled while in the bullet stage: cancelled and refunded, its items answered as failed', async () => {
    const { provider } = stubProvider();
    startEngine(provider, { durationMs: 2000 });
    const id = await queueParallax([parallaxPreset('StepR')]);
    await follow(id, (row) => row.status === 'processing_bullet');
    const cancelled = await db.transaction((tx) => endJobWithRefund(tx, id, 'cancelled', null));
    expect(cancelled?.status).toBe('cancelled');
    expect(cancelled?.items.map((item) => item.status)).toEqual(['failed']);
    expect(await refundsOf(id)).toBe(1);
    // Its files were written in the 3D stage; refunded, it hands none of them out.
    const [relPath] = await relPaths(id);
    expect(relPath).toBeDefined();
    expect(await findMediaFileByRelPath(db, id, relPath ?? '')).toBeNull();
    if (!cancelled) throw new Error('no row');
    const signer = createFileSigner('test-secret');
    const files = await filesOfMedia(db, [id]);
    expect(files.length).toBeGreaterThan(0);
    const answer = toMediaAnswer(cancelled, files, { origin: 'http://kinora.test', signer });
    expect(answer.items.map((item) => [item.url, item.thumbnail_url, item.gif_url ?? null])).toEqual([[null, null, null]]);
  });
});

describe('stages survive a stopping engine and a dead one', () => {
  it('a stop while the videos render waits for them and hands the job over to queue_bullet: nothing is rendered twice', async () => {
    const first = stubProvider();
    first.hold();
    const engine = startEngine(first.provider);
    const id = await queueParallax([parallaxPreset('VerticalArc')]);
    await follow(id, (row) => row.status === 'processing_3d');
    const stopping = engine.stop();
    first.open();
    await stopping;
    expect(await jobRow(id)).toMatchObject({ status: 'queue_bullet', attempts: 0 });
    expect(await relPaths(id)).toHaveLength(3);
    const second = stubProvider();
    startEngine(second.provider);
    await follow(id, (row) => row.status === 'success');
    expect(second.calls.renderVideo).toHaveLength(0);
  });

  it('a stop between two videos of one job hands it back to queue_3d with nothing kept, and the next engine renders both', async () => {
    const first = stubProvider();
    first.hold();
    const engine = startEngine(first.provider);
    const id = await queueParallax([parallaxPreset('StepU'), parallaxPreset('StepD')]);
    await follow(id, (row) => row.status === 'processing_3d');
    const stopping = engine.stop();
    first.open();
    await stopping;
    expect(first.calls.renderVideo).toHaveLength(1);
    expect(await jobRow(id)).toMatchObject({ status: 'queue_3d', attempts: 0 });
    expect(await relPaths(id)).toEqual([]);
    const second = stubProvider();
    startEngine(second.provider);
    const { row } = await follow(id, (value) => value.status === 'success');
    expect(second.calls.renderVideo.map((request) => request.preset.camera_path)).toEqual(['StepU', 'StepD']);
    expect(row.items.map((item) => item.folder_path)).toEqual(['batch/1/StepU', 'batch/1/StepD']);
  });

  it('a job handed back in queue_3d resumes at its 3D stage, not at its source stage', async () => {
    const { provider, calls } = stubProvider();
    const id = await queueParallax([parallaxPreset('HorizontalArc')]);
    await db.query(`UPDATE media SET status = 'queue_3d', progress = 30 WHERE id = $1`, [id]);
    startEngine(provider, { durationMs: 400 });
    const { seen } = await follow(id, (row) => row.status === 'success');
    expect(seen).not.toContain('processing_source');
    expect(seen).toContain('processing_bullet');
    expect(calls.renderVideo).toHaveLength(1);
  });

  it('a stop during the bullet stage hands back to queue_bullet, and the next engine publishes the files already made', async () => {
    const first = stubProvider();
    const engine = startEngine(first.provider, { durationMs: 4000 });
    const id = await queueParallax([parallaxPreset('StepD')]);
    await follow(id, (row) => row.status === 'processing_bullet', 10_000);
    await engine.stop();
    expect(await jobRow(id)).toMatchObject({ status: 'queue_bullet', attempts: 0 });
    const second = stubProvider();
    startEngine(second.provider);
    const { row } = await follow(id, (value) => value.status === 'success');
    expect(second.calls.renderVideo).toHaveLength(0);
    expect(first.calls.renderVideo).toHaveLength(1);
    expect(row.items[0]?.folder_path).toBe('batch/1/StepD');
    expect(await relPaths(id)).toHaveLength(3);
  });

  it('a 3D stage whose lease expired is taken over by another worker; attempts count per stage', async () => {
    const first = stubProvider();
    first.hold();
    startEngine(first.provider);
    const id = await queueParallax([parallaxPreset('Circular')]);
    await follow(id, (row) => row.status === 'processing_3d');
    // Each stage starts its attempts again: the 3D stage's claim is its first.
    expect((await jobRow(id))?.attempts).toBe(1);
    await db.query(`UPDATE media SET lease_expires_at = clock_timestamp() - interval '1 second' WHERE id = $1`, [id]);
    await follow(id, (row) => row.attempts === 2);
    first.open();
    const { row } = await follow(id, (value) => value.status === 'success');
    // The stalled claim's files were never committed: one set of files.
    expect(await relPaths(id)).toHaveLength(3);
    expect(row.items).toHaveLength(1);
  });

  it(`fails a stage claimed more than MAX_JOB_ATTEMPTS (${MAX_JOB_ATTEMPTS}) times, refunded`, async () => {
    const { provider, calls } = stubProvider();
    const id = await queueParallax([parallaxPreset('Cross')]);
    await db.query(`UPDATE media SET status = 'queue_3d', attempts = $2 WHERE id = $1`, [id, MAX_JOB_ATTEMPTS]);
    startEngine(provider);
    const { row } = await follow(id, (value) => value.status === 'failed');
    expect(row.error).toBe('The job was interrupted too many times. Your credits were refunded.');
    expect(calls.renderVideo).toHaveLength(0);
    expect(await refundsOf(id)).toBe(1);
  });
});

describe('single-stage video jobs', () => {
  async function queue(tool: string, kind: 'video' | 'image', option: string, args: Record<string, unknown>, inputs: { field: string; file_id: string }[] = []) {
    const id = newPublicId();
    await insertMedia(db, { id, userSub: USER, kind, tool, endpoint: tool === 'edit-video' ? 'video/enhance' : null, option, status: QUEUED_STATUS, args, inputs, items: [{ status: 'new' }] });
    return id;
  }

  it('a video tool job goes queue_source → processing_source → success with result.mp4, result.gif and thumbnail.jpg', async () => {
    const { provider, calls } = stubProvider();
    startEngine(provider);
    const id = await queue('edit-video', 'video', 'EnhanceVideo', { option: 'EnhanceVideo', enhance_mode: 'DeepClean' });
    const { row, seen } = await follow(id, (value) => value.status === 'success');
    expect(seen.filter((status) => status.includes('3d') || status.includes('bullet'))).toEqual([]);
    expect(calls.editVideo[0]).toMatchObject({ tool: 'edit-video', model: 'EnhanceVideo', endpoint: 'video/enhance', args: { enhance_mode: 'DeepClean' } });
    expect(row.version).toBe('3');
    expect(row.items[0]?.label).toBe('1.1.EnhanceVideo');
    expect(await relPaths(id)).toEqual(['result.gif', 'result.mp4', 'thumbnail.jpg']);
  });

  it('a batch concat joins the clips in order with the audio under them', async () => {
    const { provider, calls } = stubProvider();
    startEngine(provider);
    // Clips are the result files of earlier jobs: make two with a video tool first.
    const clipJobs = [await queue('edit-video', 'video', 'EnhanceVideo', { n: 1 }), await queue('edit-video', 'video', 'EnhanceVideo', { n: 2 })];
    for (const clip of clipJobs) await follow(clip, (value) => value.status === 'success');
    const clipFiles = await Promise.all(clipJobs.map(async (clip) => (await jobRow(clip))?.items[0]?.file_id ?? ''));
    const audio = newPublicId();
    await db.query(
      `INSERT INTO media_files (id, media_id, user_sub, role, name, content_type, bytes, path) VALUES ($1, $2, $3, 'original', 'a.wav', 'audio/wav', 3, $4)`,
      [audio, clipJobs[0], USER, `${clipJobs[0]}/${audio}-a.wav`],
    );
    const id = await queue('batch-concat', 'video', 'Concat', {}, [
      { field: 'concat_video_urls', file_id: clipFiles[1] ?? '' },
      { field: 'concat_video_urls', file_id: clipFiles[0] ?? '' },
      { field: 'audio_urls', file_id: audio },
    ]);
    await follow(id, (value) => value.status === 'success');
    const request = calls.concat[0];
    expect(request?.clips.map((clip) => path.basename(clip))).toEqual([
      expect.stringMatching(new RegExp(`^${clipFiles[1]}-`)),
      expect.stringMatching(new RegExp(`^${clipFiles[0]}-`)),
    ]);
    expect(request?.audio).toMatch(/a\.wav$/);
  });

  it('a fine-tune ends in success and stores the learned style on its finetunes row in the same commit', async () => {
    const { provider, calls } = stubProvider();
    startEngine(provider);
    const id = await queue('finetune', 'image', 'FluxFinetune', { prompt: '', trigger_word: 'zq' });
    await db.query(
      `INSERT INTO finetunes (id, user_sub, media_id, name, option, base_model, trigger_word, image_count) VALUES ($1, $2, $3, 'mine', 'FluxFinetune', 'FluxFinetuned', 'zq', 5)`,
      [newPublicId(), USER, id],
    );
    const { row } = await follow(id, (value) => value.status !== 'queue_source' && value.status !== 'processing_source');
    expect(row.status).toBe('success');
    expect(calls.train[0]).toMatchObject({ kind: 'FluxFinetune', triggerWord: 'zq' });
    const { rows } = await db.query<{ style: unknown }>('SELECT style FROM finetunes WHERE media_id = $1', [id]);
    expect(rows[0]?.style).toEqual({ palette: ['#112233'], contrast: 1.2 });
  });
});
