import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/services/api-error';
import { getAccessToken } from '@/services/auth';
import type * as AuthModule from '@/services/auth';
import { readLiveJobs, rerunJob, searchJobs } from '@/services/job-history';
import {
  JOB_SEARCH_SORTS,
  JOB_SEARCH_SORT_LABELS,
  JOB_SEARCH_STATUSES,
  JOB_SEARCH_STATUS_LABELS,
} from '@/services/schemas/job-history';
import { server } from '../msw/server';
import { buildFinishedMedia, buildMedia, buildStatus } from './media.fixtures';

vi.mock('@/services/auth', async (importOriginal) => ({
  ...(await importOriginal<typeof AuthModule>()),
  getAccessToken: vi.fn(),
}));

beforeEach(() => {
  vi.mocked(getAccessToken).mockReset().mockResolvedValue('raw-access-token');
});

const API = 'http://localhost/api';

/** Answers GET media with `body` (status 200 unless told) and keeps every request it got. */
function answerSearch(body: Record<string, unknown>, status = 200): Request[] {
  const requests: Request[] = [];
  server.use(
    http.get(`${API}/media`, ({ request }) => {
      requests.push(request);
      return HttpResponse.json(body, { status });
    }),
  );
  return requests;
}

describe('searchJobs', () => {
  it('sends every filter under the server’s name with the user’s token, and reads the page and its next key', async () => {
    const requests = answerSearch({ data: { items: [buildFinishedMedia({ id: 'a' }), buildMedia({ id: 'b' })], next_start_keys: 'eyJzIjoibmV3ZXN0In0' } });
    const result = await searchJobs({
      tool: 'text-to-image',
      option: 'Seedream',
      status: 'succeeded',
      q: ' red fox ',
      seed: '42',
      costMin: 0,
      costMax: 8,
      from: '2026-01-01',
      to: '2026-01-31T23:00:00+02:00',
      sort: 'cost_high',
      nextStartKeys: 'cursor-1',
      limit: 25,
    });
    expect(result.items.map((item) => item.id)).toEqual(['a', 'b']);
    expect(result.nextStartKeys).toBe('eyJzIjoibmV3ZXN0In0');
    const request = requests[0]!;
    expect(request.headers.get('Authorization')).toBe('raw-access-token');
    expect(Object.fromEntries(new URL(request.url).searchParams)).toEqual({
      tool: 'text-to-image',
      option: 'Seedream',
      status: 'succeeded',
      q: 'red fox',
      seed: '42',
      cost_min: '0',
      cost_max: '8',
      from: '2026-01-01',
      to: '2026-01-31T23:00:00+02:00',
      sort: 'cost_high',
      next_start_keys: 'cursor-1',
      limit: '25',
    });
  });

  it('sends nothing for filters not given or left blank; a page without next_start_keys is the last', async () => {
    const requests = answerSearch({ data: { items: [] } });
    await expect(searchJobs({ q: '   ', seed: '', tool: undefined })).resolves.toEqual({ items: [], nextStartKeys: null });
    expect([...new URL(requests[0]!.url).searchParams.keys()]).toEqual([]);
  });

  it('passes the server’s refusal on with its detail (a cursor it did not give out)', async () => {
    answerSearch({ detail: 'next_start_keys is not a cursor this listing gave out.' }, 400);
    const error = await searchJobs({ nextStartKeys: 'forged' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: 'next_start_keys is not a cursor this listing gave out.', status: 400 });
  });

  it('refuses a page whose items are not media, or whose key is not a string', async () => {
    answerSearch({ data: { items: [{ id: 'x' }], next_start_keys: null } });
    await expect(searchJobs({})).rejects.toMatchObject({ kind: 'parse' });
    answerSearch({ data: { items: [], next_start_keys: 7 } });
    await expect(searchJobs({})).rejects.toMatchObject({ kind: 'parse' });
  });
});

describe('rerunJob', () => {
  it('POSTs {} to media/{id}/rerun with the Idempotency-Key and the token, and answers the new job', async () => {
    let seen: { key: string | null; authorization: string | null; type: string | null; body: unknown } | null = null;
    const made = buildMedia({ id: 'new-1', status: 'queue_source', cost: 8 });
    server.use(
      http.post(`${API}/media/m%201/rerun`, async ({ request }) => {
        seen = {
          key: request.headers.get('Idempotency-Key'),
          authorization: request.headers.get('Authorization'),
          type: request.headers.get('Content-Type'),
          body: await request.json(),
        };
        return HttpResponse.json({ data: made });
      }),
    );
    await expect(rerunJob('m 1', 'intent-7')).resolves.toEqual(made);
    expect(seen).toEqual({ key: 'intent-7', authorization: 'raw-access-token', type: 'application/json', body: {} });
  });

  it.each([
    [402, 'Not enough credits: this costs 8 credits and you have 5.'],
    [409, 'This job is still running; it cannot be edited.'],
    [400, 'This item cannot be run again.'],
    [404, 'Not found.'],
  ])('passes a %i on with its detail', async (status, detail) => {
    server.use(http.post(`${API}/media/m1/rerun`, () => HttpResponse.json({ detail }, { status })));
    await expect(rerunJob('m1', 'k')).rejects.toMatchObject({ message: detail, status });
  });

  it('refuses an answer that is not a media item', async () => {
    server.use(http.post(`${API}/media/m1/rerun`, () => HttpResponse.json({ data: { id: 'm2' } })));
    await expect(rerunJob('m1', 'k')).rejects.toMatchObject({ kind: 'parse' });
  });
});

describe('readLiveJobs', () => {
  it('reads every live row in one batched processing-status request, and each job that ended whole', async () => {
    const requests: string[] = [];
    const done = buildFinishedMedia({ id: 'b', cost: 8 });
    server.use(
      http.get(`${API}/media/processing-status`, ({ request }) => {
        requests.push(`${request.method} ${new URL(request.url).pathname}${new URL(request.url).search}`);
        return HttpResponse.json({
          data: { items: [buildStatus({ id: 'a', status: 'queue_source', queue_position: 2, held: true }), buildStatus({ id: 'b', status: 'success_image', progress: 100 })] },
        });
      }),
      http.get(`${API}/media/:id`, ({ request, params }) => {
        requests.push(`${request.method} ${new URL(request.url).pathname}`);
        return params.id === 'b' ? HttpResponse.json({ data: done }) : HttpResponse.json({ detail: 'Not found' }, { status: 404 });
      }),
    );
    const read = await readLiveJobs(['a', 'b', 'gone']);
    expect(requests).toEqual(['GET /api/media/processing-status?ids=a,b,gone', 'GET /api/media/b']);
    // A job the server did not list (deleted meanwhile) is in neither list.
    expect(read).toEqual({
      asked: ['a', 'b', 'gone'],
      statuses: [expect.objectContaining({ id: 'a', status: 'queue_source', queue_position: 2, held: true })],
      ended: [done],
    });
  });

  it('fails the whole read when the status request fails (the poller backs off)', async () => {
    server.use(http.get(`${API}/media/processing-status`, () => HttpResponse.json({ detail: 'Busy' }, { status: 503 })));
    await expect(readLiveJobs(['a', 'b'])).rejects.toBeInstanceOf(ApiError);
  });
});

describe('the search’s lists for the UI', () => {
  it('names every status and sort the server takes, in order', () => {
    expect(JOB_SEARCH_STATUSES).toEqual(['live', 'succeeded', 'failed', 'nsfw', 'cancelled']);
    expect(Object.keys(JOB_SEARCH_STATUS_LABELS)).toEqual([...JOB_SEARCH_STATUSES]);
    expect(JOB_SEARCH_SORTS).toEqual(['newest', 'oldest', 'cost_high', 'cost_low']);
    expect(Object.keys(JOB_SEARCH_SORT_LABELS)).toEqual([...JOB_SEARCH_SORTS]);
  });
});
