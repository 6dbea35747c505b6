import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBRARY_FOLDER_NAME_MAX } from '../../../src/config/library.ts';
import {
  libraryFolderListSchema,
  libraryFolderSchema,
  libraryMembershipSchema,
  libraryPageSchema,
  type LibraryPage,
} from '../../../src/services/schemas/library.ts';
import { insertMedia, newPublicId, type NewMedia } from '../../../server/src/db/media.ts';
import { DETAILS } from '../../../server/src/routes/messages.ts';
import { LIBRARY_DETAILS } from '../../../server/src/routes/library.ts';
import { callApi, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * The Library (issue 21 item 7): GET library lists the caller's finished results newest first,
 * searched, filtered by kind and folder, paged by next_start_keys; folders are created, renamed,
 * deleted (their results stay) and filled, all the owner's own; the guest keeps none. Rows are
 * written straight into the real server's database with the statuses and times each case needs.
 */

type User = Awaited<ReturnType<typeof signUpUser>>;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

async function newUser(prefix: string): Promise<User> {
  const user = await signUpUser(server, prefix);
  expect((await callApi(server, 'library', { token: user.accessToken })).status).toBe(200);
  return user;
}

interface RowSpec {
  kind?: NewMedia['kind'];
  tool?: string;
  status?: string;
  prompt?: string;
  /** created_at exactly. */
  at: string;
}

async function insertRow(user: User, spec: RowSpec): Promise<string> {
  const id = newPublicId();
  await server.db.transaction(async (tx) => {
    await insertMedia(tx, {
      id,
      userSub: user.sub,
      kind: spec.kind ?? 'image',
      tool: spec.tool ?? 'text-to-image',
      status: spec.status ?? 'success_image',
      args: spec.prompt === undefined ? {} : { prompt: spec.prompt },
      items: [{ status: 'new' }],
    });
    await tx.query('UPDATE media SET created_at = $2::timestamptz WHERE id = $1', [id, spec.at]);
    if (spec.status?.startsWith('processing_')) {
      await tx.query("UPDATE media SET lease_owner = 'another-server', lease_expires_at = clock_timestamp() + interval '1 hour' WHERE id = $1", [id]);
    }
  });
  return id;
}

const call = <T = unknown>(user: User, path: string, method = 'GET', json?: unknown) =>
  callApi<T>(server, path, { token: user.accessToken, method, json });

async function page(user: User, query = ''): Promise<LibraryPage> {
  const answer = await call(user, `library${query ? `?${query}` : ''}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return libraryPageSchema.parse((answer.body as { data: unknown }).data);
}

async function createFolder(user: User, name: string): Promise<string> {
  const answer = await call<{ data: unknown }>(user, 'library/folders', 'POST', { name });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return libraryFolderSchema.parse(answer.body?.data).id;
}

const detailOf = (body: unknown): unknown => (body as { detail?: unknown } | null)?.detail;

describe('GET library', () => {
  let owner: User;
  const ids: Record<string, string> = {};
  const names = (answer: LibraryPage): string[] => answer.items.map((item) => Object.keys(ids).find((name) => ids[name] === item.id) ?? item.id);

  beforeAll(async () => {
    owner = await newUser('library');
    const other = await newUser('libother');
    ids.poster = await insertRow(owner, { prompt: 'A red Poster of a fox', at: '2026-11-20T10:00:00.000001Z' });
    ids.clip = await insertRow(owner, { kind: 'video', tool: 'ai-motion', status: 'success_source', prompt: 'a fox running', at: '2026-11-21T10:00:00Z' });
    ids.song = await insertRow(owner, { kind: 'audio', tool: 'text-to-music', status: 'success', prompt: 'calm piano', at: '2026-11-22T10:00:00Z' });
    ids.failed = await insertRow(owner, { status: 'failed', prompt: 'a fox that failed', at: '2026-11-23T10:00:00Z' });
    ids.running = await insertRow(owner, { status: 'processing_source', prompt: 'a fox still running', at: '2026-11-24T10:00:00Z' });
    ids.cancelled = await insertRow(owner, { status: 'cancelled', prompt: 'a fox cancelled', at: '2026-11-24T11:00:00Z' });
    ids.latest = await insertRow(owner, { prompt: '100% fox_face', at: '2026-11-25T10:00:00Z' });
    await insertRow(other, { prompt: 'another person’s fox', at: '2026-11-26T10:00:00Z' });
  });

  it('lists only the caller’s finished results, newest first, each with its folders', async () => {
    const answer = await page(owner);
    expect(names(answer)).toEqual(['latest', 'song', 'clip', 'poster']);
    expect(answer.next_start_keys).toBeNull();
    expect(answer.items.every((item) => item.folder_ids.length === 0)).toBe(true);
  });

  it('searches the prompt (any case, literally) and filters by kind', async () => {
    expect(names(await page(owner, 'q=poster'))).toEqual(['poster']);
    expect(names(await page(owner, 'q=fox'))).toEqual(['latest', 'clip', 'poster']);
    expect(names(await page(owner, `q=${encodeURIComponent('0% fox_')}`))).toEqual(['latest']);
    expect(names(await page(owner, 'kind=video'))).toEqual(['clip']);
    expect(names(await page(owner, 'kind=audio&q=piano'))).toEqual(['song']);
    expect(names(await page(owner, 'kind=image&q=piano'))).toEqual([]);
  });

  it('pages by next_start_keys without repeating or skipping, and refuses a key it did not give', async () => {
    const first = await page(owner, 'limit=3');
    expect(names(first)).toEqual(['latest', 'song', 'clip']);
    expect(first.next_start_keys).not.toBeNull();
    const second = await page(owner, `limit=3&next_start_keys=${first.next_start_keys ?? ''}`);
    expect(names(second)).toEqual(['poster']);
    expect(second.next_start_keys).toBeNull();
    const bad = await call(owner, 'library?next_start_keys=not-a-key');
    expect(bad.status).toBe(400);
    expect(detailOf(bad.body)).toBe(DETAILS.badContentCursor);
    expect((await call(owner, 'library?kind=document')).status).toBe(400);
    expect((await callApi(server, 'library')).status).toBe(401);
  });
});

describe('Library folders', () => {
  let owner: User;
  let stranger: User;
  let picture: string;
  let clip: string;
  let running: string;

  beforeAll(async () => {
    owner = await newUser('folders');
    stranger = await newUser('stranger');
    picture = await insertRow(owner, { prompt: 'a lighthouse', at: '2026-11-20T10:00:00Z' });
    clip = await insertRow(owner, { kind: 'video', status: 'success_source', prompt: 'waves', at: '2026-11-21T10:00:00Z' });
    running = await insertRow(owner, { status: 'processing_source', prompt: 'not yet', at: '2026-11-22T10:00:00Z' });
  });

  it('creates, lists by name, renames and refuses a name already used in any case', async () => {
    const trips = await createFolder(owner, '  Trips ');
    await createFolder(owner, 'Posters');
    const listed = libraryFolderListSchema.parse((await call<{ data: unknown }>(owner, 'library/folders')).body?.data);
    expect(listed.items.map((folder) => [folder.name, folder.item_count])).toEqual([
      ['Posters', 0],
      ['Trips', 0],
    ]);
    const taken = await call(owner, 'library/folders', 'POST', { name: 'posters' });
    expect(taken.status).toBe(409);
    expect(detailOf(taken.body)).toBe(LIBRARY_DETAILS.folderNameTaken);
    const renamedToTaken = await call(owner, `library/folders/${trips}`, 'PATCH', { name: 'POSTERS' });
    expect(renamedToTaken.status).toBe(409);
    const renamed = await call<{ data: unknown }>(owner, `library/folders/${trips}`, 'PATCH', { name: 'Holidays' });
    expect(renamed.status).toBe(200);
    expect(libraryFolderSchema.parse(renamed.body?.data).name).toBe('Holidays');
    expect((await call(owner, 'library/folders', 'POST', { name: '   ' })).status).toBe(400);
    expect((await call(owner, 'library/folders', 'POST', { name: 'x'.repeat(LIBRARY_FOLDER_NAME_MAX + 1) })).status).toBe(400);
    // Another person may use the same name: names are unique per person.
    await createFolder(stranger, 'Posters');
  });

  it('adds a result to several folders, views a folder, takes it out, and deleting a folder keeps the results', async () => {
    const best = await createFolder(owner, 'Best');
    const blue = await createFolder(owner, 'Blue');
    const added = await call<{ data: unknown }>(owner, `library/folders/${best}/items/${picture}`, 'PUT');
    expect(added.status).toBe(200);
    const first = libraryMembershipSchema.parse(added.body?.data);
    expect(first.media_id).toBe(picture);
    expect(first.folder_ids).toEqual([best]);
    expect([first.folder.id, first.folder.item_count]).toEqual([best, 1]);
    // Adding again changes nothing.
    const again = await call<{ data: unknown }>(owner, `library/folders/${best}/items/${picture}`, 'PUT');
    expect(again.status).toBe(200);
    expect(libraryMembershipSchema.parse(again.body?.data).folder.item_count).toBe(1);
    const both = await call<{ data: unknown }>(owner, `library/folders/${blue}/items/${picture}`, 'PUT');
    expect(libraryMembershipSchema.parse(both.body?.data).folder_ids).toEqual([best, blue]);
    await call(owner, `library/folders/${blue}/items/${clip}`, 'PUT');

    expect((await page(owner, `folder=${best}`)).items.map((item) => item.id)).toEqual([picture]);
    expect((await page(owner, `folder=${blue}`)).items.map((item) => item.id)).toEqual([clip, picture]);
    expect((await page(owner, `folder=${blue}&kind=video`)).items.map((item) => item.id)).toEqual([clip]);
    const all = await page(owner);
    expect(all.items.find((item) => item.id === picture)?.folder_ids).toEqual([best, blue]);
    const counted = libraryFolderListSchema.parse((await call<{ data: unknown }>(owner, 'library/folders')).body?.data);
    expect(counted.items.find((folder) => folder.id === blue)?.item_count).toBe(2);

    const removed = await call<{ data: unknown }>(owner, `library/folders/${best}/items/${picture}`, 'DELETE');
    expect(libraryMembershipSchema.parse(removed.body?.data).folder_ids).toEqual([blue]);
    expect(libraryMembershipSchema.parse(removed.body?.data).folder.item_count).toBe(0);
    expect((await page(owner, `folder=${best}`)).items).toEqual([]);

    const deleted = await call(owner, `library/folders/${blue}`, 'DELETE');
    expect(deleted.status).toBe(200);
    expect((await call(owner, `library?folder=${blue}`)).status).toBe(404);
    expect((await page(owner)).items.map((item) => item.id)).toEqual([clip, picture]);
    expect((await page(owner)).items.every((item) => !item.folder_ids.includes(blue))).toBe(true);
  });

  it('refuses a result still running, and anyone else’s folder or result', async () => {
    const mine = await createFolder(owner, 'Mine');
    const notFinished = await call(owner, `library/folders/${mine}/items/${running}`, 'PUT');
    expect(notFinished.status).toBe(409);
    expect(detailOf(notFinished.body)).toBe(LIBRARY_DETAILS.notFinished);
    const theirs = await createFolder(stranger, 'Theirs');
    const strangerPicture = await insertRow(stranger, { prompt: 'theirs', at: '2026-11-20T10:00:00Z' });
    const cases: [User, string, string][] = [
      [stranger, 'GET', `library?folder=${mine}`],
      [stranger, 'PATCH', `library/folders/${mine}`],
      [stranger, 'DELETE', `library/folders/${mine}`],
      [stranger, 'PUT', `library/folders/${mine}/items/${strangerPicture}`],
      [owner, 'PUT', `library/folders/${theirs}/items/${picture}`],
      [owner, 'PUT', `library/folders/${mine}/items/${strangerPicture}`],
    ];
    for (const [caller, method, path] of cases) {
      const answer = await call(caller, path, method, method === 'PATCH' ? { name: 'Taken over' } : undefined);
      expect(answer.status, `${caller.username} ${method} ${path}`).toBe(404);
    }
    const stillMine = libraryFolderListSchema.parse((await call<{ data: unknown }>(owner, 'library/folders')).body?.data);
    expect(stillMine.items.find((folder) => folder.id === mine)?.name).toBe('Mine');
  });

  it('a result deleted by its owner leaves its folders', async () => {
    const gone = await insertRow(owner, { prompt: 'to delete', at: '2026-11-23T10:00:00Z' });
    const keep = await createFolder(owner, 'Keep');
    await call(owner, `library/folders/${keep}/items/${gone}`, 'PUT');
    expect((await call(owner, `media/${gone}`, 'DELETE')).status).toBe(200);
    expect((await page(owner, `folder=${keep}`)).items).toEqual([]);
  });
});

describe('the shared guest account', () => {
  it('sees its results but keeps no folders', async () => {
    const tokens = await server.emulator.createUser({ username: 'guest', email: 'guest@kinora.local', password: 'guest-password-1' });
    const guest: User = { username: 'guest', email: 'guest@kinora.local', ...tokens };
    expect((await call(guest, 'library')).status).toBe(200);
    await insertRow(guest, { prompt: 'a guest picture', at: '2026-11-20T10:00:00Z' });
    expect((await page(guest)).items).toHaveLength(1);
    for (const [method, path] of [
      ['GET', 'library/folders'],
      ['POST', 'library/folders'],
      ['GET', 'library?folder=anything'],
    ] as const) {
      const answer = await call(guest, path, method, method === 'POST' ? { name: 'Guest folder' } : undefined);
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(detailOf(answer.body)).toBe(LIBRARY_DETAILS.guestHasNoFolders);
    }
  });
});
