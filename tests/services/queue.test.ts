import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/services/api-error';
import { getAccessToken } from '@/services/auth';
import type * as AuthModule from '@/services/auth';
import { controlQueuedJob, editQueuedJob } from '@/services/queue';
import { server } from '../msw/server';
import { buildMedia } from './media.fixtures';

vi.mock('@/services/auth', async (importOriginal) => ({
  ...(await importOriginal<typeof AuthModule>()),
  getAccessToken: vi.fn(),
}));

beforeEach(() => {
  vi.mocked(getAccessToken).mockReset().mockResolvedValue('raw-access-token');
});

const API = 'http://localhost/api';

describe('the queue calls (issue 21 item 2)', () => {
  it.each([
    ['hold', { held: true, queue_position: null }],
    ['resume', { held: false, queue_position: 2 }],
    ['run-next', { held: false, queue_position: 1 }],
  ] as const)('POST media/{id}/%s with the user’s token, reading the job with held and its place', async (control, state) => {
    const requests: Request[] = [];
    server.use(
      http.post(`${API}/media/:id/${control}`, ({ request }) => {
        requests.push(request);
        return HttpResponse.json({ data: buildMedia({ id: 'job 1', ...state }) });
      }),
    );
    const media = await controlQueuedJob('job 1', control);
    expect(media).toMatchObject({ id: 'job 1', ...state });
    expect(new URL(requests[0]?.url ?? '').pathname).toBe(`/api/media/job%201/${control}`);
    expect(requests[0]?.headers.get('Authorization')).toBeTruthy();
  });

  it('PATCH media/{id} sends the edit as JSON under its Idempotency-Key', async () => {
    const requests: { body: unknown; key: string | null; method: string }[] = [];
    server.use(
      http.patch(`${API}/media/:id`, async ({ request }) => {
        requests.push({ body: await request.json(), key: request.headers.get('Idempotency-Key'), method: request.method });
        return HttpResponse.json({ data: buildMedia({ option: 'Flux1.1ProUltra', cost: 8 }) });
      }),
    );
    const media = await editQueuedJob('media-1', { option: 'Flux1.1ProUltra', prompt: 'a blue fox' }, 'key-7');
    expect(media).toMatchObject({ option: 'Flux1.1ProUltra', cost: 8 });
    expect(requests).toEqual([{ body: { option: 'Flux1.1ProUltra', prompt: 'a blue fox' }, key: 'key-7', method: 'PATCH' }]);
  });

  it('turns a 409 into an ApiError carrying the server’s reason', async () => {
    const reason = 'This job has already started: only a job still waiting in the queue can be changed.';
    server.use(http.post(`${API}/media/:id/hold`, () => HttpResponse.json({ detail: reason }, { status: 409 })));
    const failure = await controlQueuedJob('media-1', 'hold').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 409, message: reason });
  });
});
