import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobSearchPageSchema, type JobSearchPage } from '../../../src/services/schemas/job-history.ts';
import { mediaListSchema } from '../../../src/services/schemas/media.ts';
import { insertMedia, newPublicId, type NewMedia } from '../../../server/src/db/media.ts';
import { encodeSearchCursor, escapeLike } from '../../../server/src/db/media-search.ts';
import { DETAILS } from '../../../server/src/routes/messages.ts';
import { RERUN_DETAILS } from '../../../server/src/routes/media-rerun.ts';
import { asMedia, balanceOf, hasEnded, ledgerRows, pollStatus, postForm, smallPng } from '../helpers/media.ts';
import { callApi, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * Issue 21 item 1, "Jobs from any device": GET media's search (filters, sorts, keyset pages by
 * next_start_keys) and POST media/{id}/rerun (an ended job made again, paid like its call, under
 * the Idempotency-Key rules). The search's rows are written straight into the server's database
 * with the times, statuses and costs each case needs; the re-runs are real jobs.
 */

type User = Awaited<ReturnType<typeof signUpUser>>;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ jobs: { durationMs: 30, pollIntervalMs: 100 } });
});
afterAll(async () => {
  await server?.close();
});

/** A signed-up user whose row the server has made (a first call), so rows can name them. */
async function newUser(prefix: string): Promise<User> {
  const user = await signUpUser(server, prefix);
  expect((await callApi(server, 'media', { token: user.accessToken })).status).toBe(200);
  return user;
}

interface RowSpec {
  /** The row's id (a fresh public id when not given). */
  id?: string;
  tool?: string;
  kind?: NewMedia['kind'];
  endpoint?: string | null;
  option?: string | null;
  status: string;
  cost?: number;
  args?: Record<string, unknown>;
  /** created_at exactly (microseconds kept). */
  at?: string;
}

/**
 * A media row written as the job engine would leave it. A live (processing) row is held under
 * another worker's lease an hour long, so this server's workers leave it alone.
 */
async function insertRow(user: User, spec: RowSpec): Promise<string> {
  const id = spec.id ?? newPublicId();
  await server.db.transaction(async (tx) => {
    await insertMedia(tx, {
      id,
      userSub: user.sub,
      kind: spec.kind ?? 'image',
      tool: spec.tool ?? 'text-to-image',
      endpoint: spec.endpoint === undefined ? 'image/text-2-image' : spec.endpoint,
      option: spec.option === undefined ? 'Seedream' : spec.option,
      status: spec.status,
      cost: spec.cost ?? 0,
      charged: (spec.cost ?? 0) > 0,
      args: spec.args ?? {},
      items: [{ status: 'new' }],
    });
    if (spec.at) await tx.query('UPDATE media SET created_at = $2::timestamptz WHERE id = $1', [id, spec.at]);
    if (spec.status.startsWith('processing_')) {
      await tx.query("UPDATE media SET lease_owner = 'another-server', lease_expires_at = clock_timestamp() + interval '1 hour' WHERE id = $1", [id]);
    }
  });
  return id;
}

const list = (user: User, query: string) => callApi<JobSearchPage>(server, `media${query ? `?${query}` : ''}`, { token: user.accessToken });

async function page(user: User, query: string): Promise<JobSearchPage> {
  const answer = await list(user, query);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return jobSearchPageSchema.parse(answer.body?.data);
}

describe('GET media: search and filters', () => {
  let searcher: User;
  /** The searcher's rows by name. */
  const ids: Record<string, string> = {};
  /** Names of the rows these ids are. */
  const names = (answer: JobSearchPage): string[] =>
    answer.items.map((item) => Object.entries(ids).find(([, id]) => id === item.id)?.[0] ?? `unknown ${item.id}`);
  const search = async (query: string): Promise<string[]> => names(await page(searcher, query));

  beforeAll(async () => {
    searcher = await newUser('searcher');
    const stranger = await newUser('stranger');
    const rows: Record<string, RowSpec> = {
      record: { tool: 'media', endpoint: null, option: null, status: 'success_source', args: { prompt: 'Red fox sketch' }, at: '2026-01-08T09:00:00.000Z' },
      upload: { tool: 'upload-image', endpoint: 'image', option: null, status: 'success', at: '2026-01-09T00:00:00.000Z' },
      fox: { status: 'success_image', cost: 4, args: { prompt: 'A Red FOX in snow', seed: 42 }, at: '2026-01-10T10:00:00.000Z' },
      whale: { option: 'Flux1.1ProUltra', status: 'failed', cost: 8, args: { prompt: 'blue whale 100% real_deal', seed: '7' }, at: '2026-01-11T10:00:00.000Z' },
      panda: { tool: 'image-to-video', kind: 'video', endpoint: 'video/image-2-video', option: 'Kling', status: 'cancelled', cost: 20, args: { prompt: 'red panda' }, at: '2026-01-12T23:59:59.999Z' },
      flagged: { status: 'nsfw', cost: 4, args: { prompt: 'realXdeal' }, at: '2026-01-13T00:00:00.000Z' },
      running: { status: 'processing_source', cost: 4, args: { prompt: 'fox cub' }, at: '2026-01-14T08:00:00.000Z' },
      rendering: { tool: 'image-to-video', kind: 'video', endpoint: 'video/image-2-video', option: 'Kling', status: 'processing_bullet', cost: 12, args: { prompt: 'waves' }, at: '2026-01-15T08:00:00.000Z' },
    };
    for (const [name, spec] of Object.entries(rows)) ids[name] = await insertRow(searcher, spec);
    // Another person's jobs that match every search below: never listed for the searcher.
    for (const spec of Object.values(rows)) await insertRow(stranger, spec);
  });

  it('lists only the caller’s own jobs, newest first, with no next page when all fit', async () => {
    const answer = await page(searcher, '');
    expect(names(answer)).toEqual(['rendering', 'running', 'flagged', 'panda', 'whale', 'fox', 'upload', 'record']);
    expect(answer.next_start_keys).toBeNull();
    const seen = await server.db.query<{ user_sub: string }>('SELECT DISTINCT user_sub FROM media WHERE id = ANY($1::text[])', [
      answer.items.map((item) => item.id),
    ]);
    expect(seen.rows).toEqual([{ user_sub: searcher.sub }]);
  });

  it('keeps today’s answer for today’s callers (tool and limit), now with next_start_keys beside items', async () => {
    const answer = await list(searcher, 'tool=text-to-image&limit=2');
    expect(answer.status).toBe(200);
    const items = mediaListSchema.parse(answer.body?.data).items;
    expect(items.map((item) => item.id)).toEqual([ids.running, ids.flagged]);
    expect(typeof answer.body?.data?.next_start_keys).toBe('string');
    expect((await list(searcher, 'limit=51')).status).toBe(400);
    expect((await callApi(server, 'media')).status).toBe(401);
  });

  it.each([
    ['tool=text-to-image', ['running', 'flagged', 'whale', 'fox']],
    ['option=Kling', ['rendering', 'panda']],
    ['status=live', ['rendering', 'running']],
    ['status=succeeded', ['fox', 'upload', 'record']],
    ['status=failed', ['whale']],
    ['status=nsfw', ['flagged']],
    ['status=cancelled', ['panda']],
  ])('%s', async (query, expected) => {
    expect(await search(query)).toEqual(expected);
  });

  it.each([
    ['q=red', ['panda', 'fox', 'record']],
    ['q=FOX', ['running', 'fox', 'record']],
    // Blanks around the text are not part of it.
    ['q=%20fox%20', ['running', 'fox', 'record']],
    ['q=100%25', ['whale']],
    // LIKE's wildcards are taken literally: "%" alone is not "anything", "_" not "any one character".
    ['q=%25', ['whale']],
    ['q=real_deal', ['whale']],
    ['q=nothing-like-this', []],
  ])('prompt text %s (any case, literally)', async (query, expected) => {
    expect(await search(query)).toEqual(expected);
  });

  it('escapes LIKE’s wildcards and its escape character', () => {
    expect(escapeLike('50%_off\\')).toBe('50\\%\\_off\\\\');
  });

  it.each([
    ['seed=42', ['fox']],
    ['seed=7', ['whale']],
    ['seed=4', []],
  ])('seed %s (exactly, as text)', async (query, expected) => {
    expect(await search(query)).toEqual(expected);
  });

  it.each([
    ['cost_min=8', ['rendering', 'panda', 'whale']],
    ['cost_max=4', ['running', 'flagged', 'fox', 'upload', 'record']],
    ['cost_min=4&cost_max=8', ['running', 'flagged', 'whale', 'fox']],
    ['cost_min=0&cost_max=0', ['upload', 'record']],
  ])('cost range %s (inclusive)', async (query, expected) => {
    expect(await search(query)).toEqual(expected);
  });

  it.each([
    // A day alone is that whole UTC day: 23:59:59.999 is in, the next midnight is not.
    ['from=2026-01-12&to=2026-01-12', ['panda']],
    ['to=2026-01-09', ['upload', 'record']],
    ['from=2026-01-14', ['rendering', 'running']],
    // Instants are inclusive at both ends.
    ['from=2026-01-11T10:00:00Z&to=2026-01-13T00:00:00.000Z', ['flagged', 'panda', 'whale']],
    ['from=2026-01-13T01:00:00%2B02:00', ['rendering', 'running', 'flagged', 'panda']],
  ])('created between %s', async (query, expected) => {
    expect(await search(query)).toEqual(expected);
  });

  it('combines filters', async () => {
    expect(await search('tool=text-to-image&status=succeeded&q=fox')).toEqual(['fox']);
    expect(await search('option=Seedream&cost_min=4&from=2026-01-11')).toEqual(['running', 'flagged']);
    // A blank value is the same as none.
    expect(await search('q=&seed=&status=&sort=&option=&from=')).toHaveLength(8);
  });

  it.each([
    ['', ['rendering', 'running', 'flagged', 'panda', 'whale', 'fox', 'upload', 'record']],
    ['sort=newest', ['rendering', 'running', 'flagged', 'panda', 'whale', 'fox', 'upload', 'record']],
    ['sort=oldest', ['record', 'upload', 'fox', 'whale', 'panda', 'flagged', 'running', 'rendering']],
    // Equal costs: newest first when sorting high to low, oldest first when low to high.
    ['sort=cost_high', ['panda', 'rendering', 'whale', 'running', 'flagged', 'fox', 'upload', 'record']],
    ['sort=cost_low', ['record', 'upload', 'fox', 'flagged', 'running', 'whale', 'rendering', 'panda']],
  ])('sorts: %s', async (query, expected) => {
    expect(await search(query)).toEqual(expected);
  });

  it.each([
    ['status=done', /^Query is invalid: status/],
    ['sort=cheapest', /^Query is invalid: sort/],
    ['cost_min=9&cost_max=3', /^Query is invalid: cost_min: cost_min must not be more than cost_max/],
    ['cost_min=-1', /^Query is invalid: cost_min/],
    ['cost_max=1.5', /^Query is invalid: cost_max/],
    ['from=yesterday', /^Query is invalid: from/],
    ['to=2026-13-01', /^Query is invalid: to/],
  ])('refuses %s with 400', async (query, detail) => {
    const answer = await list(searcher, query);
    expect(answer.status).toBe(400);
    expect(answer.body?.detail).toMatch(detail);
  });
});

describe('GET media: pages by next_start_keys', () => {
  /** Every page of `query` at `limit` a page, following next_start_keys to the end. */
  async function allPages(user: User, query: string, limit: number): Promise<string[][]> {
    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const keys: string = cursor ? `&next_start_keys=${encodeURIComponent(cursor)}` : '';
      const answer = await page(user, `limit=${limit}${query ? `&${query}` : ''}${keys}`);
      pages.push(answer.items.map((item) => item.id));
      cursor = answer.next_start_keys;
      expect(pages.length).toBeLessThan(20);
    } while (cursor !== null);
    return pages;
  }

  it('pages through 7 jobs created in the same instant, 3 at a time, in one stable order (id breaks the tie)', async () => {
    const user = await newUser('pager');
    const costs = [5, 5, 5, 3, 3, 9, 9];
    const made: { id: string; cost: number }[] = [];
    // Ids that sort alike in JavaScript and under any collation: one prefix, then a letter.
    for (const [index, cost] of costs.entries()) {
      const id = `${user.username}-${'abcdefg'[index]}`;
      made.push({ id: await insertRow(user, { id, status: 'success_image', cost, at: '2026-03-01T12:00:00.000Z' }), cost });
    }
    const byIdDesc = made.map((row) => row.id).sort().reverse();

    const pages = await allPages(user, '', 3);
    expect(pages.map((ids) => ids.length)).toEqual([3, 3, 1]);
    expect(pages.flat()).toEqual(byIdDesc);
    expect((await allPages(user, 'sort=oldest', 3)).flat()).toEqual([...byIdDesc].reverse());

    const costHigh = [...made].sort((a, b) => b.cost - a.cost || (a.id < b.id ? 1 : -1)).map((row) => row.id);
    const highPages = await allPages(user, 'sort=cost_high', 3);
    expect(highPages.map((ids) => ids.length)).toEqual([3, 3, 1]);
    expect(highPages.flat()).toEqual(costHigh);
    expect((await allPages(user, 'sort=cost_low', 3)).flat()).toEqual([...costHigh].reverse());
    // A page as long as the rest answers no next page.
    expect((await allPages(user, '', 7)).map((ids) => ids.length)).toEqual([7]);
    // Filters hold on every page.
    const fives = await allPages(user, 'cost_min=5&cost_max=5', 2);
    expect(fives.map((ids) => ids.length)).toEqual([2, 1]);
    expect(fives.flat()).toEqual(made.filter((row) => row.cost === 5).map((row) => row.id).sort().reverse());
  });

  it('keeps microseconds in its key: jobs within one millisecond neither repeat nor go missing', async () => {
    const user = await newUser('micro');
    const made: string[] = [];
    for (const micro of ['100', '200', '300', '400']) made.push(await insertRow(user, { status: 'failed', at: `2026-04-01T00:00:00.000${micro}Z` }));
    expect((await allPages(user, '', 1)).flat()).toEqual([...made].reverse());
    expect((await allPages(user, 'sort=oldest', 1)).flat()).toEqual(made);
  });

  it('does not repeat or skip a job when a new one arrives between pages', async () => {
    const user = await newUser('arrival');
    const made: string[] = [];
    for (const day of ['01', '02', '03', '04']) made.push(await insertRow(user, { status: 'failed', at: `2026-05-${day}T00:00:00.000Z` }));
    const first = await page(user, 'limit=2');
    expect(first.items.map((item) => item.id)).toEqual([made[3], made[2]]);
    await insertRow(user, { status: 'failed', at: '2026-05-09T00:00:00.000Z' });
    const second = await page(user, `limit=2&next_start_keys=${encodeURIComponent(first.next_start_keys ?? '')}`);
    expect(second.items.map((item) => item.id)).toEqual([made[1], made[0]]);
    expect(second.next_start_keys).toBeNull();
  });

  it('answers 400 with a clear message for a cursor it did not give out', async () => {
    const user = await newUser('cursor');
    await insertRow(user, { status: 'failed' });
    await insertRow(user, { status: 'failed' });
    const newest = (await page(user, 'limit=1')).next_start_keys;
    expect(newest).toEqual(expect.any(String));
    const bad = [
      'not a cursor!',
      Buffer.from('hello').toString('base64url'),
      Buffer.from(JSON.stringify({ s: 'newest', t: '2026-02-30T00:00:00.000000Z', c: 0, i: 'x' })).toString('base64url'),
      Buffer.from(JSON.stringify({ s: 'newest', t: '2026-02-01T00:00:00.000000Z', c: -1, i: 'x' })).toString('base64url'),
      Buffer.from(JSON.stringify(['newest'])).toString('base64url'),
    ];
    for (const cursor of bad) {
      const answer = await list(user, `next_start_keys=${encodeURIComponent(cursor)}`);
      expect(answer.status, cursor).toBe(400);
      expect(answer.body?.detail).toBe(DETAILS.badContentCursor);
    }
    // A cursor of one sort is refused by another.
    const mixed = await list(user, `sort=oldest&next_start_keys=${encodeURIComponent(newest ?? '')}`);
    expect(mixed.status).toBe(400);
    expect(mixed.body?.detail).toBe('next_start_keys is not a cursor this listing gave out.');
    // A well-formed cursor of the right sort is just a place in the list.
    const made = encodeSearchCursor('newest', { createdAt: '2000-01-01T00:00:00.000000Z', cost: 0, id: 'zzz' });
    expect((await page(user, `next_start_keys=${made}`)).items).toEqual([]);
  });
});

describe('POST media/{id}/rerun', () => {
  const rerun = (user: User, id: string, key?: string) =>
    callApi(server, `media/${id}/rerun`, { method: 'POST', token: user.accessToken, json: {}, headers: key ? { 'Idempotency-Key': key } : {} });

  const jobsOf = async (user: User): Promise<string[]> =>
    (await server.db.query<{ id: string }>('SELECT id FROM media WHERE user_sub = $1 ORDER BY created_at, id', [user.sub])).rows.map((row) => row.id);

  const debitsOf = async (user: User) => (await ledgerRows(server, user.sub)).filter((row) => row.kind === 'debit');

  const rowOf = async (id: string) =>
    (
      await server.db.query<{ tool: string; endpoint: string | null; option: string | null; args: unknown; inputs: unknown; image_urls: unknown; cost: number }>(
        'SELECT tool, endpoint, option, args, inputs, image_urls, cost FROM media WHERE id = $1',
        [id],
      )
    ).rows[0];

  /** A failed Flux 1.1 Pro Ultra text-to-image job (8 credits a run), charged and refunded as the engine leaves one. */
  const failedUltra = (user: User) =>
    insertRow(user, {
      option: 'Flux1.1ProUltra',
      status: 'failed',
      cost: 8,
      args: { option: 'Flux1.1ProUltra', prompt: 'a glass city at dusk', aspect_ratio: '16:9' },
    });

  it('makes a finished job again: a new job with the same tool, call, model, args and pictures, charged as its call', async () => {
    const user = await newUser('rerunner');
    const png = await smallPng();
    const upload = asMedia(await postForm(server, 'image', { image_file: { data: png, name: 'cat.png', type: 'image/png' } }, { token: user.accessToken }));
    const pictureUrl = upload.items[0]?.url ?? '';
    const original = asMedia(
      await postForm(
        server,
        'image/image-2-image',
        { prompt: 'as a watercolour', image_url: pictureUrl, option: 'FluxKontextPro', async_mode: 'false' },
        { token: user.accessToken },
      ),
    );
    expect(original.status).toBe('success_image');
    expect(original.cost).toBeGreaterThan(0);
    const before = await balanceOf(server, user.sub);

    const answer = await rerun(user, original.id, 'rerun-1');
    expect(answer.status).toBe(200);
    const made = asMedia(answer);
    expect(made.id).not.toBe(original.id);
    expect(made).toMatchObject({ tool: original.tool, option: original.option, args: original.args, cost: original.cost, kind: 'image' });
    expect(hasEnded(made.status)).toBe(false);
    const [was, now] = [await rowOf(original.id), await rowOf(made.id)];
    expect(now).toEqual(was);
    expect(now?.endpoint).toBe('image/image-2-image');
    expect(now?.inputs).toEqual([{ field: 'image_url', file_id: upload.items[0]?.file_id }]);
    expect(made.image_urls).toHaveLength(1);
    // Paid once, by its own ledger row.
    expect(await balanceOf(server, user.sub)).toBe(before - original.cost);
    expect((await debitsOf(user)).filter((row) => row.job_id === made.id)).toEqual([{ kind: 'debit', amount: -original.cost, job_id: made.id }]);

    // A retry with the same key (a lost answer, a double click) gets the same job and pays nothing more.
    const retry = await rerun(user, original.id, 'rerun-1');
    expect(retry.status).toBe(200);
    expect(asMedia(retry).id).toBe(made.id);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await balanceOf(server, user.sub)).toBe(before - original.cost);
    expect(await jobsOf(user)).toHaveLength(3);
    // The re-run really runs; the same key for another job's re-run is another request (422).
    expect(await pollStatus(server, made.id, hasEnded)).toBe('success_image');
    const otherJob = await rerun(user, made.id, 'rerun-1');
    expect(otherJob.status).toBe(422);
    expect(otherJob.body?.detail).toBe(DETAILS.idempotencyMismatch);

    // Without a key each call is its own re-run.
    expect((await rerun(user, original.id)).status).toBe(200);
    expect(await jobsOf(user)).toHaveLength(4);
    expect(await balanceOf(server, user.sub)).toBe(before - 2 * original.cost);
  });

  it('runs a failed job again at its model’s price; 402 with the cost and balance when short, nothing written', async () => {
    const user = await newUser('shortfall');
    const failed = await failedUltra(user);
    await server.db.query("INSERT INTO credit_ledger (user_sub, amount, kind, reason) VALUES ($1, -95, 'debit', 'spent')", [user.sub]);
    expect(await balanceOf(server, user.sub)).toBe(5);

    const refused = await rerun(user, failed, 'short-key');
    expect(refused.status).toBe(402);
    expect(refused.body).toEqual({ detail: 'Not enough credits: this costs 8 credits and you have 5.' });
    expect(await jobsOf(user)).toEqual([failed]);
    expect(await balanceOf(server, user.sub)).toBe(5);

    // The refused call did not use up its key: after a top-up the same key runs it.
    await server.db.query("INSERT INTO credit_ledger (user_sub, amount, kind, reason) VALUES ($1, 10, 'grant', 'top-up')", [user.sub]);
    const answer = await rerun(user, failed, 'short-key');
    expect(answer.status).toBe(200);
    const made = asMedia(answer);
    expect(made).toMatchObject({ tool: 'text-to-image', option: 'Flux1.1ProUltra', cost: 8, args: { option: 'Flux1.1ProUltra', prompt: 'a glass city at dusk', aspect_ratio: '16:9' } });
    expect(await balanceOf(server, user.sub)).toBe(7);
    expect(await pollStatus(server, made.id, hasEnded)).toBe('success_image');
  });

  it('charges the Developer group nothing, as the generation call does', async () => {
    const tokens = await server.emulator.createUser({ username: `dev${Date.now().toString(36)}`, email: `dev${Date.now().toString(36)}@example.test`, password: 'secret-password-1', groups: ['Developer'] });
    const developer = { username: 'dev', email: '', ...tokens } as User;
    expect((await callApi(server, 'media', { token: developer.accessToken })).status).toBe(200);
    const failed = await failedUltra(developer);
    const before = await balanceOf(server, developer.sub);
    const answer = await rerun(developer, failed);
    expect(answer.status).toBe(200);
    expect(asMedia(answer).cost).toBe(0);
    expect(await balanceOf(server, developer.sub)).toBe(before);
  });

  it('answers 409 while the job still runs, 404 for another person’s job, 401 without sign-in', async () => {
    const owner = await newUser('runner');
    const other = await newUser('onlooker');
    const live = await insertRow(owner, { status: 'processing_source', cost: 4, args: { option: 'Seedream', prompt: 'still going', aspect_ratio: '1:1' } });
    const running = await rerun(owner, live, 'live-key');
    expect(running.status).toBe(409);
    expect(running.body?.detail).toBe(DETAILS.jobStillRunning);

    const failed = await failedUltra(owner);
    const stranger = await rerun(other, failed, 'not-mine');
    expect(stranger.status).toBe(404);
    expect(stranger.body).toEqual({ detail: 'Not found.' });
    expect((await rerun(other, 'no-such-media')).status).toBe(404);
    expect((await callApi(server, `media/${failed}/rerun`, { method: 'POST', json: {} })).status).toBe(401);
    expect((await jobsOf(owner)).sort()).toEqual([live, failed].sort());
    expect(await jobsOf(other)).toEqual([]);
    expect(await debitsOf(other)).toEqual([]);
  });

  it('answers 400 for an item no generation call made (an upload, a media record)', async () => {
    const user = await newUser('uploader');
    const upload = asMedia(await postForm(server, 'image', { image_file: { data: await smallPng(), name: 'a.png', type: 'image/png' } }, { token: user.accessToken }));
    const record = asMedia(await postForm(server, 'media', { title: 'Mood board' }, { token: user.accessToken }));
    for (const id of [upload.id, record.id]) {
      const answer = await rerun(user, id, `cannot-${id}`);
      expect(answer.status).toBe(400);
      expect(answer.body?.detail).toBe('This item cannot be run again.');
    }
    expect(RERUN_DETAILS.cannotRunAgain).toBe('This item cannot be run again.');
    expect(await jobsOf(user)).toHaveLength(2);
  });

  it('refuses (400) a job whose input picture is gone, and charges nothing', async () => {
    const user = await newUser('lostinput');
    const upload = asMedia(await postForm(server, 'image', { image_file: { data: await smallPng(), name: 'b.png', type: 'image/png' } }, { token: user.accessToken }));
    const original = asMedia(
      await postForm(server, 'image/image-2-image', { prompt: 'in ink', image_url: upload.items[0]?.url ?? '', async_mode: 'false' }, { token: user.accessToken }),
    );
    expect(original.status).toBe('success_image');
    expect((await callApi(server, `media/${upload.id}`, { method: 'DELETE', token: user.accessToken })).status).toBe(200);
    const before = await balanceOf(server, user.sub);
    const answer = await rerun(user, original.id, 'lost-input');
    expect(answer.status).toBe(400);
    expect(answer.body?.detail).toBe(RERUN_DETAILS.inputGone);
    expect(await balanceOf(server, user.sub)).toBe(before);
  });
});
