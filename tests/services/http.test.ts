import { http as mswHttp, HttpResponse } from 'msw';
import type { JsonBodyType } from 'msw';
import { Blob as NodeBlob, File as NodeFile } from 'node:buffer';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { MESSAGES } from '@/config/messages';
import { ApiError } from '@/services/api-error';
import { getAccessToken } from '@/services/auth';
import type * as AuthModule from '@/services/auth';
import {
  apiDelete,
  apiErrorMessage,
  apiGet,
  apiPostJson,
  apiPostMultipart,
  apiPutJson,
  apiPutMultipart,
  toFormData,
  uploadFraction,
} from '@/services/http';
import { server } from '../msw/server';

vi.mock('@/services/auth', async (importOriginal) => ({
  ...(await importOriginal<typeof AuthModule>()),
  getAccessToken: vi.fn(),
}));

const API = 'http://localhost/api';
const TOKEN = 'raw-access-token';
const okSchema = z.object({ ok: z.boolean() });
const signedIn = () => vi.mocked(getAccessToken).mockResolvedValue(TOKEN);
const signedOut = () => vi.mocked(getAccessToken).mockResolvedValue(null);

/** Answers `{ data: { ok: true } }` and keeps every request it saw. */
function recordingHandler(method: 'get' | 'post' | 'put' | 'delete', path: string) {
  const requests: Request[] = [];
  server.use(
    mswHttp[method](`${API}/${path}`, ({ request }) => {
      requests.push(request.clone());
      return HttpResponse.json({ data: { ok: true } });
    }),
  );
  return requests;
}

const rejectionOf = async (promise: Promise<unknown>): Promise<ApiError> => {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
};

beforeEach(() => {
  vi.mocked(getAccessToken).mockReset();
});

describe('headers (SPEC §7)', () => {
  it('sends the client type, the API key and the raw access token on a user call', async () => {
    signedIn();
    const requests = recordingHandler('get', 'credits/get');

    await expect(apiGet('credits/get', okSchema)).resolves.toEqual({ ok: true });

    const headers = requests[0]!.headers;
    expect(headers.get('X-CLIENT-TYPE')).toBe('web-frontend');
    expect(headers.get('X-Api-Key')).toBe('test-api-key');
    expect(headers.get('Authorization')).toBe(TOKEN);
    expect(headers.get('Content-Type')).toBeNull();
  });

  it('marks JSON calls as application/json and sends the body as JSON', async () => {
    signedIn();
    const posted = recordingHandler('post', 'users/contact-us');
    const put = recordingHandler('put', 'asset/a1');

    await apiPostJson('users/contact-us', { name: 'Ada', tags: ['a', 'b'] }, okSchema);
    await apiPutJson('asset/a1', { id: 'a1' }, okSchema);

    expect(posted[0]!.headers.get('Content-Type')).toBe('application/json');
    expect(await posted[0]!.json()).toEqual({ name: 'Ada', tags: ['a', 'b'] });
    expect(put[0]!.headers.get('Content-Type')).toBe('application/json');
    expect(await put[0]!.json()).toEqual({ id: 'a1' });
  });

  it('never sends Authorization on a public call, even when signed in', async () => {
    signedIn();
    const requests = recordingHandler('get', 'promo-videos');

    await apiGet('promo-videos', okSchema, { auth: 'none' });

    expect(requests[0]!.headers.get('Authorization')).toBeNull();
    expect(requests[0]!.headers.get('X-Api-Key')).toBe('test-api-key');
    expect(requests[0]!.headers.get('X-CLIENT-TYPE')).toBe('web-frontend');
    expect(getAccessToken).not.toHaveBeenCalled();
  });

  it('sends only the API key on an api-key-only call', async () => {
    signedIn();
    const requests = recordingHandler('post', 'auth/check');

    await apiPostJson('auth/check', { email: 'a@b.co' }, okSchema, { auth: 'api-key-only' });

    expect(requests[0]!.headers.get('Authorization')).toBeNull();
    expect(requests[0]!.headers.get('X-Api-Key')).toBe('test-api-key');
    expect(getAccessToken).not.toHaveBeenCalled();
  });

  it('passes query values and leaves out undefined ones', async () => {
    const requests = recordingHandler('get', 'users/u1');

    await apiGet('users/u1', okSchema, { auth: 'none', query: { type: 'creator', page: 2, missing: undefined } });

    const url = new URL(requests[0]!.url);
    expect(url.searchParams.get('type')).toBe('creator');
    expect(url.searchParams.get('page')).toBe('2');
    expect(url.searchParams.has('missing')).toBe(false);
  });
});

describe('the two auth messages (SPEC §8)', () => {
  it('refuses a user call while signed out without sending it', async () => {
    signedOut();
    const requests = recordingHandler('delete', 'users');

    const error = await rejectionOf(apiDelete('users', okSchema));

    expect(error.message).toBe('User needs to be authenticated to call this API.');
    expect(error.message).toBe(MESSAGES.notAuthenticated);
    expect(error.kind).toBe('auth');
    expect(requests).toHaveLength(0);
  });

  it('passes on "Auth session was not found." when there is no session, without sending', async () => {
    vi.mocked(getAccessToken).mockRejectedValue(new ApiError(MESSAGES.noSession, { kind: 'auth' }));
    const requests = recordingHandler('get', 'credits/get');

    const error = await rejectionOf(apiGet('credits/get', okSchema));

    expect(error.message).toBe('Auth session was not found.');
    expect(requests).toHaveLength(0);
  });
});

describe('multipart (SPEC §7)', () => {
  /**
   * jsdom's FormData and File cannot cross into Node's Request, where msw reads the body: file
   * parts arrive empty and unnamed. A browser has one implementation, so the request is built
   * here with Node's own FormData, File and Blob, as it would be with the browser's.
   */
  const useNodeFormData = async () => {
    const nodeForm = await new Response('a=1', {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    }).formData();
    vi.stubGlobal('FormData', nodeForm.constructor);
    vi.stubGlobal('File', NodeFile);
    vi.stubGlobal('Blob', NodeBlob);
  };

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('sends arrays as repeated keys, objects as JSON, files as files, and skips absent fields', async () => {
    signedIn();
    await useNodeFormData();
    const requests = recordingHandler('post', 'image/text-to-image');
    const file = new File(['png-bytes'], 'first frame.png', { type: 'image/png' });

    await apiPostMultipart(
      'image/text-to-image',
      {
        image_urls: ['https://m.example/a.png', 'https://m.example/b.png'],
        prompt: 'a cat',
        quantity: 2,
        async_mode: true,
        storyboard: { scenes: [{ id: 1 }] },
        image_file: file,
        mask: new Blob(['mask-bytes'], { type: 'image/png' }),
        asset_id: undefined,
        end_frame: null,
      },
      okSchema,
    );

    const request = requests[0]!;
    expect(request.headers.get('Content-Type')).toMatch(/^multipart\/form-data; boundary=/);
    expect(request.headers.get('Authorization')).toBe(TOKEN);
    expect(request.headers.get('X-Api-Key')).toBe('test-api-key');
    const form = await request.formData();
    expect(form.getAll('image_urls')).toEqual(['https://m.example/a.png', 'https://m.example/b.png']);
    expect(form.get('prompt')).toBe('a cat');
    expect(form.get('quantity')).toBe('2');
    expect(form.get('async_mode')).toBe('true');
    expect(JSON.parse(form.get('storyboard') as string)).toEqual({ scenes: [{ id: 1 }] });
    const sentFile = form.get('image_file') as File;
    expect(sentFile.name).toBe('first frame.png');
    expect(sentFile.type).toBe('image/png');
    expect(await sentFile.text()).toBe('png-bytes');
    expect(await (form.get('mask') as File).text()).toBe('mask-bytes');
    expect(form.has('asset_id')).toBe(false);
    expect(form.has('end_frame')).toBe(false);
    expect([...form.keys()]).toEqual([
      'image_urls',
      'image_urls',
      'prompt',
      'quantity',
      'async_mode',
      'storyboard',
      'image_file',
      'mask',
    ]);
  });

  it('keeps file names and leaves out empty arrays', () => {
    const file = new File(['x'], 'scene 1.mp4', { type: 'video/mp4' });
    const form = toFormData({ audio_urls: ['x', 'y', 'z'], empty: [], video_file: file, images: [file, file] });
    expect(form.getAll('audio_urls')).toEqual(['x', 'y', 'z']);
    expect(form.has('empty')).toBe(false);
    expect((form.get('video_file') as File).name).toBe('scene 1.mp4');
    expect(form.getAll('images').map((part) => (part as File).name)).toEqual(['scene 1.mp4', 'scene 1.mp4']);
  });
});

describe('response rule (SPEC §7, §8)', () => {
  const failWith = (status: number, body: JsonBodyType) =>
    server.use(mswHttp.get(`${API}/credits/get`, () => HttpResponse.json(body, { status })));

  beforeEach(signedIn);

  it('uses the detail of a failure', async () => {
    failWith(400, { detail: 'Not enough credits', message: 'ignored' });
    const error = await rejectionOf(apiGet('credits/get', okSchema));
    expect(error.message).toBe('Not enough credits');
    expect(error.status).toBe(400);
    expect(error.kind).toBe('http');
  });

  it('falls back to message when there is no detail', async () => {
    failWith(500, { message: 'Internal trouble' });
    const error = await rejectionOf(apiGet('credits/get', okSchema));
    expect(error.message).toBe('Internal trouble');
    expect(error.status).toBe(500);
  });

  it('falls back to "api error" when neither is given', async () => {
    failWith(502, { error: 'something' });
    const error = await rejectionOf(apiGet('credits/get', okSchema));
    expect(error.message).toBe('api error');
    expect(error.status).toBe(502);
  });

  it('falls back to "api error" when the failure body is not JSON', async () => {
    server.use(mswHttp.get(`${API}/credits/get`, () => new HttpResponse('<html>Bad gateway</html>', { status: 502 })));
    const error = await rejectionOf(apiGet('credits/get', okSchema));
    expect(error.message).toBe('api error');
  });

  it('turns a network failure into an ApiError of kind network', async () => {
    server.use(mswHttp.get(`${API}/credits/get`, () => HttpResponse.error()));
    const error = await rejectionOf(apiGet('credits/get', okSchema));
    expect(error.kind).toBe('network');
    expect(error.status).toBeUndefined();
    expect(error.message).toContain('GET credits/get');
  });

  it('rejects a payload that does not match its schema, naming the field', async () => {
    server.use(mswHttp.get(`${API}/credits/get`, () => HttpResponse.json({ data: { ok: 'yes' } })));
    const error = await rejectionOf(apiGet('credits/get', okSchema));
    expect(error.kind).toBe('parse');
    expect(error.message).toMatch(/^Unexpected response from GET credits\/get: ok: /);
  });

  it('rejects a success without a data field', async () => {
    server.use(mswHttp.get(`${API}/credits/get`, () => HttpResponse.json({ ok: true })));
    const error = await rejectionOf(apiGet('credits/get', okSchema));
    expect(error.kind).toBe('parse');
    expect(error.message).toBe('Unexpected response from GET credits/get: no data field');
  });

  it('reads the message rule from any body', () => {
    expect(apiErrorMessage({ detail: '', message: 'used' })).toBe('used');
    expect(apiErrorMessage(null)).toBe('api error');
    expect(apiErrorMessage('plain text')).toBe('api error');
    expect(apiErrorMessage({ detail: [{ msg: 'x' }] })).toBe('api error');
  });
});

describe('Idempotency-Key and multipart PUT', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('sends Idempotency-Key only when a key is given', async () => {
    signedIn();
    const requests = recordingHandler('post', 'image/text-2-image');

    await apiPostMultipart('image/text-2-image', { prompt: 'a' }, okSchema, { idempotencyKey: 'intent-1' });
    await apiPostMultipart('image/text-2-image', { prompt: 'a' }, okSchema);

    expect(requests.map((request) => request.headers.get('Idempotency-Key'))).toEqual(['intent-1', null]);
  });

  it('apiPutMultipart sends a multipart PUT', async () => {
    signedIn();
    const requests = recordingHandler('put', 'media/m1/edit');
    await apiPutMultipart('media/m1/edit', { title: 'x' }, okSchema);
    expect(requests[0]!.method).toBe('PUT');
    expect(requests[0]!.headers.get('Content-Type')).toMatch(/^multipart\/form-data; boundary=/);
  });

  it.each([
    [{ loaded: 5, total: 10, progress: 0.5 }, 0.5],
    [{ loaded: 3, total: 4 }, 0.75],
    [{ loaded: 3 }, null],
    [{ loaded: 3, total: 0 }, null],
    [{ loaded: 12, total: 10 }, 1],
  ])('uploadFraction(%j) → %s', (event, fraction) => {
    expect(uploadFraction({ bytes: 0, lengthComputable: true, ...event })).toBe(fraction);
  });
});
