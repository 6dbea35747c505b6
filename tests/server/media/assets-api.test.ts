import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assetListSchema, assetSchema, type Asset } from '../../../src/services/schemas/assets.ts';
import { asMedia, balanceOf, fetchFile, postForm, smallPng } from '../helpers/media.ts';
import { callApi, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * Assets (GET/POST asset, GET/PUT/DELETE asset/{id}) and `?asset_id=` on the generation calls, on
 * the real server: the id must be one of the caller's assets, else 400 before anything is charged.
 */

let server: TestServer;
type User = Awaited<ReturnType<typeof signUpUser>>;
let owner: User;
let other: User;

beforeAll(async () => {
  server = await startTestServer({ jobs: { durationMs: 30, pollIntervalMs: 50 } });
  owner = await signUpUser(server, 'collector');
  other = await signUpUser(server, 'stranger');
});
afterAll(async () => {
  await server?.close();
});

const NOT_FOUND = 'Failed to find an asset with this id.';
const UNKNOWN = 'This asset does not exist.';

async function createAsset(user: User, body: Record<string, unknown>): Promise<Asset> {
  const answer = await callApi(server, 'asset', { method: 'POST', token: user.accessToken, json: body });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return assetSchema.parse(answer.body?.data);
}

async function getAsset(user: User, id: string, query = ''): Promise<Asset> {
  const answer = await callApi(server, `asset/${id}${query}`, { token: user.accessToken });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return assetSchema.parse(answer.body?.data);
}

const putAsset = (user: User, id: string, body: Record<string, unknown>) =>
  callApi(server, `asset/${id}`, { method: 'PUT', token: user.accessToken, json: body });

async function image(user: User, prompt: string, assetId?: string): Promise<string> {
  const query = assetId ? `?asset_id=${encodeURIComponent(assetId)}` : '';
  const answer = await postForm(server, `image/text-2-image${query}`, { prompt, async_mode: 'false' }, { token: user.accessToken });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return asMedia(answer).id;
}

const mediaCount = async (user: User): Promise<number> => {
  const { rows } = await server.db.query<{ n: number }>('SELECT count(*)::integer AS n FROM media WHERE user_sub = $1', [user.sub]);
  return rows[0]?.n ?? 0;
};

describe('asset CRUD', () => {
  it('creates, lists, reads, updates and deletes the caller’s own assets only', async () => {
    const created = await createAsset(owner, { name: ' Hero ', description: 'The main character', fields: { colour: 'red' } });
    expect(created).toMatchObject({ name: 'Hero', description: 'The main character', fields: { colour: 'red' }, media_count: 0, cover_url: null });
    expect(created.media).toBeUndefined();
    const second = await createAsset(owner, { name: 'Backdrop' });

    const list = assetListSchema.parse((await callApi(server, 'asset', { token: owner.accessToken })).body?.data);
    expect(list.items.map((item) => item.id)).toEqual([second.id, created.id]);
    expect(assetListSchema.parse((await callApi(server, 'asset', { token: other.accessToken })).body?.data).items).toEqual([]);
    expect((await callApi(server, 'asset')).status).toBe(401);

    expect(await getAsset(owner, created.id)).toMatchObject({ id: created.id, name: 'Hero', media: [] });
    for (const answer of [
      await callApi(server, `asset/${created.id}`, { token: other.accessToken }),
      await callApi(server, 'asset/nope12345678', { token: owner.accessToken }),
      await putAsset(other, created.id, { name: 'Mine now' }),
      await callApi(server, `asset/${created.id}`, { method: 'DELETE', token: other.accessToken }),
    ]) {
      expect([answer.status, answer.body?.detail]).toEqual([404, NOT_FOUND]);
    }

    // PUT sends the whole object: what is left out goes back to its default.
    const updated = await putAsset(owner, created.id, { name: 'Heroine', fields: { size: 2 } });
    expect(updated.status).toBe(200);
    expect(assetSchema.parse(updated.body?.data)).toMatchObject({ name: 'Heroine', description: '', fields: { size: 2 } });
    // Now the most recently changed one, first in the list.
    const relisted = assetListSchema.parse((await callApi(server, 'asset', { token: owner.accessToken })).body?.data);
    expect(relisted.items.map((item) => item.id)).toEqual([created.id, second.id]);

    expect((await callApi(server, 'asset', { method: 'POST', token: owner.accessToken, json: { name: '  ' } })).status).toBe(400);
    expect((await putAsset(owner, created.id, { name: 'x'.repeat(81) })).status).toBe(400);

    const removed = await callApi(server, `asset/${second.id}`, { method: 'DELETE', token: owner.accessToken });
    expect(removed.body?.data).toEqual({ id: second.id, deleted: true });
    expect((await callApi(server, `asset/${second.id}`, { token: owner.accessToken })).status).toBe(404);
  });
});

describe('media in an asset', () => {
  it('attaches a generation made with ?asset_id=, sets media with PUT media_ids, and keeps the media on DELETE', async () => {
    const asset = await createAsset(owner, { name: 'Set pieces' });
    const before = new Date(asset.updated_at).getTime();
    const first = await image(owner, 'a castle', asset.id);
    const second = await image(owner, 'a bridge');
    const afterJob = await getAsset(owner, asset.id);
    expect(new Date(afterJob.updated_at).getTime()).toBeGreaterThan(before);
    expect(afterJob.media_count).toBe(1);
    expect(afterJob.media?.map((media) => [media.id, media.asset_id])).toEqual([[first, asset.id]]);
    expect(afterJob.cover_url).toBeTruthy();
    expect((await fetchFile(afterJob.cover_url ?? '')).status).toBe(200);
    // fields without media leaves them out.
    expect((await getAsset(owner, asset.id, '?fields=name,media_count')).media).toBeUndefined();
    expect((await getAsset(owner, asset.id, '?fields=name,media')).media).toHaveLength(1);

    // PUT without media_ids keeps them; with media_ids exactly those are attached.
    expect((await putAsset(owner, asset.id, { name: 'Set pieces' })).status).toBe(200);
    expect((await getAsset(owner, asset.id)).media_count).toBe(1);
    const swapped = await putAsset(owner, asset.id, { name: 'Set pieces', media_ids: [second] });
    expect(swapped.status).toBe(200);
    expect(assetSchema.parse(swapped.body?.data).media?.map((media) => media.id)).toEqual([second]);
    const both = assetSchema.parse((await putAsset(owner, asset.id, { name: 'Set pieces', media_ids: [first, second] })).body?.data);
    expect(both.media?.map((media) => media.id)).toEqual([second, first]);
    expect(both.media_count).toBe(2);

    // Someone else's media cannot be attached, and the failed call changes nothing.
    const theirs = await image(other, 'not yours');
    const foreign = await putAsset(owner, asset.id, { name: 'Renamed', media_ids: [first, theirs] });
    expect(foreign.status).toBe(400);
    expect(foreign.body?.detail).toContain(theirs);
    const unchanged = await getAsset(owner, asset.id);
    expect(unchanged).toMatchObject({ name: 'Set pieces', media_count: 2 });

    const detached = assetSchema.parse((await putAsset(owner, asset.id, { name: 'Set pieces', media_ids: [] })).body?.data);
    expect(detached.media).toEqual([]);
    const firstMedia = asMedia(await callApi(server, `media/${first}`, { token: owner.accessToken }));
    expect(firstMedia.asset_id).toBeNull();

    // DELETE keeps the media, no longer attached.
    expect((await putAsset(owner, asset.id, { name: 'Set pieces', media_ids: [first] })).status).toBe(200);
    expect((await callApi(server, `asset/${asset.id}`, { method: 'DELETE', token: owner.accessToken })).status).toBe(200);
    const kept = await callApi(server, `media/${first}`, { token: owner.accessToken });
    expect(kept.status).toBe(200);
    expect(asMedia(kept).asset_id).toBeNull();
  });

  it('refuses another person’s or an unknown asset_id with 400 on every kind of generation call, charging nothing', async () => {
    const theirs = await createAsset(other, { name: 'Not yours' });
    const balance = await balanceOf(server, owner.sub);
    const count = await mediaCount(owner);

    for (const assetId of [theirs.id, 'nope12345678']) {
      const generation = await postForm(server, `image/text-2-image?asset_id=${assetId}`, { prompt: 'sneaky' }, { token: owner.accessToken });
      expect([generation.status, generation.body?.detail]).toEqual([400, UNKNOWN]);
    }
    const upload = asMedia(
      await postForm(server, 'image', { image_file: { data: await smallPng(160, 120), name: 'p.png', type: 'image/png' } }, { token: owner.accessToken }),
    );
    const picture = upload.items[0]?.url ?? '';
    const creation = await postForm(
      server,
      `media?asset_id=${theirs.id}`,
      {
        creation_type: 'parallax-motion',
        option: 'Parallax',
        image_urls: [picture],
        pose_preset: JSON.stringify([{ motion_type: 'Parallax', camera_path: 'StepIn', quantity: 1, motion_length: 2, loop: 1, prompt: '', model: 'Parallax' }]),
      },
      { token: owner.accessToken },
    );
    expect([creation.status, creation.body?.detail]).toEqual([400, UNKNOWN]);
    const finetune = await postForm(
      server,
      `finetune?asset_id=${theirs.id}`,
      { option: 'FluxFinetune', name: 'Sneaky', image_urls: [picture, picture, picture, picture, picture] },
      { token: owner.accessToken },
    );
    expect([finetune.status, finetune.body?.detail]).toEqual([400, UNKNOWN]);

    expect(await balanceOf(server, owner.sub)).toBe(balance);
    // Only the upload was added.
    expect(await mediaCount(owner)).toBe(count + 1);
    // Their asset was not touched either.
    expect((await getAsset(other, theirs.id)).updated_at).toBe(theirs.updated_at);
  });
});
