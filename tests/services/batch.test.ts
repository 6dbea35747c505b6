import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@/config/messages';
import { ApiError } from '@/services/api-error';
import { getAccessToken } from '@/services/auth';
import type * as AuthModule from '@/services/auth';
import {
  createAdvancedBatch,
  createBatch,
  deleteBatch,
  editBatch,
  generateBatchVideos,
  getBatch,
  listBatches,
  pollBatchJobs,
  writeScriptBoard,
} from '@/services/batch';
import { server } from '../msw/server';
import { buildBatch, buildClipVideo, buildFinishedVideo, TWO_CLIPS } from '../machines/batch/batch.fixtures';
import { buildStatus } from './media.fixtures';

vi.mock('@/services/auth', async (importOriginal) => ({
  ...(await importOriginal<typeof AuthModule>()),
  getAccessToken: vi.fn(),
}));

const API = 'http://localhost/api';
const TOKEN = 'raw-access-token';

/** jsdom's FormData cannot cross into Node's Request (see tests/services/media.test.ts). */
const useNodeFormData = async () => {
  const nodeForm = await new Response('a=1', {
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  }).formData();
  vi.stubGlobal('FormData', nodeForm.constructor);
};

/** Answers every request to `method path` with `data` (or an error body with `status`) and keeps a clone of each. */
function answer(method: 'get' | 'post' | 'put' | 'delete', path: string, data: unknown, status = 200) {
  const requests: Request[] = [];
  server.use(
    http[method](`${API}/${path}`, ({ request }) => {
      requests.push(request.clone());
      return status === 200 ? HttpResponse.json({ data }) : HttpResponse.json(data as Record<string, unknown>, { status });
    }),
  );
  return requests;
}

const rejection = async (promise: Promise<unknown>): Promise<ApiError> => {
  const error = await promise.then(
    () => new Error('expected a failure'),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
};

beforeEach(() => {
  vi.mocked(getAccessToken).mockReset().mockResolvedValue(TOKEN);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('GET batch (Kinora’s listing)', () => {
  it('answers the albums with the user token, defaults filled in', async () => {
    const requests = answer('get', 'batch', { items: [{ id: 'a1', batch_type: 'parallax', created_at: 'x', updated_at: 'x' }] });
    const albums = await listBatches();
    expect(albums).toEqual([
      expect.objectContaining({ id: 'a1', batch_type: 'parallax', title: '', image_urls: [], script_board: null, videos: [], concat: null }),
    ]);
    expect(requests[0]!.headers.get('Authorization')).toBe(TOKEN);
  });

  it('refuses an album of an unknown type', async () => {
    answer('get', 'batch', { items: [buildBatch({ batch_type: 'story' })] });
    const error = await rejection(listBatches());
    expect(error.kind).toBe('parse');
    expect(error.message).toContain('items.0.batch_type');
  });
});

describe('POST batch and batch/advanced', () => {
  it('sends the pictures as repeated image_urls with the type and title', async () => {
    await useNodeFormData();
    const requests = answer('post', 'batch', buildBatch());
    const album = await createBatch({ title: 'Holiday', batch_type: 'ai', image_urls: ['u1', 'u2', 'u3'] });
    expect(album.id).toBe('album-1');
    const form = await requests[0]!.formData();
    expect(form.getAll('image_urls')).toEqual(['u1', 'u2', 'u3']);
    expect(form.get('batch_type')).toBe('ai');
    expect(form.get('title')).toBe('Holiday');
    expect(requests[0]!.headers.get('Idempotency-Key')).toBeNull();
  });

  it('sends the advanced album’s own board as one JSON field', async () => {
    await useNodeFormData();
    const requests = answer('post', 'batch/advanced', buildBatch({ script_board: { clips: TWO_CLIPS } }));
    await createAdvancedBatch({ title: 'T', batch_type: 'ai', image_urls: ['u1'], script_board: { clips: TWO_CLIPS } });
    const form = await requests[0]!.formData();
    expect(JSON.parse(String(form.get('script_board')))).toEqual({ clips: TWO_CLIPS });
  });

  it('reads the server’s detail on a refusal', async () => {
    await useNodeFormData();
    answer('post', 'batch', { detail: 'Add 1 to 12 pictures (image_urls).' }, 400);
    const error = await rejection(createBatch({ title: 'T', batch_type: 'ai', image_urls: [] }));
    expect(error).toMatchObject({ kind: 'http', status: 400, message: 'Add 1 to 12 pictures (image_urls).' });
  });
});

describe('GET batch/{id}', () => {
  it('asks for ?fields= when given and escapes the id', async () => {
    const requests = answer('get', 'batch/a%2Fb', buildBatch({ id: 'a/b' }));
    await getBatch('a/b', ['title', 'videos']);
    expect(new URL(requests[0]!.url).searchParams.get('fields')).toBe('title,videos');
  });

  it('says "Failed to find a Batch with this id" for an unknown album', async () => {
    answer('get', 'batch/nope', { detail: MESSAGES.batchNotFound.message }, 404);
    const error = await rejection(getBatch('nope'));
    expect(error).toMatchObject({ status: 404, message: MESSAGES.batchNotFound.message });
  });

  it('parses the clips and the joined video as media', async () => {
    answer('get', 'batch/album-1', buildBatch({ videos: [buildFinishedVideo('v1')], concat: buildClipVideo('c1') }));
    const album = await getBatch('album-1');
    expect(album.videos[0]?.items[0]?.url).toBe('http://localhost/api/files/v1.mp4');
    expect(album.concat?.id).toBe('c1');
  });
});

describe('POST batch/{id}/script-board and videos', () => {
  it('writes a board with the given fields', async () => {
    await useNodeFormData();
    const requests = answer('post', 'batch/album-1/script-board', buildBatch({ script_board: { clips: TWO_CLIPS } }));
    const album = await writeScriptBoard('album-1', { model: 'KlingAI', motion_length: 6 });
    expect(album.script_board?.clips).toHaveLength(2);
    const form = await requests[0]!.formData();
    expect(form.get('model')).toBe('KlingAI');
    expect(form.get('motion_length')).toBe('6');
  });

  it('sends the board as JSON with the Idempotency-Key', async () => {
    await useNodeFormData();
    const requests = answer('post', 'batch/album-1/videos', buildBatch({ videos: [buildClipVideo('v1'), buildClipVideo('v2')] }));
    const album = await generateBatchVideos('album-1', { clips: TWO_CLIPS }, { idempotencyKey: 'key-7' }, { loop: 1 });
    expect(album.videos.map((video) => video.id)).toEqual(['v1', 'v2']);
    const request = requests[0]!;
    expect(request.headers.get('Idempotency-Key')).toBe('key-7');
    const form = await request.formData();
    expect(JSON.parse(String(form.get('script_board')))).toEqual({ clips: TWO_CLIPS });
    expect(form.get('loop')).toBe('1');
  });

  it('passes a 402 on with its detail', async () => {
    await useNodeFormData();
    answer('post', 'batch/album-1/videos', { detail: 'Not enough credits: this costs 80 credits and you have 4.' }, 402);
    const error = await rejection(generateBatchVideos('album-1', { clips: TWO_CLIPS }, { idempotencyKey: 'k' }));
    expect(error).toMatchObject({ status: 402, message: 'Not enough credits: this costs 80 credits and you have 4.' });
  });
});

describe('PUT batch/{id}/edit', () => {
  it('sends the lists as repeated keys, the extra videos as one JSON array and concat as "true"', async () => {
    await useNodeFormData();
    const requests = answer('put', 'batch/album-1/edit', buildBatch());
    await editBatch('album-1', {
      audio_urls: ['a1'],
      concat_video_urls: ['v1', 'v2'],
      additional_videos: [{ url: 'x1', label: 'Intro' }],
      concat: true,
    });
    const form = await requests[0]!.formData();
    expect(form.getAll('audio_urls')).toEqual(['a1']);
    expect(form.getAll('concat_video_urls')).toEqual(['v1', 'v2']);
    expect(JSON.parse(String(form.get('additional_videos')))).toEqual([{ url: 'x1', label: 'Intro' }]);
    expect(form.get('concat')).toBe('true');
    expect(form.has('image_urls')).toBe(false);
    expect(form.has('script_board')).toBe(false);
  });

  it('empties a list with one blank value and leaves out what is not given', async () => {
    await useNodeFormData();
    const requests = answer('put', 'batch/album-1/edit', buildBatch());
    await editBatch('album-1', { audio_urls: [], additional_videos: [], script_board: { clips: TWO_CLIPS } });
    const form = await requests[0]!.formData();
    expect(form.getAll('audio_urls')).toEqual(['']);
    expect(form.get('additional_videos')).toBe('[]');
    expect(JSON.parse(String(form.get('script_board')))).toEqual({ clips: TWO_CLIPS });
    expect(form.has('concat_video_urls')).toBe(false);
    expect(form.has('concat')).toBe(false);
  });
});

describe('DELETE batch/{id}', () => {
  it('answers { id, deleted: true }', async () => {
    const requests = answer('delete', 'batch/album-1', { id: 'album-1', deleted: true });
    await expect(deleteBatch('album-1')).resolves.toEqual({ id: 'album-1', deleted: true });
    expect(requests).toHaveLength(1);
  });

  it('fails with the 404 detail', async () => {
    answer('delete', 'batch/gone', { detail: MESSAGES.batchNotFound.message }, 404);
    const error = await rejection(deleteBatch('gone'));
    expect(error.status).toBe(404);
  });
});

describe('pollBatchJobs', () => {
  it('answers each running job’s status, the full media of ended ones, and each failure on its own', async () => {
    // The three polls start together, so they go as one batched request (an unknown id is left out).
    server.use(
      http.get(`${API}/media/processing-status`, ({ request }) => {
        expect(request.headers.get('Authorization')).toBeNull();
        const ids = new URL(request.url).searchParams.get('ids')?.split(',') ?? [];
        expect(ids).toEqual(['v1', 'v2', 'gone']);
        const known = ids.filter((id) => id !== 'gone');
        return HttpResponse.json({ data: { items: known.map((id) => buildStatus({ id, status: id === 'v2' ? 'success' : 'processing_3d', progress: 60 })) } });
      }),
      http.get(`${API}/media/v2`, () => HttpResponse.json({ data: buildFinishedVideo('v2') })),
    );
    const updates = await pollBatchJobs(['v1', 'v2', 'gone']);
    expect(updates[0]).toMatchObject({ id: 'v1', kind: 'status', status: { status: 'processing_3d', progress: 60 } });
    expect(updates[1]).toMatchObject({ id: 'v2', kind: 'ended', media: { id: 'v2', status: 'success' } });
    expect(updates[2]).toMatchObject({ id: 'gone', kind: 'error' });
    expect((updates[2] as { error: ApiError }).error.status).toBe(404);
  });

  it('answers nothing for no jobs', async () => {
    await expect(pollBatchJobs([])).resolves.toEqual([]);
  });
});
