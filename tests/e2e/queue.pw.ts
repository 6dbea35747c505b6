import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createAccount, freshHandle } from './helpers/accounts';
import { signInAs } from './helpers/a11y-pages';
import { balance, watchPageErrors } from './helpers/ui';

/**
 * A queue you control (issue 21 item 2) on `npm start`'s stack, whose per-person limit is the
 * server's default, 4 jobs running at once. Four `[slow]` jobs (the local stand-in takes ten times
 * as long) fill a person's places; three more wait. On the History page the person holds the first
 * waiting job and runs the third next; as places free (the test cancels the slow ones), the job
 * run next starts first, the held one never does, and once resumed it starts in its turn. Every
 * step waits for a state, never for a time: a slow job outlasts the whole test.
 */

const LIMIT = 4;

interface Caller {
  request: APIRequestContext;
  headers: Record<string, string>;
}

/** The signed-in page's own API headers, taken from the History page's first call. */
async function openHistoryAs(page: Page): Promise<Record<string, string>> {
  const listed = page.waitForRequest((sent) => new URL(sent.url()).pathname === '/api/media' && sent.headers().authorization !== undefined);
  await page.goto('/history');
  const headers = (await listed).headers();
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name === 'authorization' || name.startsWith('x-')));
}

async function submit({ request, headers }: Caller, prompt: string): Promise<string> {
  const response = await request.post('/api/image/text-2-image', { headers, multipart: { prompt, option: 'Seedream' } });
  expect(response.ok(), `text-2-image answered ${response.status()}`).toBe(true);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

async function statuses({ request }: Caller, ids: readonly string[]): Promise<Record<string, string>> {
  const response = await request.get('/api/media/processing-status', { params: { ids: ids.join(',') } });
  const { data } = (await response.json()) as { data: { items: Array<{ id: string; status: string }> } };
  return Object.fromEntries(data.items.map((item) => [item.id, item.status]));
}

const cancel = ({ request, headers }: Caller, id: string) => request.put(`/api/media/${id}/cancel`, { headers });

test('a person over the running limit holds a waiting job, runs another next, and resumes the held one', async ({ page, request }) => {
  test.setTimeout(90_000);
  const errors = watchPageErrors(page);
  const { email } = await createAccount(request, { prefix: 'queue', handle: freshHandle('queue') });
  await signInAs(page, email);
  const caller: Caller = { request, headers: await openHistoryAs(page) };
  const tag = Date.now().toString(36);

  const slow: string[] = [];
  for (let index = 1; index <= LIMIT; index += 1) slow.push(await submit(caller, `[slow] a long exposure of the sea ${index} ${tag}`));
  const [first, second, third] = [
    await submit(caller, `first waiting kite ${tag}`),
    await submit(caller, `second waiting kite ${tag}`),
    await submit(caller, `third waiting kite ${tag}`),
  ];
  const all = [...slow, first, second, third];
  try {
    await expect.poll(async () => Object.values(await statuses(caller, slow)).filter((status) => status === 'processing_source').length).toBe(LIMIT);

    await page.reload();
    await expect(balance(page)).toHaveText('72 credits');
    const jobs = page.getByRole('table', { name: 'Your jobs' });
    const row = (prompt: string) => jobs.getByRole('row').filter({ hasText: prompt });
    await expect(row(`first waiting kite ${tag}`)).toContainText('1st in your queue');
    await expect(row(`third waiting kite ${tag}`)).toContainText('3rd in your queue');

    // Hold the first waiting job, and run the third next.
    await row(`first waiting kite ${tag}`).getByRole('button', { name: 'Hold Text to Image' }).click();
    await expect(row(`first waiting kite ${tag}`)).toContainText('Held: it starts once you resume it');
    await expect(row(`first waiting kite ${tag}`).getByRole('button', { name: 'Resume Text to Image' })).toBeVisible();
    await row(`third waiting kite ${tag}`).getByRole('button', { name: 'Run Text to Image next' }).click();
    await expect(row(`third waiting kite ${tag}`)).toContainText('1st in your queue');

    // A place frees: the job run next starts, before the older ones (the held one, the second).
    await cancel(caller, slow[0] ?? '');
    await expect.poll(async () => {
      const now = await statuses(caller, [first, second, third]);
      return [now[first], now[second], now[third]].map((status) => (status === 'queue_source' ? 'waiting' : 'started'));
    }).toEqual(['waiting', 'waiting', 'started']);
    // Another: the second starts; the held job, oldest of all, still does not.
    await cancel(caller, slow[1] ?? '');
    await expect.poll(async () => (await statuses(caller, [second]))[second]).not.toBe('queue_source');
    expect((await statuses(caller, [first]))[first]).toBe('queue_source');
    await page.reload();
    await expect(row(`first waiting kite ${tag}`)).toContainText('Held');
    await expect(row(`third waiting kite ${tag}`).getByRole('button', { name: 'Hold Text to Image' })).toHaveCount(0);

    // Resumed, it starts in its turn (at once if a place is free, else when the next one frees).
    await row(`first waiting kite ${tag}`).getByRole('button', { name: 'Resume Text to Image' }).click();
    await expect(row(`first waiting kite ${tag}`)).not.toContainText('Held');
    await cancel(caller, slow[2] ?? '');
    await expect.poll(async () => (await statuses(caller, [first]))[first]).not.toBe('queue_source');
    expect(errors).toEqual([]);
  } finally {
    // The slow jobs would keep four of the stack's workers for a minute: every job of this test goes.
    for (const id of all) await cancel(caller, id);
  }
});
