import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARALLAX_VIDEO_CREDITS } from '../../../src/config/video-creation.ts';
import { storyPartPrice } from '../../../src/lib/story.ts';
import { batchSchema, type Batch } from '../../../src/services/schemas/batch.ts';
import { storySchema, type Story } from '../../../src/services/schemas/story.ts';
import { asMedia, ledgerRows, postForm, balanceOf, smallPng, freeBalance } from '../helpers/media.ts';
import { storyFullPrice } from '../helpers/story-price.ts';
import { freshPostgresUrl } from '../helpers/postgres.ts';
import { callApi, signUpUser, startTestServer, type ApiAnswer, type TestServer } from '../helpers/server.ts';

/**
 * Credit holds (issue 21 item 6) under real concurrency: on PostgreSQL, with transactions
 * interleaving across a pool, stories (and a story against an album) racing to hold the last credits while other paid calls
 * spend them never overdraw — the free balance (ledger minus open holds) stays ≥ 0 — and the
 * parts of held stories are paid from their holds while the rest of the balance is fought over.
 * Jobs take a minute here, so nothing ends (and nothing is refunded) while the test looks.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ databaseUrl: await freshPostgresUrl(), jobs: { durationMs: 60_000, pollIntervalMs: 100 } });
});
afterAll(async () => {
  await server?.close();
});

const IDEA = 'Mara, a young fisher, finds a glowing shell on the beach. She carries it to the old lighthouse at night.';
/** Flux 1.1 Pro Ultra costs 8 credits a job. */
const ULTRA = { prompt: 'a lighthouse in fog', option: 'Flux1.1ProUltra' };
const ULTRA_COST = 8;

type User = Awaited<ReturnType<typeof signUpUser>>;


async function createStory(user: User): Promise<Story> {
  const answer = await postForm(server, 'story', { idea: IDEA, duration: '15' }, { token: user.accessToken });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return storySchema.parse(answer.body?.data);
}

const count = (answers: readonly ApiAnswer[], status: number): number => answers.filter((answer) => answer.status === status).length;

async function openHolds(sub: string): Promise<{ project_id: string; amount: number; drawn: number }[]> {
  const { rows } = await server.db.query<{ project_id: string; amount: number; drawn: number }>(
    "SELECT project_id, amount, drawn FROM credit_holds WHERE user_sub = $1 AND status = 'open'",
    [sub],
  );
  return rows;
}

describe('stories racing for the last credits', () => {
  it('6 holds and 12 paid pictures at once never overdraw; the held stories’ parts are then paid from their holds while 12 more pictures race', async () => {
    const user = await signUpUser(server, 'pgholds');
    const stories = await Promise.all(Array.from({ length: 6 }, () => createStory(user)));
    const price = storyFullPrice(stories[0] as Story);
    expect(stories.every((story) => storyFullPrice(story) === price)).toBe(true);
    // Two films and 36 credits: at most two holds; the pictures take what the holds leave.
    const ledger = 2 * price + 36;
    await server.db.query("INSERT INTO credit_ledger (user_sub, amount, kind, reason) VALUES ($1, $2, 'purchase', 'bought (test)')", [user.sub, ledger - 100]);
    expect(await freeBalance(server, user.accessToken)).toBe(ledger);

    const holdAnswers = stories.map((story, index) =>
      callApi(server, `story/${story.id}/hold`, { method: 'POST', token: user.accessToken, headers: { 'Idempotency-Key': `pg-hold-${index}` } }),
    );
    const pictures = Array.from({ length: 12 }, (_, index) => postForm(server, 'image/text-2-image', { ...ULTRA, prompt: `race ${index}` }, { token: user.accessToken }));
    const [holds, paid] = await Promise.all([Promise.all(holdAnswers), Promise.all(pictures)]);

    expect(holds.every((answer) => answer.status === 200 || answer.status === 402)).toBe(true);
    expect(paid.every((answer) => answer.status === 200 || answer.status === 402)).toBe(true);
    const held = count(holds, 200);
    const bought = count(paid, 200);
    expect(held).toBeGreaterThanOrEqual(1);
    expect(held).toBeLessThanOrEqual(2);
    // Nothing was spent twice over: what is held and what was paid fit in the ledger.
    const free = await freeBalance(server, user.accessToken);
    expect(free).toBe(ledger - held * price - bought * ULTRA_COST);
    expect(free).toBeGreaterThanOrEqual(0);
    // A refusal came when what was left could not pay it, and nothing was given back since.
    if (count(paid, 402) > 0) expect(free).toBeLessThan(ULTRA_COST);
    if (count(holds, 402) > 0) expect(free).toBeLessThan(price);
    const open = await openHolds(user.sub);
    expect(open).toHaveLength(held);
    expect(open.every((hold) => hold.amount === price && hold.drawn === 0)).toBe(true);
    expect(await balanceOf(server, user.sub)).toBe(ledger - bought * ULTRA_COST);

    // Phase two: every held story makes its elements while 12 more pictures race for the free rest.
    const heldStories = stories.filter((_, index) => holds[index]?.status === 200);
    const parts = heldStories.map((story) => postForm(server, `story/${story.id}/elements`, {}, { token: user.accessToken }));
    const more = Array.from({ length: 12 }, (_, index) => postForm(server, 'image/text-2-image', { ...ULTRA, prompt: `more ${index}` }, { token: user.accessToken }));
    const [partAnswers, moreAnswers] = await Promise.all([Promise.all(parts), Promise.all(more)]);
    // The holds pay for the parts: none is refused, whatever the pictures took.
    expect(partAnswers.map((answer) => answer.status)).toEqual(heldStories.map(() => 200));
    const boughtMore = count(moreAnswers, 200);
    expect(boughtMore).toBe(Math.floor(free / ULTRA_COST));
    expect(await freeBalance(server, user.accessToken)).toBe(free - boughtMore * ULTRA_COST);
    const elementsCost = (heldStories[0] as Story).storyboard.elements.length * storyPartPrice((heldStories[0] as Story).storyboard, 'elements');
    expect((await openHolds(user.sub)).every((hold) => hold.amount === price && hold.drawn === elementsCost)).toBe(true);

    // The ledger never went below zero at any commit, and holds never kept more than it had.
    let running = 0;
    for (const row of await ledgerRows(server, user.sub)) {
      running += row.amount;
      expect(running).toBeGreaterThanOrEqual(0);
    }
    expect(running - held * (price - elementsCost)).toBe(await freeBalance(server, user.accessToken));
  });
});

/** A parallax album of two pictures with its board written: two clips to make, joining free. */
async function albumWithBoard(user: User): Promise<Batch> {
  const uploaded = await postForm(server, 'image', { image_file: { data: await smallPng(), name: 'p.png', type: 'image/png' } }, { token: user.accessToken });
  const picture = asMedia(uploaded).items[0]?.url ?? '';
  const created = batchSchema.parse((await postForm(server, 'batch', { batch_type: 'parallax', image_urls: [picture, picture] }, { token: user.accessToken })).body?.data);
  const written = await postForm(server, `batch/${created.id}/script-board`, { motion_length: '2' }, { token: user.accessToken });
  expect(written.status, JSON.stringify(written.body)).toBe(200);
  return batchSchema.parse(written.body?.data);
}

describe('a story and an album racing for the last credits', () => {
  it('one of the two holds, the other is refused (402), and the loser cannot spend the winner’s hold; 4 people at once, nothing overdraws', async () => {
    const albumPrice = 2 * PARALLAX_VIDEO_CREDITS;
    const people = await Promise.all(
      Array.from({ length: 4 }, async (_, index) => {
        const user = await signUpUser(server, `pgmixed${index}`);
        const [story, album] = [await createStory(user), await albumWithBoard(user)];
        // Either project fits, never both.
        const ledger = storyFullPrice(story) + albumPrice - 1;
        await server.db.query("INSERT INTO credit_ledger (user_sub, amount, kind, reason) VALUES ($1, $2, 'purchase', 'bought (test)')", [user.sub, ledger - 100]);
        return { user, story, album, ledger };
      }),
    );
    const races = people.flatMap(({ user, story, album }) => [
      callApi(server, `story/${story.id}/hold`, { method: 'POST', token: user.accessToken, headers: { 'Idempotency-Key': `pg-mixed-story-${user.sub}` } }),
      callApi(server, `batch/${album.id}/hold`, { method: 'POST', token: user.accessToken, headers: { 'Idempotency-Key': `pg-mixed-album-${user.sub}` } }),
    ]);
    const answers = await Promise.all(races);
    for (const [index, { user, story, album, ledger }] of people.entries()) {
      const [storyHold, albumHold] = [answers[2 * index], answers[2 * index + 1]];
      expect([storyHold?.status, albumHold?.status].sort()).toEqual([200, 402]);
      const storyWon = storyHold?.status === 200;
      const heldAmount = storyWon ? storyFullPrice(story) : albumPrice;
      const free = ledger - heldAmount;
      expect(await freeBalance(server, user.accessToken)).toBe(free);
      expect((storyWon ? albumHold : storyHold)?.body?.detail).toBe(`Not enough credits: this costs ${storyWon ? albumPrice : storyFullPrice(story)} credits and you have ${free}.`);
      const open = await openHolds(user.sub);
      expect(open).toEqual([{ project_id: storyWon ? story.id : album.id, amount: heldAmount, drawn: 0 }]);
      // The album that lost is not paid from the story's hold: its clips are refused and nothing is made.
      if (storyWon) {
        const clips = await postForm(server, `batch/${album.id}/videos`, { script_board: JSON.stringify(album.script_board) }, { token: user.accessToken });
        expect(clips.status).toBe(402);
      } else {
        // The album that won is paid from its hold while the rest stays free.
        const clips = await postForm(server, `batch/${album.id}/videos`, { script_board: JSON.stringify(album.script_board) }, { token: user.accessToken });
        expect(clips.status, JSON.stringify(clips.body)).toBe(200);
        expect(await openHolds(user.sub)).toEqual([{ project_id: album.id, amount: albumPrice, drawn: albumPrice }]);
      }
      expect(await freeBalance(server, user.accessToken)).toBe(free);
      expect(free).toBeGreaterThanOrEqual(0);
      expect(await balanceOf(server, user.sub)).toBe(storyWon ? ledger : ledger - albumPrice);
    }
  });
});
