import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { JobRow } from '@/components/jobs/job-row';
import type { JobEntry } from '@/components/jobs/job-view';
import { createInspectionHub } from '@/lib/inspection/hub';
import { problemReportMachine } from '@/machines/inspector/problem-report.machine';
import { server } from '../msw/server';
import { render, screen, userEvent } from '../test-utils';
import { alice, signedInAs } from './session-helpers';

/** Issue 22 item 5: "Report a problem" from a failed job's row, and the report kept by a local Kinora. */
const API = 'http://localhost/api';

const failed: JobEntry = {
  localId: 'job-77',
  ref: null,
  stored: {
    localId: 'job-77',
    mediaId: 'media-77',
    tool: 'text-to-image',
    toolTitle: 'Text to Image',
    option: 'Seedream',
    optionLabel: 'Seedream',
    endpoint: 'image/text-2-image',
    cost: 4,
    idempotencyKey: 'key-77',
    fields: null,
    assetId: null,
    createdAt: Date.now() - 60_000,
    outcome: 'failed',
    finishedAt: Date.now() - 30_000,
    refunded: true,
    error: 'The model could not make this picture.',
  },
};

const history = {
  media_id: 'media-77',
  tool: 'text-to-image',
  option: 'Seedream',
  endpoint: 'image/text-2-image',
  status: 'failed',
  progress: 0,
  cost: 4,
  charged: true,
  attempts: 1,
  error: 'The model could not make this picture.',
  created_at: new Date().toISOString(),
  updated_at: new Date().toISOString(),
  finished_at: new Date().toISOString(),
  events: [
    { at: new Date().toISOString(), kind: 'queued', detail: 'queued' },
    { at: new Date().toISOString(), kind: 'refunded', detail: '4 credits back' },
  ],
};

/** The downloads the page offered: each Blob given to a link. */
function captureDownloads() {
  const blobs: Blob[] = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    blobs.push(blob as Blob);
    return 'blob:report';
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  return blobs;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Report a problem', () => {
  it('from a failed job’s row: a downloaded report with the note, the job, its server history and no sign-in token', async () => {
    server.use(http.get(`${API}/media/media-77/history`, () => HttpResponse.json({ data: history })));
    const blobs = captureDownloads();
    await signedInAs(alice);
    const tokens = Object.keys(localStorage)
      .filter((key) => /Token$/.test(key))
      .map((key) => localStorage.getItem(key) ?? '');
    expect(tokens.length).toBeGreaterThan(0);
    const user = userEvent.setup();
    render(<JobRow entry={failed} onCancel={() => undefined} onDismiss={() => undefined} />);

    await user.click(await screen.findByRole('button', { name: 'Report a problem with Text to Image job' }));
    const dialog = await screen.findByRole('dialog', { name: 'Report a problem' });
    await user.type(await screen.findByRole('textbox', { name: 'What happened? (optional)' }), 'The lantern never appeared');
    await user.click(screen.getByRole('button', { name: 'Create the report' }));
    expect(await screen.findByText(/^Downloaded kinora-problem-.*\.json\. Load it in the machine inspector/)).toBeInTheDocument();
    expect(dialog).toBeInTheDocument();

    expect(blobs).toHaveLength(1);
    const text = await blobs[0]!.text();
    for (const token of tokens) expect(text).not.toContain(token);
    const report = JSON.parse(text) as { schema: string; note: string; job: { localId: string; outcome: string }; serverHistory: { events: unknown[] }; app: { version: string } };
    expect(report.schema).toBe('kinora.problem-report');
    expect(report.note).toBe('The lantern never appeared');
    expect(report.job).toMatchObject({ localId: 'job-77', outcome: 'failed', refunded: true });
    expect(report.serverHistory.events).toHaveLength(2);
    expect(report.app.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('is not offered on a job that succeeded', async () => {
    await signedInAs(alice);
    render(<JobRow entry={{ ...failed, stored: { ...failed.stored, outcome: 'succeeded', error: null } }} onCancel={() => undefined} onDismiss={() => undefined} />);
    expect(await screen.findByRole('link', { name: 'View result' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Report a problem/ })).not.toBeInTheDocument();
  });

  it('on a local Kinora, also keeps the report on the server, and offers to try again when that fails', async () => {
    const sent: unknown[] = [];
    let refuse = true;
    server.use(
      http.get(`${API}/media/media-77/history`, () => HttpResponse.json({ message: 'Not found' }, { status: 404 })),
      http.post(`${API}/problem-reports`, async ({ request }) => {
        if (refuse) {
          refuse = false;
          return HttpResponse.json({ message: 'The report is larger than 1 MB.' }, { status: 413 });
        }
        sent.push(await request.json());
        return HttpResponse.json({ data: { id: 'report-1', created_at: new Date().toISOString(), title: 'text-to-image failed' } }, { status: 201 });
      }),
    );
    captureDownloads();
    await signedInAs(alice);
    const actor = createActor(problemReportMachine, { input: { hub: createInspectionHub(), job: { ...failed.stored }, local: true } }).start();
    actor.send({ type: 'report.create' });
    await waitFor(actor, (snapshot) => snapshot.matches('sendFailed'), { timeout: 10_000 });
    expect(actor.getSnapshot().context.error).toMatch(/^Downloaded, but not kept on the server: /);
    actor.send({ type: 'report.retrySend' });
    await waitFor(actor, (snapshot) => snapshot.matches('sent'), { timeout: 10_000 });
    expect(actor.getSnapshot().context.sentId).toBe('report-1');
    // The history the server could not give is said so in the report, not left out silently.
    expect(sent).toEqual([expect.objectContaining({ serverHistory: { unavailable: expect.any(String) } })]);
  });
});
