import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORY_TOOLS } from '../../../src/config/story.ts';
import { type Database } from '../../../server/src/db/database.ts';
import { openTestDatabase } from '../helpers/database-template.ts';
import type { MediaRow } from '../../../server/src/db/media.ts';
import { createMediaStore } from '../../../server/src/jobs/media-store.ts';
import { jobStages, MissingInputError, runPipeline, successStatusOf } from '../../../server/src/jobs/pipelines.ts';
import { createLocalRenderEngine } from '../../../server/src/render/local-engine.ts';
import type { AudioRenderRequest, ImageRenderRequest, RenderProvider, VideoConcatRequest } from '../../../server/src/render/provider.ts';
import { readWavInfo } from '../../../server/src/render/wav-writer.ts';
import { createFixtureFolder } from '../render/render-fixtures.ts';

/**
 * How the job engine renders the jobs of an AI Story (issue 6): a story's sound with the tool of
 * its kind and the film's length, its element pictures like text-to-image, its videos as video
 * creation jobs (source → 3D → bullet) and its join like a batch's.
 */

let db: Database;
let folder: { folder: string; remove: () => Promise<void> };
beforeAll(async () => {
  db = await openTestDatabase();
  folder = await createFixtureFolder();
});
afterAll(async () => {
  await db?.close();
  await folder?.remove();
});

function buildJob(overrides: Partial<MediaRow>): MediaRow {
  const now = new Date(0);
  // Asserted rather than annotated: the row may carry more columns (story_id) than a job here needs.
  return {
    id: 'story-job',
    user_sub: 'story-user',
    kind: 'image',
    tool: STORY_TOOLS.element,
    endpoint: null,
    option: 'Seedream',
    status: 'processing_source',
    progress: 0,
    cost: 0,
    charged: true,
    refund_ledger_id: null,
    error: null,
    args: {},
    image_urls: [],
    inputs: [],
    items: [],
    asset_id: null,
    visibility: 'private',
    logo_variant: false,
    version: '1',
    base_url: '',
    lease_owner: null,
    lease_expires_at: null,
    attempts: 1,
    created_at: now,
    updated_at: now,
    finished_at: null,
    batch_id: null,
    story_id: 'story-1',
    ...overrides,
  } as MediaRow;
}

/** The local engine, with each image, audio and concat request recorded. */
function recordingEngine() {
  const engine = createLocalRenderEngine();
  const calls = { image: [] as ImageRenderRequest[], audio: [] as AudioRenderRequest[], concat: [] as VideoConcatRequest[] };
  const provider: RenderProvider = {
    ...engine,
    renderImage: (request) => {
      calls.image.push(request);
      return engine.renderImage(request);
    },
    renderAudio: (request) => {
      calls.audio.push(request);
      return engine.renderAudio(request);
    },
    concatVideos: (request) => {
      calls.concat.push(request);
      return engine.concatVideos(request);
    },
  };
  return { provider, calls };
}

const run = (provider: RenderProvider, job: MediaRow) => runPipeline(db, createMediaStore(folder.folder), provider, job);

describe('a story sound (story-audio)', () => {
  it.each([12, 30, 45])('music asked for %i seconds is a WAV of exactly that length', async (seconds) => {
    const { provider, calls } = recordingEngine();
    const job = buildJob({ kind: 'audio', tool: STORY_TOOLS.audio, option: 'Lyria2', args: { prompt: 'a gentle piano theme', audio_kind: 'music', duration: seconds, story_part: 'audio' } });
    const result = await run(provider, job);
    const file = result.items[0]?.result;
    expect(calls.audio[0]).toMatchObject({ tool: 'text-to-music', model: 'Lyria2', durationSeconds: seconds });
    expect(file).toMatchObject({ contentType: 'audio/wav', durationSeconds: seconds });
    expect(readWavInfo(file?.data ?? Buffer.alloc(0))?.durationSeconds).toBe(seconds);
    expect(successStatusOf(job)).toBe('success');
  });

  it('a narration is spoken with text-to-speech in its voice', async () => {
    const { provider, calls } = recordingEngine();
    const job = buildJob({
      kind: 'audio',
      tool: STORY_TOOLS.audio,
      option: 'Text2Speech',
      args: { prompt: 'Mara finds a lantern on the beach.', voice: 'Aria', audio_kind: 'speech', duration: 30, story_part: 'audio' },
    });
    const result = await run(provider, job);
    expect(calls.audio[0]).toMatchObject({ tool: 'text-to-speech', voice: 'Aria', prompt: 'Mara finds a lantern on the beach.' });
    expect(result.items[0]?.result.name).toBe('speech.wav');
  });

  it('fails a sound of no known kind', async () => {
    const { provider } = recordingEngine();
    const job = buildJob({ kind: 'audio', tool: STORY_TOOLS.audio, option: 'Lyria2', args: { prompt: 'x', audio_kind: 'none', duration: 10 } });
    await expect(run(provider, job)).rejects.toThrow(/kind "none"/);
  });
});

describe('a story element picture (story-element)', () => {
  it('is drawn like text-to-image at the asked ratio, with its thumbnail', async () => {
    const { provider, calls } = recordingEngine();
    const job = buildJob({ args: { prompt: 'The lighthouse, establishing view of the place', aspect_ratio: '16:9', story_part: 'elements', element_id: 'el-2' } });
    const result = await run(provider, job);
    expect(calls.image[0]).toMatchObject({ tool: 'text-to-image', model: 'Seedream', aspectRatio: '16:9' });
    expect(result.items[0]?.result).toMatchObject({ contentType: 'image/png', width: 1024, height: 576 });
    expect(result.items[0]?.thumbnail?.contentType).toBe('image/jpeg');
    expect(successStatusOf(job)).toBe('success_image');
  });
});

describe('a story scene picture (scene-image)', () => {
  it('is drawn by the scene-image tool at the story ratio', async () => {
    const { provider, calls } = recordingEngine();
    const job = buildJob({ tool: STORY_TOOLS.scene, args: { prompt: 'Mara on the beach, wide shot', aspect_ratio: '9:16', shot: 'wide', story_part: 'scenes', scene_id: 'scene-1' } });
    const result = await run(provider, job);
    expect(calls.image[0]?.tool).toBe('scene-image');
    expect(result.items[0]?.result).toMatchObject({ width: 576, height: 1024 });
  });
});

describe('a story video and the film', () => {
  it('a scene video is a video creation job: source → 3D → bullet', () => {
    expect(jobStages({ kind: 'video', tool: STORY_TOOLS.video })).toEqual(['source', '3d', 'bullet']);
    expect(successStatusOf({ kind: 'video', tool: STORY_TOOLS.video })).toBe('success');
  });

  it('the film is joined like a batch: it needs its clips', async () => {
    const { provider, calls } = recordingEngine();
    const job = buildJob({ kind: 'video', tool: STORY_TOOLS.concat, option: 'Concat', inputs: [] });
    await expect(run(provider, job)).rejects.toBeInstanceOf(MissingInputError);
    expect(jobStages(job)).toEqual(['source']);
    expect(calls.concat).toHaveLength(0);
  });
});
