import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARALLAX_VIDEO_CREDITS } from '../../../src/config/video-creation.ts';
import { albumClipPrice } from '../../../src/lib/album-quote.ts';
import { batchSchema, type Batch } from '../../../src/services/schemas/batch.ts';
import { albumQuoteSchema, type AlbumQuoteAnswer } from '../../../src/services/schemas/project-hold.ts';
import { appendLedgerEntry } from '../../../server/src/db/credit-ledger.ts';
import { asMedia, balanceOf, ledgerRows, postForm, smallMp4, smallPng, freeBalance } from '../helpers/media.ts';
import { callApi, signUpUser, startTestServer, type ApiAnswer, type TestServer } from '../helpers/server.ts';

/**
 * One quote for a whole album (issue 21 item 6 for batch albums) against the real server on
 * PGlite: the quote of every clip not yet made plus the join, the hold taken from the balance in
 * one transaction, the clips drawing from it, a cancelled clip's refund going back to it, and the
 * remainder returning when the hold is released, the album joined or deleted. Jobs take a minute
 * here, so every clip stays live while the test looks at it. The race with a story on a real
 * PostgreSQL is tests/server/postgres/credit-holds-concurrency.test.ts.
 */

let server: TestServer;
type User = Awaited<ReturnType<typeof signUpUser>>;

const NOT_FOUND = 'Failed to find a Batch with this id';
/** Two parallax clips: 2 × the parallax price, joining free. */
const TWO_CLIPS = 2 * PARALLAX_VIDEO_CREDITS;

beforeAll(async () => {
  server = await startTestServer({ jobs: { durationMs: 60_000, pollIntervalMs: 100 } });
});
afterAll(async () => {
  await server?.close();
});

const asBatch = (answer: ApiAnswer): Batch => batchSchema.parse(answer.body?.data);
const asQuote = (answer: ApiAnswer): AlbumQuoteAnswer => albumQuoteSchema.parse(answer.body?.data);


async function upload(user: User, endpoint: string, field: string, file: { data: Buffer; name: string; type: string }): Promise<string> {
  const answer = await postForm(server, endpoint, { [field]: file }, { token: user.accessToken });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return asMedia(answer).items[0]?.url ?? '';
}

/** A parallax album of two pictures with its board written (two clips), nothing made yet. */
async function albumWithBoard(user: User): Promise<Batch> {
  const picture = await upload(user, 'image', 'image_file', { data: await smallPng(96, 64, '#cc6633'), name: 'p.png', type: 'image/png' });
  const created = await postForm(server, 'batch', { batch_type: 'parallax', title: 'Trip', image_urls: [picture, picture] }, { token: user.accessToken });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const written = await postForm(server, `batch/${asBatch(created).id}/script-board`, { motion_length: '2' }, { token: user.accessToken });
  expect(written.status, JSON.stringify(written.body)).toBe(200);
  return asBatch(written);
}

const quote = (user: User, album: Batch) => callApi(server, `batch/${album.id}/quote`, { method: 'POST', token: user.accessToken });
const hold = (user: User, album: Batch, key?: string) =>
  callApi(server, `batch/${album.id}/hold`, { method: 'POST', token: user.accessToken, headers: key ? { 'Idempotency-Key': key } : {} });
const release = (user: User, album: Batch) => callApi(server, `batch/${album.id}/hold`, { method: 'DELETE', token: user.accessToken });
const generate = (user: User, album: Batch) =>
  postForm(server, `batch/${album.id}/videos`, { script_board: JSON.stringify(album.script_board) }, { token: user.accessToken });

async function holdRows(album: Batch) {
  const { rows } = await server.db.query<{ status: string; close_reason: string | null; amount: number; drawn: number }>(
    'SELECT status, close_reason, amount, drawn FROM credit_holds WHERE project_id = $1 ORDER BY created_at',
    [album.id],
  );
  return rows;
}

describe('an album’s quote', () => {
  it('prices every clip not yet made at the price the generation charges, plus the free join; holds nothing; the owner’s only', async () => {
    const user = await signUpUser(server, 'albumquote');
    const album = await albumWithBoard(user);
    const each = albumClipPrice('parallax', { model: '' }).price;
    expect(each).toBe(PARALLAX_VIDEO_CREDITS);
    expect(asQuote(await quote(user, album))).toEqual({
      batch_id: album.id,
      lines: [
        { part: 'clips', label: 'Parallax', count: 2, each, total: TWO_CLIPS },
        { part: 'join', count: 1, each: 0, total: 0 },
      ],
      total: TWO_CLIPS,
      cost: TWO_CLIPS,
      hold: null,
      balance: 100,
    });
    expect(await freeBalance(server, user.accessToken)).toBe(100);

    const stranger = await signUpUser(server, 'albumstranger');
    for (const answer of [await quote(stranger, album), await hold(stranger, album), await release(stranger, album)]) {
      expect([answer.status, answer.body?.detail]).toEqual([404, NOT_FOUND]);
    }
  });

  it('has nothing to hold (400) for an album without a board, and nothing to release (404)', async () => {
    const user = await signUpUser(server, 'albumempty');
    const picture = await upload(user, 'image', 'image_file', { data: await smallPng(), name: 'p.png', type: 'image/png' });
    const album = asBatch(await postForm(server, 'batch', { batch_type: 'ai', image_urls: [picture] }, { token: user.accessToken }));
    expect(asQuote(await quote(user, album))).toMatchObject({ lines: [], total: 0, hold: null });
    expect(await hold(user, album)).toMatchObject({ status: 400, body: { detail: 'Nothing to hold: every clip of this album is made and joining is free.' } });
    expect(await release(user, album)).toMatchObject({ status: 404, body: { detail: 'This album holds no credits.' } });
    expect(await holdRows(album)).toEqual([]);
  });
});

describe('holding an album’s price', () => {
  it('sets the total aside in one step; the clips draw from it, a cancelled clip’s refund goes back to it, a re-quote keeps what is left, release frees the rest', async () => {
    const user = await signUpUser(server, 'albumholder');
    const album = await albumWithBoard(user);

    const held = await hold(user, album, 'album-hold-1');
    expect(held.status, JSON.stringify(held.body)).toBe(200);
    const placed = asQuote(held);
    expect(placed.hold).toMatchObject({ amount: TWO_CLIPS, drawn: 0, remaining: TWO_CLIPS, status: 'open', close_reason: null });
    expect(placed.balance).toBe(100 - TWO_CLIPS);
    expect(await freeBalance(server, user.accessToken)).toBe(100 - TWO_CLIPS);
    // Nothing was spent: the ledger is as it was.
    expect(await balanceOf(server, user.sub)).toBe(100);
    // A retry with the same key is the same hold.
    const replay = await hold(user, album, 'album-hold-1');
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(asQuote(replay).hold?.id).toBe(placed.hold?.id);

    // The clips are paid from the hold: two debits as ever, the free balance untouched.
    const generated = await generate(user, album);
    expect(generated.status, JSON.stringify(generated.body)).toBe(200);
    const clips = asBatch(generated).videos;
    expect(clips).toHaveLength(2);
    expect((await ledgerRows(server, user.sub)).filter((row) => row.kind === 'debit').map((row) => row.amount)).toEqual([-20, -20]);
    expect(await balanceOf(server, user.sub)).toBe(100 - TWO_CLIPS);
    expect(await freeBalance(server, user.accessToken)).toBe(100 - TWO_CLIPS);
    const drawing = asQuote(await quote(user, album));
    expect(drawing.hold).toMatchObject({ amount: TWO_CLIPS, drawn: TWO_CLIPS, remaining: 0 });
    // Running clips are paid for: only the (free) join is left.
    expect(drawing).toMatchObject({ lines: [{ part: 'join', count: 1, each: 0, total: 0 }], total: 0 });

    // One clip cancelled: refunded into the hold, so it can be made again from what was set aside.
    const cancelled = await callApi(server, `media/${clips[0]?.id ?? ''}/cancel`, { method: 'PUT', token: user.accessToken });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(await balanceOf(server, user.sub)).toBe(100 - PARALLAX_VIDEO_CREDITS);
    expect(await freeBalance(server, user.accessToken)).toBe(100 - TWO_CLIPS);
    const afterCancel = asQuote(await quote(user, album));
    expect(afterCancel.hold).toMatchObject({ amount: TWO_CLIPS, drawn: PARALLAX_VIDEO_CREDITS, remaining: PARALLAX_VIDEO_CREDITS });
    expect(afterCancel.lines[0]).toEqual({ part: 'clips', label: 'Parallax', count: 1, each: PARALLAX_VIDEO_CREDITS, total: PARALLAX_VIDEO_CREDITS });
    expect(afterCancel.total).toBe(PARALLAX_VIDEO_CREDITS);

    // Held again: the one hold keeps exactly what is left more than it has drawn.
    const again = asQuote(await hold(user, album));
    expect(again.hold).toMatchObject({ id: placed.hold?.id, amount: TWO_CLIPS, drawn: PARALLAX_VIDEO_CREDITS, remaining: PARALLAX_VIDEO_CREDITS });
    expect(await holdRows(album)).toHaveLength(1);

    // Released: what it kept is free again.
    const released = await release(user, album);
    expect(released.status).toBe(200);
    expect(asQuote(released).hold).toMatchObject({ status: 'closed', close_reason: 'released' });
    expect(await freeBalance(server, user.accessToken)).toBe(100 - PARALLAX_VIDEO_CREDITS);
    expect(asQuote(await quote(user, album)).hold).toBeNull();
  });

  it('refuses with 402 and SPEC’s words when the free balance cannot cover the quote, holding nothing; generating unheld pays from the free balance', async () => {
    const user = await signUpUser(server, 'albumshort');
    const album = await albumWithBoard(user);
    await appendLedgerEntry(server.db, { userSub: user.sub, amount: -70, kind: 'debit', reason: 'spent elsewhere' });
    const answer = await hold(user, album, 'album-short');
    expect([answer.status, answer.body?.detail]).toEqual([402, `Not enough credits: this costs ${TWO_CLIPS} credits and you have 30.`]);
    expect(await holdRows(album)).toEqual([]);
    expect(await freeBalance(server, user.accessToken)).toBe(30);
    // Without a hold the clips are paid as before: all or nothing (402, nothing made).
    expect((await generate(user, album)).status).toBe(402);
    expect(await freeBalance(server, user.accessToken)).toBe(30);
  });

  it('two albums racing for the last credits: one holds, the other is refused and cannot spend the first one’s hold', async () => {
    const user = await signUpUser(server, 'albumracer');
    const [first, second] = [await albumWithBoard(user), await albumWithBoard(user)];
    // Enough for one album and a little, not for two.
    await appendLedgerEntry(server.db, { userSub: user.sub, amount: TWO_CLIPS + 10 - 100, kind: 'purchase', reason: 'Bought credits (test)' });
    const answers = await Promise.all([hold(user, first), hold(user, second)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 402]);
    expect(await freeBalance(server, user.accessToken)).toBe(10);
    // The album that lost cannot be made from the other's hold either.
    const loser = answers[0]?.status === 402 ? first : second;
    expect((await generate(user, loser)).status).toBe(402);
    expect(await freeBalance(server, user.accessToken)).toBe(10);
  });
});

describe('a hold ends with its album', () => {
  it('joining the album ends its hold: what it still keeps returns to the balance', async () => {
    const user = await signUpUser(server, 'albumjoiner');
    const album = await albumWithBoard(user);
    expect((await hold(user, album)).status).toBe(200);
    const video = await upload(user, 'video', 'video_file', { data: await smallMp4(), name: 'own.mp4', type: 'video/mp4' });
    // Joined before any clip was made (a video of the person's own): the project has ended.
    const joined = await postForm(server, `batch/${album.id}/edit`, { concat_video_urls: [video], concat: 'true' }, { token: user.accessToken, method: 'PUT' });
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    expect(asBatch(joined).concat).not.toBeNull();
    expect(await holdRows(album)).toEqual([{ status: 'closed', close_reason: 'ended', amount: TWO_CLIPS, drawn: 0 }]);
    expect(await freeBalance(server, user.accessToken)).toBe(100);
    // The join was free.
    expect(await balanceOf(server, user.sub)).toBe(100);
  });

  it('deleting the album refunds its live clips into the hold and frees the rest', async () => {
    const user = await signUpUser(server, 'albumdeleter');
    const album = await albumWithBoard(user);
    expect((await hold(user, album)).status).toBe(200);
    expect((await generate(user, album)).status).toBe(200);
    expect(await freeBalance(server, user.accessToken)).toBe(100 - TWO_CLIPS);
    const deleted = await callApi(server, `batch/${album.id}`, { method: 'DELETE', token: user.accessToken });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(await freeBalance(server, user.accessToken)).toBe(100);
    expect(await balanceOf(server, user.sub)).toBe(100);
    expect(await holdRows(album)).toEqual([{ status: 'closed', close_reason: 'deleted', amount: TWO_CLIPS, drawn: 0 }]);
  });
});
