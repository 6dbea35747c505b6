import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storyPartPrice, storyAudioPrice } from '../../../src/lib/story.ts';
import { storyQuoteSchema, type StoryQuoteAnswer } from '../../../src/services/schemas/project-hold.ts';
import { storySchema, type Story } from '../../../src/services/schemas/story.ts';
import { appendLedgerEntry } from '../../../server/src/db/credit-ledger.ts';
import { balanceOf, ledgerRows, postForm, type FormFields, freeBalance } from '../helpers/media.ts';
import { storyFullPrice } from '../helpers/story-price.ts';
import { callApi, signUpUser, startTestServer, type ApiAnswer, type TestServer } from '../helpers/server.ts';

/**
 * One quote for a whole film (issue 21 item 6) against the real server on PGlite: the quote, the
 * hold taken from the balance in one transaction, the parts drawing from it, refunds going back
 * to it, and the remainder returning when the hold is released or the story deleted. Jobs take a
 * minute here, so every part stays live while the test looks at it. The race on a real
 * PostgreSQL is tests/server/postgres/credit-holds-concurrency.test.ts.
 */

let server: TestServer;
type User = Awaited<ReturnType<typeof signUpUser>>;

const IDEA = 'Mara, a young fisher, finds a glowing shell on the beach. She carries it to the old lighthouse at night.';

beforeAll(async () => {
  server = await startTestServer({ jobs: { durationMs: 60_000, pollIntervalMs: 100 } });
});
afterAll(async () => {
  await server?.close();
});

const asStory = (answer: ApiAnswer): Story => storySchema.parse(answer.body?.data);
const asQuote = (answer: ApiAnswer): StoryQuoteAnswer => storyQuoteSchema.parse(answer.body?.data);

async function createStory(user: User): Promise<Story> {
  const answer = await postForm(server, 'story', { idea: IDEA, duration: '15' }, { token: user.accessToken });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return asStory(answer);
}

const quote = (user: User, story: Story) => callApi(server, `story/${story.id}/quote`, { method: 'POST', token: user.accessToken });
const hold = (user: User, story: Story, key?: string) =>
  callApi(server, `story/${story.id}/hold`, { method: 'POST', token: user.accessToken, headers: key ? { 'Idempotency-Key': key } : {} });
const release = (user: User, story: Story) => callApi(server, `story/${story.id}/hold`, { method: 'DELETE', token: user.accessToken });
const generate = (user: User, story: Story, part: string, fields: FormFields = {}) =>
  postForm(server, `story/${story.id}/${part}`, fields, { token: user.accessToken });


async function richUser(prefix: string, credits: number): Promise<User> {
  const user = await signUpUser(server, prefix);
  expect((await freeBalance(server, user.accessToken)) > 0).toBe(true);
  await appendLedgerEntry(server.db, { userSub: user.sub, amount: credits, kind: 'purchase', reason: 'Bought credits (test)' });
  return user;
}

describe('the quote', () => {
  it('prices every part still to make at the steps’ prices, holds nothing, and is the owner’s only', async () => {
    const user = await richUser('quoter', 400);
    const story = await createStory(user);
    const board = story.storyboard;
    const answer = asQuote(await quote(user, story));
    const expected = [
      { part: 'elements', count: board.elements.length, each: storyPartPrice(board, 'elements') },
      { part: 'scenes', count: board.scenes.length, each: storyPartPrice(board, 'scenes') },
      { part: 'videos', count: board.scenes.length, each: storyPartPrice(board, 'videos') },
      ...(board.audio.kind === 'none' ? [] : [{ part: 'audio', count: 1, each: storyAudioPrice(board.audio.kind) }]),
    ].map((line) => ({ ...line, total: line.count * line.each }));
    expect(answer).toEqual({ story_id: story.id, lines: expected, total: storyFullPrice(story), cost: storyFullPrice(story), hold: null, balance: 500 });
    expect(answer.total).toBeGreaterThan(0);
    expect(await freeBalance(server, user.accessToken)).toBe(500);

    const stranger = await signUpUser(server, 'quotestranger');
    expect((await quote(stranger, story)).status).toBe(404);
    expect((await hold(stranger, story)).status).toBe(404);
    expect((await release(stranger, story)).status).toBe(404);
  });
});

describe('holding a story’s price', () => {
  it('sets the total aside in one step; the parts draw from it, refunds go back to it, release returns the rest', async () => {
    const user = await richUser('holder', 400);
    const story = await createStory(user);
    const total = storyFullPrice(story);

    const held = await hold(user, story, 'hold-key-1');
    expect(held.status, JSON.stringify(held.body)).toBe(200);
    const placed = asQuote(held);
    expect(placed.hold).toMatchObject({ amount: total, drawn: 0, remaining: total, status: 'open', close_reason: null });
    expect(placed.balance).toBe(500 - total);
    expect(await freeBalance(server, user.accessToken)).toBe(500 - total);
    // Nothing was spent: the ledger is as it was; the hold only keeps the credits aside.
    expect(await balanceOf(server, user.sub)).toBe(500);

    // A retry with the same key is the same hold, not a second one.
    const replay = await hold(user, story, 'hold-key-1');
    expect(replay.status).toBe(200);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(asQuote(replay).hold?.id).toBe(placed.hold?.id);
    expect(await freeBalance(server, user.accessToken)).toBe(500 - total);

    // The elements' pictures are paid from the hold: debits as ever, the free balance untouched.
    const elementsCost = story.storyboard.elements.length * storyPartPrice(story.storyboard, 'elements');
    expect((await generate(user, story, 'elements')).status).toBe(200);
    const debits = (await ledgerRows(server, user.sub)).filter((row) => row.kind === 'debit');
    expect(debits).toHaveLength(story.storyboard.elements.length);
    expect(await balanceOf(server, user.sub)).toBe(500 - elementsCost);
    expect(await freeBalance(server, user.accessToken)).toBe(500 - total);
    const drawing = asQuote(await quote(user, story));
    expect(drawing.hold).toMatchObject({ amount: total, drawn: elementsCost, remaining: total - elementsCost });
    // Running parts are paid for: the quote is what is left to make.
    expect(drawing.total).toBe(total - elementsCost);

    // Cancelled, they are refunded into the hold, so they can be made again from it.
    const cancelled = await callApi(server, `story/${story.id}/cancel`, { method: 'PUT', token: user.accessToken, json: { part: 'elements' } });
    expect(cancelled.status).toBe(200);
    expect(await balanceOf(server, user.sub)).toBe(500);
    expect(asQuote(await quote(user, story)).hold).toMatchObject({ amount: total, drawn: 0, remaining: total });
    expect(await freeBalance(server, user.accessToken)).toBe(500 - total);

    // Released: the whole remainder is free again, and the story holds nothing.
    const released = await release(user, story);
    expect(released.status).toBe(200);
    expect(asQuote(released).hold).toMatchObject({ status: 'closed', close_reason: 'released', drawn: 0 });
    expect(asQuote(released).balance).toBe(500);
    expect(await freeBalance(server, user.accessToken)).toBe(500);
    expect(asQuote(await quote(user, story)).hold).toBeNull();
    expect(await release(user, story)).toMatchObject({ status: 404, body: { detail: 'This story holds no credits.' } });
  });

  it('re-quotes an open hold instead of holding twice: it keeps exactly what is left to make', async () => {
    const user = await richUser('requoter', 400);
    const story = await createStory(user);
    const total = storyFullPrice(story);
    const elementsCost = story.storyboard.elements.length * storyPartPrice(story.storyboard, 'elements');
    expect((await hold(user, story)).status).toBe(200);
    expect((await generate(user, story, 'elements')).status).toBe(200);
    // Held again while the elements run: the hold keeps exactly what is left to make.
    const again = asQuote(await hold(user, story));
    expect(again.hold).toMatchObject({ amount: total, drawn: elementsCost, remaining: total - elementsCost });
    expect(await freeBalance(server, user.accessToken)).toBe(500 - total);
    const { rows } = await server.db.query<{ n: number }>("SELECT count(*)::integer AS n FROM credit_holds WHERE project_id = $1", [story.id]);
    expect(rows[0]?.n).toBe(1);

  });

  it('draws a step beyond what the hold keeps from the free balance; a refund returns each part’s draw where it came from', async () => {
    const user = await richUser('beyond', 400);
    const story = await createStory(user);
    const count = story.storyboard.elements.length;
    const each = storyPartPrice(story.storyboard, 'elements');
    expect(count).toBeGreaterThan(1);
    expect((await hold(user, story)).status).toBe(200);
    // As if it had been held when the story needed one picture only.
    await server.db.query('UPDATE credit_holds SET amount = $2 WHERE project_id = $1', [story.id, each]);
    expect(await freeBalance(server, user.accessToken)).toBe(500 - each);
    expect((await generate(user, story, 'elements')).status).toBe(200);
    expect(asQuote(await quote(user, story)).hold).toMatchObject({ amount: each, drawn: each, remaining: 0 });
    expect(await freeBalance(server, user.accessToken)).toBe(500 - each * count);
    const { rows } = await server.db.query<{ hold_drawn: number }>('SELECT hold_drawn FROM media WHERE story_id = $1 ORDER BY hold_drawn DESC', [story.id]);
    expect(rows.map((row) => row.hold_drawn)).toEqual([each, ...Array<number>(count - 1).fill(0)]);
    expect((await ledgerRows(server, user.sub)).filter((row) => row.kind === 'debit').every((row) => row.amount === -each)).toBe(true);

    await callApi(server, `story/${story.id}/cancel`, { method: 'PUT', token: user.accessToken, json: { part: 'elements' } });
    expect(asQuote(await quote(user, story)).hold).toMatchObject({ amount: each, drawn: 0, remaining: each });
    expect(await freeBalance(server, user.accessToken)).toBe(500 - each);
  });

  it('refuses with 402 and SPEC’s words when the free balance cannot cover the quote, holding nothing', async () => {
    const user = await signUpUser(server, 'shortholder');
    const story = await createStory(user);
    const total = storyFullPrice(story);
    await appendLedgerEntry(server.db, { userSub: user.sub, amount: -80, kind: 'debit', reason: 'spent elsewhere' });
    expect(total).toBeGreaterThan(20);
    const answer = await hold(user, story, 'short-key');
    expect(answer.status).toBe(402);
    expect(answer.body?.detail).toBe(`Not enough credits: this costs ${total} credits and you have 20.`);
    expect(asQuote(await quote(user, story)).hold).toBeNull();
    expect(await freeBalance(server, user.accessToken)).toBe(20);
    // The key was freed with the refusal: once the credits are there, the same key holds.
    await appendLedgerEntry(server.db, { userSub: user.sub, amount: total, kind: 'purchase', reason: 'Bought credits (test)' });
    expect((await hold(user, story, 'short-key')).status).toBe(200);
    expect(await freeBalance(server, user.accessToken)).toBe(20);
  });

  it('keeps held credits from every other paid call: a picture elsewhere cannot spend them', async () => {
    const user = await signUpUser(server, 'guarded');
    const story = await createStory(user);
    await appendLedgerEntry(server.db, { userSub: user.sub, amount: storyFullPrice(story) + 5 - 100, kind: 'purchase', reason: 'Bought credits (test)' });
    expect((await hold(user, story)).status).toBe(200);
    expect(await freeBalance(server, user.accessToken)).toBe(5);
    const elsewhere = await postForm(server, 'image/text-2-image', { prompt: 'a lighthouse in fog', option: 'Flux1.1ProUltra' }, { token: user.accessToken });
    expect(elsewhere.status).toBe(402);
    expect(elsewhere.body?.detail).toBe('Not enough credits: this costs 8 credits and you have 5.');
  });

  it('two stories racing for the last credits: one holds, the other is refused, nothing overdraws', async () => {
    const user = await signUpUser(server, 'racer');
    const [first, second] = [await createStory(user), await createStory(user)];
    const total = storyFullPrice(first);
    expect(storyFullPrice(second)).toBe(total);
    // Enough for one film and a little, not for two.
    await appendLedgerEntry(server.db, { userSub: user.sub, amount: total + 10 - 100, kind: 'purchase', reason: 'Bought credits (test)' });
    const answers = await Promise.all([hold(user, first), hold(user, second)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 402]);
    expect(answers.find((answer) => answer.status === 402)?.body?.detail).toBe(`Not enough credits: this costs ${total} credits and you have 10.`);
    expect(await freeBalance(server, user.accessToken)).toBe(10);
    const { rows } = await server.db.query<{ n: number }>("SELECT count(*)::integer AS n FROM credit_holds WHERE user_sub = $1 AND status = 'open'", [user.sub]);
    expect(rows[0]?.n).toBe(1);
  });
});

describe('a hold ends with its story', () => {
  it('deleting the story refunds its live parts into the hold and frees the rest', async () => {
    const user = await richUser('deleter', 400);
    const story = await createStory(user);
    expect((await hold(user, story)).status).toBe(200);
    expect((await generate(user, story, 'elements')).status).toBe(200);
    expect(await freeBalance(server, user.accessToken)).toBe(500 - storyFullPrice(story));
    const deleted = await callApi(server, `story/${story.id}`, { method: 'DELETE', token: user.accessToken });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(await freeBalance(server, user.accessToken)).toBe(500);
    expect(await balanceOf(server, user.sub)).toBe(500);
    const { rows } = await server.db.query<{ status: string; close_reason: string }>('SELECT status, close_reason FROM credit_holds WHERE project_id = $1', [
      story.id,
    ]);
    expect(rows).toEqual([{ status: 'closed', close_reason: 'deleted' }]);
  });
});
