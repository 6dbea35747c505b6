import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/services/api-error';
import { getAccessToken } from '@/services/auth';
import type * as AuthModule from '@/services/auth';
import { FINETUNE_ENDPOINT, listFinetunes } from '@/services/finetune';
import { submitGeneration } from '@/services/generation';
import type { Finetune } from '@/services/schemas/finetune';
import { server } from '../msw/server';
import { buildMedia } from './media.fixtures';

vi.mock('@/services/auth', async (importOriginal) => ({
  ...(await importOriginal<typeof AuthModule>()),
  getAccessToken: vi.fn(),
}));

const API = 'http://localhost/api';
const TOKEN = 'raw-access-token';

/** jsdom's FormData cannot cross into Node's Request, where msw reads the body: Node's own is used. */
const useNodeFormData = async () => {
  const nodeForm = await new Response('a=1', {
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  }).formData();
  vi.stubGlobal('FormData', nodeForm.constructor);
};

const finetune = (overrides: Partial<Finetune> = {}): Finetune => ({
  id: 'ft-1',
  name: 'My style',
  option: 'FluxFinetune',
  base_model: 'FluxFinetuned',
  trigger_word: 'mystyle',
  status: 'ready',
  media_id: 'media-1',
  preview_url: 'http://localhost/api/files/preview.png',
  image_count: 5,
  created_at: '2025-01-01T10:00:00.000Z',
  ...overrides,
});

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

describe('listFinetunes (Kinora GET finetune)', () => {
  it('asks for the signed-in person’s models with their token and returns the items', async () => {
    const requests: Request[] = [];
    server.use(
      http.get(`${API}/finetune`, ({ request }) => {
        requests.push(request);
        return HttpResponse.json({
          data: {
            items: [
              finetune(),
              // Optional fields left out: trigger word '' and no preview.
              { ...finetune({ id: 'ft-2', status: 'training' }), trigger_word: undefined, preview_url: undefined },
            ],
          },
        });
      }),
    );
    const items = await listFinetunes();
    expect(items.map((item) => [item.id, item.status, item.trigger_word, item.preview_url])).toEqual([
      ['ft-1', 'ready', 'mystyle', 'http://localhost/api/files/preview.png'],
      ['ft-2', 'training', '', null],
    ]);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.headers.get('Authorization')).toBe(TOKEN);
    expect(requests[0]?.headers.get('X-Api-Key')).toBeTruthy();
  });

  it('fails with the server’s detail', async () => {
    server.use(http.get(`${API}/finetune`, () => HttpResponse.json({ detail: 'The models are resting.' }, { status: 503 })));
    const error = await rejection(listFinetunes());
    expect(error.message).toBe('The models are resting.');
    expect(error.status).toBe(503);
  });

  it.each([
    ['an unknown kind', { option: 'SomethingElse' }],
    ['an unknown status', { status: 'queued' }],
    ['a negative picture count', { image_count: -1 }],
  ])('refuses a model with %s', async (_name, change) => {
    server.use(http.get(`${API}/finetune`, () => HttpResponse.json({ data: { items: [{ ...finetune(), ...change }] } })));
    const error = await rejection(listFinetunes());
    expect(error.kind).toBe('parse');
  });
});

describe('POST finetune through submitGeneration (the jobs registry’s submit)', () => {
  it('posts the pictures as repeated image_urls in order, the fields, the key and ?asset_id=', async () => {
    await useNodeFormData();
    const requests: Request[] = [];
    server.use(
      http.post(`${API}/finetune`, ({ request }) => {
        requests.push(request.clone());
        return HttpResponse.json({ data: buildMedia({ id: 'train-1', tool: 'finetune', option: 'FluxKontextFinetune', cost: 240 }) });
      }),
    );
    const media = await submitGeneration(
      FINETUNE_ENDPOINT,
      {
        option: 'FluxKontextFinetune',
        name: 'Sketchify',
        prompt: 'turn photos into pencil sketches',
        image_urls: ['http://localhost/api/files/in1', 'http://localhost/api/files/out1', 'http://localhost/api/files/in2', 'http://localhost/api/files/out2'],
      },
      { idempotencyKey: 'train-key', assetId: 'asset-3' },
    );
    expect(media).toMatchObject({ id: 'train-1', tool: 'finetune' });
    const request = requests[0]!;
    expect(new URL(request.url).pathname).toBe('/api/finetune');
    expect(new URL(request.url).searchParams.get('asset_id')).toBe('asset-3');
    expect(request.headers.get('Idempotency-Key')).toBe('train-key');
    expect(request.headers.get('Authorization')).toBe(TOKEN);
    const form = await request.formData();
    expect(form.getAll('image_urls')).toEqual([
      'http://localhost/api/files/in1',
      'http://localhost/api/files/out1',
      'http://localhost/api/files/in2',
      'http://localhost/api/files/out2',
    ]);
    expect(form.get('option')).toBe('FluxKontextFinetune');
    expect(form.get('name')).toBe('Sketchify');
    expect(form.get('prompt')).toBe('turn photos into pencil sketches');
    expect(form.has('trigger_word')).toBe(false);
  });
});
