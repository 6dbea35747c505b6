import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { API, fakeApi } from '../msw/handlers';
import { answer, detail } from '../msw/data';
import { addMedia, fakeMedia, type FakeMediaRecord } from '../msw/media';
import { server } from '../msw/server';
import { fireEvent, renderApp, screen, userEvent, waitFor, within } from '../test-utils';
import { PAGE_LOAD, setUpJobTests } from './generation-helpers';
import { alice, signedInAs } from './session-helpers';

const user = userEvent.setup();

setUpJobTests();

/** A past Text to Image job of the person's. */
const pastJob = (n: number, overrides: Partial<FakeMediaRecord> = {}): FakeMediaRecord =>
  addMedia({
    id: `past-${n}`,
    tool: 'text-to-image',
    status: 'success_image',
    progress: 100,
    option: 'Flux1.1Pro',
    cost: 4,
    args: { prompt: `a red fox number ${n}`, option: 'Flux1.1Pro', aspect_ratio: '16:9', seed: 1000 + n },
    created_at: `2025-01-0${n}T10:00:00.000Z`,
    ...overrides,
  });

/**
 * GET media as the server answers the History page (and the jobs registry's `status=live` ask):
 * every query recorded; `pages` answer the page after each `next_start_keys`.
 */
function historyServer(pages: Record<string, { ids: string[]; next: string | null }>) {
  const queries: URLSearchParams[] = [];
  server.use(
    http.get(`${API}/media`, ({ request }) => {
      const params = new URL(request.url).searchParams;
      if (params.get('status') === 'live') {
        return answer({ items: [...fakeMedia.media.values()].filter((media) => /^(queue|processing)/.test(media.status)), next_start_keys: null });
      }
      queries.push(params);
      const found = pages[params.get('next_start_keys') ?? 'first'] ?? { ids: [], next: null };
      return answer({ items: found.ids.map((id) => fakeMedia.media.get(id)), next_start_keys: found.next });
    }),
  );
  return { queries, last: () => queries.at(-1) ?? new URLSearchParams() };
}

const table = () => screen.getByRole('table', { name: 'Your jobs' });
const balance = () => within(screen.getByRole('banner')).getByLabelText('Credit balance');

async function openHistory(path = '/history') {
  await signedInAs(alice);
  renderApp(path);
  await screen.findByRole('heading', { level: 1, name: 'History' }, PAGE_LOAD);
}

describe('the History page', () => {
  it('lists the person’s jobs with their tool, model, status, prompt, seed, cost and parameters', async () => {
    pastJob(1);
    pastJob(2, { status: 'failed', refunded: true, option: 'Seedream', args: { prompt: 'a cat', option: 'Seedream', seed: 7 } });
    historyServer({ first: { ids: ['past-2', 'past-1'], next: null } });
    await openHistory();

    const rows = within(await screen.findByRole('table', { name: 'Your jobs' }, PAGE_LOAD)).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(within(rows[1]!).getByRole('rowheader')).toHaveTextContent('Text to Image');
    expect(rows[1]).toHaveTextContent('Seedream');
    expect(rows[1]).toHaveTextContent('Failed');
    expect(rows[1]).toHaveTextContent('a cat');
    expect(rows[1]).toHaveTextContent('4 credits (refunded)');
    expect(rows[2]).toHaveTextContent('Flux 1.1 Pro');
    expect(rows[2]).toHaveTextContent('Succeeded');
    expect(rows[2]).toHaveTextContent('1001');

    await user.click(within(rows[2]!).getByRole('button', { name: 'Parameters of the Text to Image job' }));
    const dialog = await screen.findByRole('dialog', { name: 'Text to Image job parameters' });
    for (const [name, value] of [
      ['aspect_ratio', '16:9'],
      ['option', 'Flux1.1Pro'],
      ['prompt', 'a red fox number 1'],
      ['seed', '1001'],
    ]) {
      expect(within(dialog).getByRole('rowheader', { name }).closest('tr')).toHaveTextContent(`${name}${value}`);
    }
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('sends each filter as GET media’s query, the prompt text once typing pauses', async () => {
    pastJob(1);
    const { last } = historyServer({ first: { ids: ['past-1'], next: null } });
    await openHistory();
    await screen.findByRole('table', { name: 'Your jobs' }, PAGE_LOAD);
    expect(last().get('sort')).toBe('newest');
    expect(last().get('limit')).toBe('20');

    await user.click(screen.getByRole('combobox', { name: 'Tool' }));
    await user.click(await screen.findByRole('option', { name: 'Text to Image' }));
    await waitFor(() => expect(last().get('tool')).toBe('text-to-image'));
    await user.click(screen.getByRole('combobox', { name: 'Model' }));
    await user.click(await screen.findByRole('option', { name: 'Flux 1.1 Pro' }));
    await waitFor(() => expect(last().get('option')).toBe('Flux1.1Pro'));
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Succeeded' }));
    await waitFor(() => expect(last().get('status')).toBe('succeeded'));
    await user.type(screen.getByRole('textbox', { name: 'Seed' }), '1001');
    await waitFor(() => expect(last().get('seed')).toBe('1001'));
    await user.type(screen.getByRole('textbox', { name: 'Cost from' }), '2');
    await user.type(screen.getByRole('textbox', { name: 'Cost up to' }), '8');
    await waitFor(() => expect([last().get('cost_min'), last().get('cost_max')]).toEqual(['2', '8']));
    fireEvent.change(screen.getByLabelText('Created from'), { target: { value: '2025-01-01' } });
    await waitFor(() => expect(last().get('from')).toBe('2025-01-01'));
    await user.click(screen.getByRole('combobox', { name: 'Sort' }));
    await user.click(await screen.findByRole('option', { name: 'Oldest first' }));
    await waitFor(() => expect(last().get('sort')).toBe('oldest'));

    await user.type(screen.getByRole('searchbox', { name: 'Prompt text' }), 'red fox');
    await waitFor(() => expect(last().get('q')).toBe('red fox'));

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect([...last().keys()].sort()).toEqual(['limit', 'sort']));
  });

  it('loads the next page with next_start_keys', async () => {
    for (const n of [1, 2, 3]) pastJob(n);
    const { queries } = historyServer({ first: { ids: ['past-3', 'past-2'], next: 'page-2' }, 'page-2': { ids: ['past-1'], next: null } });
    await openHistory();
    await screen.findByRole('table', { name: 'Your jobs' }, PAGE_LOAD);
    expect(within(table()).getAllByRole('row')).toHaveLength(3);
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(table()).getAllByRole('row')).toHaveLength(4));
    expect(queries.at(-1)?.get('next_start_keys')).toBe('page-2');
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('?job= (the Library’s "Show in History") reads on until that job is listed, then brings it into view, outlined and focused', async () => {
    for (const n of [1, 2, 3, 4, 5]) pastJob(n);
    const { queries } = historyServer({
      first: { ids: ['past-5', 'past-4'], next: 'page-2' },
      'page-2': { ids: ['past-3', 'past-2'], next: 'page-3' },
      'page-3': { ids: ['past-1'], next: null },
    });
    await openHistory('/history?job=past-2');
    const row = () => within(table()).getByRole('row', { name: /a red fox number 2/ });
    await waitFor(() => expect(row()).toHaveAttribute('aria-current', 'true'), PAGE_LOAD);
    expect(row()).toHaveFocus();
    expect(within(table()).getAllByRole('row')).toHaveLength(5);
    expect(queries.map((query) => query.get('next_start_keys'))).toEqual([null, 'page-2']);
    expect(within(table()).getByRole('row', { name: /a red fox number 5/ })).not.toHaveAttribute('aria-current');
    expect(screen.queryByText(/That job is not in your History/)).not.toBeInTheDocument();
    // The rest is offered as usual.
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(table()).getAllByRole('row')).toHaveLength(6));
  });

  it('?job= of a job not in History says so, and the notice can be dismissed', async () => {
    pastJob(1);
    historyServer({ first: { ids: ['past-1'], next: null } });
    await openHistory('/history?job=gone');
    const notice = await screen.findByText(/That job is not in your History/, undefined, PAGE_LOAD);
    expect(within(table()).getAllByRole('row')).toHaveLength(2);
    expect(within(table()).getByRole('row', { name: /a red fox number 1/ })).not.toHaveAttribute('aria-current');
    await user.click(within(notice.closest('[role="status"]')!).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByText(/That job is not in your History/)).not.toBeInTheDocument());
  });

  it('says so when there are no jobs, or none match', async () => {
    historyServer({});
    await openHistory();
    expect(await screen.findByText('No jobs yet', undefined, PAGE_LOAD)).toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Failed' }));
    expect(await screen.findByText('No jobs match these filters')).toBeInTheDocument();
  });

  it('Re-run starts the same job again: the jobs panel follows it and the balance goes down', async () => {
    pastJob(1);
    historyServer({ first: { ids: ['past-1'], next: null } });
    const reruns: { id: string; key: string | null }[] = [];
    server.use(
      http.post(`${API}/media/:id/rerun`, ({ request, params }) => {
        const source = fakeMedia.media.get(String(params.id));
        if (!source) return detail(404, 'Media not found');
        reruns.push({ id: source.id, key: request.headers.get('Idempotency-Key') });
        fakeApi.credits -= source.cost;
        const again = addMedia({ id: 'past-1-again', tool: source.tool, option: source.option, cost: source.cost, args: source.args, status: 'queue_source' });
        return answer(again);
      }),
    );
    await openHistory();
    await waitFor(() => expect(balance()).toHaveTextContent('100 credits'), PAGE_LOAD);
    await user.click(await screen.findByRole('button', { name: 'Re-run the Text to Image job with the same parameters' }, PAGE_LOAD));

    expect(await screen.findByText('Text to Image started again: follow it in the jobs panel.')).toBeInTheDocument();
    expect(reruns).toEqual([{ id: 'past-1', key: expect.stringMatching(/^[0-9a-f-]{36}$/) }]);
    await waitFor(() => expect(balance()).toHaveTextContent('96 credits'));
    await user.click(within(screen.getByRole('banner')).getByRole('button', { name: /^Jobs, / }));
    const panel = await screen.findByRole('dialog', { name: 'Jobs' });
    expect(await within(panel).findByRole('listitem', { name: /^Text to Image, / })).toBeInTheDocument();
  });

  it('a refused Re-run shows the server’s message', async () => {
    pastJob(1);
    historyServer({ first: { ids: ['past-1'], next: null } });
    server.use(http.post(`${API}/media/:id/rerun`, () => detail(402, 'Not enough credits: this costs 4 credits and you have 0.')));
    await openHistory();
    await user.click(await screen.findByRole('button', { name: 'Re-run the Text to Image job with the same parameters' }, PAGE_LOAD));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The job could not be run again: Not enough credits: this costs 4 credits and you have 0.',
    );
  });

  it('Remix links to the tool with the job; a running job offers no Re-run', async () => {
    pastJob(1, { status: 'processing_source', progress: 40 });
    historyServer({ first: { ids: ['past-1'], next: null } });
    await openHistory();
    const remix = await screen.findByRole('link', { name: 'Remix the Text to Image job: open Text to Image with its parameters' }, PAGE_LOAD);
    expect(remix).toHaveAttribute('href', '/ai-image/text-to-image?remix=past-1');
    expect(screen.queryByRole('button', { name: /^Re-run/ })).not.toBeInTheDocument();
    expect(within(table()).getByText('Running')).toBeInTheDocument();
  });

  it('a waiting job shows its place; Hold, Resume, Run next and Edit (with its new price) change it on the server', async () => {
    pastJob(1, { status: 'queue_source', progress: 0, option: 'Seedream', args: { prompt: 'a waiting fox', option: 'Seedream', aspect_ratio: '1:1' }, queue_position: 2 });
    historyServer({ first: { ids: ['past-1'], next: null } });
    // Only the History page follows this job here (the jobs registry's poll would move it on).
    server.use(
      http.get(`${API}/media`, ({ request }) => {
        if (new URL(request.url).searchParams.get('status') === 'live') return answer({ items: [], next_start_keys: null });
        return undefined;
      }),
    );
    // The History page's live read finds it as the server now has it, still waiting (this fake does not start it).
    const asStored = (id: string) => {
      const record = fakeMedia.media.get(id);
      return record && { id, status: record.status, progress: 0, items: [], updated_at: record.updated_at, held: record.held ?? false, queue_position: record.queue_position ?? null };
    };
    server.use(
      http.get(`${API}/media/:id/processing-status`, ({ params }) => answer(asStored(String(params.id)))),
      http.get(`${API}/media/processing-status`, ({ request }) =>
        answer({ items: (new URL(request.url).searchParams.get('ids') ?? '').split(',').flatMap((id) => asStored(id) ?? []) }),
      ),
    );
    const calls: string[] = [];
    const edits: { body: unknown; key: string | null }[] = [];
    const change = (record: FakeMediaRecord, changes: Partial<FakeMediaRecord>) => answer(Object.assign(record, changes));
    server.use(
      http.post(`${API}/media/:id/:action`, ({ params }) => {
        const record = fakeMedia.media.get(String(params.id));
        if (!record) return detail(404, 'Not found.');
        calls.push(String(params.action));
        if (params.action === 'hold') return change(record, { held: true, queue_position: null });
        if (params.action === 'resume') return change(record, { held: false, queue_position: 2 });
        if (params.action === 'run-next') return detail(409, 'This job has already started: only a job still waiting in the queue can be changed.');
        return detail(404, 'Not found.');
      }),
      http.patch(`${API}/media/:id`, async ({ request, params }) => {
        const record = fakeMedia.media.get(String(params.id));
        if (!record) return detail(404, 'Not found.');
        const body = (await request.json()) as { option: string; prompt: string };
        edits.push({ body, key: request.headers.get('Idempotency-Key') });
        return change(record, { option: body.option, cost: 8, args: { ...record.args, ...body } });
      }),
      http.get(`${API}/media/:id`, ({ params }) => answer({ ...fakeMedia.media.get(String(params.id)), status: 'processing_source', held: false, queue_position: null })),
    );
    await openHistory();
    expect(await within(await screen.findByRole('table', { name: 'Your jobs' }, PAGE_LOAD)).findByText('2nd in your queue')).toBeInTheDocument();
    // No worker has it yet: it says Queued, not Running, and has no progress bar.
    expect(within(table()).getByText('Queued')).toBeInTheDocument();
    expect(within(table()).queryByText('Running')).not.toBeInTheDocument();
    expect(within(table()).queryByRole('progressbar')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Hold Text to Image' }));
    expect(await within(table()).findByText('Held: it starts once you resume it')).toBeInTheDocument();
    expect(within(table()).getByText('Held')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Run Text to Image next' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Resume Text to Image' }));
    expect(await within(table()).findByText('2nd in your queue')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Edit Text to Image' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Text to Image before it runs' });
    expect(within(dialog).getByText('New price: 4 credits')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('combobox', { name: 'Model' }));
    await user.click(await screen.findByRole('option', { name: 'Flux 1.1 Pro Ultra · 8 credits' }));
    expect(within(dialog).getByText('New price: 8 credits')).toBeInTheDocument();
    expect(within(dialog).getByText('4 credits more will be debited when you save.')).toBeInTheDocument();
    const prompt = within(dialog).getByRole('textbox', { name: 'Prompt' });
    await user.clear(prompt);
    await user.type(prompt, 'a fox at dawn');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(within(table()).getByText('8 credits')).toBeInTheDocument());
    expect(within(table()).getByText('a fox at dawn')).toBeInTheDocument();
    expect(edits).toEqual([{ body: { option: 'Flux1.1ProUltra', prompt: 'a fox at dawn', aspect_ratio: '1:1' }, key: expect.stringMatching(/^[0-9a-f-]{36}$/) }]);

    // It started meanwhile: the server's reason, and the row as it is now (no queue actions left).
    await user.click(screen.getByRole('button', { name: 'Run Text to Image next' }));
    expect(await within(table()).findByRole('alert')).toHaveTextContent(
      'The job could not be moved up. This job has already started: only a job still waiting in the queue can be changed.',
    );
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Hold Text to Image' })).not.toBeInTheDocument());
    expect(calls).toEqual(['hold', 'resume', 'run-next']);
  });

  it('follows a waiting job live: its place, its progress, then finished with every picture and its cost, without loading the list again', async () => {
    // A run of three pictures (issue 21 item 7), waiting second in the queue; an older page follows.
    pastJob(2, {
      status: 'queue_source',
      progress: 0,
      option: 'Seedream',
      cost: 12,
      seed: 500,
      queue_position: 2,
      args: { prompt: 'three paper boats', option: 'Seedream', num_images: 3 },
    });
    pastJob(1);
    const history = historyServer({ first: { ids: ['past-2'], next: 'k1' }, k1: { ids: ['past-1'], next: null } });
    // Only the History page follows it here (the jobs registry's polls would move it on too).
    server.use(
      http.get(`${API}/media`, ({ request }) => {
        if (new URL(request.url).searchParams.get('status') === 'live') return answer({ items: [], next_start_keys: null });
        return undefined;
      }),
    );
    await openHistory();
    const rows = () => within(table()).getAllByRole('row');
    expect(await within(await screen.findByRole('table', { name: 'Your jobs' }, PAGE_LOAD)).findByText('2nd in your queue')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(rows()).toHaveLength(3));

    // Read again every few seconds in one request for the live rows: it runs, then it is done.
    expect(await within(table()).findByRole('progressbar', { name: 'Progress of the Text to Image job' }, { timeout: 8000 })).toBeInTheDocument();
    const pictures = await within(table()).findByRole('group', { name: 'Pictures of the Text to Image job' }, { timeout: 8000 });
    expect(rows()[1]).toHaveTextContent('Succeeded');
    expect(rows()[1]).toHaveTextContent('12 credits');
    expect(within(table()).queryByText(/in your queue/)).not.toBeInTheDocument();
    expect(within(table()).queryByRole('progressbar')).not.toBeInTheDocument();
    expect(within(pictures).getAllByRole('button').map((button) => button.getAttribute('aria-label'))).toEqual([
      'Picture 1 of 3, seed 500',
      'Picture 2 of 3, seed 501',
      'Picture 3 of 3, seed 502',
    ]);
    // The list was read once and its next page once: the second page is still shown.
    expect(history.queries.map((query) => query.get('next_start_keys'))).toEqual([null, 'k1']);
    expect(rows()).toHaveLength(3);
    expect(fakeMedia.calls.filter((call) => call.includes('processing-status'))).not.toHaveLength(0);
    expect(fakeMedia.calls.some((call) => call === 'GET media/past-1/processing-status')).toBe(false);
  }, 20_000);

  it('shows every picture of a run with its seed on focus, each opening the lightbox', async () => {
    pastJob(1, { seed: 41, args: { prompt: 'two kites', option: 'Flux1.1Pro', num_images: 2 } });
    const record = fakeMedia.media.get('past-1')!;
    record.items = [0, 1].map((index) => ({
      type: 'image' as const,
      status: 'success' as const,
      url: `http://localhost/files/kite-${index + 1}.png`,
      thumbnail_url: `http://localhost/files/kite-${index + 1}-small.jpg`,
      file_id: `kite-${index + 1}`,
      seed: 41 + index,
    }));
    historyServer({ first: { ids: ['past-1'], next: null } });
    await openHistory();
    const pictures = await screen.findByRole('group', { name: 'Pictures of the Text to Image job' }, PAGE_LOAD);
    const [first, second] = within(pictures).getAllByRole('button');
    expect(first).toHaveAccessibleName('Picture 1 of 2, seed 41');
    // Keyboard: Tab reaches each picture, and its seed shows as it is focused.
    second!.focus();
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Seed 42');
    await user.keyboard('{Enter}');
    const lightbox = await screen.findByRole('dialog');
    expect(within(lightbox).getByRole('img')).toHaveAttribute('src', 'http://localhost/files/kite-2.png');
  });

  it('a thumbnail whose signed link stopped loading gets a fresh one from its job, and says so when the job has none', async () => {
    pastJob(1, { seed: 7, args: { prompt: 'a red kite', option: 'Flux1.1Pro' } });
    const record = fakeMedia.media.get('past-1')!;
    record.items = [{ type: 'image', status: 'success', url: 'http://localhost/files/kite.png', thumbnail_url: 'http://localhost/files/kite-small.jpg', file_id: 'kite', seed: 7 }];
    historyServer({ first: { ids: ['past-1'], next: null } });
    await openHistory();
    const pictures = await screen.findByRole('group', { name: 'Pictures of the Text to Image job' }, PAGE_LOAD);
    const thumbnail = () => within(pictures).getByRole('button').querySelector('img');
    expect(thumbnail()).toHaveAttribute('src', 'http://localhost/files/kite-small.jpg');
    // The hour of the link is up (the page was left open): the job is read again for a fresh link.
    record.items[0] = { ...record.items[0]!, thumbnail_url: 'http://localhost/files/kite-small.jpg?fresh' };
    fireEvent.error(thumbnail()!);
    await waitFor(() => expect(thumbnail()).toHaveAttribute('src', 'http://localhost/files/kite-small.jpg?fresh'));
    // The job lost its file meanwhile: the thumbnail says it could not be loaded.
    record.items = [];
    fireEvent.error(thumbnail()!);
    expect(await within(pictures).findByRole('button', { name: 'Picture 1 of 1, seed 7: This file could not be loaded.' })).toBeInTheDocument();
  });

  it('asks a signed-out visitor to sign in, and asks the server nothing', async () => {
    const { queries } = historyServer({});
    renderApp('/history');
    expect(await screen.findByText('Sign in to see your jobs.', undefined, PAGE_LOAD)).toBeInTheDocument();
    expect(queries).toEqual([]);
  });
});
