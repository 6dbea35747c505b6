import { http, HttpResponse } from 'msw';
import { Blob as NodeBlob, File as NodeFile } from 'node:buffer';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/services/api-error';
import { getAccessToken } from '@/services/auth';
import type * as AuthModule from '@/services/auth';
import { submitGeneration } from '@/services/generation';
import {
  cancelMedia,
  createMedia,
  deleteMedia,
  editMedia,
  getFileUrl,
  getMedia,
  getProcessingStatus,
  listMedia,
  postBulletVideo,
  uploadMediaFile,
  viewMedia,
} from '@/services/media';
import { promptHelper } from '@/services/text';
import { server } from '../msw/server';
import { buildFinishedMedia, buildMedia, buildStatus } from './media.fixtures';

vi.mock('@/services/auth', async (importOriginal) => ({
  ...(await importOriginal<typeof AuthModule>()),
  getAccessToken: vi.fn(),
}));

const API = 'http://localhost/api';
const TOKEN = 'raw-access-token';

/**
 * jsdom's FormData and File cannot cross into Node's Request, where msw reads the body (see
 * tests/services/http.test.ts): multipart requests are built with Node's own, as a browser would.
 */
const useNodeFormData = async () => {
  const nodeForm = await new Response('a=1', {
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  }).formData();
  vi.stubGlobal('FormData', nodeForm.constructor);
  vi.stubGlobal('File', NodeFile);
  vi.stubGlobal('Blob', NodeBlob);
};

/** Answers every request to `method path` with `data` and keeps a clone of each. */
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

describe('submitGeneration (SPEC §7 image/*, audio/*)', () => {
  it('posts the fields as multipart with the Idempotency-Key and the user token', async () => {
    await useNodeFormData();
    const requests = answer('post', 'image/face-swap', buildMedia({ tool: 'face-swap' }));

    const media = await submitGeneration(
      'image/face-swap',
      {
        image_urls: ['http://localhost/api/files/a', 'http://localhost/api/files/b', 'http://localhost/api/files/c'],
        order_indices: [0, 1],
        option: 'MagicFaceSwap',
        async_mode: true,
      },
      { idempotencyKey: 'key-123' },
    );

    expect(media).toMatchObject({ id: 'media-1', tool: 'face-swap', status: 'queue_source' });
    const request = requests[0]!;
    expect(request.headers.get('Idempotency-Key')).toBe('key-123');
    expect(request.headers.get('Authorization')).toBe(TOKEN);
    expect(new URL(request.url).searchParams.has('asset_id')).toBe(false);
    const form = await request.formData();
    expect(form.getAll('image_urls')).toEqual([
      'http://localhost/api/files/a',
      'http://localhost/api/files/b',
      'http://localhost/api/files/c',
    ]);
    expect(form.getAll('order_indices')).toEqual(['0', '1']);
    expect(form.get('option')).toBe('MagicFaceSwap');
    expect(form.get('async_mode')).toBe('true');
  });

  it('adds ?asset_id= when given, and leaves it out when null', async () => {
    await useNodeFormData();
    const requests = answer('post', 'audio/text-2-speech', buildMedia({ kind: 'audio' }));

    await submitGeneration('audio/text-2-speech', { prompt: 'hi', voice: 'Aria' }, { idempotencyKey: 'k1', assetId: 'asset-9' });
    await submitGeneration('audio/text-2-speech', { prompt: 'hi', voice: 'Aria' }, { idempotencyKey: 'k2', assetId: null });

    expect(new URL(requests[0]!.url).searchParams.get('asset_id')).toBe('asset-9');
    expect(new URL(requests[1]!.url).searchParams.has('asset_id')).toBe(false);
    expect(requests.map((request) => request.headers.get('Idempotency-Key'))).toEqual(['k1', 'k2']);
  });

  it.each([
    [{ detail: 'Not enough credits: this costs 16 credits and you have 4.' }, 402, 'Not enough credits: this costs 16 credits and you have 4.'],
    [{ message: 'Only a message' }, 400, 'Only a message'],
    [{ detail: '', message: '' }, 500, 'api error'],
    [{}, 409, 'api error'],
  ])('fails with detail, else message, else "api error" (%j, %i)', async (body, status, message) => {
    await useNodeFormData();
    answer('post', 'image/text-2-image', body, status);
    const error = await rejection(submitGeneration('image/text-2-image', { prompt: 'x' }, { idempotencyKey: 'k' }));
    expect(error.message).toBe(message);
    expect(error.kind).toBe('http');
    expect(error.status).toBe(status);
  });

  it('reports a network failure as kind "network"', async () => {
    await useNodeFormData();
    server.use(http.post(`${API}/image/text-2-image`, () => HttpResponse.error()));
    const error = await rejection(submitGeneration('image/text-2-image', { prompt: 'x' }, { idempotencyKey: 'k' }));
    expect(error.kind).toBe('network');
  });

  it('refuses an answer that is not a media item', async () => {
    await useNodeFormData();
    answer('post', 'image/text-2-image', { id: 'x' });
    const error = await rejection(submitGeneration('image/text-2-image', { prompt: 'x' }, { idempotencyKey: 'k' }));
    expect(error.kind).toBe('parse');
  });
});

describe('media calls (SPEC §7 Media)', () => {
  it('GET media/{id} with ?fields= joined by commas, with the user token', async () => {
    const requests = answer('get', 'media/m%201', buildFinishedMedia({ id: 'm 1' }));
    await expect(getMedia('m 1', ['status', 'items'])).resolves.toMatchObject({ id: 'm 1', status: 'success_image' });
    await getMedia('m 1');
    expect(new URL(requests[0]!.url).searchParams.get('fields')).toBe('status,items');
    expect(new URL(requests[1]!.url).searchParams.has('fields')).toBe(false);
    expect(requests[0]!.headers.get('Authorization')).toBe(TOKEN);
  });

  it('GET media/{id}/processing-status never sends Authorization', async () => {
    const requests = answer('get', 'media/m1/processing-status', buildStatus({ id: 'm1' }));
    await expect(getProcessingStatus('m1')).resolves.toEqual(buildStatus({ id: 'm1' }));
    expect(requests[0]!.headers.get('Authorization')).toBeNull();
    expect(requests[0]!.headers.get('X-Api-Key')).toBe('test-api-key');
    expect(getAccessToken).not.toHaveBeenCalled();
  });

  it('sends polls that start at the same moment as one batched request, each answered with its own job', async () => {
    const requests = answer('get', 'media/processing-status', { items: [buildStatus({ id: 'a', progress: 10 }), buildStatus({ id: 'b', progress: 70 })] });
    const polls = [getProcessingStatus('a'), getProcessingStatus('b'), getProcessingStatus('a'), getProcessingStatus('gone')];
    const [a, b, againA, gone] = await Promise.allSettled(polls);
    expect(requests).toHaveLength(1);
    expect(new URL(requests[0]!.url).searchParams.get('ids')).toBe('a,b,gone');
    expect(requests[0]!.headers.get('Authorization')).toBeNull();
    expect(a).toEqual({ status: 'fulfilled', value: buildStatus({ id: 'a', progress: 10 }) });
    expect(b).toEqual({ status: 'fulfilled', value: buildStatus({ id: 'b', progress: 70 }) });
    expect(againA).toEqual(a);
    // Left out of the answer: the server does not know it, as the single call's 404 says.
    expect(gone?.status).toBe('rejected');
    expect(((gone as PromiseRejectedResult).reason as ApiError).status).toBe(404);
  });

  it('stops only the poll whose signal aborts; the batched request goes on for the others', async () => {
    const requests: Request[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.get(`${API}/media/processing-status`, async ({ request }) => {
        requests.push(request.clone());
        await held;
        return HttpResponse.json({ data: { items: [buildStatus({ id: 'a' }), buildStatus({ id: 'b' })] } });
      }),
    );
    const stop = new AbortController();
    const stopped = getProcessingStatus('a', { signal: stop.signal });
    const kept = getProcessingStatus('b');
    // Stopped while the request is on its way.
    await vi.waitFor(() => expect(requests).toHaveLength(1), { timeout: 2_000 });
    stop.abort();
    release();
    await expect(stopped).rejects.toMatchObject({ kind: 'network' });
    await expect(kept).resolves.toEqual(buildStatus({ id: 'b' }));
    expect(new URL(requests[0]!.url).searchParams.get('ids')).toBe('a,b');
  });

  it('does not ask for a poll stopped before it was sent', async () => {
    const single = answer('get', 'media/b/processing-status', buildStatus({ id: 'b' }));
    const stop = new AbortController();
    const stopped = getProcessingStatus('a', { signal: stop.signal });
    const kept = getProcessingStatus('b');
    stop.abort();
    await expect(stopped).rejects.toMatchObject({ kind: 'network' });
    await expect(kept).resolves.toEqual(buildStatus({ id: 'b' }));
    expect(single).toHaveLength(1);
  });

  it('fails every poll of a batched request that fails', async () => {
    answer('get', 'media/processing-status', { detail: 'Service unavailable' }, 503);
    const errors = await Promise.all([rejection(getProcessingStatus('a')), rejection(getProcessingStatus('b'))]);
    expect(errors.map((error) => error.status)).toEqual([503, 503]);
  });

  it('GET media/{id}/view never sends Authorization and works signed out', async () => {
    vi.mocked(getAccessToken).mockResolvedValue(null);
    const requests = answer('get', 'media/m1/view', buildFinishedMedia({ id: 'm1' }));
    await expect(viewMedia('m1')).resolves.toMatchObject({ id: 'm1' });
    expect(requests[0]!.headers.get('Authorization')).toBeNull();
  });

  it('GET media?tool=&limit= answers the items', async () => {
    const requests = answer('get', 'media', { items: [buildMedia({ id: 'a' }), buildMedia({ id: 'b' })] });
    const items = await listMedia({ tool: 'text-to-image', limit: 20 });
    expect(items.map((media) => media.id)).toEqual(['a', 'b']);
    const url = new URL(requests[0]!.url);
    expect(url.searchParams.get('tool')).toBe('text-to-image');
    expect(url.searchParams.get('limit')).toBe('20');
  });

  it('PUT media/{id}/cancel sends {} and passes a 409 on with its detail', async () => {
    const requests = answer('put', 'media/m1/cancel', buildMedia({ id: 'm1', status: 'cancelled', refunded: true }));
    await expect(cancelMedia('m1')).resolves.toMatchObject({ status: 'cancelled', refunded: true });
    expect(await requests[0]!.json()).toEqual({});
    expect(requests[0]!.headers.get('Content-Type')).toBe('application/json');

    server.resetHandlers();
    answer('put', 'media/m2/cancel', { detail: 'This job has already ended.' }, 409);
    const error = await rejection(cancelMedia('m2'));
    expect(error).toMatchObject({ status: 409, message: 'This job has already ended.' });
  });

  it('DELETE media/{id}', async () => {
    const requests = answer('delete', 'media/m1', { id: 'm1', deleted: true });
    await expect(deleteMedia('m1')).resolves.toEqual({ id: 'm1', deleted: true });
    expect(requests[0]!.method).toBe('DELETE');
  });

  it('GET media/{id}/file/{fileId}/get-url', async () => {
    const requests = answer('get', 'media/m1/file/f1/get-url', { url: 'http://localhost/api/files/f1?x', expires_at: '2025-01-01T11:00:00Z' });
    await expect(getFileUrl('m1', 'f1')).resolves.toEqual({ url: 'http://localhost/api/files/f1?x', expires_at: '2025-01-01T11:00:00Z' });
    expect(requests[0]!.headers.get('Authorization')).toBe(TOKEN);
  });

  it('POST media and PUT media/{id}/edit send image_urls as repeated keys', async () => {
    await useNodeFormData();
    const created = answer('post', 'media', buildMedia({ status: 'success_source' }));
    const edited = answer('put', 'media/m1/edit', buildMedia({ id: 'm1', status: 'success_source' }));

    await createMedia({ image_urls: ['u1', 'u2'], title: 'Album' });
    await editMedia('m1', { image_urls: ['u3'], title: 'Renamed' });

    const createdForm = await created[0]!.formData();
    expect(createdForm.getAll('image_urls')).toEqual(['u1', 'u2']);
    expect(createdForm.get('title')).toBe('Album');
    expect(edited[0]!.method).toBe('PUT');
    const editedForm = await edited[0]!.formData();
    expect(editedForm.getAll('image_urls')).toEqual(['u3']);
  });

  it('PUT media/{id}/post-bullet-video sends JSON {batch_video_path}', async () => {
    const requests = answer('put', 'media/m1/post-bullet-video', buildMedia({ id: 'm1' }));
    await postBulletVideo('m1', 'batch/2/Auto/video.mp4');
    expect(await requests[0]!.json()).toEqual({ batch_video_path: 'batch/2/Auto/video.mp4' });
  });
});

describe('uploads (SPEC §7 POST image / audio / video)', () => {
  it('uploadMediaFile(image) posts image_file and answers the media', async () => {
    await useNodeFormData();
    const requests = answer('post', 'image', buildFinishedMedia({ tool: 'upload-image', cost: 0 }));
    const file = new File(['png-bytes'], 'photo.png', { type: 'image/png' });

    const media = await uploadMediaFile('image', file);

    expect(media.items[0]?.url).toContain('/api/files/f1');
    const form = await requests[0]!.formData();
    const sent = form.get('image_file') as File;
    expect(sent.name).toBe('photo.png');
    expect(await sent.text()).toBe('png-bytes');
    expect(requests[0]!.headers.get('Idempotency-Key')).toBeNull();
  });

  it('uploadMediaFile(audio) posts audio_file; a video goes as video_file', async () => {
    await useNodeFormData();
    const audio = answer('post', 'audio', buildFinishedMedia({ kind: 'audio', tool: 'upload-audio', status: 'success' }));
    const video = answer('post', 'video', buildFinishedMedia({ kind: 'video', tool: 'upload-video' }));

    await uploadMediaFile('audio', new File(['wav'], 'a.wav', { type: 'audio/wav' }));
    await uploadMediaFile('video', new File(['mp4'], 'v.mp4', { type: 'video/mp4' }));

    expect([...(await audio[0]!.formData()).keys()]).toEqual(['audio_file']);
    expect([...(await video[0]!.formData()).keys()]).toEqual(['video_file']);
  });

  it('passes the 413 detail on', async () => {
    await useNodeFormData();
    answer('post', 'image', { detail: 'The file is too large: images can be at most 30 MB.' }, 413);
    const error = await rejection(uploadMediaFile('image', new File(['x'], 'a.png', { type: 'image/png' })));
    expect(error).toMatchObject({ status: 413, message: 'The file is too large: images can be at most 30 MB.' });
  });

  it('stops when its signal is aborted', async () => {
    await useNodeFormData();
    server.use(http.post(`${API}/image`, () => new Promise<Response>(() => {})));
    const controller = new AbortController();
    const pending = uploadMediaFile('image', new File(['x'], 'a.png', { type: 'image/png' }), { signal: controller.signal });
    controller.abort();
    const error = await rejection(pending);
    expect(error.kind).toBe('network');
  });
});

describe('promptHelper (SPEC §7 text/prompt)', () => {
  it('sends option, prompt, mode and one picture field', async () => {
    await useNodeFormData();
    const requests = answer('post', 'text/prompt', { mode: 'Image2Prompt', prompt: 'A wide photo of a beach' });

    await expect(
      promptHelper({ option: 'Image2Prompt', prompt: '', mode: 'image', imageUrl: 'http://localhost/api/files/a', videoUrl: 'ignored' }),
    ).resolves.toEqual({ mode: 'Image2Prompt', prompt: 'A wide photo of a beach' });

    const form = await requests[0]!.formData();
    expect(form.get('option')).toBe('Image2Prompt');
    expect(form.get('prompt')).toBe('');
    expect(form.get('mode')).toBe('image');
    expect(form.get('image_url')).toBe('http://localhost/api/files/a');
    expect(form.has('video_url')).toBe(false);
  });

  it('defaults to InspireMe and can send a local file', async () => {
    await useNodeFormData();
    const requests = answer('post', 'text/prompt', { mode: 'InspireMe', prompt: 'A lighthouse at dusk' });
    await promptHelper({ prompt: 'sea', mode: 'video', videoFile: new File(['mp4'], 'clip.mp4', { type: 'video/mp4' }) });
    const form = await requests[0]!.formData();
    expect(form.get('option')).toBe('InspireMe');
    expect((form.get('video_file') as File).name).toBe('clip.mp4');
    expect([...form.keys()]).toEqual(['option', 'prompt', 'mode', 'video_file']);
  });

  it('fails with the detail', async () => {
    await useNodeFormData();
    answer('post', 'text/prompt', { detail: 'Image2Prompt needs an image_url or image_file' }, 400);
    const error = await rejection(promptHelper({ option: 'Image2Prompt', prompt: '', mode: 'image' }));
    expect(error.message).toBe('Image2Prompt needs an image_url or image_file');
  });
});
