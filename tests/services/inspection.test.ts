import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { getAccessToken } from '@/services/auth';
import type * as AuthModule from '@/services/auth';
import {
  fetchJobHistory,
  fetchJobLog,
  fetchProblemReport,
  listProblemReports,
  saveJobLog,
  sendProblemReport,
} from '@/services/inspection';
import { server } from '../msw/server';

vi.mock('@/services/auth', async (importOriginal) => ({
  ...(await importOriginal<typeof AuthModule>()),
  getAccessToken: vi.fn(),
}));

beforeEach(() => {
  vi.mocked(getAccessToken).mockReset().mockResolvedValue('raw-access-token');
});

const API = 'http://localhost/api';
const record = { seq: 1, time: 1, actorId: 'job-1', sessionId: 'x:1', machineId: 'generationJob', type: 'event' as const, event: 'job.submit' };

describe('job logs', () => {
  it('saves a job’s records with the user’s token as JSON', async () => {
    let seen: { authorization: string | null; type: string | null; body: unknown } | null = null;
    server.use(
      http.put(`${API}/media/m%201/inspection-log`, async ({ request }) => {
        seen = { authorization: request.headers.get('Authorization'), type: request.headers.get('Content-Type'), body: await request.json() };
        return HttpResponse.json({ data: { media_id: 'm 1', saved_at: '2026-01-01T00:00:00.000Z', bytes: 120 } });
      }),
    );
    await expect(saveJobLog('m 1', { records: [record] })).resolves.toEqual({ media_id: 'm 1', saved_at: '2026-01-01T00:00:00.000Z', bytes: 120 });
    expect(seen).toEqual({ authorization: 'raw-access-token', type: 'application/json', body: { records: [record] } });
  });

  it('reads a kept log, and null when the server keeps none (404)', async () => {
    server.use(http.get(`${API}/media/m1/inspection-log`, () => HttpResponse.json({ data: { saved_at: '2026-01-01T00:00:00.000Z', records: [record] } })));
    await expect(fetchJobLog('m1')).resolves.toEqual({ saved_at: '2026-01-01T00:00:00.000Z', records: [record] });
    server.use(http.get(`${API}/media/m1/inspection-log`, () => HttpResponse.json({ detail: 'Not found.' }, { status: 404 })));
    await expect(fetchJobLog('m1')).resolves.toBeNull();
    server.use(http.get(`${API}/media/m1/inspection-log`, () => HttpResponse.json({ detail: 'Down' }, { status: 503 })));
    await expect(fetchJobLog('m1')).rejects.toMatchObject({ message: 'Down', status: 503 });
  });

  it('refuses a log whose records are not records', async () => {
    server.use(http.get(`${API}/media/m1/inspection-log`, () => HttpResponse.json({ data: { saved_at: 'x', records: [{ seq: 'one' }] } })));
    await expect(fetchJobLog('m1')).rejects.toMatchObject({ kind: 'parse' });
  });
});

describe('job history', () => {
  it('reads the server’s events of the job', async () => {
    const history = {
      media_id: 'm1',
      tool: 'text-to-image',
      option: 'Seedream',
      endpoint: 'image/text-2-image',
      status: 'failed',
      progress: 0,
      cost: 4,
      charged: true,
      attempts: 1,
      error: 'The generation failed.',
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:01.000Z',
      finished_at: '2026-01-01T00:00:01.000Z',
      events: [
        { at: '2026-01-01T00:00:00.000Z', kind: 'queued', detail: 'text-to-image · Seedream' },
        { at: '2026-01-01T00:00:01.000Z', kind: 'refunded', detail: '4 credits: Refund: the generation failed' },
      ],
    };
    server.use(http.get(`${API}/media/m1/history`, () => HttpResponse.json({ data: history })));
    await expect(fetchJobHistory('m1')).resolves.toEqual(history);
    server.use(http.get(`${API}/media/m1/history`, () => HttpResponse.json({ data: { ...history, events: [{ at: 'x', kind: 'exploded', detail: '' }] } })));
    await expect(fetchJobHistory('m1')).rejects.toMatchObject({ kind: 'parse' });
  });
});

describe('problem reports', () => {
  it('sends a report and reads the list and one report back', async () => {
    let sent: unknown = null;
    server.use(
      http.post(`${API}/problem-reports`, async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ data: { id: 'r1', created_at: '2026-01-01T00:00:00.000Z', title: 'Problem report' } }, { status: 201 });
      }),
      http.get(`${API}/problem-reports`, () =>
        HttpResponse.json({ data: { reports: [{ id: 'r1', title: 'Problem report', created_at: '2026-01-01T00:00:00.000Z', bytes: 300 }] } }),
      ),
      http.get(`${API}/problem-reports/r1`, () => HttpResponse.json({ data: { schema: 'kinora.problem-report', anything: [1] } })),
    );
    const bundle = { schema: 'kinora.problem-report', version: 1, log: { records: [] } };
    await expect(sendProblemReport(bundle)).resolves.toEqual({ id: 'r1', created_at: '2026-01-01T00:00:00.000Z', title: 'Problem report' });
    expect(sent).toEqual(bundle);
    await expect(listProblemReports()).resolves.toEqual({
      reports: [{ id: 'r1', title: 'Problem report', created_at: '2026-01-01T00:00:00.000Z', bytes: 300 }],
    });
    await expect(fetchProblemReport('r1')).resolves.toEqual({ schema: 'kinora.problem-report', anything: [1] });
  });

  it('fails with the server’s 404 where reports are not kept', async () => {
    server.use(http.post(`${API}/problem-reports`, () => HttpResponse.json({ detail: 'Not found.' }, { status: 404 })));
    await expect(sendProblemReport({})).rejects.toMatchObject({ message: 'Not found.', status: 404 });
  });
});
