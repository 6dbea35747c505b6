import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaListSchema } from '../../../src/services/schemas/media.ts';
import { createMediaStore } from '../../../server/src/jobs/media-store.ts';
import { cleanGuestContent } from '../../../server/src/scheduler/guest-cleanup.ts';
import { asMedia, balanceOf, fetchFile, postForm, smallPng } from '../helpers/media.ts';
import { callApi, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let owner: Awaited<ReturnType<typeof signUpUser>>;
let other: Awaited<ReturnType<typeof signUpUser>>;
let pictureUrl: string;
beforeAll(async () => {
  server = await startTestServer({ jobs: { durationMs: 50, pollIntervalMs: 100 } });
  owner = await signUpUser(server, 'owner');
  other = await signUpUser(server, 'other');
  const upload = await postForm(server, 'image', { image_file: { data: await smallPng(200, 100), name: 'cat.png', type: 'image/png' } }, { token: owner.accessToken });
  pictureUrl = asMedia(upload).items[0]?.url ?? '';
});
afterAll(async () => {
  await server?.close();
});

const generate = (token: string, endpoint: string, fields: Record<string, string | string[]>, query = '') =>
  postForm(server, `${endpoint}${query}`, fields, { token });

describe('POST media and PUT media/{id}/edit', () => {
  it('creates a record without a job, then merges fields and replaces image_urls', async () => {
    const created = await postForm(server, 'media', { image_urls: [pictureUrl], title: 'Mood board', kind: 'image' }, { token: owner.accessToken });
    expect(created.status).toBe(200);
    const media = asMedia(created);
    expect(media).toMatchObject({ status: 'success_source', kind: 'image', cost: 0, args: { title: 'Mood board' } });
    expect(media.image_urls).toHaveLength(1);
    expect((await fetchFile(media.image_urls[0] ?? '')).status).toBe(200);

    const edited = await postForm(
      server,
      `media/${media.id}/edit`,
      { 'image_urls[]': [pictureUrl, 'https://example.test/elsewhere.png'], note: 'second pass' },
      { token: owner.accessToken, method: 'PUT' },
    );
    expect(edited.status).toBe(200);
    const after = asMedia(edited);
    expect(after.args).toEqual({ title: 'Mood board', note: 'second pass' });
    expect(after.image_urls).toHaveLength(2);
    expect(after.image_urls[1]).toBe('https://example.test/elsewhere.png');
    const foreign = await postForm(server, `media/${media.id}/edit`, { note: 'x' }, { token: other.accessToken, method: 'PUT' });
    expect(foreign.status).toBe(404);
  });

  it('PUT media/{id}/post-bullet-video stores batch_video_path in args', async () => {
    const media = asMedia(await postForm(server, 'media', { title: 'bullet' }, { token: owner.accessToken }));
    const answer = await callApi(server, `media/${media.id}/post-bullet-video`, {
      method: 'PUT',
      token: owner.accessToken,
      json: { batch_video_path: 'batch/3/Auto/video.mp4' },
    });
    expect(answer.status).toBe(200);
    expect(asMedia(answer).args).toMatchObject({ title: 'bullet', batch_video_path: 'batch/3/Auto/video.mp4' });
    expect((await callApi(server, `media/${media.id}/post-bullet-video`, { method: 'PUT', token: owner.accessToken, json: {} })).status).toBe(400);
    expect(
      (await callApi(server, `media/${media.id}/post-bullet-video`, { method: 'PUT', token: other.accessToken, json: { batch_video_path: 'x' } })).status,
    ).toBe(404);
  });
});

describe('GET media/{id}?fields= and GET media', () => {
  it('limits the answer to the fields asked for (id always included)', async () => {
    const media = asMedia(await generate(owner.accessToken, 'image/text-2-image', { prompt: 'fields' }));
    const answer = await callApi(server, `media/${media.id}?fields=status,progress`, { token: owner.accessToken });
    expect(Object.keys(answer.body?.data as object).sort()).toEqual(['id', 'progress', 'status']);
  });

  it("lists the caller's own media newest first, by tool and limit", async () => {
    const user = await signUpUser(server, 'lister');
    const ids: string[] = [];
    for (const prompt of ['first', 'second', 'third']) {
      ids.push(asMedia(await generate(user.accessToken, 'image/text-2-image', { prompt })).id);
    }
    await generate(user.accessToken, 'audio/text-2-speech', { prompt: 'hello' });
    await generate(other.accessToken, 'image/text-2-image', { prompt: 'not yours' });
    const all = mediaListSchema.parse((await callApi(server, 'media?tool=text-to-image', { token: user.accessToken })).body?.data);
    expect(all.items.map((item) => item.id)).toEqual([...ids].reverse());
    const two = mediaListSchema.parse((await callApi(server, 'media?tool=text-to-image&limit=2', { token: user.accessToken })).body?.data);
    expect(two.items.map((item) => item.id)).toEqual([ids[2], ids[1]]);
    const everything = mediaListSchema.parse((await callApi(server, 'media', { token: user.accessToken })).body?.data);
    expect(everything.items).toHaveLength(4);
    expect((await callApi(server, 'media?limit=51', { token: user.accessToken })).status).toBe(400);
    expect((await callApi(server, 'media')).status).toBe(401);
  });
});

describe('GET media/{id}/view', () => {
  it('is public for media made public or unlisted, 404 for private ones, and shows only some args', async () => {
    const media = asMedia(await generate(owner.accessToken, 'image/text-2-image', { prompt: 'a view', aspect_ratio: '4:3', secret_note: 'x', async_mode: 'false' }));
    expect((await callApi(server, `media/${media.id}/view`)).status).toBe(404);
    await server.db.query("UPDATE media SET visibility = 'unlisted' WHERE id = $1", [media.id]);
    const view = await callApi(server, `media/${media.id}/view`);
    expect(view.status).toBe(200);
    const shown = asMedia(view);
    expect(shown.args).toEqual({ option: 'Seedream', prompt: 'a view', aspect_ratio: '4:3' });
    expect((await fetchFile(shown.items[0]?.url ?? '')).status).toBe(200);
    expect((await callApi(server, 'media/nope12345678/view')).status).toBe(404);
  });

  it("shows the guest's media to guests only (SPEC §6), and the weekly clean-up removes them with their files", async () => {
    const guest = await server.emulator.createUser({ username: 'guest', email: 'guest@kinora.local', password: 'guest-password-1' });
    const media = asMedia(await generate(guest.accessToken, 'image/text-2-image', { prompt: 'shared', async_mode: 'false' }));
    expect(media.logo_variant).toBe(true);
    expect((await callApi(server, `media/${media.id}/view`, { token: guest.accessToken })).status).toBe(200);
    expect((await callApi(server, `media/${media.id}/view`)).status).toBe(404);
    const folder = path.join(server.mediaDir, media.id);
    expect(existsSync(folder)).toBe(true);

    const result = await server.db.transaction((tx) => cleanGuestContent(tx));
    expect(result.removed).toEqual({ media: 1 });
    expect((await callApi(server, `media/${media.id}/view`, { token: guest.accessToken })).status).toBe(404);
    expect(await balanceOf(server, guest.sub)).toBe(100);
    // The files go with the engine's sweep of folders that have no media row.
    expect(await createMediaStore(server.mediaDir).sweepOrphans(server.db, 0)).toBe(1);
    expect(existsSync(folder)).toBe(false);
  });
});

describe('generation calls validate their fields before charging', () => {
  it.each([
    ['image/image-2-image', { prompt: 'no picture' }, 'No upload file'],
    ['image/reimagine', {}, 'No upload file'],
    ['image/text-2-image', { prompt: '' }, 'Prompt is required (prompt).'],
    ['image/text-2-image', { prompt: 'x', option: 'Lyria2' }, '"Lyria2" is not an available model for Text to Image.'],
    ['image/text-2-image', { prompt: 'x', aspect_ratio: '2:1' }, 'aspect_ratio must be one of 1:1, 16:9, 4:3, 3:4, 9:16.'],
    ['image/text-2-image', { prompt: 'x', async_mode: 'maybe' }, 'async_mode must be "true" or "false".'],
    ['audio/text-2-speech', { prompt: 'hi', voice: 'Nobody' }, '"Nobody" is not a voice of Text To Speech.'],
    ['audio/text-2-sound-effect', { prompt: 'boom', duration: '99' }, 'duration must be a number of seconds from 1 to 30.'],
    ['image/try-on', { clothes_image_url: 'x' }, 'Person is required (human_image_url).'],
    ['image/image-2-image', { prompt: 'x', image_url: 'https://example.test/cat.png' }, 'image_url is not a file uploaded to Kinora.'],
  ])('%s %j → 400', async (endpoint, fields, detail) => {
    const user = await signUpUser(server, 'invalid');
    const answer = await generate(user.accessToken, endpoint, fields as Record<string, string>);
    expect(answer.status).toBe(400);
    expect(answer.body?.detail).toContain(detail);
    expect(await balanceOf(server, user.sub)).toBe(100);
  });

  it("refuses another user's file by its bare id, accepts it with the link its owner shared", async () => {
    const fileUrl = new URL(pictureUrl);
    const bare = `${fileUrl.origin}${fileUrl.pathname}`;
    const refused = await generate(other.accessToken, 'image/image-2-image', { prompt: 'steal', image_url: bare });
    expect(refused.status).toBe(400);
    expect(refused.body?.detail).toBe('image_url is not a file uploaded to Kinora.');
    const shared = await generate(other.accessToken, 'image/image-2-image', { prompt: 'shared with me', image_url: pictureUrl, async_mode: 'false' });
    expect(shared.status).toBe(200);
    expect(asMedia(shared).status).toBe('success_image');
    // The owner needs no signature for their own file.
    const own = await generate(owner.accessToken, 'image/restyle', { prompt: 'watercolour', image_url: bare, async_mode: 'false' });
    expect(asMedia(own).status).toBe('success_image');
  });

  it('runs face swap with order indices, try-on with two pictures and elements with several, keeping asset_id', async () => {
    // asset_id must name one of the caller's assets (tests/server/media/assets-api.test.ts covers the refusals).
    const asset = await callApi<{ id: string }>(server, 'asset', { method: 'POST', token: owner.accessToken, json: { name: 'Faces' } });
    const assetId = asset.body?.data?.id ?? '';
    const swap = asMedia(await generate(owner.accessToken, 'image/face-swap', { image_urls: [pictureUrl, pictureUrl], order_indices: ['0'], async_mode: 'false' }, `?asset_id=${assetId}`));
    expect(swap).toMatchObject({ status: 'success_image', asset_id: assetId, option: 'MagicFaceSwap' });
    expect(swap.args.order_indices).toEqual([0]);
    const badIndices = await generate(owner.accessToken, 'image/face-swap', { image_urls: [pictureUrl, pictureUrl], order_indices: ['0', '1'] });
    expect(badIndices.status).toBe(400);
    const tryOn = asMedia(await generate(owner.accessToken, 'image/try-on', { human_image_url: pictureUrl, clothes_image_url: pictureUrl, async_mode: 'false' }));
    expect(tryOn.status).toBe('success_image');
    const elements = asMedia(await generate(owner.accessToken, 'image/elements', { image_urls: [pictureUrl, pictureUrl, pictureUrl], prompt: 'together', async_mode: 'false' }));
    expect(elements).toMatchObject({ status: 'success_image', cost: 16 });
    const tooMany = await generate(owner.accessToken, 'image/elements', { image_urls: Array(5).fill(pictureUrl), prompt: 'x' });
    expect(tooMany.status).toBe(400);
  });

  it('every image and audio call is served', async () => {
    const user = await signUpUser(server, 'every');
    const upload = asMedia(await postForm(server, 'image', { image_file: { data: await smallPng(), name: 'p.png', type: 'image/png' } }, { token: user.accessToken }));
    const picture = upload.items[0]?.url ?? '';
    const calls: [string, Record<string, string | string[]>][] = [
      ['image/text-2-image', { prompt: 'a' }],
      ['image/image-2-image', { prompt: 'a', image_url: picture }],
      ['image/reimagine', { image_url: picture }],
      ['image/try-on', { human_image_url: picture, clothes_image_url: picture }],
      ['image/elements', { prompt: 'a', image_urls: [picture, picture] }],
      ['image/replace-background', { prompt: 'a beach', image_url: picture, option: 'ReplaceBackground' }],
      ['image/edit-image', { prompt: 'a', image_url: picture }],
      ['image/face-swap', { image_urls: [picture, picture] }],
      ['image/restyle', { prompt: 'ink', image_url: picture }],
      ['audio/text-2-speech', { prompt: 'hi' }],
      ['audio/text-2-sound-effect', { prompt: 'boom' }],
      ['audio/text-2-music', { prompt: 'jazz', duration: '5' }],
    ];
    for (const [endpoint, fields] of calls) {
      const answer = await generate(user.accessToken, endpoint, { ...fields, async_mode: 'false' });
      expect(answer.status, endpoint).toBe(200);
      expect(asMedia(answer).status, endpoint).toMatch(/^success/);
    }
  });
});
