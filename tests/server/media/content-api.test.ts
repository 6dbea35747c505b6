import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_PAGE_SIZE } from '../../../src/config/sharing.ts';
import { contentPageSchema, type ContentPage } from '../../../src/services/schemas/content.ts';
import { insertMedia } from '../../../server/src/db/media.ts';
import { asMedia, fetchFile, postForm } from '../helpers/media.ts';
import { callApi, setHandle, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * Sharing (PUT media/{id}/share), the public listings (POST users/{id}/contents,
 * users/latest-contents) and GET media/{id}/view on the real server, with real generated images.
 */

let server: TestServer;
type User = Awaited<ReturnType<typeof signUpUser>>;
let owner: User;
let other: User;
let handle: string;
const run = Date.now().toString(36);

beforeAll(async () => {
  server = await startTestServer({ jobs: { durationMs: 30, pollIntervalMs: 50 } });
  owner = await signUpUser(server, 'sharer');
  other = await signUpUser(server, 'viewer');
  handle = `sharer-${run}`;
  await setHandle(server, owner.accessToken, handle);
  // Any call brings the handle into the server's users table.
  expect((await callApi(server, 'credits/get', { token: owner.accessToken })).status).toBe(200);
});
afterAll(async () => {
  await server?.close();
});

/** A finished image (async_mode=false waits for the job). */
async function finishedImage(user: User, prompt: string): Promise<string> {
  const answer = await postForm(server, 'image/text-2-image', { prompt, async_mode: 'false' }, { token: user.accessToken });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const media = asMedia(answer);
  expect(media.status).toBe('success_image');
  return media.id;
}

const share = (user: User | null, id: string, body: Record<string, unknown>) =>
  callApi(server, `media/${id}/share`, { method: 'PUT', token: user?.accessToken, json: body });

async function contents(path: string, body: Record<string, unknown> = {}, user: User | null = null): Promise<ContentPage> {
  const answer = await callApi(server, path, { method: 'POST', token: user?.accessToken, json: body });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return contentPageSchema.parse(answer.body?.data);
}

const idsOf = (page: ContentPage): string[] => page.items.map((item) => item.id);

describe('sharing one finished image', () => {
  it('goes public, unlisted and private with the listings and the public view following', async () => {
    const id = await finishedImage(owner, 'a lighthouse at dusk');

    const made = await share(owner, id, { title: '  Harbour light ', description: 'Evening on the pier', visibility: 'public' });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const shared = asMedia(made);
    expect(shared).toMatchObject({ id, title: 'Harbour light', description: 'Evening on the pier', visibility: 'public' });
    expect(shared.shared_at).not.toBeNull();
    const sharedAt = shared.shared_at;

    // Public: in Latest and on the profile, signed out.
    const latest = await contents('users/latest-contents');
    const item = latest.items.find((entry) => entry.id === id);
    expect(item).toMatchObject({
      title: 'Harbour light',
      description: 'Evening on the pier',
      kind: 'image',
      tool: 'text-to-image',
      visibility: 'public',
      owner: { id: owner.sub, preferred_username: handle },
    });
    expect(item?.url).toBeTruthy();
    expect(item?.width).toBeGreaterThan(0);
    const file = await fetchFile(item?.url ?? '');
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toMatch(/^image\//);
    expect((await fetchFile(item?.thumbnail_url ?? '')).status).toBe(200);
    expect(idsOf(await contents(`users/${handle}/contents`))).toEqual([id]);
    expect(idsOf(await contents(`users/@${handle}/contents`))).toEqual([id]);
    expect(idsOf(await contents(`users/${owner.sub}/contents`))).toEqual([id]);

    const view = await callApi(server, `media/${id}/view`);
    expect(view.status).toBe(200);
    expect(asMedia(view)).toMatchObject({
      title: 'Harbour light',
      visibility: 'public',
      shared_at: sharedAt,
      owner: { id: owner.sub, preferred_username: handle },
    });

    // Unlisted: out of Latest and the signed-out profile; in the owner's own profile call and the view.
    const unlisted = asMedia(await share(owner, id, { title: 'Harbour light', visibility: 'unlisted' }));
    expect(unlisted).toMatchObject({ visibility: 'unlisted', description: '', shared_at: sharedAt });
    expect(idsOf(await contents('users/latest-contents'))).not.toContain(id);
    expect(idsOf(await contents(`users/${handle}/contents`))).toEqual([]);
    expect(idsOf(await contents(`users/${handle}/contents`, {}, other))).toEqual([]);
    const own = await contents(`users/${handle}/contents`, {}, owner);
    expect(own.items.map((entry) => [entry.id, entry.visibility])).toEqual([[id, 'unlisted']]);
    expect((await callApi(server, `media/${id}/view`)).status).toBe(200);

    // Private: hidden everywhere, shared_at kept.
    const hidden = asMedia(await share(owner, id, { title: 'Harbour light', visibility: 'private' }));
    expect(hidden).toMatchObject({ visibility: 'private', shared_at: sharedAt });
    expect((await callApi(server, `media/${id}/view`)).status).toBe(404);
    expect(idsOf(await contents(`users/${handle}/contents`, {}, owner))).toEqual([]);
    expect(idsOf(await contents('users/latest-contents', {}, owner))).not.toContain(id);
  });

  it('refuses what is not a finished result, someone else’s media and a bad body', async () => {
    const record = asMedia(await postForm(server, 'media', { note: 'no result' }, { token: owner.accessToken }));
    const notFinished = await share(owner, record.id, { title: 'Nothing yet', visibility: 'public' });
    expect([notFinished.status, notFinished.body?.detail]).toEqual([400, 'Only a finished result can be shared.']);
    const failed = await insertMedia(server.db, {
      userSub: owner.sub,
      kind: 'image',
      tool: 'text-to-image',
      status: 'failed',
      items: [{ status: 'failed' }],
      finished: true,
    });
    const failedShare = await share(owner, failed.id, { title: 'Broken', visibility: 'unlisted' });
    expect([failedShare.status, failedShare.body?.detail]).toEqual([400, 'Only a finished result can be shared.']);
    // Keeping it private is always possible.
    expect((await share(owner, failed.id, { title: 'Broken', visibility: 'private' })).status).toBe(200);

    const mine = await finishedImage(owner, 'only mine');
    const foreign = await share(other, mine, { title: 'Not yours', visibility: 'public' });
    expect([foreign.status, foreign.body?.detail]).toEqual([404, 'Not found.']);
    expect((await share(owner, 'nope12345678', { title: 'x', visibility: 'public' })).status).toBe(404);
    expect((await share(null, mine, { title: 'x', visibility: 'public' })).status).toBe(401);
    expect((await share(owner, mine, { title: '   ', visibility: 'public' })).status).toBe(400);
    expect((await share(owner, mine, { title: 'x', visibility: 'everyone' })).status).toBe(400);
    // Nothing of it was shared.
    expect((await callApi(server, `media/${mine}/view`)).status).toBe(404);
  });

  it('answers 404 "User not found." for an unknown or deleted person', async () => {
    const unknown = await callApi(server, 'users/nobody-here-at-all/contents', { method: 'POST', json: {} });
    expect([unknown.status, unknown.body?.detail]).toEqual([404, 'User not found.']);
    const leaving = await signUpUser(server, 'leaving');
    const id = await finishedImage(leaving, `leaving${run}`);
    expect((await share(leaving, id, { title: `leaving${run}`, visibility: 'public' })).status).toBe(200);
    expect(idsOf(await contents('users/latest-contents', { keyword: `leaving${run}` }))).toEqual([id]);
    await server.db.query('UPDATE users SET deleted_at = now() WHERE sub = $1', [leaving.sub]);
    expect((await callApi(server, `users/${leaving.sub}/contents`, { method: 'POST', json: {} })).status).toBe(404);
    // A deleted account's shared media are gone for everyone.
    expect(idsOf(await contents('users/latest-contents', { keyword: `leaving${run}` }))).toEqual([]);
    expect((await callApi(server, `media/${id}/view`)).status).toBe(404);
  });
});

describe('keyword search', () => {
  it('matches the title, the description or the prompt, case-insensitively', async () => {
    const searcher = await signUpUser(server, 'searcher');
    const byTitle = await finishedImage(searcher, 'a field of grass');
    const byDescription = await finishedImage(searcher, 'a tree');
    const byPrompt = await finishedImage(searcher, `a Narwhal${run} under ice`);
    expect((await share(searcher, byTitle, { title: `Zebra${run} crossing`, visibility: 'public' })).status).toBe(200);
    expect((await share(searcher, byDescription, { title: 'Tree', description: `a quokka${run} smiles`, visibility: 'public' })).status).toBe(200);
    expect((await share(searcher, byPrompt, { title: 'Ice', visibility: 'public' })).status).toBe(200);

    const profile = `users/${searcher.sub}/contents`;
    expect(idsOf(await contents(profile, { keyword: `ZEBRA${run}` }))).toEqual([byTitle]);
    expect(idsOf(await contents(profile, { keyword: `Quokka${run}` }))).toEqual([byDescription]);
    expect(idsOf(await contents(profile, { keyword: `narwhal${run}` }))).toEqual([byPrompt]);
    expect(idsOf(await contents('users/latest-contents', { keyword: `narwhal${run}` }))).toEqual([byPrompt]);
    expect(idsOf(await contents(profile, { keyword: '' }))).toEqual([byPrompt, byDescription, byTitle]);
    // LIKE's wildcards are taken literally.
    expect(idsOf(await contents(profile, { keyword: '%' }))).toEqual([]);
    expect(idsOf(await contents(profile, { keyword: 'a_field' }))).toEqual([]);
    expect((await callApi(server, profile, { method: 'POST', json: { keyword: 'x'.repeat(101) } })).status).toBe(400);
  });
});

describe('paging with next_start_keys', () => {
  it('gives disjoint pages covering every item, newest shared first, ties broken by id', async () => {
    const pager = await signUpUser(server, 'pager');
    expect((await callApi(server, 'credits/get', { token: pager.accessToken })).status).toBe(200);
    const source = await finishedImage(pager, `paging${run} source`);
    expect((await share(pager, source, { title: `paging${run} first`, visibility: 'public' })).status).toBe(200);
    // 24 more shared items, made through the database; half of them share one instant.
    const { rows } = await server.db.query<{ items: unknown }>('SELECT items FROM media WHERE id = $1', [source]);
    const items = rows[0]?.items as never;
    for (let index = 0; index < 24; index += 1) {
      const row = await insertMedia(server.db, {
        userSub: pager.sub,
        kind: 'image',
        tool: 'text-to-image',
        status: 'success_image',
        progress: 100,
        items,
        args: { prompt: `paging${run} ${index}` },
        finished: true,
      });
      await server.db.query(
        `UPDATE media SET visibility = 'public', title = $2,
           shared_at = CASE WHEN $3::boolean THEN '2026-01-01T00:00:00.123456Z'::timestamptz
                            ELSE '2026-01-02T00:00:00Z'::timestamptz + ($4::integer * interval '1 microsecond') END
         WHERE id = $1`,
        [row.id, `paging${run} ${index}`, index % 2 === 0, index],
      );
    }

    for (const path of [`users/${pager.sub}/contents`, 'users/latest-contents']) {
      const seen: string[] = [];
      const pages: number[] = [];
      let cursor: string | null = null;
      do {
        const page = await contents(path, { keyword: `paging${run}`, next_start_keys: cursor });
        pages.push(page.items.length);
        seen.push(...idsOf(page));
        cursor = page.next_start_keys;
      } while (cursor !== null);
      expect(pages).toEqual([CONTENT_PAGE_SIZE, 25 - CONTENT_PAGE_SIZE]);
      expect(new Set(seen).size).toBe(25);
      // The one shared through the API is the newest.
      expect(seen[0]).toBe(source);
      const { rows: order } = await server.db.query<{ id: string }>(
        'SELECT id FROM media WHERE user_sub = $1 AND visibility = $2 ORDER BY shared_at DESC, id DESC',
        [pager.sub, 'public'],
      );
      expect(seen).toEqual(order.map((row) => row.id));
    }
  });

  it('answers 400 for a cursor it did not give out', async () => {
    const bad = (value: string) =>
      callApi(server, 'users/latest-contents', { method: 'POST', json: { next_start_keys: value } });
    for (const value of ['not a cursor!', Buffer.from('garbage').toString('base64url'), Buffer.from('["yesterday","x"]').toString('base64url')]) {
      const answer = await bad(value);
      expect([answer.status, answer.body?.detail]).toEqual([400, 'next_start_keys is not a cursor this listing gave out.']);
    }
    expect((await bad(Buffer.from('["2026-01-01T00:00:00.000000Z","abc"]').toString('base64url'))).status).toBe(200);
  });
});

describe("the guest account's content", () => {
  it('is in Latest only for the guest account', async () => {
    const guest = await server.emulator.createUser({ username: 'guest', email: 'guest@kinora.local', password: 'kinora-guest-1' });
    const id = await finishedImage(guest as User, `guest${run} picture`);
    expect((await share(guest as User, id, { title: `guest${run} share`, visibility: 'public' })).status).toBe(200);

    const keyword = { keyword: `guest${run}` };
    expect(idsOf(await contents('users/latest-contents', keyword))).toEqual([]);
    expect(idsOf(await contents('users/latest-contents', keyword, other))).toEqual([]);
    expect(idsOf(await contents('users/latest-contents', keyword, guest as User))).toEqual([id]);
    expect(idsOf(await contents(`users/${guest.sub}/contents`, keyword))).toEqual([]);
    expect(idsOf(await contents(`users/${guest.sub}/contents`, keyword, guest as User))).toEqual([id]);

    // Issue 17: a private guest picture is for guests (SPEC §6), not for anyone who has its id.
    const kept = await finishedImage(guest as User, `guest${run} private picture`);
    expect((await callApi(server, `media/${kept}/view`)).status).toBe(404);
    expect((await callApi(server, `media/${kept}/view`, { token: other.accessToken })).status).toBe(404);
    expect((await callApi(server, `media/${kept}/view`, { token: guest.accessToken })).status).toBe(200);
  });
});
